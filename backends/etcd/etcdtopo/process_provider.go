package etcdtopo

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/etcd"
	"github.com/lockbench/lockbench/backends/etcd/etcdtopo/memberfile"
	"github.com/lockbench/lockbench/internal/reexec"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/supervise"
)

// Process starts every member as a child process of its own (reexec.ExecutableFor,
// run again as one member: see etcdrun.RunMemberIfAsked), on 127.0.0.1, each in its own
// temp dir and process group: etcd then no longer shares the benchmark's Go scheduler, as Redis
// and ZooKeeper never do.
type Process struct {
	// CompactionRetention turns on periodic auto-compaction keeping this much history;
	// 0 never compacts (etcd's own default).
	CompactionRetention time.Duration
}

func (Process) Name() string { return ProcessName }

// portAttempts bounds how often a start picks fresh ports after another program took one.
const portAttempts = 3

// Start launches spec's cluster and returns once every member serves clients. On any
// failure it kills what it started and removes every temp dir.
func (p Process) Start(ctx context.Context, spec backend.Spec) (topologies.Topology, error) {
	spec, err := checkSpec(spec, p.Name(), p.CompactionRetention)
	if err != nil {
		return nil, err
	}
	exe, err := reexec.ExecutableFor(memberfile.Role)
	if err != nil {
		return nil, fmt.Errorf("etcd-process: %w", err)
	}
	var c *Cluster
	err = supervise.RetryPorts(portAttempts, func() error {
		c = &Cluster{spec: spec, compaction: p.CompactionRetention, provider: p.Name()}
		c.newMember = func(name, token string) (clusterMember, error) {
			return newProcessMember(c, exe, name, token)
		}
		err := c.launch(ctx)
		if err != nil {
			c.Close()
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Pids are the members' process ids (0 for one not running, and for every in-process
// member), for tests that check Close leaves no process.
func (c *Cluster) Pids() []int {
	out := make([]int, len(c.members))
	for i, m := range c.members {
		if pm, ok := m.(*processMember); ok {
			out[i] = pm.Pid()
		}
	}
	return out
}

// checkSpec validates spec for an etcd provider named name.
func checkSpec(spec backend.Spec, name string, compaction time.Duration) (backend.Spec, error) {
	spec, err := topologies.SpecOfOwnKind(spec, etcd.Kind, name)
	if err != nil {
		return spec, err
	}
	if compaction < 0 {
		return spec, fmt.Errorf("compaction retention = %v: must be >= 0", compaction)
	}
	return spec, nil
}
