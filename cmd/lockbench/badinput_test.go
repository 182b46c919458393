package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/internal/golden"
	"github.com/lockbench/lockbench/report/synth"
)

// badInput is one command line the CLI must refuse. In args, OUT is a folder that must
// not come to exist, GOOD a results folder that must stay as it was, and CONFIG:name a
// YAML file of configs[name].
type badInput struct {
	args []string
	want string // the field or value the message must name
}

// Config files the run refusals read, by name.
var badConfigs = map[string]string{
	"empty":          "\n",
	"unknown-field":  "sweeps:\n  - strategies: [single]\n    clientz: [8]\n",
	"unknown-top":    "durations: 5s\n",
	"wrong-type":     "warmup: [1s]\n",
	"nan-duration":   "duration: NaN\n",
	"neg-duration":   "duration: -5s\n",
	"neg-warmup":     "warmup: -1s\n",
	"neg-hold":       "sweeps:\n  - strategies: [single]\n    hold: [-1ms]\n",
	"key-twice":      "duration: 1s\nduration: 2s\n",
	"strategy-twice": "sweeps:\n  - strategies: [single, single]\n",
	"empty-entry":    "sweeps:\n  - strategies: [single, \"\"]\n",
	"clients-twice":  "sweeps:\n  - strategies: [single]\n    clients: [8, 8]\n",
	"network-twice":  "sweeps:\n  - strategies: [single]\n    network: [none, none]\n",
	"keys-twice":     "sweeps:\n  - strategies: [single]\n    keys: [\"1\", \"1\"]\n",
	"nan-rate":       "sweeps:\n  - strategies: [single]\n    load: open\n    rate: [.nan]\n",
	"inf-rate":       "sweeps:\n  - strategies: [single]\n    load: open\n    rate: [.inf]\n",
	"negative-seed":  "seed: -1\n",
	"one-interval":   "intervals: 1\n",
	"bad-wait":       "wait: eager\n",
	"bad-server":     "server: keydb\n",
	"not-a-mapping":  "[1, 2]\n",
}

// Deployment files the external refusals read, by name (DEPLOY:name).
var badDeployments = map[string]string{
	"empty":            "\n",
	"unknown-field":    "single:\n  master: 127.0.0.1:1\nauth:\n  username: u\n  password: hunter2\n",
	"no-role":          "auth:\n  username: u\n",
	"single-only":      "single:\n  master: 127.0.0.1:1\n",
	"missing-pw-file":  "single:\n  master: 127.0.0.1:1\nauth:\n  password_file: /nonexistent/pw\n",
	"unset-pw-env":     "single:\n  master: 127.0.0.1:1\nauth:\n  password_env: LOCKBENCH_TEST_UNSET_VARIABLE\n",
	"both-pw":          "single:\n  master: 127.0.0.1:1\nauth:\n  password_file: /x\n  password_env: X\n",
	"redlock-3":        "redlock:\n  masters: [127.0.0.1:1, 127.0.0.1:2, 127.0.0.1:3]\n",
	"even-redlock":     "redlock:\n  masters: [127.0.0.1:1, 127.0.0.1:2]\n",
	"sentinel-no-name": "sentinel:\n  sentinels: [127.0.0.1:1]\n",
}

