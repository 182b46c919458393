package nemesis

import (
	"context"
	"errors"
	"fmt"

	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// sentinelFailover asks a sentinel for a planned failover (SENTINEL FAILOVER), what host
// patching does: no agreement, no down-after; the old master keeps running and is
// turned into a replica of the promoted one. Nothing heals it.
type sentinelFailover struct{}

func init() { Register(sentinelFailover{}) }

func (sentinelFailover) Name() string { return "sentinel-failover" }

func (sentinelFailover) Inject(ctx context.Context, t Target) (Heal, error) {
	if t.Topology == nil || len(t.Topology.Sentinels()) == 0 {
		return nil, errors.New("needs a topology with sentinels")
	}
	sentinel, master := t.Topology.Sentinels()[0], t.Topology.Spec().MasterName
	t.note(fmt.Sprintf("sentinel-failover %s via %s", master, sentinel.Name()))
	if _, err := redisadmin.AdminQuery(ctx, sentinel.Addr(), "SENTINEL", "FAILOVER", master); err != nil {
		return nil, fmt.Errorf("SENTINEL FAILOVER %s on %s: %w", master, sentinel.Name(), err)
	}
	return NoHeal, nil
}
