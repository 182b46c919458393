package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/sweep"
)

func TestRunRefusesBadInputAndCreatesNothing(t *testing.T) {
	dir := t.TempDir()
	badConfig := filepath.Join(dir, "bad.yaml")
	os.WriteFile(badConfig, []byte("sweeps:\n  - strategies: [single]\n    clientz: [8]\n"), 0o644)
	wrongType := filepath.Join(dir, "wrong.yaml")
	os.WriteFile(wrongType, []byte("warmup: [1s]\n"), 0o644)
	cases := map[string][]string{
		"zookeeper":       {"--strategies", "zookeeper"},
		"clients = 0":     {"--clients", "0"},
		"rate = -5":       {"--load", "open", "--rate", "-5"},
		"duration = 0s":   {"--duration", "0"},
		"network profile": {"--network", "wan"},
		"clientz":         {"--config", badConfig},
		"warmup":          {"--config", wrongType},
		"progress":        {"--progress", "fancy"},
		"provider":        {"--provider", "cloud"},
	}
	for want, args := range cases {
		out := filepath.Join(dir, "out-"+strings.ReplaceAll(want, " ", "_"))
		var stderr bytes.Buffer
		code := run(append([]string{"run", "--out", out}, args...), nil, io.Discard, &stderr)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, exitUsage, stderr.String())
		}
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("%v: message %q does not name %q", args, stderr.String(), want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: results folder created for bad input", args)
		}
	}
}

func TestFlagsOverrideTheConfigFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	file := sweep.Config{
		Duration: sweep.Duration(7 * time.Second), Seed: 9,
		Sweeps: []sweep.Sweep{{Strategies: []string{"redlock"}, Clients: []int{2, 4}}, {Strategies: []string{"single"}, Clients: []int{3}}},
	}
	data, _ := file.YAML()
	os.WriteFile(path, data, 0o644)

	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var f runFlags
	f.register(fs)
	if err := fs.Parse([]string{"--config", path, "--clients", "16", "--seed", "5"}); err != nil {
		t.Fatal(err)
	}
	cfg, err := f.resolve(fs)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Duration != file.Duration || cfg.Seed != 5 {
		t.Errorf("duration %v seed %d; want the file's 7s and the flag's 5", cfg.Duration, cfg.Seed)
	}
	if len(cfg.Sweeps) != 2 || cfg.Sweeps[0].Strategies[0] != "redlock" {
		t.Fatalf("sweeps from the file lost: %+v", cfg.Sweeps)
	}
	for i, s := range cfg.Sweeps {
		if len(s.Clients) != 1 || s.Clients[0] != 16 {
			t.Errorf("sweep %d clients %v, want the flag's [16]", i, s.Clients)
		}
	}
}
