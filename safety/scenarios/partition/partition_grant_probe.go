package partition

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/safety/history"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
)

// grantProbe takes a fresh lock (SET NX PX of a key of its own, in the trial key's hash
// slot) on the old master again and again, recorded as probe writes: check.SplitBrain
// then measures how long that master went on granting locks. NOREPLICAS
// (min-replicas-to-write), READONLY (demoted), CLUSTERDOWN (a cluster master cut from
// the majority) and MOVED (turned into a replica) are its refusals; any other failure
// is the trial's error.
type grantProbe struct {
	node         topologies.Node
	t            *lab.Trial
	c            *redis.Client
	sent         int
	accepted     int
	lastAccepted time.Time
	refusal      string // the first refusal's answer, "" while it grants
	refused      time.Time
}

func newGrantProbe(node topologies.Node, t *lab.Trial) *grantProbe {
	return &grantProbe{node: node, t: t, c: lab.PlainClient(node.Addr())}
}

func (p *grantProbe) close() { p.c.Close() }

func (p *grantProbe) set(ctx context.Context) error {
	pctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	key := fmt.Sprintf("lockbench:split-grant:{%s}:%d", p.t.Key, p.sent) // {key}: the lock key's slot
	return p.c.SetArgs(pctx, key, "A", redis.SetArgs{Mode: "NX", TTL: 2 * time.Second}).Err()
}

func isGrantRefusal(err error) bool {
	if err == nil {
		return false
	}
	for _, answer := range []string{"NOREPLICAS ", "CLUSTERDOWN ", "MOVED "} {
		if strings.HasPrefix(err.Error(), answer) {
			return true
		}
	}
	return lab.IsReadOnly(err)
}

// grant makes one attempt and records its answer.
func (p *grantProbe) grant(ctx context.Context) error {
	err := p.set(ctx)
	if err != nil && !isGrantRefusal(err) {
		// Sentinel kills a master's clients as it demotes it: retry once on a new connection.
		err = p.set(ctx)
	}
	if err != nil && !isGrantRefusal(err) {
		return lab.Failed("probe", fmt.Errorf("grant probe on %s: %w", p.node.Name(), err))
	}
	p.sent++
	e := history.Event{Client: "A", Kind: history.ProbeWritten, Key: "lockbench:split-grant:" + p.t.Key,
		Node: p.node.Addr(), Accepted: err == nil}
	if err != nil {
		e.Detail = err.Error()
		if p.refusal == "" {
			p.refusal, p.refused = strings.Fields(err.Error())[0], time.Now()
		}
	} else {
		p.accepted++
		p.lastAccepted = time.Now()
	}
	p.t.Rec.Record(e)
	return nil
}
