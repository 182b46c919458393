package redislock

import (
	"time"

	bsm "github.com/bsm/redislock"
)

// bsmVariant is how one bsm-redislock strategy waits: the RetryStrategy its
// AcquireWaiting passes to Obtain (a new one per wait: the exponential one counts).
type bsmVariant struct {
	name    string
	waiting string
	retry   func() bsm.RetryStrategy
}

// The backoffs, explicit: linear at the 100 ms of the library's own example
// (example_test.go, without its LimitRetry of 3); exponential from the 16 ms its doc
// recommends as the least minimum (redislock.go, ExponentialBackoff) up to 1 s.
const (
	bsmLinearBackoff = 100 * time.Millisecond
	bsmExpMin        = 16 * time.Millisecond
	bsmExpMax        = time.Second
)

// bsmVariants are the library's three ways to wait; the first, its default, is none.
var bsmVariants = []bsmVariant{
	{name: bsmName, waiting: "bsm/redislock: no retry (its default): one attempt",
		retry: bsm.NoRetry},
	{name: bsmName + "-linear", waiting: "bsm/redislock: LinearBackoff(100ms), until ctx's deadline or the TTL",
		retry: func() bsm.RetryStrategy { return bsm.LinearBackoff(bsmLinearBackoff) }},
	{name: bsmName + "-exp", waiting: "bsm/redislock: ExponentialBackoff(16ms, 1s), until ctx's deadline or the TTL",
		retry: func() bsm.RetryStrategy { return bsm.ExponentialBackoff(bsmExpMin, bsmExpMax) }},
}
