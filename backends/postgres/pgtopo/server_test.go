package pgtopo

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/postgres"
	"github.com/lockbench/lockbench/backends/redis/redistopo"
	"github.com/lockbench/lockbench/locks/lockstest"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/supervise"
	"github.com/lockbench/lockbench/topologies/testenv"
)

func startServer(t *testing.T, spec backend.Spec) *Server {
	t.Helper()
	spec.Kind = topologies.Postgres
	return testenv.Start(t, spec).(*Server)
}

func connect(t *testing.T, s *Server) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.DSN())
	if err != nil {
		t.Fatalf("connect to %s: %v", s.DSN(), err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// queryString runs a one-value query with timeout, for checks that expect an answer or
// (on a paused server) an error.
func queryString(conn *pgx.Conn, timeout time.Duration, sql string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var v string
	err := conn.QueryRow(ctx, sql).Scan(&v)
	return v, err
}

func mustQuery(t *testing.T, conn *pgx.Conn, sql string) string {
	t.Helper()
	v, err := queryString(conn, 10*time.Second, sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return v
}

// leftovers lists server processes working in a dir this process owns, or in a
// postgres topology dir already removed: after a Close or a failed start, none.
func leftovers(t *testing.T) []int {
	t.Helper()
	var out []int
	for _, pid := range supervise.Pids() {
		cwd, deleted := supervise.WorkingDir(pid)
		if deleted && strings.Contains(cwd, dirPrefix) {
			out = append(out, pid)
			continue
		}
		for _, d := range testenv.OwnedDirs(dirPrefix) {
			if real, err := filepath.EvalSymlinks(d); err == nil && strings.HasPrefix(cwd, real+"/") {
				out = append(out, pid)
			}
		}
	}
	return out
}

// waitGone waits until every pid has exited, a zombie counted as exited.
func waitGone(t *testing.T, pids []int) {
	t.Helper()
	testenv.WaitGone(t, 30*time.Second, "server", pids, testenv.ExitedOrZombie)
}

// segmentID is the System V shared memory id postmaster.pid names.
func segmentID(t *testing.T, s *Server) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(s.node.dataDir, "postmaster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	f := strings.Fields(lines[6])
	id, err := strconv.Atoi(f[1])
	if err != nil {
		t.Fatalf("postmaster.pid line 7 %q: %v", lines[6], err)
	}
	return id
}

func segmentExists(id int) bool {
	b, _ := os.ReadFile("/proc/sysvipc/shm")
	for _, line := range strings.Split(string(b), "\n")[1:] {
		if f := strings.Fields(line); len(f) > 1 && f[1] == strconv.Itoa(id) {
			return true
		}
	}
	return false
}

// checkNothingLeft checks what Close promises: no dir, no process, no listener, no
// shared memory.
func checkNothingLeft(t *testing.T, s *Server, pids []int, segment int) {
	t.Helper()
	waitGone(t, pids)
	if _, err := os.Stat(s.Dir()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("dir %s still there after Close: %v", s.Dir(), err)
	}
	if s.node.Running() {
		t.Error("server still running after Close")
	}
	if !testenv.RefusesConnections(s.node.Addr()) {
		t.Errorf("%s still accepts connections after Close", s.node.Addr())
	}
	if segment >= 0 && segmentExists(segment) {
		t.Errorf("shared memory segment %d still there after Close", segment)
	}
}

func TestStartServesAndCloseLeavesNothing(t *testing.T) {
	testenv.RequirePostgres(t)
	dirsBefore := len(testenv.OwnedDirs(dirPrefix))
	topo, err := Process{}.Start(context.Background(), backend.Spec{Kind: topologies.Postgres})
	if err != nil {
		t.Fatal(err)
	}
	s := topo.(*Server)
	conn := connect(t, s)
	if got := mustQuery(t, conn, "SELECT current_user || ' ' || current_database()"); got != postgres.User+" "+postgres.Database {
		t.Errorf("connected as %q, want %q", got, postgres.User+" "+postgres.Database)
	}
	if got := mustQuery(t, conn, "SHOW fsync"); got != "on" {
		t.Errorf("fsync = %s by default, want on", got)
	}
	if got := mustQuery(t, conn, "SHOW listen_addresses"); got != "127.0.0.1" {
		t.Errorf("listen_addresses = %s, want 127.0.0.1 only", got)
	}
	if got := mustQuery(t, conn, "SHOW unix_socket_directories"); got != s.node.dir {
		t.Errorf("unix_socket_directories = %s, want the topology's dir %s", got, s.node.dir)
	}
	if host, _, _ := net.SplitHostPort(s.node.Addr()); host != "127.0.0.1" {
		t.Errorf("Addr %s is not on 127.0.0.1", s.node.Addr())
	}
	conn.Close(context.Background())
	pids := supervise.WorkingIn(s.node.dataDir)
	if len(pids) < 2 {
		t.Fatalf("server processes %v: want the postmaster and its helpers", pids)
	}
	segment := segmentID(t, s)
	testenv.CloseTwice(t, topo)
	checkNothingLeft(t, s, pids, segment)
	if after := len(testenv.OwnedDirs(dirPrefix)); after != dirsBefore {
		t.Errorf("temp dirs of this process: %d before, %d after Close", dirsBefore, after)
	}
}

func TestUnsafeNoFsyncTurnsFsyncOff(t *testing.T) {
	s := startServer(t, backend.Spec{UnsafeNoFsync: true})
	if got := mustQuery(t, connect(t, s), "SHOW fsync"); got != "off" {
		t.Errorf("fsync = %s with UnsafeNoFsync, want off", got)
	}
}

func TestExtraConfigReachesTheServer(t *testing.T) {
	s := startServer(t, backend.Spec{ExtraConfig: []string{"work_mem = '7MB'"}})
	if got := mustQuery(t, connect(t, s), "SHOW work_mem"); got != "7MB" {
		t.Errorf("work_mem = %s, want the ExtraConfig's 7MB", got)
	}
}

// checkFailedStart checks a start that must fail: the error names want, and nothing
// of the attempt is left.
func checkFailedStart(t *testing.T, p Process, spec backend.Spec, ctx context.Context, want ...string) error {
	t.Helper()
	dirsBefore := len(testenv.OwnedDirs(dirPrefix))
	spec.Kind = topologies.Postgres
	topo, err := p.Start(ctx, spec)
	if err == nil {
		topo.Close()
		t.Fatalf("start succeeded, want an error naming %q", want)
	}
	t.Logf("start refused: %v", err)
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not name %q", err, w)
		}
	}
	if after := len(testenv.OwnedDirs(dirPrefix)); after != dirsBefore {
		t.Errorf("temp dirs of this process: %d before, %d after a failed start (%v)", dirsBefore, after, err)
	}
	if left := leftovers(t); len(left) > 0 {
		waitGone(t, left)
	}
	return err
}

func TestFixedPortInUseFailsClearlyAndLeavesNothing(t *testing.T) {
	testenv.RequirePostgres(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	err = checkFailedStart(t, Process{Port: port}, backend.Spec{}, context.Background(), "in use", strconv.Itoa(port))
	if !errors.Is(err, supervise.ErrPortTaken) {
		t.Errorf("error %v is not supervise.ErrPortTaken", err)
	}
}

func TestMissingBinariesFailClearly(t *testing.T) {
	empty := t.TempDir()
	err := checkFailedStart(t, Process{BinDir: empty}, backend.Spec{}, context.Background(), empty, "initdb", "apt-get install postgresql")
	if !errors.Is(err, topologies.ErrNoPostgres) {
		t.Errorf("error %v is not ErrNoPostgres", err)
	}
	t.Setenv("POSTGRES_BIN_DIR", empty)
	if _, err := topologies.FindPostgres(""); err == nil || !strings.Contains(err.Error(), "POSTGRES_BIN_DIR") || !errors.Is(err, topologies.ErrNoPostgres) {
		t.Errorf("FindPostgres with an empty POSTGRES_BIN_DIR: %v, want ErrNoPostgres naming the variable", err)
	}
}

// TestFailingInitdbLeavesNothing runs binaries that fail as initdb would: the error
// carries their output.
func TestFailingInitdbLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	// The server's user (as root: postgres) must reach the scripts.
	os.Chmod(filepath.Dir(dir), 0o755)
	os.Chmod(dir, 0o755)
	for _, name := range []string{"initdb", "postgres"} {
		script := "#!/bin/sh\necho 'initdb: error: the disk is made of cheese' >&2\nexit 1\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	checkFailedStart(t, Process{BinDir: dir}, backend.Spec{}, context.Background(), "initdb", "made of cheese")
}

func TestFailedStartLeavesNothing(t *testing.T) {
	testenv.RequirePostgres(t)
	t.Run("bad config", func(t *testing.T) {
		checkFailedStart(t, Process{}, backend.Spec{ExtraConfig: []string{"no_such_setting = 1"}}, context.Background(), "did not come up", "no_such_setting")
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		checkFailedStart(t, Process{}, backend.Spec{}, ctx, "context canceled")
	})
}

func TestSpecValidationNamesTheField(t *testing.T) {
	for _, tc := range []struct {
		spec backend.Spec
		want string
	}{
		{backend.Spec{Kind: topologies.Postgres, Members: 3}, "members = 3"},
		{backend.Spec{Kind: topologies.Postgres, Replicas: 2}, "replicas = 2"},
		{backend.Spec{Kind: topologies.Postgres, AppendFsync: "always"}, "appendfsync"},
		{backend.Spec{Kind: topologies.Postgres, Masters: 3}, "masters = 3"},
		{backend.Spec{Kind: topologies.Single}, "runs only postgres"},
	} {
		_, err := Process{}.Start(context.Background(), tc.spec)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("start %+v: error %v, want one naming %q", tc.spec, err, tc.want)
		}
	}
	if _, err := (redistopo.Process{}).Start(context.Background(), backend.Spec{Kind: topologies.Postgres}); err == nil || !strings.Contains(err.Error(), ProviderName) {
		t.Errorf("redis process provider given postgres: %v, want a refusal naming %s", err, ProviderName)
	}
	if _, err := (Process{Port: 70000}).Start(context.Background(), backend.Spec{Kind: topologies.Postgres}); err == nil || !strings.Contains(err.Error(), "port = 70000") {
		t.Errorf("port 70000: %v, want a refusal", err)
	}
}

func TestDefaultProviderForPostgres(t *testing.T) {
	p, err := topologies.DefaultProvider(topologies.Postgres)
	if err != nil || p.Name() != "postgres-process" {
		t.Fatalf("default postgres provider: %v, %v", p, err)
	}
}

func stateOf(pid int) string {
	if st := testenv.ProcState(pid); st != "" {
		return st
	}
	return "gone"
}

func TestPauseStopsEveryServerProcessUntilResume(t *testing.T) {
	s := startServer(t, backend.Spec{})
	conn := connect(t, s) // opened before the pause: its backend must stop too
	mustQuery(t, conn, "SELECT 1::text")
	node := s.node
	resume := lockstest.Pause(t, node)
	for _, pid := range supervise.WorkingIn(node.dataDir) {
		if st := stateOf(pid); st != "T" && st != "t" {
			t.Errorf("server pid %d in state %s while paused, want stopped", pid, st)
		}
	}
	if !node.Running() {
		t.Error("a paused server reports not running")
	}
	if _, err := queryString(conn, 300*time.Millisecond, "SELECT 2::text"); err == nil {
		t.Error("a connection opened before the pause got an answer while paused")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	if c, err := pgx.Connect(ctx, s.DSN()); err == nil {
		c.Close(context.Background())
		t.Error("a new connection was accepted while paused")
	}
	cancel()
	if err := resume(); err != nil {
		t.Fatal(err)
	}
	if got := mustQuery(t, connect(t, s), "SELECT 3::text"); got != "3" {
		t.Errorf("after resume: %s, want 3", got)
	}
}

func TestKillAndRestart(t *testing.T) {
	s := startServer(t, backend.Spec{})
	node := s.node
	addr := node.Addr()
	conn := connect(t, s)
	ctx := context.Background()
	if _, err := conn.Exec(ctx, "CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)"); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)

	pids := supervise.WorkingIn(node.dataDir)
	if err := node.Kill(); err != nil {
		t.Fatal(err)
	}
	if node.Running() {
		t.Error("running after Kill")
	}
	waitGone(t, pids)
	if !testenv.RefusesConnections(addr) {
		t.Errorf("%s accepts connections after Kill", addr)
	}
	if err := node.Kill(); err == nil {
		t.Error("second Kill succeeded on a dead server")
	}
	if err := node.Restart(ctx, topologies.RestartFromDisk); err != nil {
		t.Fatal(err)
	}
	if node.Addr() != addr {
		t.Errorf("restart moved the server from %s to %s", addr, node.Addr())
	}
	if got := mustQuery(t, connect(t, s), "SELECT v::text FROM kept"); got != "42" {
		t.Errorf("after a kill and a restart from disk: %s, want the committed 42", got)
	}

	// A paused server can be killed and restarted too: the stopped backends go with it.
	if err := node.Pause(); err != nil {
		t.Fatal(err)
	}
	pids = supervise.WorkingIn(node.dataDir)
	if err := node.Restart(ctx, topologies.RestartFromDisk); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pids)
	if got := mustQuery(t, connect(t, s), "SELECT v::text FROM kept"); got != "42" {
		t.Errorf("after restarting a paused server: %s, want 42", got)
	}

	if err := node.Restart(ctx, topologies.RestartWithSnapshot); err != nil {
		t.Fatal(err)
	}
	if got := mustQuery(t, connect(t, s), "SELECT v::text FROM kept"); got != "42" {
		t.Errorf("after a restart with a checkpoint: %s, want 42", got)
	}

	if err := node.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := node.Restart(ctx, topologies.RestartEmpty); err != nil {
		t.Fatal(err)
	}
	_, err := queryString(connect(t, s), 10*time.Second, "SELECT v::text FROM kept")
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("after a restart empty, the table is still readable (%v)", err)
	}
}

// startToClose starts a server that the test closes itself (no cleanup does), and
// returns it with its shared memory segment, for checkNothingLeft.
func startToClose(t *testing.T) (*Server, int) {
	t.Helper()
	testenv.RequirePostgres(t)
	topo, err := Process{}.Start(context.Background(), backend.Spec{Kind: topologies.Postgres})
	if err != nil {
		t.Fatal(err)
	}
	s := topo.(*Server)
	return s, segmentID(t, s)
}

func TestCloseAfterKillLeavesNothing(t *testing.T) {
	s, segment := startToClose(t)
	pids := supervise.WorkingIn(s.node.dataDir)
	if err := s.node.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	checkNothingLeft(t, s, pids, segment)
}

func TestClosePausedServerLeavesNothing(t *testing.T) {
	s, segment := startToClose(t)
	if err := s.node.Pause(); err != nil {
		t.Fatal(err)
	}
	pids := supervise.WorkingIn(s.node.dataDir)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	checkNothingLeft(t, s, pids, segment)
}
