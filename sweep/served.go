package sweep

import (
	"context"
	"errors"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// servedCounters count the commands a deployment's masters execute, by their own
// count, so that a library's polls, retries and scripts are counted where they land.
// It is nil where no count is read: a kind whose masters do not answer any Redis
// command, a worker (its servers serve the other workers too), or a deployment this
// run did not start (it may serve others, behind an ACL and TLS the counter lacks).
func (r *Runner) servedCounters(topo topologies.Topology) servedCounters {
	ours := r.Target == nil && r.Config.Deployment == ""
	if r.Worker != nil || !ours || !backend.KindIs[backend.RedisProtocol](linked.Catalog(), topo.Spec().Kind) {
		return nil
	}
	var out servedCounters
	for _, m := range topo.Masters() {
		out = append(out, redisadmin.NewCommandCounter(m.Addr()))
	}
	return out
}

// servedCounters are one counter per master.
type servedCounters []*redisadmin.CommandCounter

// served sums the masters' counts now.
func (cs servedCounters) served(ctx context.Context) (int64, error) {
	var total int64
	for _, c := range cs {
		n, err := c.Served(ctx)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

func (cs servedCounters) close() error {
	var errs []error
	for _, c := range cs {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// servedPerGrant is a cell's server count over its completed cycles.
func servedPerGrant(executed, granted int64) *resultsdir.ServerCommands {
	out := &resultsdir.ServerCommands{Executed: executed}
	if granted > 0 {
		out.PerGrant = float64(executed) / float64(granted)
	}
	return out
}
