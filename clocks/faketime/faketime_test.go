package faketime_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/backends/redis/redistopo"
	"github.com/lockbench/lockbench/clocks"
	"github.com/lockbench/lockbench/clocks/faketime"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// startSkewed starts one redis-server whose clock follows m, or skips without the tools.
func startSkewed(t *testing.T, m clocks.Model) (topologies.Node, *redis.Client) {
	t.Helper()
	if err := testenv.RequireSkewedRedis(t); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	topo, err := redistopo.Process{}.Start(ctx, backend.Spec{Kind: topologies.Single, Clocks: map[string]clocks.Model{"master-0": m}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { topo.Close() })
	node := topo.Masters()[0]
	c := redis.NewClient(&redis.Options{Addr: node.Addr(), Protocol: 2, DisableIdentity: true})
	t.Cleanup(func() { c.Close() })
	return node, c
}

// serverSkew is how far the server's wall clock reads outside what the model read just
// before and just after asking it: 0 inside. The server read its clock between the two,
// so a slow round trip (a loaded machine, at rate 3 thrice as long in model time) widens
// the window instead of counting against the clock.
func serverSkew(t *testing.T, c *redis.Client, want *clocks.NodeClock) time.Duration {
	t.Helper()
	lo, hi := offsetWindow(t, c, want)
	switch {
	case hi < 0:
		return hi
	case lo > 0:
		return lo
	}
	return 0
}

// Within libfaketime's microsecond formatting and the model's origin against libfaketime's
// in the started process, generously; the round trip is no longer in it (serverSkew).
const agreement = 50 * time.Millisecond

func TestServerClockFollowsOffsetAndRate(t *testing.T) {
	node, c := startSkewed(t, clocks.Model{Offset: time.Hour, Rate: 3})
	model := topologies.NodeClock(node)
	if model == nil {
		t.Fatal("skewed node reports no clock")
	}
	// Read on until the model has run 300 ms (900 ms of node time): a wrong rate drifts past agreement.
	agreesFor(t, c, model, 300*time.Millisecond, "offset 1h, rate 3")
	// A restart starts a new process; the rate must carry on from where the model is.
	if err := node.Restart(context.Background(), topologies.RestartEmpty); err != nil {
		t.Fatal(err)
	}
	agreesFor(t, c, model, 100*time.Millisecond, "after restart")
}

// originSlack bounds the offset of a clock that runs at a rate: libfaketime counts the
// rate from its own start in the server process, which a loaded machine puts later than
// the model's start (at rate 3, 93 ms off at load 20-45), so the readings are held to one
// offset among themselves, within agreement, and that offset to the model only within
// originSlack. An offset of an hour still shows, and so does a wrong rate.
const originSlack = 5 * time.Second

// offsetWindow is what one reading says of the server's offset from its model: it lies
// between lo and hi, the server having read its clock while the model ran from before to
// after (a slow round trip widens the window, never moves it).
func offsetWindow(t *testing.T, c *redis.Client, model *clocks.NodeClock) (lo, hi time.Duration) {
	t.Helper()
	before := model.Now()
	got, err := c.Time(context.Background()).Result()
	if err != nil {
		t.Fatal(err)
	}
	return got.Sub(model.Now()), got.Sub(before)
}

// agreesFor reads the server's clock until the model has run for span: every reading
// must allow one offset, give or take agreement (a wrong rate drifts out of it), within
// originSlack of the model.
func agreesFor(t *testing.T, c *redis.Client, model *clocks.NodeClock, span time.Duration, what string) {
	t.Helper()
	until := model.Elapsed() + span
	maxLo, minHi := offsetWindow(t, c, model)
	for i := 1; ; i++ {
		time.Sleep(10 * time.Millisecond)
		lo, hi := offsetWindow(t, c, model)
		maxLo, minHi = max(maxLo, lo), min(minHi, hi)
		if maxLo-minHi > agreement {
			t.Fatalf("%s, reading %d: the readings drift at least %v from any one offset", what, i, maxLo-minHi)
		}
		if model.Elapsed() >= until {
			break
		}
	}
	if minHi < -originSlack || maxLo > originSlack {
		t.Fatalf("%s: server clock is %v to %v away from its model", what, maxLo, minHi)
	}
}

func TestJumpAfterEventExpiresKeyAtOnce(t *testing.T) {
	node, c := startSkewed(t, clocks.Model{Jumps: []clocks.Jump{{After: "grant", By: time.Minute}}})
	ctx := context.Background()
	if err := c.Set(ctx, "k", "v", 30*time.Second).Err(); err != nil {
		t.Fatal(err)
	}
	if n, _ := c.Exists(ctx, "k").Result(); n != 1 {
		t.Fatal("key gone before the jump")
	}
	topologies.NodeClock(node).FireNow("grant")
	// The driver rewrites the file when the event fires; wait for the server to see it.
	gone := testenv.Poll(t, 5*time.Second, time.Millisecond, func() (bool, error) {
		n, err := c.Exists(ctx, "k").Result()
		return n == 0, err
	})
	if !gone {
		t.Fatal("a 30 s key survived a 1 min forward jump for 5 s")
	}
	if d := serverSkew(t, c, topologies.NodeClock(node)); d < -agreement || d > agreement {
		t.Fatalf("after the jump the server clock is %v away from its model", d)
	}
}

func TestBackwardJumpKeepsKeyLonger(t *testing.T) {
	node, c := startSkewed(t, clocks.Model{Jumps: []clocks.Jump{{After: "grant", By: -time.Hour}}})
	ctx := context.Background()
	if err := c.Set(ctx, "k", "v", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	topologies.NodeClock(node).FireNow("grant")
	// The driver rewrites the file when the event fires; wait for the server to see it.
	var ms time.Duration
	longer := testenv.Poll(t, 5*time.Second, time.Millisecond, func() (bool, error) {
		var err error
		ms, err = c.PTTL(ctx, "k").Result()
		return ms > time.Hour, err
	})
	if !longer {
		t.Fatalf("PTTL 5 s after a -1h jump = %v, want over 1h (the key lives by the node's clock)", ms)
	}
}

func TestPreloadIsBuiltOnceAndCached(t *testing.T) {
	a, err := faketime.Preload()
	if errors.Is(err, faketime.ErrNoCompiler) {
		testenv.MissingTool(t, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	b, err := faketime.Preload()
	if err != nil || a != b {
		t.Fatalf("second Preload = %q, %v; want %q", b, err, a)
	}
}

func TestUnknownSkewedNodeIsRefused(t *testing.T) {
	spec := backend.Spec{Kind: topologies.Redlock, Clocks: map[string]clocks.Model{"master-" + strconv.Itoa(5): {Rate: 2}}}.WithDefaults(linked.Catalog())
	if err := spec.Validate(linked.Catalog()); err == nil {
		t.Fatal("a clock for master-5 of a five-node redlock was accepted")
	}
	spec.Clocks = map[string]clocks.Model{"master-4": {Rate: -1}}
	if err := spec.Validate(linked.Catalog()); err == nil {
		t.Fatal("a negative rate was accepted")
	}
}

// A strobe steps the offset back and forth. libfaketime must follow the file at every
// read, and the driver must bring the file to each side of the strobe. How late the
// driver's rewrite lands after an edge depends on how busy the machine is (under -race
// on 2 shared cores, more than 20 ms; under a loaded run, a whole 100 ms half-period), so
// reads taken while the file and the model disagree judge only the first promise, and
// the reads go on, for up to ten periods of a second, until both sides were seen.
func TestServerClockFollowsAStrobe(t *testing.T) {
	const period = time.Second
	node, c := startSkewed(t, clocks.Model{Strobe: clocks.Strobe{Amplitude: time.Hour, Period: period}, Seed: 7})
	model := topologies.NodeClock(node)
	spec := filepath.Join(serverDir(t, c), "faketime.spec")
	high, low, lagging := 0, 0, 0
	began := model.Elapsed()
	for i := 0; i < 40 || (high == 0 || low == 0) && model.Elapsed()-began < 10*period; i++ {
		from, fileBefore := model.Elapsed(), specOffset(t, spec)
		d := serverSkew(t, c, model)
		to, fileAfter := model.Elapsed(), specOffset(t, spec)
		time.Sleep(13 * time.Millisecond)
		if fileBefore != fileAfter || len(model.Breakpoints(from, to)) > 0 {
			continue // the file or the model moved during the read: either side is right
		}
		step := model.Step(from)
		// d is the server against the model; the server should read the file's offset.
		if off := d + step - fileBefore; off < -agreement || off > agreement {
			t.Fatalf("read %d: server clock %v away from its file's offset %v (model step %v)", i, off, fileBefore, step)
		}
		switch {
		case fileBefore != step:
			lagging++ // the driver has not yet rewritten the file for the last edge
		case step == time.Hour:
			high++
		default:
			low++
		}
	}
	t.Logf("reads in step with the model: %d high, %d low; %d while the driver lagged an edge", high, low, lagging)
	if high == 0 || low == 0 {
		t.Fatalf("saw the strobe high %d and low %d times: want both", high, low)
	}
}

// serverDir is the server's working dir (CONFIG GET dir): its node dir, where the
// clock's timestamp file is.
func serverDir(t *testing.T, c *redis.Client) string {
	t.Helper()
	kv, err := c.ConfigGet(context.Background(), "dir").Result()
	if err != nil || kv["dir"] == "" {
		t.Fatalf("CONFIG GET dir: %v %v", kv, err)
	}
	return kv["dir"]
}

// specOffset is the offset the timestamp file says now ("+3600.000000000 x1.000000000").
func specOffset(t *testing.T, path string) time.Duration {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var secs, rate float64
	if _, err := fmt.Sscanf(string(b), "%f x%f", &secs, &rate); err != nil {
		t.Fatalf("%s: %q: %v", path, b, err)
	}
	return time.Duration(secs * float64(time.Second))
}
