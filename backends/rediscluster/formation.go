package rediscluster

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// Member is one started node as the forming and the serving checks see it, whatever
// runs it (a process, a container): its address, the bus port the other nodes dial on
// its host, and for a replica the master it follows at start.
type Member struct {
	topologies.Node
	Bus     int
	Follows int // index of the master a replica follows at start; -1 for a master
}

// Layout is a cluster's started nodes: master i is given the i-th share of the slots.
type Layout struct {
	Masters, Replicas []Member
}

func (l Layout) all() []Member { return append(append([]Member{}, l.Masters...), l.Replicas...) }

// NodeConfig is the cluster part of every node's redis-server config, whoever runs it.
func NodeConfig(spec backend.Spec, busPort int) []string {
	return []string{
		"cluster-enabled yes",
		"cluster-config-file nodes.conf",
		fmt.Sprintf("cluster-port %d", busPort),
		fmt.Sprintf("cluster-node-timeout %d", spec.DownAfter.Milliseconds()),
		// A replica whose master is gone longer than 10 node timeouts plus the 10 s ping
		// period never fails over (the default factor, 10): 15 s at the lab's 500 ms
		// timeouts, which a loaded machine's elections outlast, where production's 15 s
		// timeout allows 160 s. The lab's failovers happen however long they take.
		"cluster-replica-validity-factor 0",
	}
}

// form joins the nodes by CLUSTER MEET, gives each master its share of the slots,
// makes each replica follow its master, and waits until the cluster serves.
func (l Layout) form(ctx context.Context) error {
	ids := map[string]string{}
	for _, n := range l.all() {
		v, err := redisadmin.AdminQuery(ctx, n.Addr(), "CLUSTER", "MYID")
		if err != nil {
			return fmt.Errorf("%s: CLUSTER MYID: %w", n.Name(), err)
		}
		ids[n.Name()] = fmt.Sprint(v)
	}
	if err := l.join(ctx, 60*time.Second); err != nil {
		return err
	}
	for i, m := range l.Masters {
		lo, hi := SlotRange(i, len(l.Masters))
		if err := redisadmin.AdminDo(ctx, m.Addr(), "CLUSTER", "ADDSLOTSRANGE", lo, hi); err != nil {
			return fmt.Errorf("%s: CLUSTER ADDSLOTSRANGE %d %d: %w", m.Name(), lo, hi, err)
		}
	}
	for _, r := range l.Replicas {
		m := l.Masters[r.Follows]
		if err := replicate(ctx, r, m, ids[m.Name()]); err != nil {
			return err
		}
	}
	return l.WaitServing(ctx, 30*time.Second)
}

