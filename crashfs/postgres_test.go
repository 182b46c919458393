package crashfs_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/lockbench/lockbench/crashfs"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/portlease"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// PostgreSQL fsyncs its WAL at each commit and initdb fsyncs every file and directory
// it made: with fsync on, a committed row survives a host crash; with fsync off,
// nothing since initdb does.
func TestPostgresKeepsACommittedRowAcrossACrashOnlyWithFsyncOn(t *testing.T) {
	install := testenv.RequirePostgres(t)
	for _, tc := range []struct {
		fsync    string
		wantKept bool
	}{{"on", true}, {"off", false}} {
		t.Run("fsync "+tc.fsync, func(t *testing.T) {
			fsys, base := mountForPostgres(t, install)
			data := filepath.Join(fsys.Mountpoint(), "data")
			// Made and fsynced into its parent first, as initdb does not (see the next test).
			if err := os.Mkdir(data, 0o700); err != nil {
				t.Fatal(err)
			}
			chownToServer(t, install, data)
			syncDir(t, fsys.Mountpoint())
			initdb(t, install, data)
			ctx := context.Background()
			server, conn := startPostgres(t, install, data, base, tc.fsync)
			if _, err := conn.Exec(ctx, "CREATE TABLE t (v text); INSERT INTO t VALUES ('committed')"); err != nil {
				t.Fatal(err)
			}
			conn.Close(ctx)
			server.kill(t) // the host loses power...
			r := crash(t, fsys)
			if !r.Lost() && !tc.wantKept {
				t.Fatalf("the crash dropped nothing with fsync %s: no fault happened", tc.fsync)
			}
			_, conn = startPostgres(t, install, data, base, tc.fsync) // ...and restarts on what the disk kept
			var v string
			err := conn.QueryRow(ctx, "SELECT v FROM t").Scan(&v)
			var pgErr *pgconn.PgError
			if err != nil && !(errors.As(err, &pgErr) && pgErr.Code == "42P01") { // 42P01: no such table
				t.Fatal(err)
			}
			if kept := err == nil && v == "committed"; kept != tc.wantKept {
				t.Fatalf("fsync %s: row kept %v, want %v (%v)", tc.fsync, kept, tc.wantKept, r)
			}
		})
	}
}

// initdb (PostgreSQL 15) fsyncs every file and directory inside the data directory
// it makes, but not the directory it makes it in: under the strict model a crash right
// after initdb loses the whole cluster. Failing here means an initdb that fsyncs the
// parent: say so in docs/persistence.md.
func TestInitdbLeavesTheDataDirectoryItMadeUnsynced(t *testing.T) {
	install := testenv.RequirePostgres(t)
	fsys, _ := mountForPostgres(t, install)
	initdb(t, install, filepath.Join(fsys.Mountpoint(), "data"))
	r := crash(t, fsys)
	if !slices.Equal(r.Dropped, []string{"data"}) {
		t.Fatalf("want the data directory dropped and nothing else, got %v", r)
	}
}

// mountForPostgres mounts a crashfs the server's user can reach and write, unmounted
// when t ends; it also returns the temporary directory that holds it. A helper serves
// it: served by this raced process, initdb's requests took 36 s of the package's 43
// (the file system's own concurrency is raced by the tests that mount in-process).
func mountForPostgres(t *testing.T, install topologies.PostgresInstall) (*crashfs.Helper, string) {
	t.Helper()
	needsFUSE(t)
	base := sharedTempDir(t, install)
	return mountInHelper(t, filepath.Join(base, "backing"), filepath.Join(base, "mnt")), base
}

// initdb makes a cluster in data, fsyncing what it made (initdb's default).
func initdb(t *testing.T, install topologies.PostgresInstall, data string) {
	t.Helper()
	run(t, install, install.Initdb(), "-D", data, "-U", "lockbench", "--auth=trust", "--encoding=UTF8", "--locale=C")
}

// chownToServer gives path to the server's user, when it runs as one.
func chownToServer(t *testing.T, install topologies.PostgresInstall, path string) {
	t.Helper()
	if install.RunAs == nil {
		return
	}
	if err := os.Chown(path, int(install.RunAs.Uid), int(install.RunAs.Gid)); err != nil {
		t.Fatal(err)
	}
}

// sharedTempDir is a temporary directory the server's user can reach, holding an
// empty backing directory and mount point it owns; removed when t ends.
func sharedTempDir(t *testing.T, install topologies.PostgresInstall) string {
	t.Helper()
	base := t.TempDir()
	for _, dir := range []string{filepath.Dir(base), base} { // t.TempDir makes both 0700
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"backing", "mnt", "sock"} {
		dir := filepath.Join(base, name)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		chownToServer(t, install, dir)
	}
	return base
}

// run runs one PostgreSQL program to its end as the server's user.
func run(t *testing.T, install topologies.PostgresInstall, bin string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: install.RunAs}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v: %s", filepath.Base(bin), err, out)
	}
}

// startPostgres runs postgres on data, on a leased loopback port, with its socket in
// base/sock, and returns it once it accepts a connection.
func startPostgres(t *testing.T, install topologies.PostgresInstall, data, base, fsync string) (*serverProcess, *pgx.Conn) {
	t.Helper()
	port, err := portlease.Take()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { portlease.Release(port) })
	cmd := exec.Command(install.Postgres(), "-D", data, "-p", strconv.Itoa(port),
		"-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="+filepath.Join(base, "sock"),
		"-c", "fsync="+fsync, "-c", "logging_collector=off")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: install.RunAs}
	logFile, err := os.Create(filepath.Join(t.TempDir(), "postgres.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { logFile.Close() })
	cmd.Stdout, cmd.Stderr = logFile, logFile
	server := startServer(t, cmd)
	server.workdir = data
	url := fmt.Sprintf("postgres://lockbench@127.0.0.1:%d/postgres?sslmode=disable", port)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		conn, err := pgx.Connect(ctx, url)
		if err == nil {
			t.Cleanup(func() { conn.Close(context.Background()) })
			return server, conn
		}
		select {
		case <-server.exited:
			log, _ := os.ReadFile(logFile.Name())
			t.Fatalf("postgres exited before it answered: %v\n%s", server.cmd.ProcessState, log)
		case <-ctx.Done():
			t.Fatalf("postgres did not answer within 60 s: %v", err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
