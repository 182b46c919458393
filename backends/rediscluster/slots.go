package rediscluster

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// KeyServedBy returns prefix{N} for the first N whose slot the master at addr serves,
// computing each key's slot (KeySlot) and asking the server which slots it serves.
func KeyServedBy(ctx context.Context, addr, prefix string) (string, error) {
	owned, err := servedSlots(ctx, addr)
	if err != nil {
		return "", err
	}
	// Slots computed here, not asked for: one round trip in all, which a busy machine
	// is less likely to time out than one a key.
	for i := 0; i < 10000; i++ {
		key := fmt.Sprintf("%s{%d}", prefix, i)
		if owned(redisadmin.KeySlot(key)) {
			return key, nil
		}
	}
	return "", fmt.Errorf("no key %s{N} hashes to a slot %s serves", prefix, addr)
}

// servedSlots asks addr which slots it serves as a master (CLUSTER NODES, its myself line).
func servedSlots(ctx context.Context, addr string) (func(int) bool, error) {
	v, err := redisadmin.AdminQuery(ctx, addr, "CLUSTER", "NODES")
	if err != nil {
		return nil, err
	}
	var ranges [][2]int
	for _, line := range strings.Split(fmt.Sprint(v), "\n") {
		f := strings.Fields(line)
		if len(f) < 8 || !strings.Contains(f[2], "myself") {
			continue
		}
		for _, r := range f[8:] {
			if strings.HasPrefix(r, "[") {
				continue // a slot being migrated
			}
			lo, hi, _ := strings.Cut(r, "-")
			a, _ := strconv.Atoi(lo)
			b := a
			if hi != "" {
				b, _ = strconv.Atoi(hi)
			}
			ranges = append(ranges, [2]int{a, b})
		}
	}
	return func(s int) bool {
		for _, r := range ranges {
			if s >= r[0] && s <= r[1] {
				return true
			}
		}
		return false
	}, nil
}

// KeyMaster is the address of the master serving key's slot, as the node at addr sees
// the cluster (CLUSTER KEYSLOT, then CLUSTER SLOTS).
func KeyMaster(ctx context.Context, addr, key string) (string, error) {
	c := redisadmin.AdminClient(addr)
	defer c.Close()
	slot, err := c.ClusterKeySlot(ctx, key).Result()
	if err != nil {
		return "", err
	}
	ranges, err := c.ClusterSlots(ctx).Result()
	if err != nil {
		return "", err
	}
	for _, r := range ranges {
		if int64(r.Start) <= slot && slot <= int64(r.End) && len(r.Nodes) > 0 {
			return r.Nodes[0].Addr, nil
		}
	}
	return "", fmt.Errorf("%s: no master serves slot %d of %s", addr, slot, key)
}
