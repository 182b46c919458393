package zklab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/lockbench/lockbench/backends/zookeeper/zktopo/srvr"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/topologies"
)

// diskMarker is a file the lab leaves in a server's data dir: gone after the restart,
// it proves the server started from an empty disk (ZooKeeper ignores unknown files).
const diskMarker = "lockbench-disk-marker"

// dataDirer is a topology that says where a node keeps its data (zktopo.Ensemble).
type dataDirer interface{ Dir() string }

// zkDataDir is node's data dir inside a zktopo ensemble's dir (<dir>/<server>/data).
func zkDataDir(topo topologies.Topology, node topologies.Node) (string, error) {
	d, ok := topo.(dataDirer)
	if !ok {
		return "", fmt.Errorf("topology from provider %s names no data dir", topo.Provider())
	}
	dir := filepath.Join(d.Dir(), node.Name(), "data")
	if _, err := os.Stat(dir); err != nil {
		return "", err
	}
	return dir, nil
}

// RestartFollowerEmpty restarts one follower of primary without its data and proves
// both halves of the fault: the disk was empty (the marker is gone) and the server
// rejoined and caught up from the leader (srvr: a follower at or past the leader's
// zxid of before the restart, which it can only have learnt from the leader).
func (zkStore) RestartFollowerEmpty(ctx context.Context, t *lab.Trial, topo topologies.Topology,
	primary topologies.Node) (topologies.Node, error) {
	follower, err := lab.FollowerOf(topo, primary)
	if err != nil {
		return nil, lab.Failed("nemesis", fmt.Errorf("%w to restart", err))
	}
	dir, err := zkDataDir(topo, follower)
	if err != nil {
		return nil, lab.Failed("observe", fmt.Errorf("data dir of %s: %w", follower.Name(), err))
	}
	marker := filepath.Join(dir, diskMarker)
	if err := os.WriteFile(marker, []byte("written before the restart\n"), 0o644); err != nil {
		return nil, lab.Failed("observe", err)
	}
	before, err := srvr.ReadPatiently(ctx, primary.Addr())
	if err != nil {
		return nil, lab.Failed("observe", fmt.Errorf("leader %s: %w", primary.Name(), err))
	}
	own, err := srvr.ReadPatiently(ctx, follower.Addr())
	if err != nil {
		return nil, lab.Failed("observe", fmt.Errorf("follower %s: %w", follower.Name(), err))
	}
	if _,
		err := nemesis.Inject(ctx, "node-restart-"+topologies.RestartEmpty.String(),
		nemesis.Target{Topology: topo, Nodes: []topologies.Node{follower}, Recorder: t.Rec}); err != nil {
		return nil, lab.Failed("nemesis", err)
	}
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		return nil, lab.NoFault("%s kept its data dir across the restart (marker: %v)", follower.Name(), err)
	}
	// Poll until it serves as a follower that has the leader's history.
	deadline := time.Now().Add(20 * time.Second)
	var after srvr.State
	for {
		after, err = srvr.Read(ctx, follower.Addr())
		if err == nil && after.Mode == "follower" && after.Zxid >= before.Zxid {
			break
		}
		if time.Now().After(deadline) {
			return nil, lab.NoFault(
				"%s restarted empty but did not catch up with the leader's zxid %#x within 20 s (last: %+v, %v)", follower.Name(),
				before.Zxid, after, err)
		}
		if lab.Sleep(ctx, 20*time.Millisecond) != nil {
			return nil, ctx.Err()
		}
	}
	t.Input("zxid_leader_before_restart", float64(before.Zxid))
	t.Input("zxid_restarted_before", float64(own.Zxid))
	t.Input("zxid_restarted_after_sync", float64(after.Zxid))
	t.Prove("%s restarted with an empty data dir (marker gone) and rejoined as a follower at zxid %#x, the leader's was "+
		"%#x before", follower.Name(), after.Zxid, before.Zxid)
	return follower, nil
}
