package container_test

import (
	"context"
	"net"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/redis/rediscontainer"
	"github.com/lockbench/lockbench/backends/redis/rediscontainer/rediscontainertest"
	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/topologies"
	. "github.com/lockbench/lockbench/topologies/container"
	"github.com/lockbench/lockbench/topologies/redisadmin"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// requireEngine skips without a container engine or an image source (fails under CI=true).
func requireEngine(t *testing.T) { rediscontainertest.RequireEngine(t) }

// startContainers starts spec in containers, closes it when t ends and then checks that
// none of its containers or its network remain.
func startContainers(t *testing.T, spec backend.Spec) partitioned {
	t.Helper()
	requireEngine(t)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.StartBound)
	defer cancel()
	began := time.Now()
	topo, err := Provider{}.Start(ctx, spec)
	if err != nil {
		t.Fatalf("start %s in containers: %v", spec.Kind, err)
	}
	t.Logf("%s topology of %d containers up in %v", spec.Kind, len(topo.Nodes()), time.Since(began).Round(time.Millisecond))
	t.Cleanup(func() {
		if err := topo.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
		if left := Remaining(topo); len(left) > 0 {
			t.Errorf("after Close these remain: %v", left)
		}
	})
	return topo.(partitioned)
}

// partitioned is a topology whose links can be cut.
type partitioned interface {
	topologies.Topology
	topologies.Partitioner
}

func client0(t *testing.T, addr string) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: addr, Protocol: 2, DisableIdentity: true, MaxRetries: -1})
	t.Cleanup(func() { c.Close() })
	return c
}

// lockOn takes a SET NX PX lock on addr and checks a second taker is refused.
func lockOn(t *testing.T, addr string) {
	t.Helper()
	ctx := context.Background()
	c := client0(t, addr)
	ok, err := c.SetNX(ctx, "lock", "a", 10*time.Second).Result()
	if err != nil || !ok {
		t.Fatalf("%s: first SET NX = %v, %v; want granted", addr, ok, err)
	}
	if ok, err := c.SetNX(ctx, "lock", "b", 10*time.Second).Result(); err != nil || ok {
		t.Fatalf("%s: second SET NX = %v, %v; want refused", addr, ok, err)
	}
}

func TestContainerTopologiesServeLocks(t *testing.T) {
	t.Parallel()
	for _, spec := range []backend.Spec{
		{Kind: topologies.Single},
		{Kind: topologies.Replicated, Replicas: 1},
		{Kind: topologies.Redlock, Masters: 3},
		{Kind: topologies.Sentinel},
	} {
		t.Run(string(spec.Kind), func(t *testing.T) {
			t.Parallel()
			topo := startContainers(t, spec)
			for _, m := range topo.Masters() {
				lockOn(t, m.Addr())
			}
			ctx := context.Background()
			if n := len(topo.Replicas()); n > 0 {
				acked, err := client0(t, topo.Masters()[0].Addr()).Do(ctx, "WAIT", n, 5000).Int()
				if err != nil || acked != n {
					t.Fatalf("WAIT %d = %d, %v", n, acked, err)
				}
				info, err := redisadmin.Replication(ctx, topo.Masters()[0].Addr())
				if err != nil {
					t.Fatal(err)
				}
				for i, r := range info.Replicas {
					if r.Addr != topo.Replicas()[i].Addr() && r.Addr != topo.Replicas()[1-i%2].Addr() {
						t.Errorf("master lists replica %s, not a published 127.0.0.1 address of this topology", r.Addr)
					}
				}
			}
			for _, s := range topo.Sentinels() {
				got, err := redisadmin.SentinelMasterAddr(ctx, s.Addr(), topo.Spec().MasterName)
				if err != nil || got != topo.Masters()[0].Addr() {
					t.Fatalf("%s names master %s, %v; want %s", s.Name(), got, err, topo.Masters()[0].Addr())
				}
			}
		})
	}
}