var badInputs = map[string][]badInput{
	"run": {
		{[]string{"--strategies", "consul"}, "consul"},
		{[]string{"--strategies", "single,single"}, "names single twice"},
		{[]string{"--strategies", "single,,redlock"}, "has an empty entry"},
		{[]string{"--clients", "0"}, "clients = 0"},
		{[]string{"--clients", "1,-1"}, "clients = -1"},
		{[]string{"--clients", "eight"}, `"eight" is not a whole number`},
		{[]string{"--keys", "0"}, `keys "0"`},
		{[]string{"--hold", "-1ms"}, "hold = -1ms"},
		{[]string{"--hold", "1ms,1ms"}, "names 1ms twice"},
		{[]string{"--ttl", "0s"}, "ttl = 0s"},
		{[]string{"--duration", "0"}, "duration = 0s"},
		{[]string{"--duration", "-1s"}, "duration = -1s"},
		{[]string{"--duration", "NaN"}, "--duration"},
		{[]string{"--warmup", "-1s"}, "warmup = -1s"},
		{[]string{"--retry-delay", "-1ms"}, "retry_delay = -1ms"},
		{[]string{"--wait", "patient"}, `wait = "patient"`},
		{[]string{"--config", "CONFIG:bad-wait"}, `wait = "eager"`},
		{[]string{"--server", "keydb"}, `server "keydb": want redis or valkey`},
		{[]string{"--appendfsync", "sometimes"}, `appendfsync "sometimes": want always, everysec, no`},
		{[]string{"--appendfsync", "no,no"}, `--appendfsync: "no,no" names no twice`},
		{[]string{"--strategies", "etcd", "--appendfsync", "always"}, "strategy etcd: appendfsync \"always\": etcd always persists"},
		{[]string{"--config", "CONFIG:bad-server"}, `server "keydb"`},
		{[]string{"--seed", "x"}, "--seed"},
		{[]string{"--network", "wan"}, "network profile"},
		{[]string{"--network", "none,none"}, "names none twice"},
		{[]string{"--load", "sideways"}, `load "sideways"`},
		{[]string{"--rate", "10"}, "only an open load has a rate"},
		{[]string{"--load", "open", "--rate", "-5"}, "rate = -5"},
		{[]string{"--load", "open", "--rate", "0"}, "rate = 0"},
		{[]string{"--load", "open", "--rate", "Inf"}, "must be a finite number"},
		{[]string{"--load", "open", "--rate", "NaN"}, "rate = NaN"},
		{[]string{"--load", "open", "--rate", "10", "--arrival", "bursty"}, `arrival "bursty"`},
		{[]string{"--progress", "fancy"}, "progress"},
		{[]string{"--provider", "cloud"}, "provider"},
		{[]string{"--intervals", "0"}, "intervals = 0"},
		{[]string{"--intervals", "1"}, "intervals = 1: want at least 2"},
		{[]string{"--intervals", "ten"}, "--intervals"},
		{[]string{"--duration", "5s", "--intervals", "60"}, "intervals = 60: a measured duration of 5s holds"},
		{[]string{"--repeat", "0"}, "repeat = 0"},
		{[]string{"--repeat", "-2"}, "repeat = -2"},
		{[]string{"--crash-handoffs", "-1"}, "crash-handoffs = -1"},
		{[]string{"--crash-handoffs", "two"}, "--crash-handoffs"},
		{[]string{"--crash-handoffs", "2", "--strategies", "sentinel"}, "strategy sentinel runs on sentinel, whose clients learn"},
		{[]string{"--crash-handoffs", "2", "--strategies", "cluster"}, "strategy cluster runs on cluster"},
		{[]string{"--beside", "-1", "--hold", "1s"}, "beside = -1"},
		{[]string{"--beside", "many"}, "--beside"},
		{[]string{"--beside", "2", "--hold", "5ms"}, "holds 5ms, under 1s"},
		{[]string{"--beside", "2", "--hold", "1s", "--repeat", "2"}, "repeats are passes over the whole matrix"},
		{[]string{"--workload", "batch"}, `--workload "batch"`},
		{[]string{"--workload", "update", "--strategies", "redlock", "--guards", "fenced"}, "guard fenced needs a fencing token and strategy redlock has none"},
		{[]string{"--workload", "update", "--strategies", "single", "--guards", "fancy"}, `unknown guard mode "fancy"`},
		{[]string{"--workload", "update", "--strategies", "single", "--network", "uniform:1ms"}, "the update workload runs without a network"},
		{[]string{"--strategies", "cas-version"}, "cas-version is lock-free"},
		{[]string{"--guards", "fenced"}, "guards: only the update workload"},
		{[]string{"extra"}, `unexpected arguments ["extra"]`},
		{[]string{"--resume", "OUT"}, ": no such folder"},
		{[]string{"--config", "/nonexistent/sweep.yaml"}, "config"},
		{[]string{"--config", "CONFIG:empty"}, "the file is empty"},
		{[]string{"--config", "CONFIG:unknown-field"}, "clientz"},
		{[]string{"--config", "CONFIG:unknown-top"}, "durations"},
		{[]string{"--config", "CONFIG:wrong-type"}, "warmup"},
		{[]string{"--config", "CONFIG:nan-duration"}, `"NaN" is not a duration`},
		{[]string{"--config", "CONFIG:neg-duration"}, "duration = -5s"},
		{[]string{"--config", "CONFIG:neg-warmup"}, "warmup = -1s"},
		{[]string{"--config", "CONFIG:neg-hold"}, "hold = -1ms"},
		{[]string{"--config", "CONFIG:key-twice"}, `mapping key "duration" already defined`},
		{[]string{"--config", "CONFIG:strategy-twice"}, "strategies: single is named twice"},
		{[]string{"--config", "CONFIG:empty-entry"}, "strategies: an empty entry"},
		{[]string{"--config", "CONFIG:clients-twice"}, "clients: 8 is named twice"},
		{[]string{"--config", "CONFIG:network-twice"}, "network: none is named twice"},
		{[]string{"--config", "CONFIG:keys-twice"}, "keys: 1 is named twice"},
		{[]string{"--config", "CONFIG:nan-rate"}, "rate = NaN"},
		{[]string{"--config", "CONFIG:inf-rate"}, "rate = +Inf"},
		{[]string{"--config", "CONFIG:negative-seed"}, `field "seed"`},
		{[]string{"--config", "CONFIG:one-interval"}, "intervals = 1"},
		{[]string{"--config", "CONFIG:not-a-mapping"}, "cannot unmarshal"},
		// Provider external: the deployment file, its secrets, and what it refuses to do.
		{[]string{"--deployment", "/nonexistent/deployment.yaml"}, "deployment file"},
		{[]string{"--deployment", "DEPLOY:empty"}, "the file is empty"},
		{[]string{"--deployment", "DEPLOY:unknown-field", "--strategies", "single"}, "password"},
		{[]string{"--deployment", "DEPLOY:no-role"}, "no role given"},
		{[]string{"--deployment", "DEPLOY:single-only", "--strategies", "redlock"}, "strategy redlock needs role redlock.masters"},
		{[]string{"--deployment", "DEPLOY:single-only", "--strategies", "wait"}, "strategy wait needs role replicated.master"},
		{[]string{"--deployment", "DEPLOY:sentinel-no-name", "--strategies", "sentinel"}, "sentinel.master_name"},
		{[]string{"--deployment", "DEPLOY:even-redlock", "--strategies", "redlock"}, "odd number"},
		{[]string{"--deployment", "DEPLOY:missing-pw-file", "--strategies", "single"}, "password_file"},
		{[]string{"--deployment", "DEPLOY:unset-pw-env", "--strategies", "single"}, "LOCKBENCH_TEST_UNSET_VARIABLE"},
		{[]string{"--deployment", "DEPLOY:both-pw", "--strategies", "single"}, "not both"},
		{[]string{"--deployment", "DEPLOY:single-only", "--strategies", "single", "--network", "uniform:1ms"}, "lockbench only breaks servers it owns"},
		{[]string{"--deployment", "DEPLOY:single-only", "--strategies", "single", "--workload", "update"}, "--workload update on provider external"},
		{[]string{"--deployment", "DEPLOY:single-only", "--strategies", "etcd-unsafe-nofsync"}, "unsafe-no-fsync"},
		{[]string{"--deployment", "DEPLOY:single-only", "--strategies", "zookeeper"}, "provider external does not serve zookeeper"},
		{[]string{"--deployment", "DEPLOY:single-only", "--strategies", "pg-advisory"}, "provider external does not serve postgres"},
		{[]string{"--deployment", "DEPLOY:redlock-3", "--strategies", "redlock-7"}, "strategy redlock-7 runs on 7 masters, redlock.masters lists 3"},
		{[]string{"--deployment", "DEPLOY:single-only", "--strategies", "single", "--run-id", "a*b"}, "--run-id"},
		{[]string{"--deployment", "DEPLOY:single-only", "--provider", "process"}, "is for --provider external"},
		{[]string{"--provider", "external", "--strategies", "single"}, "no deployment given"},
		{[]string{"--password", "hunter2", "--strategies", "single"}, "never takes a password from a flag"},
		{[]string{"--redis-password=hunter2"}, "never takes a password from a flag"},
		{[]string{"--worker", "3/3", "--run-id", "r1"}, "--worker 3/3: the index counts from 0 and must be below 3"},
		{[]string{"--worker", "0/0", "--run-id", "r1"}, "--worker 0/0: want at least 1 worker"},
		{[]string{"--worker", "-1/3", "--run-id", "r1"}, "--worker -1/3: the index counts from 0"},
		{[]string{"--worker", "x", "--run-id", "r1"}, `--worker "x": want I/N`},
		{[]string{"--worker", "/3", "--run-id", "r1"}, `--worker "/3": want I/N`},
		{[]string{"--worker", "0/3"}, "--worker 0/3 needs --run-id"},
		{[]string{"--worker", "0/3", "--run-id", "r1"}, "give --provider external"},
		{[]string{"--worker", "0/3", "--run-id", "r1", "--start-at", "tomorrow"}, `--start-at "tomorrow"`},
		{[]string{"--worker", "0/3", "--run-id", "r1", "--rendezvous-timeout", "0s"}, `--rendezvous-timeout "0s"`},
		{[]string{"--worker", "0/3", "--run-id", "r1", "--workload", "update", "--strategies", "single"}, "the update workload cannot be split"},
		{[]string{"--run-id", "a:b"}, "--run-id"},
		{[]string{"--start-at", "2026-01-02T15:04:05Z"}, "--start-at: only a worker"},
	},
	"capacity": {
		{[]string{"--deployment", "DEPLOY:single-only", "--strategies", "redlock", "--slo", "p99=5ms", "--out", "OUT"}, "strategy redlock needs role redlock.masters"},
		{[]string{"--password", "hunter2", "--out", "OUT"}, "never takes a password from a flag"},
	},
	"merge": {
		{[]string{}, "--out: where to write"},
		{[]string{"--out", "OUT"}, "no worker folders given"},
		{[]string{"--out", "OUT", "/nonexistent/results"}, "not a lockbench results folder"},
		{[]string{"--out", "OUT", "GOOD"}, "not a worker's folder"},
		{[]string{"--out", "OUT", "--max-skew", "0s", "GOOD"}, "--max-skew 0s"},
		{[]string{"--out", "OUT", "--max-skew", "soon", "GOOD"}, "max-skew"},
	},
	"safety": {
		{[]string{"--out", "OUT"}, "--scenario"},
		{[]string{"--scenario", "no-such", "--out", "OUT"}, "--scenario"},
		{[]string{"--scenario", "setnx-expire,unsafe-release", "--out", "OUT"}, "--scenario"},
		{[]string{"--scenario", "setnx-expire"}, "--out"},
		{[]string{"--scenario", "setnx-expire", "--server", "keydb", "--out", "OUT"}, `--server: server "keydb": want redis or valkey`},
		{[]string{"--scenario", "setnx-expire", "--trials", "0", "--out", "OUT"}, "--trials"},
		{[]string{"--scenario", "setnx-expire", "--trials", "-1", "--out", "OUT"}, "--trials"},
		{[]string{"--scenario", "setnx-expire", "--trials", "100001", "--out", "OUT"}, "--trials"},
		{[]string{"--scenario", "setnx-expire", "--seed", "x", "--out", "OUT"}, "-seed"},
		{[]string{"--scenario", "setnx-expire", "--param", "ttl=soon", "--out", "OUT"}, "ttl"},
		{[]string{"--scenario", "setnx-expire", "--param", "ttl=0s", "--out", "OUT"}, "ttl"},
		{[]string{"--scenario", "setnx-expire", "--param", "ttl=-1s", "--out", "OUT"}, "ttl"},
		{[]string{"--scenario", "setnx-expire", "--param", "ttl=NaN", "--out", "OUT"}, "ttl"},
		{[]string{"--scenario", "setnx-expire", "--param", "ttl=1s", "--param", "ttl=2s", "--out", "OUT"}, "ttl given twice"},
		{[]string{"--scenario", "setnx-expire", "--param", "bogus=1", "--out", "OUT"}, "bogus"},
		{[]string{"--scenario", "setnx-expire", "--param", "novalue", "--out", "OUT"}, "param"},
		{[]string{"--scenario", "all", "--param", "ttl=1s", "--out", "OUT"}, "--param"},
		{[]string{"--all", "--scenario", "setnx-expire", "--out", "OUT"}, "--all"},
		{[]string{"--all", "--param", "ttl=1s", "--out", "OUT"}, "--param"},
		{[]string{"--scenario", "failover-loss", "--param", "modes=none,quorum", "--out", "OUT"}, "modes"},
		{[]string{"--scenario", "setnx-expire", "--out", "OUT", "extra"}, "extra"},
		{[]string{"--scenario", "setnx-expire", "--resume", "OUT"}, "--resume"},
		{[]string{"--scenario", "redlock-clock-jump", "--provider", "nope", "--out", "OUT"}, "--provider"},
		{[]string{"--scenario", "redlock-clock-jump", "--provider", "embedded", "--param", "k=7", "--out", "OUT"}, "k="},
		{[]string{"--scenario", "redlock-clock-rate", "--provider", "embedded", "--param", "rates=fast", "--out", "OUT"}, "rates"},
		{[]string{"--scenario", "redlock-kleppmann", "--provider", "embedded", "--param", "ttl=10ms", "--out", "OUT"}, "ttl"},
		{[]string{"--scenario", "setnx-expire", "--provider", "external", "--out", "OUT"}, "lockbench only breaks servers it owns"},
	},
	"report": {
		{[]string{"/nonexistent/results"}, "not a lockbench results folder"},
		{[]string{"OUT"}, "not a lockbench results folder"},
		{[]string{"GOOD", "GOOD"}, "one results folder"},
		{[]string{}, "one results folder"},
		{[]string{"GOOD", "--slo", "p99=soon"}, "p99=soon"},
		{[]string{"GOOD", "--slo", "p99=-5ms"}, `budget "-5ms" is not a positive duration`},
		{[]string{"GOOD", "--slo", "p99=0ms"}, `budget "0ms" is not a positive duration`},
		{[]string{"GOOD", "--slo", "p99=NaN"}, `budget "NaN"`},
		{[]string{"GOOD", "--slo", "p42=5ms"}, `unknown percentile "p42"`},
		{[]string{"GOOD", "--slo", "p99"}, "want PERCENTILE=BUDGET"},
		{[]string{"GOOD", "--slo", "bogus:p99=5ms"}, `metric "bogus"`},
		{[]string{"GOOD", "--strategy", "zookeeper"}, "zookeeper"},
		{[]string{"GOOD", "--safety", "/nonexistent/safety"}, "--safety /nonexistent/safety"},
	},
	"compare": {
		{[]string{"GOOD"}, "want OLD and NEW"},
		{[]string{"GOOD", "/nonexistent/results"}, "not a lockbench results folder"},
		{[]string{"/nonexistent/results", "GOOD"}, "not a lockbench results folder"},
		{[]string{"GOOD", "OUT"}, "not a lockbench results folder"},
		{[]string{"GOOD,GOOD", "GOOD"}, "twice"},
		{[]string{"--threshold", "lots", "GOOD", "GOOD"}, `--threshold "lots"`},
		{[]string{"--threshold", "-5%", "GOOD", "GOOD"}, `--threshold "-5%"`},
		{[]string{"--alpha", "0", "GOOD", "GOOD"}, "--alpha 0: want a p-value between 0 and 1"},
		{[]string{"--alpha", "1", "GOOD", "GOOD"}, "--alpha 1: want a p-value between 0 and 1"},
		{[]string{"--alpha", "NaN", "GOOD", "GOOD"}, "--alpha NaN"},
		{[]string{"--intervals", "0", "GOOD", "GOOD"}, "--intervals 0"},
		{[]string{"--intervals", "1", "GOOD", "GOOD"}, "--intervals 1: want at least 2"},
		{[]string{"--intervals", "20", "GOOD", "GOOD"}, "recorded only 10 intervals, fewer than 20"},
	},
	"benchtable": {
		{[]string{"extra"}, "takes no arguments"},
	},
	"no-such-command": {
		{[]string{}, `unknown command "no-such-command"`},
	},
}

