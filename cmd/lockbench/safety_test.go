package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/safety"
)

func TestSafetyBadInputExitsTwoAndWritesNothing(t *testing.T) {
	cases := []struct {
		args []string
		want string // the field the error must name
	}{
		{[]string{"--out", "OUT"}, "--scenario"},
		{[]string{"--scenario", "no-such", "--out", "OUT"}, "--scenario"},
		{[]string{"--scenario", "setnx-expire"}, "--out"},
		{[]string{"--scenario", "setnx-expire", "--trials", "0", "--out", "OUT"}, "--trials"},
		{[]string{"--scenario", "setnx-expire", "--param", "ttl=soon", "--out", "OUT"}, "ttl"},
		{[]string{"--scenario", "setnx-expire", "--param", "bogus=1", "--out", "OUT"}, "bogus"},
		{[]string{"--scenario", "setnx-expire", "--param", "novalue", "--out", "OUT"}, "param"},
		{[]string{"--scenario", "failover-loss", "--param", "modes=none,quorum", "--out", "OUT"}, "modes"},
		{[]string{"--scenario", "setnx-expire", "--out", "OUT", "extra"}, "extra"},
	}
	for _, c := range cases {
		out := filepath.Join(t.TempDir(), "results")
		args := []string{"safety"}
		for _, a := range c.args {
			args = append(args, strings.ReplaceAll(a, "OUT", out))
		}
		var stdout, stderr bytes.Buffer
		if code := run(args, nil, &stdout, &stderr); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (stderr %s)", c.args, code, exitUsage, stderr.String())
		}
		if !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: error %q does not name %s", c.args, stderr.String(), c.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: %s exists after bad input", c.args, out)
		}
	}
}

func TestSafetyRunWritesResults(t *testing.T) {
	testenv.RequireRedis(t)
	out := filepath.Join(t.TempDir(), "results")
	var stdout, stderr bytes.Buffer
	code := run([]string{"safety", "--scenario", "unsafe-release", "--trials", "1", "--seed", "7", "--out", out}, nil, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res safety.Results
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Reports) != 1 || res.Reports[0].Scenario != "unsafe-release" || res.Reports[0].Seed != 7 {
		t.Fatalf("results.json: %+v", res.Reports)
	}
	plain := res.Reports[0].Variants[0]
	if plain.Name != "plain-del" || plain.Violations == 0 {
		t.Errorf("plain-del: %+v, want violations", plain)
	}
	if len(plain.Visualizations) == 0 {
		t.Errorf("plain-del broke but no porcupine page was written")
	}
	for _, page := range plain.Visualizations {
		if _, err := os.Stat(page); err != nil {
			t.Errorf("visualization: %v", err)
		}
	}
	if md, err := os.ReadFile(filepath.Join(out, "results.md")); err != nil || !strings.Contains(string(md), "| plain-del |") {
		t.Errorf("results.md: %v", err)
	}
}
