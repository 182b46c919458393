package redislock_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/redis/redislock"
	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/locks/lockstest"
	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// Each WAITAOF strategy grants, and the WAITAOF reply of its grant counts the fsyncs it
// demanded: the master's own, a replica's, or both.
func TestWaitAOFGrantsCountTheFsyncsTheyDemand(t *testing.T) {
	testenv.RequireValkey(t)
	for _, s := range redislock.WaitAOFStrategies {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			l, topo := lockstest.SharedStrategy(t, s.Name, locks.Options{Wait: locks.WaitOptions{Timeout: 5 * time.Second}})
			ctx := context.Background()
			master := redis.NewClient(&redis.Options{Addr: topo.Masters()[0].Addr()})
			defer master.Close()
			key := "waitaof-reply-" + s.Name
			demand := s.Demand
			demand.Timeout = 5 * time.Second
			lease, ack, err := redislock.AcquireFsynced(ctx, master, key, 10*time.Second, demand, func(context.Context, locks.Lease) {})
			if err != nil {
				t.Fatalf("%s: %v", demand, err)
			}
			t.Logf("%s answered %d local, %d replica fsyncs", demand, ack.Local, ack.Replicas)
			if s.Demand.Local > 0 && ack.Local != 1 {
				t.Errorf("%s: WAITAOF counted %d local fsyncs, want 1", demand, ack.Local)
			}
			if s.Demand.Replicas > 0 && ack.Replicas < int64(s.Demand.Replicas) {
				t.Errorf("%s: WAITAOF counted %d replica fsyncs, want >= %d", demand, ack.Replicas, s.Demand.Replicas)
			}
			if err := l.Release(ctx, lease); err != nil {
				t.Errorf("release the reply's grant through the locker: %v", err)
			}
			// The locker's own grant, the one a run measures, holds the key until released.
			granted, err := l.Acquire(ctx, key, 10*time.Second)
			if err != nil {
				t.Fatalf("%s locker: %v", s.Name, err)
			}
			if got := master.Get(ctx, key).Val(); got != granted.Token {
				t.Errorf("the master holds %q under the granted key, want the lease's token", got)
			}
			if err := l.Release(ctx, granted); err != nil {
				t.Error(err)
			}
		})
	}
}

// A master without an append-only file cannot fsync a grant: the local WAITAOF
// strategies refuse to start on it, saying why, instead of never granting.
func TestWaitAOFLocalRefusesAMasterWithoutAppendOnlyFile(t *testing.T) {
	testenv.RequireValkey(t)
	topo := testenv.Start(t, backend.Spec{Kind: topologies.Single, Server: backend.ServerValkey})
	for _, s := range redislock.WaitAOFStrategies {
		if s.Demand.Local == 0 {
			continue
		}
		_, err := redislock.NewWaitAOF(context.Background(), topo.Masters()[0].Addr(), s.Name, s.Demand, redisconn.Options{})
		if err == nil || !strings.Contains(err.Error(), "appendonly") {
			t.Errorf("%s on a master with appendonly no: %v, want a refusal naming appendonly", s.Name, err)
		}
	}
}

// On Redis 7.0 (the Debian redis-server here) every WAITAOF strategy fails at once with
// an error naming the command it lacks, never a lock granted without the fsync.
func TestWaitAOFOnRedisWithoutTheCommandFailsNamingIt(t *testing.T) {
	testenv.RequireRedis(t)
	topo := testenv.Start(t, backend.Spec{Kind: topologies.Replicated, Replicas: 1, AppendFsync: "everysec"})
	addr := topo.Masters()[0].Addr()
	ctx := context.Background()
	if known, err := redisadmin.AdminQuery(ctx, addr, "COMMAND", "INFO", "WAITAOF"); err != nil {
		t.Fatal(err)
	} else if list, _ := known.([]any); len(list) == 1 && list[0] != nil {
		server, _ := redisadmin.RunningServer(ctx, addr)
		t.Skipf("%s has WAITAOF: this test needs a Redis before 7.2", server)
	}
	for _, s := range redislock.WaitAOFStrategies {
		_, err := locks.AtAddrs(ctx, s.Name, []string{addr}, locks.Options{})
		if !errors.Is(err, redislock.ErrNoWaitAOF) || !strings.Contains(err.Error(), "WAITAOF") {
			t.Errorf("%s on Redis 7.0: %v, want ErrNoWaitAOF naming WAITAOF", s.Name, err)
		} else {
			t.Logf("%s on Redis 7.0: %v", s.Name, err)
		}
	}
}
