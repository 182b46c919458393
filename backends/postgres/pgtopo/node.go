package pgtopo

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/lockbench/lockbench/backends/postgres"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/forgetful"
	"github.com/lockbench/lockbench/topologies/supervise"
)

// shutdownTimeout bounds an immediate shutdown before Close kills the server instead.
const shutdownTimeout = 10 * time.Second

// node is the postmaster, supervised, and the processes it forks. Those call setsid, so
// the postmaster's process group holds the postmaster alone: faults that must reach the
// whole server find its processes by their working directory, the data dir.
type node struct {
	*supervise.Node
	name    string
	install topologies.PostgresInstall
	dir     string          // the topology's dir: socket, log
	dataDir string          // initdb's dir, the server's working directory
	port    int             // fixed once the server first starts
	config  []string        // lines appended to postgresql.conf after each initdb
	disk    *forgetful.Disk // the data dir's when it forgets what was not fsynced; nil: an ordinary one

	mu      sync.Mutex
	paused  []int // server processes stopped by Pause, tracked by the reaper
	crashed bool  // the last server was killed: it left its shared memory
}

// newNode readies the server; nothing runs until initdb and start.
func newNode(n *node) *node {
	n.Node = supervise.New(supervise.Config{
		Name: n.name,
		Addr: n.Addr,
		Command: func() (*exec.Cmd, error) {
			cmd := n.command(n.install.Postgres(), "-D", n.dataDir, "-p", strconv.Itoa(n.port))
			// The postmaster moves into its data dir itself. The forked child must not, before
			// its exec: on a forgetful disk this process serves that dir, and the child, a copy of
			// it, once waited for good on its own chdir there.
			cmd.Dir = n.dir
			return cmd, nil
		},
		Output:     n.logPath(),
		Ready:      func(ctx context.Context) error { return selectOne(ctx, n.dsn("postgres")) },
		Stopped:    n.stopBackends,
		Continuing: n.continueBackends,
		Killed:     n.killed,
		// An immediate shutdown: the postmaster stops its processes and frees its
		// shared memory.
		Quit:     syscall.SIGQUIT,
		QuitWait: shutdownTimeout,
	})
	return n
}

func (n *node) Name() string          { return n.name }
func (n *node) Role() topologies.Role { return topologies.RoleMaster }
func (n *node) logPath() string       { return filepath.Join(n.dir, "server.log") }
func (n *node) Addr() string          { return net.JoinHostPort("127.0.0.1", strconv.Itoa(n.port)) }

func (n *node) dsn(database string) string {
	u := url.URL{Scheme: "postgres", User: url.User(postgres.User), Host: n.Addr(), Path: "/" + database,
		RawQuery: "sslmode=disable"}
	return u.String()
}

// command prepares a server binary to run as the install's user, with English messages
// (start reads the log for "Address already in use").
func (n *node) command(bin string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: n.install.RunAs}
	return cmd
}

// initdb makes a fresh data dir with the lockbench superuser, trust auth on loopback
// and the socket only, and n.config appended to postgresql.conf.
func (n *node) initdb(ctx context.Context) error {
	args := []string{"-D", n.dataDir, "-U", postgres.User, "--auth=trust", "--encoding=UTF8", "--locale=C"}
	// --no-sync on an ordinary disk: the dir does not outlive a machine crash (its owner
	// dies with it). A disk that forgets is there to crash: initdb syncs, as by default.
	if n.disk == nil {
		args = append(args, "--no-sync")
	}
	cmd := n.command(n.install.Initdb(), args...)
	cmd.Dir = n.dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	exited, err := supervise.StartInGroup(cmd)
	if err != nil {
		return fmt.Errorf("%s: start %s: %w", n.name, n.install.Initdb(), err)
	}
	select {
	case <-exited:
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
		return fmt.Errorf("%s: initdb: %w", n.name, ctx.Err())
	}
	if !cmd.ProcessState.Success() {
		hint := ""
		if n.install.RunAs != nil {
			hint = fmt.Sprintf(" (it runs as user %s: that user must be able to reach %s)", topologies.PostgresRunAsUser, n.dir)
		}
		return fmt.Errorf("%s: initdb %s: %v%s: %s", n.name, n.dataDir, cmd.ProcessState, hint, tail(out.Bytes()))
	}
	hba := "# lockbench: trust, on loopback and this dir's socket only\n" +
		"local all all trust\n" +
		"host  all all 127.0.0.1/32 trust\n"
	// Both files exist, owned by the server's user: rewriting keeps their owner.
	if err := os.WriteFile(filepath.Join(n.dataDir, "pg_hba.conf"), []byte(hba), 0o600); err != nil {
		return err
	}
	conf, err := os.OpenFile(filepath.Join(n.dataDir, "postgresql.conf"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, err = conf.WriteString("\n" + strings.Join(n.config, "\n") + "\n")
	if closeErr := conf.Close(); err == nil {
		err = closeErr
	}
	return err
}

// start launches the postmaster and waits until it answers SELECT 1.
func (n *node) start(ctx context.Context) error {
	if err := n.Start(ctx); err != nil {
		return err
	}
	n.cameUp()
	return nil
}

// cameUp: a server that came up has cleared what a killed one left.
func (n *node) cameUp() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.crashed = false
}

// createDatabase makes the lockbench database on a fresh data dir.
func (n *node) createDatabase(ctx context.Context) error {
	conn, err := pgconn.Connect(ctx, n.dsn("postgres"))
	if err != nil {
		return fmt.Errorf("%s: connect to create database %s: %w", n.name, postgres.Database, err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+postgres.Database).ReadAll(); err != nil {
		return fmt.Errorf("%s: create database %s: %w", n.name, postgres.Database, err)
	}
	return nil
}

func selectOne(ctx context.Context, dsn string) error {
	conn, err := pgconn.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "SELECT 1").ReadAll()
	return err
}

func tail(b []byte) []byte {
	if len(b) > 800 {
		b = b[len(b)-800:]
	}
	return bytes.TrimSpace(b)
}

// killed follows a kill of the postmaster's group: it kills every other server
// process and waits until none is left, so that a restart does not find the old shared
// memory still attached. Once the postmaster is dead nothing forks more: one sweep after
// it is reaped finds them all, reparented or not.
func (n *node) killed() {
	supervise.KillWorkingIn(n.dataDir)
	n.mu.Lock()
	defer n.mu.Unlock()
	n.untrackPausedLocked()
	n.crashed = true
}

// stopBackends follows the postmaster's SIGSTOP: a backend left running would go on
// answering its connection. The postmaster has stopped: it forks no backend the
// listing could miss.
func (n *node) stopBackends(pid int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, p := range supervise.WorkingIn(n.dataDir) {
		if p == pid || syscall.Kill(p, syscall.SIGSTOP) != nil {
			continue
		}
		// Backends lead their own group (setsid): the reaper must kill them apart.
		if pgid, err := syscall.Getpgid(p); err == nil && pgid == p {
			supervise.TrackGroup(p)
		}
		n.paused = append(n.paused, p)
	}
	// A process not yet stopped could still answer a query after Pause returned.
	for _, p := range n.paused {
		supervise.WaitStopped(p)
	}
}

// continueBackends SIGCONTs every server process Pause stopped, before the postmaster.
func (n *node) continueBackends() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, p := range n.paused {
		_ = syscall.Kill(p, syscall.SIGCONT)
	}
	n.untrackPausedLocked()
}