// Every refusal of every command exits 2 naming what is wrong, before it creates a
// folder, writes into one, or starts a server.
func TestEveryBadInputExitsTwoNamingItAndTouchesNothing(t *testing.T) {
	configDir := t.TempDir()
	// One synthetic folder for every compare case: writing it took 4.5 s a case under
	// -race, and each case still checks that it left the folder as it found it.
	compareGood := t.TempDir()
	if _, err := synth.Write(compareGood, synth.Options{Stores: linked.Catalog(), Seed: 1, Small: true, Stationary: true}); err != nil {
		t.Fatal(err)
	}
	for command, cases := range badInputs {
		for _, c := range cases {
			// Lower case, no commas: the name makes temp dirs, which must hold no placeholder or list separator.
			name := strings.ToLower(strings.ReplaceAll(command+" "+strings.Join(c.args, " "), ",", "+"))
			t.Run(name, func(t *testing.T) {
				good := goodFolderFor(t, command, compareGood)
				before := folderBytes(t, good)
				out := filepath.Join(t.TempDir(), "out")
				noServer := noServerWatch(t)
				args := []string{command}
				for _, a := range c.args {
					args = append(args, expandBadArg(t, a, out, good, configDir))
				}
				refusesBadInput(t, args, out, c.want)
				if after := folderBytes(t, good); !reflect.DeepEqual(after, before) {
					t.Errorf("the results folder given changed: %d files before, %d after", len(before), len(after))
				}
				noServer()
			})
		}
	}
}

