package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies/testenv"
)

func TestSafetyBadProviderOrClockParamExitsTwo(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--scenario", "redlock-clock-jump", "--provider", "nope"}, "--provider"},
		{[]string{"--scenario", "redlock-clock-jump", "--provider", "embedded", "--param", "k=7"}, "k="},
		{[]string{"--scenario", "redlock-clock-rate", "--provider", "embedded", "--param", "rates=fast"}, "rates"},
		{[]string{"--scenario", "redlock-kleppmann", "--provider", "embedded", "--param", "ttl=10ms"}, "ttl"},
	} {
		out := filepath.Join(t.TempDir(), "results")
		var stdout, stderr bytes.Buffer
		args := append(append([]string{"safety"}, c.args...), "--out", out)
		if code := run(args, nil, &stdout, &stderr); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (stderr %s)", c.args, code, exitUsage, stderr.String())
		}
		if !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: stderr %q does not name %q", c.args, stderr.String(), c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: wrote %s on bad input", c.args, out)
		}
	}
}

// The embedded provider needs nothing installed: Kleppmann's sequence runs end to end.
// At a 3 s TTL redsync gives each node 150 ms: at 300 ms (15 ms a node), beside a
// loaded make test, B never got in, its refused attempts leaving a partial lock behind.
func TestSafetyKleppmannOnTheEmbeddedProvider(t *testing.T) {
	t.Parallel()
	testenv.NeedsServers(t)
	out := filepath.Join(t.TempDir(), "results")
	var stdout, stderr bytes.Buffer
	args := []string{"safety", "--scenario", "redlock-kleppmann", "--provider", "embedded", "--trials", "1",
		"--param", "ttl=3s", "--param", "jump=1500ms", "--out", out}
	if code := run(args, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	res, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Reports) != 1 {
		t.Fatalf("results.json holds %d reports, want 1", len(res.Reports))
	}
	jump := res.Reports[0].Variant("jump")
	if jump == nil || jump.Tally.Judged != 1 || jump.Tally.Broke[results.Violations] != 1 {
		t.Errorf("the jump variant: %+v, want its one judged trial to have two holders", jump)
	}
	if !strings.Contains(stdout.String(), "| jump |") || !strings.Contains(stdout.String(), "1 of 1 judged (") {
		t.Errorf("the table lacks the breaking jump variant:\n%s", stdout.String())
	}
}
