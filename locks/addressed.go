package locks

import (
	"context"
	"fmt"

	"github.com/lockbench/lockbench/internal/registry"
)

// AddressedBuilder makes a strategy's locker over servers named by address: the nodes a
// scenario picked (a promoted replica, a minority of Redlock's masters), not a topology.
type AddressedBuilder func(ctx context.Context, addrs []string, opts Options) (Locker, error)

// addressed are the strategies the scenarios may build at the addresses they pick,
// without importing the store that registers them (Strategy.Addressed).
var addressed = registry.New[AddressedBuilder]("strategy over addresses")

// AtAddrs builds the named strategy's locker over the servers at addrs.
func AtAddrs(ctx context.Context, name string, addrs []string, opts Options) (Locker, error) {
	build, err := addressed.Get(name)
	if err != nil {
		return nil, err
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("strategy %s: no server address given", name)
	}
	return build(ctx, addrs, opts)
}
