package hostcrash

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/nemesis"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// PostgreSQL's settings under test, in the order of what they keep: each a server
// whose data sits on a disk that forgets, and whose commit the crash follows at once.
const (
	pgFsyncOn         = "fsync-on"               // the default: the commit's WAL is fsynced before it answers
	pgFsyncOff        = "fsync-off"              // nothing is fsynced, ever
	pgAsyncCommit     = "synchronous-commit-off" // the WAL writer fsyncs within 3 x wal_writer_delay
	pgTable           = "host_crash_changes"
	pgStartTimeQuery  = "SELECT pg_postmaster_start_time()::text"
	pgChangeStatement = "INSERT INTO " + pgTable + " (change) VALUES ($1)"
)

var pgSettings = []string{pgFsyncOn, pgAsyncCommit, pgFsyncOff}

var pgSettingText = map[string]string{pgFsyncOn: "fsync on (the default)",
	pgAsyncCommit: "synchronous_commit off (fsync on)", pgFsyncOff: "fsync off"}

// pgVariant is one PostgreSQL setting: its spec and what its claims promise.
type pgVariant struct {
	lab.Variant
	setting string
}

// newPGVariant counts the committed changes a host crash took back: one per trial at most.
func newPGVariant(setting string) pgVariant {
	v := &results.Variant{Name: "postgres/" + setting, Measure: results.LostUpdates,
		Params: map[string]string{"strategy": "postgres", "setting": setting},
		Description: pgSettingText[setting] + ", data on a disk that keeps only what was fsynced: A commits a change " +
			"(an INSERT of its own row), the host crashes at once, the server restarts on what its disk kept, and " +
			"the row is read back"}
	switch setting {
	case pgFsyncOn:
		v.Claims = []results.Claim{results.Holds(results.LostUpdates)}
	case pgFsyncOff:
		v.Claims = []results.Claim{results.Always(results.LostUpdates)}
	}
	return pgVariant{Variant: lab.Variant{Variant: v}, setting: setting}
}

// pgSpec is the server a setting runs: on a disk that forgets.
func pgSpec(setting string) backend.Spec {
	spec := backend.Spec{Kind: topologies.Postgres, ForgetfulDisk: true}
	switch setting {
	case pgFsyncOff:
		spec.UnsafeNoFsync = true
	case pgAsyncCommit:
		spec.ExtraConfig = []string{"synchronous_commit = off"}
	}
	return spec
}

func (s hostCrash) runPostgres(ctx context.Context, env *lab.Env, v pgVariant) (*results.Report, error) {
	topo, err := env.StartTopology(ctx, pgSpec(v.setting))
	if err != nil {
		return nil, err
	}
	defer topo.Close()
	db, ok := topo.(interface{ DSN() string })
	if !ok {
		return nil, fmt.Errorf("host-crash: provider %s gives no PostgreSQL DSN", topo.Provider())
	}
	node := topo.Masters()[0]
	if _, ok := node.(topologies.HostCrashed); !ok {
		return nil, fmt.Errorf("host-crash: postgres: provider %s has no disk that forgets (--provider process)",
			topo.Provider())
	}
	if err := pgPrepare(ctx, db.DSN(), node); err != nil {
		return nil, fmt.Errorf("host-crash: postgres: %w", err)
	}
	return lab.RunTrials(ctx, env, []pgVariant{v}, func(ctx context.Context, v pgVariant, t *lab.Trial) error {
		return pgTrial(ctx, db.DSN(), node, t)
	})
}

// pgPrepare makes the table and writes it back: a server up a while has it on disk
// under every setting, so that what a crash can take is a trial's own commit.
func pgPrepare(ctx context.Context, dsn string, node topologies.Node) error {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "CREATE TABLE "+pgTable+" (change text PRIMARY KEY)"); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, "CHECKPOINT"); err != nil {
		return err
	}
	return topologies.WriteBack(node)
}

// pgTrial commits A's change, crashes the host at once, and reads the change back on
// the restarted server. Judged once the server's start time changed and its disk
// counted this crash.
func pgTrial(ctx context.Context, dsn string, node topologies.Node, t *lab.Trial) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	before, err := crashesOf(node)
	if err != nil {
		return err
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return lab.Failed("setup", err)
	}
	var started string
	if err := conn.QueryRow(ctx, pgStartTimeQuery).Scan(&started); err != nil {
		conn.Close(ctx)
		return lab.Failed("observe", err)
	}
	_, err = conn.Exec(ctx, pgChangeStatement, t.Key)
	conn.Close(ctx)
	if err != nil {
		return lab.Failed("commit", err)
	}
	t.Prove("A's change %s committed", t.Key)
	if _, err := nemesis.Inject(ctx, "host-crash", nemesis.Target{Nodes: []topologies.Node{node},
		Recorder: t.Rec}); err != nil {
		return lab.Failed("nemesis", err)
	}
	return pgProveAndRead(ctx, dsn, node, t, before, started)
}

// pgProveAndRead proves the restart and the crash, then counts A's change lost when its
// row is gone.
func pgProveAndRead(ctx context.Context, dsn string, node topologies.Node, t *lab.Trial, before int,
	started string) error {
	crash, err := ownCrash(node, before)
	if err != nil {
		return err
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return lab.Failed("observe", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var restarted string
	if err := conn.QueryRow(ctx, pgStartTimeQuery).Scan(&restarted); err != nil {
		return lab.Failed("observe", err)
	}
	if restarted == started {
		return lab.NoFault("%s kept its start time %s: it did not restart", node.Name(), started)
	}
	var change string
	err = conn.QueryRow(ctx, "SELECT change FROM "+pgTable+" WHERE change = $1", t.Key).Scan(&change)
	lost := errors.Is(err, pgx.ErrNoRows)
	if err != nil && !lost {
		return lab.Failed("observe", err)
	}
	t.Input("bytes_dropped", float64(crash.BytesDropped))
	t.Prove("%s's host crashed and it restarted (started %s, then %s) with A's change present=%v; %s", node.Name(),
		started, restarted, !lost, crash.Summary)
	count := 0
	if lost {
		count = 1
	}
	t.Count(results.LostUpdates, count)
	return nil
}
