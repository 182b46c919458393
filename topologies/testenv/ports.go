package testenv

import (
	"net"
	"strconv"
	"sync"
	"testing"

	"github.com/lockbench/lockbench/topologies/portlease"
)

// StealLeases plays a program outside lockbench that binds each of the next n ports
// this process leases, after the lease and before the server it is for can bind: the
// collision a provider's port retry exists for, made on purpose. stolen lists the ports
// taken; they are held until the test ends. Not for tests that run in parallel.
func StealLeases(tb testing.TB, n int) (stolen func() []int) {
	tb.Helper()
	var (
		mu    sync.Mutex
		taken []int
		held  []net.Listener
	)
	restore := portlease.OnTake(func(port int) {
		mu.Lock()
		defer mu.Unlock()
		if len(taken) == n {
			return
		}
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			tb.Errorf("steal leased port %d: %v", port, err)
			return
		}
		taken, held = append(taken, port), append(held, l)
	})
	tb.Cleanup(func() {
		restore()
		mu.Lock()
		defer mu.Unlock()
		for _, l := range held {
			l.Close()
		}
	})
	return func() []int {
		mu.Lock()
		defer mu.Unlock()
		return append([]int(nil), taken...)
	}
}
