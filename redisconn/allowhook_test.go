package redisconn_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/testenv"
)

func TestCommandNameReadsSubcommands(t *testing.T) {
	for _, tc := range []struct {
		args []any
		want string
	}{
		{[]any{"set", "k", "v"}, "SET"},
		{[]any{"script", "load", "return 1"}, "SCRIPT LOAD"},
		{[]any{"SCRIPT", "flush"}, "SCRIPT FLUSH"},
		{[]any{"info", "server"}, "INFO SERVER"},
		{[]any{"info"}, "INFO"},
		{[]any{"config", "set", "x", "y"}, "CONFIG SET"},
	} {
		if got := redisconn.CommandName(tc.args); got != tc.want {
			t.Errorf("CommandName(%v) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

// The strategies' own lists are given by their stores (TestEveryRedisStrategyHasAnAllowList
// in backends/all); these are the purposes redisconn lists itself.
func TestEveryPurposeHasAnAllowList(t *testing.T) {
	for _, name := range []string{"cleanup", "warm", "rendezvous", "probe"} {
		if redisconn.Allowed(name) == nil {
			t.Errorf("purpose %s has no allow-list", name)
		}
	}
	if redisconn.Allowed("no-such-purpose") != nil {
		t.Error("an unknown purpose has a list: it would let commands through")
	}
	for _, p := range redisconn.Purposes() {
		for _, c := range redisconn.Allowed(p) {
			switch c {
			case "FLUSHALL", "FLUSHDB", "KEYS", "CONFIG SET", "DEBUG", "SHUTDOWN", "CLIENT KILL", "CLIENT PAUSE", "REPLICAOF", "SCRIPT FLUSH":
				t.Errorf("purpose %s allows %s", p, c)
			}
		}
	}
}

// TestRefusedCommandsNeverReachTheServer sends what a lock client must never send and
// asks the server (as its admin) whether it ever saw them.
func TestRefusedCommandsNeverReachTheServer(t *testing.T) {
	topo := testenv.Start(t, backend.Spec{Kind: topologies.Single})
	addr := topo.Masters()[0].Addr()
	ctx := context.Background()
	c := redisconn.NewClient(addr, "single", redisconn.Options{PoolSize: 2})
	defer c.Close()
	admin := redis.NewClient(&redis.Options{Addr: addr, Protocol: 2, DisableIdentity: true})
	defer admin.Close()
	if err := admin.ConfigResetStat(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.Set(ctx, "lockbench:x", "1", 0).Err(); err != nil {
		t.Fatalf("an allowed command failed: %v", err)
	}
	for name, send := range map[string]func() error{
		"FLUSHALL":     func() error { return c.FlushAll(ctx).Err() },
		"CONFIG SET":   func() error { return c.ConfigSet(ctx, "maxmemory", "1").Err() },
		"SCRIPT FLUSH": func() error { return c.ScriptFlush(ctx).Err() },
		"KEYS":         func() error { return c.Keys(ctx, "*").Err() },
		"FLUSHALL in a pipeline": func() error {
			_, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
				p.Set(ctx, "lockbench:y", "1", 0)
				p.FlushAll(ctx)
				return nil
			})
			return err
		},
		"FLUSHDB in a transaction": func() error {
			_, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.FlushDB(ctx)
				return nil
			})
			return err
		},
	} {
		err := send()
		var refused *redisconn.RefusedError
		if !errors.As(err, &refused) || refused.Purpose != "single" || !strings.Contains(err.Error(), "single") {
			t.Errorf("%s: err = %v, want a refusal naming the purpose single", name, err)
		}
	}
	stats, err := admin.Info(ctx, "commandstats").Result()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stats, "cmdstat_set:") {
		t.Fatalf("commandstats lack the allowed SET: the check below could not see anything\n%s", stats)
	}
	for _, never := range []string{"cmdstat_flushall", "cmdstat_flushdb", "cmdstat_config|set", "cmdstat_script|flush", "cmdstat_keys", "cmdstat_multi"} {
		if strings.Contains(stats, never+":") {
			t.Errorf("the server saw %s", never)
		}
	}
	if n, err := admin.Exists(ctx, "lockbench:y").Result(); err != nil || n != 0 {
		t.Errorf("the SET sharing a pipeline with FLUSHALL was sent (exists = %d, %v)", n, err)
	}
}

// The hook runs on every command of every run: a lock command's check allocates nothing.
func TestAllowListCheckAllocatesNothing(t *testing.T) {
	args := redis.NewBoolCmd(context.Background(), "set", "lockbench:k", "t", "px", 10000, "nx").Args()
	if n := testing.AllocsPerRun(100, func() { _ = redisconn.CheckCommand("single", args) }); n != 0 {
		t.Errorf("%v allocations per check", n)
	}
	if redisconn.CheckCommand("single", []any{"script", "flush"}) == nil {
		t.Error("SCRIPT FLUSH passed the check for single")
	}
}

// On a server lockbench does not own, a client may name only keys under the run's
// prefix: every allowed command that names another key is refused unsent.
func TestKeysOutsideThePrefixAreRefused(t *testing.T) {
	topo := testenv.Start(t, backend.Spec{Kind: topologies.Single})
	addr := topo.Masters()[0].Addr()
	ctx := context.Background()
	const prefix = "lockbench:run1:"
	c := redisconn.NewClient(addr, "single", redisconn.Options{PoolSize: 1, KeyPrefix: prefix})
	defer c.Close()
	cleanup := redisconn.NewClient(addr, redisconn.PurposeCleanup, redisconn.Options{PoolSize: 1, KeyPrefix: prefix})
	defer cleanup.Close()
	if err := c.Set(ctx, prefix+"mine", "1", 0).Err(); err != nil {
		t.Fatalf("a key under the prefix: %v", err)
	}
	if err := c.Eval(ctx, "return 1", []string{prefix + "mine"}).Err(); err != nil {
		t.Fatalf("a script on a key under the prefix: %v", err)
	}
	for name, err := range map[string]error{
		"SET outside":          c.Set(ctx, "theirs", "1", 0).Err(),
		"SET under lockbench:": c.Set(ctx, "lockbench:run2:k", "1", 0).Err(),
		"EVAL outside":         c.Eval(ctx, "return 1", []string{prefix + "mine", "theirs"}).Err(),
		"SCAN without MATCH":   cleanup.Scan(ctx, 0, "", 10).Err(),
		"SCAN MATCH *":         cleanup.Scan(ctx, 0, "*", 10).Err(),
		"UNLINK mixed":         cleanup.Unlink(ctx, prefix+"mine", "theirs").Err(),
	} {
		var refused *redisconn.RefusedError
		if !errors.As(err, &refused) || !strings.Contains(err.Error(), "outside the run's prefix") {
			t.Errorf("%s: %v, want a refusal naming the prefix", name, err)
		}
	}
	admin := redis.NewClient(&redis.Options{Addr: addr, Protocol: 2, DisableIdentity: true})
	defer admin.Close()
	if keys, _ := admin.Keys(ctx, "*").Result(); len(keys) != 1 || keys[0] != prefix+"mine" {
		t.Errorf("keys on the server = %q, want only %smine", keys, prefix)
	}
}
