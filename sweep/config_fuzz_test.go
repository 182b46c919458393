package sweep_test

import (
	"testing"

	"github.com/lockbench/lockbench/sweep"
)

// FuzzParseYAML feeds config files to the reader and the matrix behind it: refuse or
// read, never panic; a config it reads must write a file it reads again.
func FuzzParseYAML(f *testing.F) {
	for _, seed := range []string{
		"duration: 5s\nwarmup: 1s\nseed: 1\nsweeps:\n  - strategies: [single, wait, sentinel, redlock]\n    clients: [1, 8, 64, 256]\n    keys: [\"1\", per-client]\n",
		"sweeps:\n  - strategies: [redlock, redlock-failfast]\n    clients: [8]\n    keys: [per-client]\n    network: [none, \"one-slow:20ms\", \"uniform:5ms~1ms\", \"one-slow:20ms@master-2\"]\n",
		"sweeps:\n  - strategies: [single]\n    clients: [64]\n    load: open\n    arrival: poisson\n    rate: [1000, 4000, 16000]\n",
		"intervals: 5\nrepeat: 2\nretry_delay: 1ms\nprovider: embedded\nsweeps:\n  - strategies: [single, cas-version]\n    workload: update\n    guards: [fenced, unfenced+outbox]\n    hold: [0s, 1ms]\n    ttl: [10s]\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := sweep.ParseYAML(data)
		if err != nil {
			return
		}
		if matrixSize(cfg) <= 4096 { // the product of the axes: keep one input's work small
			cfg.Cells()
		}
		out, err := cfg.YAML()
		if err != nil {
			t.Fatalf("a config read from %q does not write: %v", data, err)
		}
		if _, err := sweep.ParseYAML(out); err != nil {
			t.Fatalf("a config read from %q wrote %q, which does not read back: %v", data, out, err)
		}
	})
}

// matrixSize is how many cells cfg's sweeps name before repeats, at least one per axis.
func matrixSize(cfg sweep.Config) int {
	total := 0
	for _, s := range cfg.Sweeps {
		n := 1
		for _, axis := range []int{len(s.Strategies), len(s.Clients), len(s.Keys), len(s.Hold), len(s.TTL), len(s.Network), len(s.Rate), len(s.Guards)} {
			n *= max(axis, 1)
		}
		total += n
	}
	return total
}