// join meets the first master with every other node and waits until each node knows
// them all. A node that does not is met again every remeetEvery: a handshake left
// unanswered past the node timeout (at least 1 s) is dropped, and under load a node
// was left knowing only itself.
func (l Layout) join(ctx context.Context, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	all := l.all()
	var lastMeet time.Time
	var seen []knownBy // the last round's view, not one the deadline cut short
	for {
		behind := l.behind(ctx)
		if ctx.Err() == nil {
			seen = behind
		}
		if len(behind) == 0 {
			return nil
		}
		if time.Since(lastMeet) >= remeetEvery {
			lastMeet = time.Now()
			meetAgain(ctx, all[0], all[1:], behind)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("cluster of %d nodes not joined after %v: %v", len(all), limit, seen)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// meetAgain meets first with each node of others that is behind, or with them all when
// first itself is: a missing node is not named, so first's view is mended by all. A
// MEET that failed is sent again next round.
func meetAgain(ctx context.Context, first Member, others []Member, behind []knownBy) {
	for _, n := range others {
		if behind[0].Name() == first.Name() || slices.ContainsFunc(behind, func(b knownBy) bool {
			return b.Name() == n.Name()
		}) {
			_ = meet(ctx, first, n)
		}
	}
}

// remeetEvery is how long a handshake is given before its node is met again.
const remeetEvery = 2 * time.Second

// behind are the nodes that do not yet know every node, with how many each knows; a
// node that did not answer is behind too, and is asked again (as WaitServing does).
func (l Layout) behind(ctx context.Context) []knownBy {
	all := l.all()
	var out []knownBy
	for _, n := range all {
		known, err := knownNodes(ctx, n)
		if err != nil || known < len(all) {
			out = append(out, knownBy{n, known, err})
		}
	}
	return out
}

// knownNodes counts the nodes n knows past their handshake: cluster_known_nodes counts a
// handshake too, which the node drops if it times out (and then knows one node fewer).
func knownNodes(ctx context.Context, n Member) (int, error) {
	v, err := redisadmin.AdminQuery(ctx, n.Addr(), "CLUSTER", "NODES")
	if err != nil {
		return 0, err
	}
	return pastHandshake(fmt.Sprint(v)), nil
}

// pastHandshake counts the lines of a CLUSTER NODES reply whose flags (the third field,
// comma-separated) hold no handshake.
func pastHandshake(nodes string) int {
	known := 0
	for _, line := range strings.Split(strings.TrimSpace(nodes), "\n") {
		if f := strings.Fields(line); len(f) >= 3 && !slices.Contains(strings.Split(f[2], ","), "handshake") {
			known++
		}
	}
	return known
}

// knownBy is a node, how many nodes it knows, and why it did not say.
type knownBy struct {
	Member
	known int
	err   error
}

func (k knownBy) String() string {
	if k.err != nil {
		return fmt.Sprintf("%s: %v", k.Name(), k.err)
	}
	return fmt.Sprintf("%s knows %d nodes", k.Name(), k.known)
}

// meet asks from to shake hands with n at n's address and bus port.
func meet(ctx context.Context, from, n Member) error {
	host, port, err := net.SplitHostPort(n.Addr())
	if err != nil {
		return err
	}
	if err := redisadmin.AdminDo(ctx, from.Addr(), "CLUSTER", "MEET", host, port, n.Bus); err != nil {
		return fmt.Errorf("CLUSTER MEET %s: %w", n.Name(), err)
	}
	return nil
}

// replicate makes r follow master m (whose id is id), once r has heard of it on the
// bus; a handshake that did not complete (seen on a loaded machine) is met again.
func replicate(ctx context.Context, r, m Member, id string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for try := 1; ; try++ {
		err := redisadmin.AdminDo(ctx, r.Addr(), "CLUSTER", "REPLICATE", id)
		if err == nil {
			return nil
		}
		if try%50 == 0 {
			_ = meet(ctx, r, m)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: CLUSTER REPLICATE %s: %w", r.Name(), id, err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// SlotRange is master i's share [lo, hi] of the slots among masters.
func SlotRange(i, masters int) (lo, hi int) {
	return i * redisadmin.ClusterSlots / masters, (i+1)*redisadmin.ClusterSlots/masters - 1
}

// WaitServing waits until every running node reports cluster_state:ok with every slot
// served and knows every node, every running replica's link to its master is up, and
// every master's replicas acknowledge a write (WAIT answers at once from then on).
func (l Layout) WaitServing(ctx context.Context, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	last := errors.New("not asked yet")
	for {
		if last = l.serving(ctx); last == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("cluster not serving after %v: %w", limit, last)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func (l Layout) serving(ctx context.Context) error {
	total := strconv.Itoa(len(l.all()))
	for _, n := range l.all() {
		if !n.Running() {
			continue
		}
		info, err := fields(ctx, n.Addr(), "CLUSTER", "INFO")
		if err != nil {
			return fmt.Errorf("%s: %w", n.Name(), err)
		}
		if info["cluster_state"] != "ok" || info["cluster_slots_ok"] != strconv.Itoa(redisadmin.ClusterSlots) ||
			info["cluster_known_nodes"] != total {
			return fmt.Errorf("%s: state %s, %s slots ok, %s of %s nodes known", n.Name(), info["cluster_state"],
				info["cluster_slots_ok"], info["cluster_known_nodes"], total)
		}
		repl, err := redisadmin.Replication(ctx, n.Addr())
		if err != nil {
			return fmt.Errorf("%s: %w", n.Name(), err)
		}
		switch repl.Role {
		case "slave":
			if !repl.LinkUp {
				return fmt.Errorf("%s: link to master %s is down", n.Name(), repl.MasterAddr)
			}
		case "master":
			if err := acknowledged(ctx, n, repl); err != nil {
				return err
			}
		}
	}
	return nil
}

// acknowledged writes a marker in one of master n's slots and checks that its online
// replicas acknowledge it: until a replica's first ACK after a sync, WAIT times out.
func acknowledged(ctx context.Context, n Member, repl redisadmin.ReplicationInfo) error {
	want := 0
	for _, r := range repl.Replicas {
		if r.State == "online" {
			want++
		}
	}
	if want == 0 {
		return nil
	}
	key, err := KeyServedBy(ctx, n.Addr(), "lockbench:cluster-ready")
	if err != nil {
		return fmt.Errorf("%s: %w", n.Name(), err)
	}
	a := redisadmin.AdminClient(n.Addr())
	defer a.Close()
	a.Set(ctx, key, "1", 0)
	acked, err := a.Do(ctx, "WAIT", want, 100).Int()
	a.Del(ctx, key)
	if err != nil || acked < want {
		return fmt.Errorf("%s: %d of %d replicas acknowledged a write (%v)", n.Name(), acked, want, err)
	}
	return nil
}
