package sweep

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/resultsdir"
)

// TestResumeChecksTheRunItCarriesOn: a folder resumes only under the config it saved
// and the software it was measured with; every refusal names the first difference.
func TestResumeChecksTheRunItCarriesOn(t *testing.T) {
	cfg := Config{Duration: Duration(time.Second), Seed: 3, Sweeps: []Sweep{{Strategies: []string{"single"}, Clients: []int{1, 8}, Keys: []string{"1"}}}}
	env := resultsdir.Environment{GoVersion: "go1.26.8", RedisServer: "Redis server v=8.0.2", Libraries: map[string]string{"github.com/redis/go-redis/v9": "v9.23.0"}}
	dir := t.TempDir()
	if err := SaveConfig(dir, cfg); err != nil {
		t.Fatal(err)
	}
	run := &resultsdir.Run{Environment: env, Cells: []resultsdir.Cell{{Name: "strategy=single/clients=1", Repeat: 0}}}
	if err := resultsdir.WriteRun(dir, run); err != nil {
		t.Fatal(err)
	}

	back, err := Resume(dir, cfg, env)
	if err != nil {
		t.Fatalf("the same run: %v", err)
	}
	if !back.Has("strategy=single/clients=1", 0) || back.Has("strategy=single/clients=1", 1) || back.Environment.Topologies == nil {
		t.Errorf("resumed run %+v: want its one cell, by name and repeat, and a topologies map to fill", back)
	}

	other := func(change func(*Config, *resultsdir.Environment)) (Config, resultsdir.Environment) {
		c, e := cfg, env
		c.Sweeps = []Sweep{cfg.Sweeps[0]}
		e.Libraries = map[string]string{"github.com/redis/go-redis/v9": "v9.23.0"}
		change(&c, &e)
		return c, e
	}
	for want, change := range map[string]func(*Config, *resultsdir.Environment){
		"seed is 4 here, 3 there":                     func(c *Config, _ *resultsdir.Environment) { c.Seed = 4 },
		"sweeps[0].clients is [1 4] here, [1 8]":      func(c *Config, _ *resultsdir.Environment) { c.Sweeps[0].Clients = []int{1, 4} },
		"duration is 2s here, 1s there":               func(c *Config, _ *resultsdir.Environment) { c.Duration = Duration(2 * time.Second) },
		"repeat is 2 here, 0 there":                   func(c *Config, _ *resultsdir.Environment) { c.Repeat = 2 },
		`redis_server is "Redis server v=7.4.1" here`: func(_ *Config, e *resultsdir.Environment) { e.RedisServer = "Redis server v=7.4.1" },
		"libraries[github.com/redis/go-redis/v9]":     func(_ *Config, e *resultsdir.Environment) { e.Libraries["github.com/redis/go-redis/v9"] = "v9.1.0" },
		"go_version": func(_ *Config, e *resultsdir.Environment) { e.GoVersion = "go1.25.0" },
	} {
		c, e := other(change)
		if _, err := Resume(dir, c, e); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("resume after %q: %v", want, err)
		}
	}

	// A folder saved before the wait was a setting names none: it was measured one
	// attempt at a time and resumes so, never under today's default.
	oldDir := t.TempDir()
	if err := resultsdir.WriteFileAtomic(filepath.Join(oldDir, resultsdir.ConfigFile),
		[]byte("duration: 1s\nseed: 3\nsweeps:\n  - strategies: [single]\n    clients: [1, 8]\n    keys: [\"1\"]\n")); err != nil {
		t.Fatal(err)
	}
	if err := resultsdir.WriteRun(oldDir, run); err != nil {
		t.Fatal(err)
	}
	if saved, err := ReadConfig(oldDir); err != nil || saved.WaitMode() != "attempts" {
		t.Errorf("a config without wait reads as %q (%v), want attempts", saved.Wait, err)
	}
	if _, err := Resume(oldDir, cfg, env); err == nil || !strings.Contains(err.Error(), `wait is "natural" here, "attempts"`) {
		t.Errorf("resume of an attempts folder under the natural default: %v", err)
	}
	attempts := cfg
	attempts.Wait = "attempts"
	if _, err := Resume(oldDir, attempts, env); err != nil {
		t.Errorf("resume of an attempts folder asked as attempts: %v", err)
	}

	os.Remove(filepath.Join(dir, resultsdir.ConfigFile))
	if _, err := Resume(dir, cfg, env); err == nil || !strings.Contains(err.Error(), "cannot resume") {
		t.Errorf("a folder without its config: %v", err)
	}
}