// Clients on the host must reach the promoted master through the address sentinel gives.
func TestContainerSentinelFailoverNamesReachableMaster(t *testing.T) {
	t.Parallel()
	topo := startContainers(t, backend.Spec{Kind: topologies.Sentinel})
	old := topo.Masters()[0]
	if err := old.Kill(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	addr, err := redisadmin.WaitForNewMaster(ctx, topologies.Addrs(topo.Sentinels()), topo.Spec().MasterName, old.Addr())
	if err != nil {
		t.Fatal(err)
	}
	promoted := false
	for _, r := range topo.Replicas() {
		promoted = promoted || r.Addr() == addr
	}
	if !promoted {
		t.Fatalf("sentinels name %s, which is no replica of this topology", addr)
	}
	lockOn(t, addr)
}

func TestContainerNodeKillPauseRestart(t *testing.T) {
	t.Parallel()
	topo := startContainers(t, backend.Spec{Kind: topologies.Single, AppendFsync: "always"})
	n := topo.Masters()[0]
	ctx := context.Background()
	c := client0(t, n.Addr())
	if err := c.Set(ctx, "k", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if err := n.Pause(); err != nil {
		t.Fatal(err)
	}
	pctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	err := c.Ping(pctx).Err()
	cancel()
	if err == nil {
		t.Fatal("a paused node answered PING")
	}
	if err := n.Resume(); err != nil {
		t.Fatal(err)
	}
	if err := redisadmin.WaitPing(ctx, n.Addr()); err != nil {
		t.Fatal(err)
	}
	if err := n.Restart(ctx, topologies.RestartFromDisk); err != nil {
		t.Fatal(err)
	}
	if v, err := client0(t, n.Addr()).Get(ctx, "k").Result(); err != nil || v != "v" {
		t.Fatalf("after a restart from disk k = %q, %v; want v", v, err)
	}
	began := time.Now()
	if err := n.Kill(); err != nil {
		t.Fatal(err)
	}
	t.Logf("Kill returned after %v", time.Since(began).Round(time.Millisecond))
	if n.Running() {
		t.Fatal("killed node still running")
	}
	if err := n.Restart(ctx, topologies.RestartEmpty); err != nil {
		t.Fatal(err)
	}
	if err := client0(t, n.Addr()).Get(ctx, "k").Err(); err != redis.Nil {
		t.Fatalf("after an empty restart GET k = %v; want nil", err)
	}
	// A frozen node can be killed too, and comes back.
	if err := n.Pause(); err != nil {
		t.Fatal(err)
	}
	if err := n.Kill(); err != nil {
		t.Fatal(err)
	}
	if n.Running() {
		t.Fatal("a paused node survived Kill")
	}
	if err := n.Restart(ctx, topologies.RestartFromDisk); err != nil {
		t.Fatal(err)
	}
	if err := redisadmin.WaitPing(ctx, n.Addr()); err != nil {
		t.Fatal(err)
	}
}

// A cut stops replication (the replica sees its link down); a heal restores it.
func TestContainerPartitionCutsAndHeals(t *testing.T) {
	t.Parallel()
	topo := startContainers(t, backend.Spec{Kind: topologies.Replicated, Replicas: 1,
		ExtraConfig: []string{"repl-ping-replica-period 1", "repl-timeout 3"}})
	master, replica := topo.Masters()[0], topo.Replicas()[0]
	ctx := context.Background()
	if err := topo.Cut(master, replica); err != nil {
		t.Fatal(err)
	}
	waitLink(t, replica.Addr(), false)
	// Both still answer the host: the cut is between the nodes only.
	if err := client0(t, master.Addr()).Set(ctx, "during-cut", "1", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if err := client0(t, replica.Addr()).Get(ctx, "during-cut").Err(); err != redis.Nil {
		t.Fatalf("a write made during the cut reached the replica (GET: %v)", err)
	}
	// A restarted node has a new namespace: its cut must come back with it.
	if err := replica.Restart(ctx, topologies.RestartFromDisk); err != nil {
		t.Fatal(err)
	}
	if rules, err := FilterRules(replica); err != nil || strings.Count(rules, "DROP") != 2 {
		t.Fatalf("after a restart the replica's cut chain is %q (%v); want its two DROP rules", rules, err)
	}
	if err := topo.Heal(master, replica); err != nil {
		t.Fatal(err)
	}
	if rules, err := FilterRules(replica); err != nil || strings.Contains(rules, "DROP") {
		t.Fatalf("after the heal the replica's cut chain is %q (%v); want no DROP", rules, err)
	}
	waitLink(t, replica.Addr(), true)
	waitValue(t, replica.Addr(), "during-cut", "1")
}

// The rules compared are the topology's and lockbench's own: a cut's rules on the host
// would be seen, the engine's global jumps and other networks' rules are not compared.
func TestHostRulesOfATopologyAreItsOwnAndLockbenchs(t *testing.T) {
	_, subnet, _ := net.ParseCIDR("172.27.0.0/16")
	const ours = "br-1525197593a1"
	for line, want := range map[string]bool{
		"-A FORWARD -o br-1525197593a1 -j DOCKER":                                                    true,
		"-A POSTROUTING -s 172.27.0.2/32 -d 172.27.0.2/32 -p tcp -m tcp --dport 27641 -j MASQUERADE": true,
		"-A LOCKBENCH-CUT -s 172.18.0.2/32 -d 172.18.0.3/32 -j DROP":                                 true,
		"-A OUTPUT -j LOCKBENCH-WIRE":                                                                true,
		"-A FORWARD -j DOCKER-ISOLATION-STAGE-1":                                                     false,
		"-A FORWARD -o br-0a1b2c3d4e5f -j DOCKER":                                                    false,
		"-A POSTROUTING -s 172.28.0.2/32 -d 172.28.0.2/32 -p tcp -m tcp --dport 27000 -j MASQUERADE": false,
	} {
		if got := concernsTopology(line, ours, subnet); got != want {
			t.Errorf("concernsTopology(%q) = %v, want %v", line, got, want)
		}
	}
}

// A cut is made inside the containers' namespaces: the host's own rules never change.
func TestContainerPartitionLeavesHostRulesAlone(t *testing.T) {
	topo := startContainers(t, backend.Spec{Kind: topologies.Replicated, Replicas: 1})
	// Other programs' networks come and go meanwhile, and with them the engine's global
	// rules: only the rules that concern this topology are compared (hostRules).
	ours := "br-" + NetworkID(topo)[:12]
	before := hostRules(t, ours)
	if !strings.Contains(before, ours) {
		t.Fatalf("no host rule names the topology's bridge %s: nothing would be compared", ours)
	}
	if err := topo.Cut(topo.Masters()[0], topo.Replicas()[0]); err != nil {
		t.Fatal(err)
	}
	during := hostRules(t, ours)
	if err := topo.HealAll(); err != nil {
		t.Fatal(err)
	}
	if after := hostRules(t, ours); during != before || after != before {
		t.Fatalf("the host's rules changed with a cut:\nbefore:\n%s\nduring:\n%s\nafter the heal:\n%s", before, during,
			after)
	}
}

// subnetOf is the subnet of the network whose bridge is ours, read from the rule that
// masquerades its traffic leaving the bridge; nil when the dump has none.
func subnetOf(lines []string, ours string) *net.IPNet {
	for _, line := range lines {
		src, rest, ok := strings.Cut(strings.TrimPrefix(line, "-A POSTROUTING -s "), " ")
		if !ok || rest != "! -o "+ours+" -j MASQUERADE" {
			continue
		}
		if _, subnet, err := net.ParseCIDR(src); err == nil {
			return subnet
		}
	}
	return nil
}

// address matches an IPv4 address in a rule.
var address = regexp.MustCompile(`\b\d+\.\d+\.\d+\.\d+\b`)

// hostRules dumps, sorted, the host's rules that concern this topology, through both
// iptables backends (the engine may use either): those that name its bridge, an address
// of its subnet, or a chain of lockbench's own (LOCKBENCH-WIRE, LOCKBENCH-CUT). The rest
// is other programs' business: the engine takes its global jumps out and puts them back
// (-A FORWARD -j DOCKER-ISOLATION-STAGE-1) whenever any program makes a network.
func hostRules(t *testing.T, ours string) string {
	t.Helper()
	var kept []string
	for _, save := range []string{"iptables-save", "iptables-legacy-save", "iptables-nft-save"} {
		if _, err := exec.LookPath(save); err != nil {
			continue
		}
		out, err := exec.Command(save).Output()
		if err != nil {
			t.Fatalf("%s: %v", save, err)
		}
		lines := strings.Split(string(out), "\n")
		subnet := subnetOf(lines, ours)
		table := ""
		for _, line := range lines {
			if strings.HasPrefix(line, "*") {
				table = line
			}
			if strings.HasPrefix(line, "-A ") && concernsTopology(line, ours, subnet) {
				kept = append(kept, save+" "+table+" "+line)
			}
		}
	}
	slices.Sort(kept)
	return strings.Join(kept, "\n")
}

// concernsTopology says whether a host rule names the topology's bridge, one of its
// addresses, or a chain of lockbench's own.
func concernsTopology(line, bridge string, subnet *net.IPNet) bool {
	if strings.Contains(line, bridge) || strings.Contains(line, "LOCKBENCH") {
		return true
	}
	return subnet != nil && slices.ContainsFunc(address.FindAllString(line, -1), func(a string) bool {
		return subnet.Contains(net.ParseIP(a))
	})
}

// Isolating a node from a set cuts each link; healing all restores them.
func TestContainerIsolateAndHealAll(t *testing.T) {
	t.Parallel()
	topo := startContainers(t, backend.Spec{Kind: topologies.Replicated, Replicas: 2,
		ExtraConfig: []string{"repl-ping-replica-period 1", "repl-timeout 3"}})
	master := topo.Masters()[0]
	if err := topologies.Isolate(topo, master, topo.Nodes()); err != nil {
		t.Fatal(err)
	}
	for _, r := range topo.Replicas() {
		waitLink(t, r.Addr(), false)
	}
	if err := topo.HealAll(); err != nil {
		t.Fatal(err)
	}
	for _, r := range topo.Replicas() {
		waitLink(t, r.Addr(), true)
	}
}

func TestContainerPartitionAcrossTopologiesRefused(t *testing.T) {
	t.Parallel()
	a := startContainers(t, backend.Spec{Kind: topologies.Single})
	b := startContainers(t, backend.Spec{Kind: topologies.Single})
	if err := a.Cut(a.Masters()[0], b.Masters()[0]); err == nil {
		t.Fatal("a cut between nodes of two topologies was accepted")
	}
	if n := Cuts(a); n != 0 {
		t.Fatalf("a refused cut left %d cuts behind", n)
	}
}

func TestContainerUnknownImageIsAClearError(t *testing.T) {
	requireEngine(t)
	rediscontainer.SetImage("lockbench/no-such-image:" + strconv.Itoa(os.Getpid()))
	defer rediscontainer.SetImage("")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := Provider{}.Start(ctx, backend.Spec{Kind: topologies.Single})
	if err == nil {
		t.Fatal("an image that does not exist started")
	}
	t.Logf("error: %v", err)
}

// waitLink polls the replica until its master link is up (or down), with a deadline.
func waitLink(t *testing.T, addr string, up bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		info, err := redisadmin.Replication(context.Background(), addr)
		if err == nil && info.LinkUp == up {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: master link up=%v not reached in 30 s (last %+v, %v)", addr, up, info, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func waitValue(t *testing.T, addr, key, want string) {
	t.Helper()
	c := client0(t, addr)
	deadline := time.Now().Add(30 * time.Second)
	for {
		v, err := c.Get(context.Background(), key).Result()
		if err == nil && v == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s = %q, %v after 30 s; want %q", addr, key, v, err, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A skewed node's clock runs under libfaketime inside the container.
func TestContainerClockJumpExpiresKey(t *testing.T) {
	t.Parallel()
	topo := startContainers(t, backend.Spec{Kind: topologies.Single,
		Clocks: map[string]clocks.Model{"master-0": {Offset: time.Hour, Jumps: []clocks.Jump{{After: "grant", By: time.Minute}}}}})
	n := topo.Masters()[0]
	c := client0(t, n.Addr())
	ctx := context.Background()
	got, err := c.Time(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	if ahead := time.Until(got); ahead < 59*time.Minute || ahead > 61*time.Minute {
		t.Fatalf("server clock is %v ahead; its model says 1h", ahead)
	}
	if err := c.Set(ctx, "k", "v", 30*time.Second).Err(); err != nil {
		t.Fatal(err)
	}
	topologies.NodeClock(n).FireNow("grant")
	gone := testenv.Poll(t, 10*time.Second, 5*time.Millisecond, func() (bool, error) {
		left, err := c.Exists(ctx, "k").Result()
		return left == 0, err
	})
	if !gone {
		t.Fatal("a 30 s key survived a 1 min forward jump for 10 s")
	}
}
