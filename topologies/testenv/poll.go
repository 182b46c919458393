package testenv

import (
	"testing"
	"time"
)

// Poll calls done every every until it reports true, and says whether that came within
// d; an error from done fails tb at once (the server it asks is broken, not slow).
func Poll(tb testing.TB, d, every time.Duration, done func() (bool, error)) bool {
	tb.Helper()
	deadline := time.Now().Add(d)
	for {
		ok, err := done()
		if err != nil {
			tb.Fatal(err)
		}
		if ok {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(every)
	}
}
