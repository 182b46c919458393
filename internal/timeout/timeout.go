// Package timeout tells a timeout from other errors, for code that counts or retries them.
package timeout

import (
	"context"
	"errors"
	"net"
)

// Is says err is a deadline's or a socket's timeout.
func Is(err error) bool {
	var netErr net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &netErr) && netErr.Timeout()
}
