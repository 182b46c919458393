package updates

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"sync/atomic"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/resources/ledger"
	"github.com/lockbench/lockbench/resources/pgaccount"
	"github.com/lockbench/lockbench/resources/redisaccount"
	"github.com/lockbench/lockbench/topologies"
)

// lockFreeWay is a strategy with no lock: the store judges every write.
type lockFreeWay struct {
	spec  backend.Spec
	build func(ctx context.Context, s Setup) (Way, error)
}

var lockFree = map[string]lockFreeWay{}

func init() {
	postgres := backend.Spec{Kind: topologies.Postgres}
	for _, m := range pgaccount.LockFrees.All() {
		lockFree[string(m)] = lockFreeWay{postgres, func(ctx context.Context,
			s Setup) (Way, error) {
			return newPGLockFree(ctx, s, m)
		}}
	}
	redis := backend.Spec{Kind: topologies.Single}
	for _, m := range []redisaccount.Method{redisaccount.LuaCAS, redisaccount.WatchMulti} {
		lockFree[string(m)] = lockFreeWay{redis, func(ctx context.Context,
			s Setup) (Way, error) {
			return newRedisLockFree(ctx, s, m)
		}}
	}
}

// pgLockFree is cas-version, unique-key or atomic on the account rows.
type pgLockFree struct {
	method  pgaccount.LockFree
	res     *pgaccount.Resource
	changes atomic.Int64 // numbers every change: its idempotency key is unique per way
}

func newPGLockFree(ctx context.Context, s Setup, m pgaccount.LockFree) (Way, error) {
	dsn, err := withPoolSize(s.PostgresDSN, s.Clients)
	if err != nil {
		return nil, err
	}
	res, err := pgaccount.Open(ctx, dsn, s.Rows, initialBalance)
	if err != nil {
		return nil, err
	}
	return &pgLockFree{method: m, res: res}, nil
}

func (w *pgLockFree) Name() string { return string(w.method) }

func (w *pgLockFree) Update(ctx context.Context, client, account int) (bench.UpdateOutcome, error) {
	outcome, retries, err := w.res.ApplyLockFree(ctx, w.method, pgaccount.Change{
		Client: strconv.Itoa(client), Account: account, Amount: 1,
		IdempotencyKey: fmt.Sprintf("change-%d", w.changes.Add(1)),
	})
	return bench.UpdateOutcome{Retries: retries, Refused: outcome == ledger.Refused}, err
}

func (w *pgLockFree) Audit(ctx context.Context) (Audit, error) { return auditPG(ctx, w.res) }
func (w *pgLockFree) Close() error                             { w.res.Close(); return nil }

// redisLockFree is lua-cas or watch-multi on account hashes in the strategy's Redis.
type redisLockFree struct {
	method redisaccount.Method
	res    *redisaccount.Resource
}

func newRedisLockFree(ctx context.Context, s Setup, m redisaccount.Method) (Way, error) {
	res, err := redisaccount.Open(ctx, s.Topology.Masters()[0].Addr(), s.Prefix, s.Rows, initialBalance)
	if err != nil {
		return nil, err
	}
	return &redisLockFree{method: m, res: res}, nil
}

func (w *redisLockFree) Name() string { return string(w.method) }

func (w *redisLockFree) Update(ctx context.Context, client, account int) (bench.UpdateOutcome, error) {
	outcome, retries, err := w.res.Apply(ctx, w.method, redisaccount.Change{Client: strconv.Itoa(client),
		Account: account, Amount: 1})
	return bench.UpdateOutcome{Retries: retries, Refused: outcome == ledger.Refused}, err
}

func (w *redisLockFree) Audit(ctx context.Context) (Audit, error) {
	a, err := w.res.Audit(ctx)
	if err != nil {
		return Audit{}, err
	}
	return Audit{Intended: a.Intended, Applied: a.Applied, Failed: a.Failed, LostUpdates: a.LostUpdates,
		LostAmount: a.LostAmount}, nil
}

func (w *redisLockFree) Close() error { w.res.Close(); return nil }

// withPoolSize gives a PostgreSQL URL one connection per client (pgxpool's default,
// four on this machine, would measure its own queue).
func withPoolSize(dsn string, clients int) (string, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return "", fmt.Errorf("postgres dsn: %w", err)
	}
	q := u.Query()
	q.Set("pool_max_conns", strconv.Itoa(max(clients, 1)))
	u.RawQuery = q.Encode()
	return u.String(), nil
}
