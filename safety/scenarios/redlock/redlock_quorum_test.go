package redlock

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend/backendtest"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/lab/labtest"
	"github.com/lockbench/lockbench/safety/results"
)

// TestRedlockQuorum: grants on exactly a quorum break after one of their nodes
// restarts empty, grants on more nodes do not, and plain redlock without contention
// never sits on exactly a quorum nor leaves a key behind. Which subset a grant falls
// in is the servers' doing, so a subset no trial reached is not a failure; each
// strategy and contention must still have its share judged, and the run some subset.
//
// At a 10 s TTL redsync gives each node 500 ms: at the default 1 s (50 ms a node) two
// nodes of a lone grant missed their bound beside a cold build, and the grant sat on
// exactly a quorum, which the uncontended claim rules out only for nodes that answer.
func TestRedlockQuorum(t *testing.T) {
	t.Parallel()
	env := labtest.TestEnv(t, 3, lab.Params{"clients": "4", "ttl": "10s"})
	env.Logf = nil
	s, err := lab.Lookup("redlock-quorum")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, err := lab.Run(ctx, s, env)
	if err != nil {
		t.Fatalf("redlock-quorum: %v", err)
	}
	t.Logf("\n%s", rep.Table())
	labtest.RoundTrip(t, rep)
	subsetJudged := map[string]int{}
	for _, v := range rep.Variants {
		group := v.Name[:strings.LastIndex(v.Name, "/")]
		if strings.HasSuffix(v.Name, "-quorum") {
			subsetJudged[group] += v.Tally.Judged
		}
		if v.Tally.Judged == 0 {
			if strings.HasSuffix(v.Name, "/share") || strings.HasSuffix(v.Name, "/restart-empty") {
				t.Errorf("%s: no trial judged (%d fault not produced, errors %s)", v.Name, v.Tally.FaultNotProduced, v.Tally.ErrorsString())
			}
			continue
		}
		for _, c := range v.Claims {
			if ok, why := c.Check(v.Tally); !ok {
				t.Errorf("%s: claim %s failed over %d judged trials: %d broke %s", v.Name, c, v.Tally.Judged, v.Tally.Broke[c.Measure], why)
			}
		}
		for _, tr := range v.Trials {
			if tr.Outcome == results.Judged && len(tr.Proof) == 0 {
				t.Errorf("%s trial %d: judged without a proof", v.Name, tr.N)
			}
		}
	}
	// Which subset a group's few trials land in is the servers' doing (a loser's partial
	// lock can keep a grant out of both), so one group may judge none; the conditioned
	// subsets must still judge trials somewhere in the run, or their code went untested.
	total := 0
	for group, n := range subsetJudged {
		total += n
		if n == 0 {
			t.Logf("%s: neither restart subset judged a trial in this run", group)
		}
	}
	if total == 0 {
		t.Error("no restart subset judged a trial in any group")
	}
}

// shareClaimsOf are the claims of strategy's share variant with clients racing.
func shareClaimsOf(strategy string, clients int) []results.Claim {
	for _, v := range quorumVariants(strategy, clients) {
		if strings.HasSuffix(v.Name, "/share") {
			return v.Claims
		}
	}
	return nil
}

// The share variants claim no partial lock (and, alone, no grant on exactly a quorum)
// for a client its store declares awaits every independent master, by that declaration:
// redlock, and a strategy no file here names; not redlock-failfast.
func TestQuorumShareClaimsFollowTheDeclaredClient(t *testing.T) {
	t.Parallel()
	linked.Register(backendtest.QuorumStore("quorum-test"))
	alone := []results.Claim{results.Holds(results.PartialLocks), results.Holds(results.QuorumOnly)}
	racing := alone[:1]
	for _, c := range []struct {
		strategy string
		clients  int
		want     []results.Claim
	}{
		{"redlock", 1, alone}, {"redlock", 4, racing}, {"quorum-test-waits", 1, alone}, {"quorum-test-waits", 4, racing},
		{"redlock-failfast", 1, nil}, {"redlock-failfast", 4, nil}, {"quorum-test-fast", 1, nil},
	} {
		if got := shareClaimsOf(c.strategy, c.clients); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s with %d clients: share claims %v, want %v", c.strategy, c.clients, got, c.want)
		}
	}
}