func (n *node) untrackPausedLocked() {
	for _, p := range n.paused {
		supervise.UntrackGroup(p)
	}
	n.paused = nil
}

// Restart kills the server if it runs and starts it again on the same port:
// RestartFromDisk recovers from its WAL, RestartWithSnapshot checkpoints first (if the
// server answers), RestartEmpty starts from a fresh initdb (a lost disk),
// RestartAfterHostCrash from what a forgetful disk kept (Spec.ForgetfulDisk).
func (n *node) Restart(ctx context.Context, mode topologies.RestartMode) error {
	if n.disk == nil {
		if err := topologies.RefuseHostCrash(n.Name(), mode); err != nil {
			return err
		}
	}
	var checkpoint func(context.Context) error
	if mode == topologies.RestartWithSnapshot {
		checkpoint = n.checkpoint
	}
	var fresh func() error
	if mode == topologies.RestartAfterHostCrash {
		fresh = n.crashDisk
	}
	if mode == topologies.RestartEmpty {
		fresh = func() error {
			if err := n.forgetData(); err != nil {
				return err
			}
			return n.initdb(ctx)
		}
	}
	if err := n.Node.Restart(ctx, checkpoint, fresh); err != nil {
		return err
	}
	n.cameUp()
	if mode == topologies.RestartEmpty {
		return n.createDatabase(ctx)
	}
	return nil
}

// crashDisk follows the kill of a host crash: the shared memory goes as a reboot would
// take it (its id is in a postmaster.pid the crash may take back), then the disk forgets.
func (n *node) crashDisk() error {
	n.mu.Lock()
	removeLeftSegment(n.dataDir)
	n.crashed = false
	n.mu.Unlock()
	return n.disk.Crash()
}

// LastHostCrash is what the last host crash dropped; false before the first, or on an
// ordinary disk.
func (n *node) LastHostCrash() (topologies.HostCrash, bool) { return n.disk.Last() }

// WriteBack makes all the server wrote durable on its forgetful disk; none on an ordinary one.
func (n *node) WriteBack() error { return n.disk.WriteBack() }

func (n *node) checkpoint(ctx context.Context) error {
	conn, err := pgconn.Connect(ctx, n.dsn("postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	_, err = conn.Exec(ctx, "CHECKPOINT").ReadAll()
	return err
}

// forgetData removes the data dir, first releasing the shared memory a killed server
// left (its id is in the postmaster.pid about to go).
func (n *node) forgetData() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.crashed {
		removeLeftSegment(n.dataDir)
		n.crashed = false
	}
	if err := os.RemoveAll(n.dataDir); err != nil {
		return fmt.Errorf("%s: forget data: %w", n.name, err)
	}
	return nil
}

// stop shuts the server down for good: an immediate shutdown, or a kill if that does
// not end in time; then no straggler may outlive its dir.
func (n *node) stop() {
	n.Close()
	supervise.KillWorkingIn(n.dataDir)
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.crashed {
		removeLeftSegment(n.dataDir)
	}
}

var _ topologies.Node = (*node)(nil)
