package lab

import (
	"context"

	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// ProveRestart checks that the node really restarted (a new run_id) and what it kept:
// nothing after an empty restart, A's key after a restart from an fsynced AOF.
func ProveRestart(ctx context.Context, t *Trial, n topologies.Node, runIDBefore string, empty bool) error {
	after, err := newRunID(ctx, n, runIDBefore)
	if err != nil {
		return err
	}
	// Read, not observed into the history: one node of five missing the key is not a
	// lost Redlock, and the lost-lock checker must not count it.
	key, err := redisadmin.ReadKey(ctx, n.Addr(), t.Key)
	if err != nil {
		return Failed("observe", err)
	}
	if key.Present == empty {
		return NoFault("%s restarted (run_id %s), and A's key is present=%v there, want %v", n.Name(), after[:8],
			key.Present, !empty)
	}
	t.Prove("%s restarted (run_id %s -> %s) with A's key present=%v", n.Name(), runIDBefore[:8], after[:8], key.Present)
	return nil
}

// ProveHostCrash checks that the node came back as a new process after a host crash
// and proves what its disk dropped and whether A's key survived (keptKey): either can
// happen, and the scenario's measure counts which did.
func ProveHostCrash(ctx context.Context, t *Trial, n topologies.Node, runIDBefore string) (keptKey bool, err error) {
	after, err := newRunID(ctx, n, runIDBefore)
	if err != nil {
		return false, err
	}
	crash, err := topologies.LastHostCrash(n)
	if err != nil {
		return false, Failed("observe", err)
	}
	key, err := redisadmin.ReadKey(ctx, n.Addr(), t.Key) // read, not observed: one Redlock node is not the lock
	if err != nil {
		return false, Failed("observe", err)
	}
	t.Input("bytes_dropped", float64(crash.BytesDropped))
	t.Prove("%s's host crashed and it restarted (run_id %s -> %s) with A's key present=%v; %s", n.Name(),
		runIDBefore[:8], after[:8], key.Present, crash.Summary)
	return key.Present, nil
}

// newRunID is n's run_id, which must differ from before: the node restarted.
func newRunID(ctx context.Context, n topologies.Node, before string) (string, error) {
	after, err := redisadmin.RunID(ctx, n.Addr())
	if err != nil {
		return "", Failed("observe", err)
	}
	if after == before {
		return "", NoFault("%s kept run_id %s: it did not restart", n.Name(), after)
	}
	return after, nil
}
