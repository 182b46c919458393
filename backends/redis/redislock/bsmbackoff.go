package redislock

import (
	"time"

	bsm "github.com/bsm/redislock"
)

// The backoffs, explicit: linear at the 100 ms of the library's own example
// (example_test.go, without its LimitRetry of 3); exponential from the 16 ms its doc
// recommends as the least minimum (redislock.go, ExponentialBackoff) up to 1 s.
const (
	bsmLinearBackoff = 100 * time.Millisecond
	bsmExpMin        = 16 * time.Millisecond
	bsmExpMax        = time.Second
)

// The library waiting with its own backoffs, each a strategy: bsm-redislock-linear and
// bsm-redislock-exp.
func init() {
	declare(bsmStrategy(bsmVariant{name: bsmName + "-linear", position: 31,
		waiting: "bsm/redislock: LinearBackoff(100ms), until ctx's deadline or the TTL",
		retry:   func() bsm.RetryStrategy { return bsm.LinearBackoff(bsmLinearBackoff) }}))
	declare(bsmStrategy(bsmVariant{name: bsmName + "-exp", position: 32,
		waiting: "bsm/redislock: ExponentialBackoff(16ms, 1s), until ctx's deadline or the TTL",
		retry:   func() bsm.RetryStrategy { return bsm.ExponentialBackoff(bsmExpMin, bsmExpMax) }}))
}
