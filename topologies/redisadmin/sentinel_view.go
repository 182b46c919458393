package redisadmin

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/lockbench/lockbench/topologies"
)

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
func TuneSentinels(ctx context.Context, topo topologies.Topology, t SentinelTimers) error {
	if t.PingPeriod != 0 && t.PingPeriod < minPingPeriod {
		return fmt.Errorf("sentinel ping period %v: must be >= %v, or no replica is fresh enough to promote", t.PingPeriod,
			minPingPeriod)
	}
	args := []any{"SENTINEL", "DEBUG"}
	for _, p := range []struct {
		name string
		d    time.Duration
	}{{"info-period", t.InfoPeriod}, {"ask-period", t.AskPeriod}, {"publish-period", t.PublishPeriod},
		{"ping-period", t.PingPeriod}} {
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
func (v SentinelView) Unsettled(master string, replicas []string, peers int) string {
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

// Acknowledged says whether want replicas acknowledge a write on master.
func Acknowledged(ctx context.Context, master string, want int) bool {
	c := AdminClient(master)
	defer c.Close()
	return writeAcknowledged(ctx, c, want)
}
