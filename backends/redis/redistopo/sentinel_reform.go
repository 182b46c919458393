package redistopo

import (
	"context"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// A sentinel deployment reused across failover trials: after each failover it is
// re-formed (one master, every other data node replicating from it, the sentinels
// agreeing and quiet) instead of started afresh, which costs seconds.

// Reform brings a sentinel deployment of the process provider back to health
// after a failover trial, and returns once it is verified: the sentinels agree on one
// master, none is failing over or flags any instance down, each sees every other data
// node as a plain replica and every other sentinel; the master has every replica
// online and acknowledging writes. To get there it waits out failovers in flight,
// resumes stopped nodes, ends CLIENT PAUSEs, restarts killed nodes empty (as
// replicas of the master, or as the master itself when no failover replaced it) and
// points nodes that replicate elsewhere, or a zombie master, at the master. It gives
// up when ctx ends; the caller then starts a fresh deployment.
func (t *processTopology) Reform(ctx context.Context) (topologies.Reformed, error) {
	start := time.Now()
	var done topologies.Reformed
	if t.spec.Kind != topologies.Sentinel {
		return done,
			fmt.Errorf("reform: a %s topology of provider %s: %w (process sentinel deployments only)", t.spec.Kind,
				t.Provider(), topologies.ErrNotReformable)
	}
	data := append(append([]*processNode{}, t.masters...), t.replicas...)
	last := "nothing checked yet"
	for {
		if why, err := t.reformStep(ctx, data, &done); err != nil {
			return done, err
		} else if why == "" {
			done.Took = time.Since(start)
			return done, nil
		} else {
			last = why
		}
		select {
		case <-ctx.Done():
			return done,
				fmt.Errorf("reform: not healthy after %v (%s): %w", time.Since(start).Round(time.Millisecond), last, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// reformStep repairs what it can and says what is still wrong ("" when verified);
// an error is a repair that failed outright.
func (t *processTopology) reformStep(ctx context.Context, data []*processNode, done *topologies.Reformed) (string,
	error) {
	qctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	for _, n := range data {
		if n.Running() {
			_ = n.Resume() // a SIGCONT to a running process is a no-op
			_ = redisadmin.ClientUnpause(qctx, n.Addr())
		}
	}
	var views []redisadmin.SentinelView
	for _, s := range t.sentinels {
		v, err := redisadmin.ReadSentinelView(qctx, s.Addr(), t.spec.MasterName)
		if err != nil {
			return fmt.Sprintf("%s: %v", s.name, err), nil
		}
		views = append(views, v)
	}
	master := views[0].Master.Addr
	for _, v := range views {
		if v.Master.FailoverState != "" || v.Master.Has("failover_in_progress") || v.Master.Has("o_down") {
			return fmt.Sprintf("sentinel %s: failover of %s in flight (flags %v, state %q)", v.Sentinel, v.Master.Addr,
				v.Master.Flags, v.Master.FailoverState), nil
		}
		if v.Master.Addr != master {
			return fmt.Sprintf("sentinels disagree: %s names %s, %s names %s", views[0].Sentinel, master, v.Sentinel,
				v.Master.Addr), nil
		}
	}
	m := nodeOf(data, master)
	if m == nil {
		return "", fmt.Errorf("reform: sentinels name %s, no data node of the deployment", master)
	}
	if !m.Running() {
		// No failover replaced it: it comes back empty as the master it was.
		if err := t.restartEmpty(ctx, m, ""); err != nil {
			return "", err
		}
		done.Restarted = append(done.Restarted, m.name)
	}
	var replicas []string
	for _, n := range data {
		if n == m {
			continue
		}
		replicas = append(replicas, n.Addr())
		if !n.Running() {
			if err := t.restartEmpty(ctx, n, master); err != nil {
				return "", err
			}
			done.Restarted = append(done.Restarted, n.name)
			continue
		}
		info, err := redisadmin.Replication(qctx, n.Addr())
		if err != nil {
			return fmt.Sprintf("%s: %v", n.name, err), nil
		}
		if info.Role != "slave" || info.MasterAddr != master {
			host, port, _ := net.SplitHostPort(master)
			if err := redisadmin.AdminDo(qctx, n.Addr(), "REPLICAOF", host, port); err != nil {
				return "", fmt.Errorf("reform: %s REPLICAOF %s: %w", n.name, master, err)
			}
			done.Repointed = append(done.Repointed, n.name)
		}
	}
	if info, err := redisadmin.Replication(qctx, master); err != nil {
		return fmt.Sprintf("master %s: %v", master, err), nil
	} else if info.Role != "master" {
		return fmt.Sprintf("master %s reports role %s", master, info.Role), nil
	} else if redisadmin.Online(info) < len(replicas) || !redisadmin.Acknowledged(qctx, master, len(replicas)) {
		return fmt.Sprintf("master %s: replicas %+v, want %d online and acknowledging", master, info.Replicas,
			len(replicas)), nil
	}
	for _, v := range views {
		if why := v.Unsettled(master, replicas, len(t.sentinels)-1); why != "" {
			return "sentinel " + v.Sentinel + " " + why, nil
		}
	}
	done.Master = master
	return "", nil
}

// restartEmpty restarts n with no data, replicating from master ("" for none): its
// config is written afresh, since sentinel rewrites the configs of nodes it moves.
func (t *processTopology) restartEmpty(ctx context.Context, n *processNode, master string) error {
	if err := os.WriteFile(n.ConfPath(), []byte(t.serverConfig(n.port, master)), 0o644); err != nil {
		return fmt.Errorf("reform: %s config: %w", n.name, err)
	}
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := n.Restart(rctx, topologies.RestartEmpty); err != nil {
		return fmt.Errorf("reform: restart %s: %w", n.name, err)
	}
	return nil
}

func nodeOf(nodes []*processNode, addr string) *processNode {
	for _, n := range nodes {
		if n.Addr() == addr {
			return n
		}
	}
	return nil
}
