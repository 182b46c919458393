package topologies

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"time"
)

// A sentinel deployment reused across failover trials: after each failover it is
// re-formed (one master, every other data node replicating from it, the sentinels
// agreeing and quiet) instead of started afresh, which costs seconds.

// SentinelTimers are sentinel's internal periods, which no config file sets: Redis 7
// changes them at run time with SENTINEL DEBUG. Zero fields keep sentinel's own.
type SentinelTimers struct {
	// InfoPeriod is how often sentinels INFO masters and replicas outside a failover
	// (10 s by default): their view of a re-formed deployment is as old as this. During
	// a failover sentinel INFOs replicas every second whatever this says.
	InfoPeriod time.Duration
	// AskPeriod is how often a sentinel that sees the master down asks the others
	// (1 s by default): a "not yet" answer costs a whole period before ODOWN.
	AskPeriod time.Duration
	// PublishPeriod is the hello period (2 s by default): how fast sentinels hear of
	// each other and of a new configuration.
	PublishPeriod time.Duration
	// PingPeriod caps the ping period (1 s by default; sentinels ping every
	// min(down-after, this)) and paces reconnections. Keep it well under down-after:
	// after a failover each sentinel reconnects to the new master only when a ping
	// period has passed since it last tried the dead one, and a new master out of
	// reach for down-after is failed over in turn (measured here: down-after 250 ms
	// with the default 1 s flapped between replicas).
	PingPeriod time.Duration
}

// minPingPeriod: a sentinel promotes only a replica whose INFO is younger than 5 ping
// periods, and once the master's link is down it INFOs replicas only every second;
// the first INFO after a kill is some 250-450 ms old at selection time.
const minPingPeriod = 100 * time.Millisecond

// TuneSentinels applies timers to every sentinel of topo.
func TuneSentinels(ctx context.Context, topo Topology, t SentinelTimers) error {
	if t.PingPeriod != 0 && t.PingPeriod < minPingPeriod {
		return fmt.Errorf("sentinel ping period %v: must be >= %v, or no replica is fresh enough to promote", t.PingPeriod, minPingPeriod)
	}
	args := []any{"SENTINEL", "DEBUG"}
	for _, p := range []struct {
		name string
		d    time.Duration
	}{{"info-period", t.InfoPeriod}, {"ask-period", t.AskPeriod}, {"publish-period", t.PublishPeriod}, {"ping-period", t.PingPeriod}} {
		if p.d > 0 {
			args = append(args, p.name, p.d.Milliseconds())
		}
	}
	if len(args) == 2 {
		return nil
	}
	for _, s := range topo.Sentinels() {
		if err := AdminDo(ctx, s.Addr(), args...); err != nil {
			return fmt.Errorf("%s: SENTINEL DEBUG: %w", s.Name(), err)
		}
	}
	return nil
}

// SentinelInstance is one master, replica or sentinel as a sentinel sees it.
type SentinelInstance struct {
	Addr  string
	Flags []string // "master", "slave", "s_down", "o_down", "disconnected", "failover_in_progress"...
	// FailoverState is set while a failover of this master is in progress.
	FailoverState string
	// ConfigEpoch is the master's configuration epoch: each failover raises it.
	ConfigEpoch int64
}

// Has says whether the instance carries flag.
func (i SentinelInstance) Has(flag string) bool {
	for _, f := range i.Flags {
		if f == flag {
			return true
		}
	}
	return false
}

// SentinelView is one sentinel's picture of the master it monitors.
type SentinelView struct {
	Sentinel  string // the sentinel's address
	Master    SentinelInstance
	Replicas  []SentinelInstance
	Sentinels []SentinelInstance // the others it knows
}

// ReadSentinelView asks the sentinel at addr for masterName, its replicas and peers.
func ReadSentinelView(ctx context.Context, addr, masterName string) (SentinelView, error) {
	v := SentinelView{Sentinel: addr}
	m, err := AdminQuery(ctx, addr, "SENTINEL", "master", masterName)
	if err != nil {
		return v, err
	}
	v.Master = sentinelInstance(m)
	for _, q := range []struct {
		sub  string
		into *[]SentinelInstance
	}{{"replicas", &v.Replicas}, {"sentinels", &v.Sentinels}} {
		reply, err := AdminQuery(ctx, addr, "SENTINEL", q.sub, masterName)
		if err != nil {
			return v, err
		}
		for _, e := range asList(reply) {
			*q.into = append(*q.into, sentinelInstance(e))
		}
	}
	return v, nil
}

func sentinelInstance(entry any) SentinelInstance {
	i := SentinelInstance{
		Addr:          net.JoinHostPort(fieldOf(entry, "ip"), fieldOf(entry, "port")),
		FailoverState: fieldOf(entry, "failover-state"),
	}
	fmt.Sscan(fieldOf(entry, "config-epoch"), &i.ConfigEpoch)
	if f := fieldOf(entry, "flags"); f != "" {
		i.Flags = strings.Split(f, ",")
	}
	return i
}

// unsettled says what keeps v from being a quiet view of master with replicas and
// peers others, or "" when nothing does.
func (v SentinelView) unsettled(master string, replicas []string, peers int) string {
	if v.Master.Addr != master {
		return fmt.Sprintf("names master %s", v.Master.Addr)
	}
	if len(v.Master.Flags) != 1 || v.Master.FailoverState != "" {
		return fmt.Sprintf("master flags %v, failover state %q", v.Master.Flags, v.Master.FailoverState)
	}
	clean := map[string]bool{}
	for _, r := range v.Replicas {
		if len(r.Flags) == 1 && r.Has("slave") {
			clean[r.Addr] = true
		}
	}
	for _, r := range replicas {
		if !clean[r] {
			return fmt.Sprintf("replica %s not seen as a plain replica (replicas %+v)", r, v.Replicas)
		}
	}
	up := 0
	for _, s := range v.Sentinels {
		if len(s.Flags) == 1 && s.Has("sentinel") {
			up++
		}
	}
	if up < peers {
		return fmt.Sprintf("sees %d healthy other sentinels of %d (%+v)", up, peers, v.Sentinels)
	}
	return ""
}

