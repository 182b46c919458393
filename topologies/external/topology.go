package external

import (
	"context"
	"sync"
	"time"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies"
)

// topology is one kind's share of a deployment file.
type topology struct {
	spec           topologies.Spec
	masters        []topologies.Node
	replicas       []topologies.Node
	sentinels      []topologies.Node
	access         topologies.Access
	sentinelAccess topologies.Access
	store          *Store // the registered store whose members these are; nil for the Redis kinds
	prefix         string // every key the run writes starts with it
	servers        []resultsdir.ExternalServer
	closeOnce      sync.Once
	closeErr       error
}

func (t *topology) Spec() topologies.Spec             { return t.spec }
func (t *topology) Provider() string                  { return Name }
func (t *topology) Masters() []topologies.Node        { return t.masters }
func (t *topology) Replicas() []topologies.Node       { return t.replicas }
func (t *topology) Sentinels() []topologies.Node      { return t.sentinels }
func (t *topology) Access() topologies.Access         { return t.access }
func (t *topology) SentinelAccess() topologies.Access { return t.sentinelAccess }

func (t *topology) Nodes() []topologies.Node {
	out := append(append([]topologies.Node{}, t.masters...), t.replicas...)
	return append(out, t.sentinels...)
}

// Servers are the deployment's servers as results.json records them: addresses and
// versions, no secrets.
func (t *topology) Servers() []resultsdir.ExternalServer { return t.servers }

// KeyPrefix is what every key of the run starts with.
func (t *topology) KeyPrefix() string { return t.prefix }

// Close stops nothing (the servers are not ours): it deletes every key under the run's
// prefix, also after an interrupted run, on a context of its own.
func (t *topology) Close() error {
	t.closeOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), cleanupBudget)
		defer cancel()
		_, t.closeErr = t.cleanup(ctx)
	})
	return t.closeErr
}

// cleanupBudget bounds the deletion of a run's keys.
const cleanupBudget = time.Minute
