package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSafetyBadProviderOrClockParamExitsTwo(t *testing.T) {
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
func TestSafetyKleppmannOnTheEmbeddedProvider(t *testing.T) {
	out := filepath.Join(t.TempDir(), "results")
	var stdout, stderr bytes.Buffer
	args := []string{"safety", "--scenario", "redlock-kleppmann", "--provider", "embedded", "--trials", "1", "--param", "ttl=300ms", "--param", "jump=150ms", "--out", out}
	if code := run(args, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(out, "results.json")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "| jump | violations breaks | 1 | 1 |") {
		t.Errorf("the table lacks the breaking jump variant:\n%s", stdout.String())
	}
}
