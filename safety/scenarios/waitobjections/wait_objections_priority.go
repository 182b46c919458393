package waitobjections

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
)

// favourForPromotion gives lagging replica-priority 1 and the others 100, and waits
// until every sentinel has read both replicas' priorities: sentinel elects from
// what its last INFO of each replica said, so a priority it has not seen yet does
// not count.
func favourForPromotion(ctx context.Context, topo topologies.Topology, master, lagging, acker topologies.Node) error {
	want := map[string]string{lagging.Addr(): "1", acker.Addr(): "100", master.Addr(): "100"}
	for _, n := range []topologies.Node{master, lagging, acker} {
		c := lab.PlainClient(n.Addr())
		err := c.ConfigSet(ctx, "replica-priority", want[n.Addr()]).Err()
		c.Close()
		if err != nil {
			return fmt.Errorf("%s: CONFIG SET replica-priority %s: %w", n.Name(), want[n.Addr()], err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		why, err := prioritiesUnseen(ctx, topo, map[string]string{lagging.Addr(): "1", acker.Addr(): "100"})
		if err != nil {
			return err
		}
		if why == "" {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("sentinels did not see the replica priorities within 5 s: %s", why)
		}
		if err := lab.Sleep(ctx, 50*time.Millisecond); err != nil {
			return err
		}
	}
}

// prioritiesUnseen says which sentinel still reports a replica's priority other than
// want (by address); "" when all agree.
func prioritiesUnseen(ctx context.Context, topo topologies.Topology, want map[string]string) (string, error) {
	for _, s := range topo.Sentinels() {
		c := redis.NewClient(&redis.Options{Addr: s.Addr(), MaxRetries: -1, Protocol: 2, DisableIdentity: true})
		reply, err := c.Do(ctx, "SENTINEL", "replicas", topo.Spec().MasterName).Slice()
		c.Close()
		if err != nil {
			return "", fmt.Errorf("%s: SENTINEL REPLICAS: %w", s.Name(), err)
		}
		seen := map[string]string{}
		for _, entry := range reply {
			f := flatFields(entry)
			seen[f["ip"]+":"+f["port"]] = f["slave-priority"]
		}
		for addr, p := range want {
			if seen[addr] != p {
				return fmt.Sprintf("sentinel %s sees %s at priority %q, want %s", s.Name(), addr, seen[addr], p), nil
			}
		}
	}
	return "", nil
}

// flatFields reads a RESP2 reply of alternating names and values.
func flatFields(entry any) map[string]string {
	f := map[string]string{}
	list, _ := entry.([]any)
	for i := 0; i+1 < len(list); i += 2 {
		f[fmt.Sprint(list[i])] = fmt.Sprint(list[i+1])
	}
	return f
}