// Reformed is what ReformSentinel did.
type Reformed struct {
	Master    string   // the master every sentinel names
	Restarted []string // nodes restarted empty (killed ones)
	Repointed []string // nodes told REPLICAOF the master (a zombie master, a stray replica)
	Took      time.Duration
}

// ReformSentinel brings a sentinel deployment of the process provider back to health
// after a failover trial, and returns once it is verified: the sentinels agree on one
// master, none is failing over or flags any instance down, each sees every other data
// node as a plain replica and every other sentinel; the master has every replica
// online and acknowledging writes. To get there it waits out failovers in flight,
// resumes stopped nodes, ends CLIENT PAUSEs, restarts killed nodes empty (as
// replicas of the master, or as the master itself when no failover replaced it) and
// points nodes that replicate elsewhere, or a zombie master, at the master. It gives
// up when ctx ends; the caller then starts a fresh deployment.
func ReformSentinel(ctx context.Context, topo Topology) (Reformed, error) {
	start := time.Now()
	var done Reformed
	t, ok := topo.(*processTopology)
	if !ok || t.spec.Kind != Sentinel {
		return done, fmt.Errorf("reform: a %s topology of provider %s: %w (process sentinel deployments only)", topo.Spec().Kind, topo.Provider(), ErrNotReformable)
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
			return done, fmt.Errorf("reform: not healthy after %v (%s): %w", time.Since(start).Round(time.Millisecond), last, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// reformStep repairs what it can and says what is still wrong ("" when verified);
// an error is a repair that failed outright.
func (t *processTopology) reformStep(ctx context.Context, data []*processNode, done *Reformed) (string, error) {
	qctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	for _, n := range data {
		if n.Running() {
			_ = n.Resume() // a SIGCONT to a running process is a no-op
			_ = ClientUnpause(qctx, n.Addr())
		}
	}
	var views []SentinelView
	for _, s := range t.sentinels {
		v, err := ReadSentinelView(qctx, s.Addr(), t.spec.MasterName)
		if err != nil {
			return fmt.Sprintf("%s: %v", s.name, err), nil
		}
		views = append(views, v)
	}
	master := views[0].Master.Addr
	for _, v := range views {
		if v.Master.FailoverState != "" || v.Master.Has("failover_in_progress") || v.Master.Has("o_down") {
			return fmt.Sprintf("sentinel %s: failover of %s in flight (flags %v, state %q)", v.Sentinel, v.Master.Addr, v.Master.Flags, v.Master.FailoverState), nil
		}
		if v.Master.Addr != master {
			return fmt.Sprintf("sentinels disagree: %s names %s, %s names %s", views[0].Sentinel, master, v.Sentinel, v.Master.Addr), nil
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
		info, err := Replication(qctx, n.Addr())
		if err != nil {
			return fmt.Sprintf("%s: %v", n.name, err), nil
		}
		if info.Role != "slave" || info.MasterAddr != master {
			host, port, _ := net.SplitHostPort(master)
			if err := AdminDo(qctx, n.Addr(), "REPLICAOF", host, port); err != nil {
				return "", fmt.Errorf("reform: %s REPLICAOF %s: %w", n.name, master, err)
			}
			done.Repointed = append(done.Repointed, n.name)
		}
	}
	if info, err := Replication(qctx, master); err != nil {
		return fmt.Sprintf("master %s: %v", master, err), nil
	} else if info.Role != "master" {
		return fmt.Sprintf("master %s reports role %s", master, info.Role), nil
	} else if online(info) < len(replicas) || !acknowledged(qctx, master, len(replicas)) {
		return fmt.Sprintf("master %s: replicas %+v, want %d online and acknowledging", master, info.Replicas, len(replicas)), nil
	}
	for _, v := range views {
		if why := v.unsettled(master, replicas, len(t.sentinels)-1); why != "" {
			return "sentinel " + v.Sentinel + " " + why, nil
		}
	}
	done.Master = master
	return "", nil
}

// restartEmpty restarts n with no data, replicating from master ("" for none): its
// config is written afresh, since sentinel rewrites the configs of nodes it moves.
func (t *processTopology) restartEmpty(ctx context.Context, n *processNode, master string) error {
	if err := os.WriteFile(n.confPath(), []byte(t.serverConfig(n.port, master)), 0o644); err != nil {
		return fmt.Errorf("reform: %s config: %w", n.name, err)
	}
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := n.Restart(rctx, RestartEmpty); err != nil {
		return fmt.Errorf("reform: restart %s: %w", n.name, err)
	}
	return nil
}

// acknowledged says whether want replicas acknowledge a write on master.
func acknowledged(ctx context.Context, master string, want int) bool {
	c := AdminClient(master)
	defer c.Close()
	return writeAcknowledged(ctx, c, want)
}

func nodeOf(nodes []*processNode, addr string) *processNode {
	for _, n := range nodes {
		if n.Addr() == addr {
			return n
		}
	}
	return nil
}

// ErrNotReformable says a topology cannot be re-formed in place.
var ErrNotReformable = errors.New("topology cannot be re-formed in place")
