package bench_test

import (
	"context"
	"net"
	"sync"
	"time"
)

// dialLog opens connections like net.Dialer and remembers when each dial began: a dial
// that began after a run's clock started is set-up inside the measurement.
type dialLog struct {
	mu sync.Mutex
	at []time.Time
}

func (d *dialLog) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	d.mu.Lock()
	d.at = append(d.at, time.Now())
	d.mu.Unlock()
	var nd net.Dialer
	return nd.DialContext(ctx, network, addr)
}

// count is how many dials began before t, and how many at or after it.
func (d *dialLog) count(t time.Time) (before, after int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, at := range d.at {
		if at.Before(t) {
			before++
		} else {
			after++
		}
	}
	return before, after
}
