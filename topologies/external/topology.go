package external

import (
	"context"
	"sync"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies"
)

// topology is one kind's share of a deployment file.
type topology struct {
	servers   Servers
	store     Store  // the registered store that serves the kind
	prefix    string // every key the run writes starts with it
	versions  []resultsdir.ExternalServer
	closeOnce sync.Once
	closeErr  error
}

func (t *topology) Spec() backend.Spec               { return t.servers.Spec }
func (t *topology) Provider() string                 { return Name }
func (t *topology) Masters() []topologies.Node       { return t.servers.Masters }
func (t *topology) Replicas() []topologies.Node      { return t.servers.Replicas }
func (t *topology) Sentinels() []topologies.Node     { return t.servers.Sentinels }
func (t *topology) Access() redisconn.Access         { return t.servers.Access }
func (t *topology) SentinelAccess() redisconn.Access { return t.servers.SentinelAccess }
func (t *topology) Nodes() []topologies.Node         { return t.servers.Nodes() }

// Servers are the deployment's servers as results.json records them: addresses and
// versions, no secrets.
func (t *topology) Servers() []resultsdir.ExternalServer { return t.versions }

// KeyPrefix is what every key of the run starts with.
func (t *topology) KeyPrefix() string { return t.prefix }

// Close stops nothing (the servers are not ours): it deletes every key under the run's
// prefix with the store's cleanup, also after an interrupted run, on a context of its own.
func (t *topology) Close() error {
	t.closeOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), cleanupBudget)
		defer cancel()
		_, t.closeErr = t.store.Cleanup(ctx, t.servers, t.prefix)
	})
	return t.closeErr
}

// cleanupBudget bounds the deletion of a run's keys.
const cleanupBudget = time.Minute