// goodFolderFor is a readable results folder for the commands that read one.
func goodFolderFor(t *testing.T, command, compareGood string) string {
	t.Helper()
	switch command {
	case "compare":
		return compareGood
	case "report", "merge":
		return golden.Copy(t, sampleResults)
	}
	return t.TempDir()
}

// expandBadArg fills the placeholders of one argument.
func expandBadArg(t *testing.T, a, out, good, configDir string) string {
	t.Helper()
	if name, ok := strings.CutPrefix(a, "DEPLOY:"); ok {
		body, known := badDeployments[name]
		if !known {
			t.Fatalf("no deployment %q", name)
		}
		path := filepath.Join(configDir, "deploy-"+name+".yaml")
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	if name, ok := strings.CutPrefix(a, "CONFIG:"); ok {
		body, known := badConfigs[name]
		if !known {
			t.Fatalf("no config %q", name)
		}
		path := filepath.Join(configDir, name+".yaml")
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	return strings.ReplaceAll(strings.ReplaceAll(a, "OUT", out), "GOOD", good)
}

// noServerWatch points the server lookups at a stub that records any call, and the
// temp dir at an empty folder (every provider makes its server's dir there before it
// starts one); the returned check fails the test if either was touched.
func noServerWatch(t *testing.T) func() {
	t.Helper()
	dir := t.TempDir()
	called := filepath.Join(dir, "server-started")
	stub := filepath.Join(dir, "redis-server")
	// Asked its version (the environment block), it answers as redis-server 7 does; asked anything else, it records the call.
	script := "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'Redis server v=7.0.15 sha=00000000:0 malloc=libc bits=64 build=stub'; exit 0; fi\n" +
		"echo \"$0 $*\" >> " + called + "\nexit 1\n"
	if err := os.WriteFile(stub, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("REDIS_SERVER", stub)
	t.Setenv("TMPDIR", tmp)
	return func() {
		t.Helper()
		if b, err := os.ReadFile(called); err == nil {
			t.Errorf("a server was started: %s", b)
		}
		if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
			t.Errorf("something was set up in the temp dir (a server's dir?): %v", entries)
		}
	}
}
