package zklock

import (
	"testing"
	"time"
)

// TestRequestedTimeoutIsTheTTLInWholeMilliseconds: the session a lease (waited for or
// not) runs on asks for the ttl rounded up to the protocol's milliseconds, within int32.
func TestRequestedTimeoutIsTheTTLInWholeMilliseconds(t *testing.T) {
	for ttl, want := range map[time.Duration]time.Duration{
		time.Nanosecond:                 time.Millisecond,
		1500 * time.Microsecond:         2 * time.Millisecond,
		4 * time.Second:                 4 * time.Second,
		4*time.Second + time.Nanosecond: 4*time.Second + time.Millisecond,
		1000 * time.Hour:                maxRequested,
	} {
		if got := requestedTimeout(ttl); got != want {
			t.Errorf("requestedTimeout(%v) = %v, want %v", ttl, got, want)
		}
	}
}
