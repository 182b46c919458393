package pgtopo

import (
	"bytes"
	"context"
	"errors"
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

	"github.com/lockbench/lockbench/topologies"
)

// errPortTaken says the server could not bind its port: another program has it.
var errPortTaken = errors.New("port already in use")

// shutdownTimeout bounds an immediate shutdown before Close kills the server instead.
const shutdownTimeout = 10 * time.Second

// node is the postmaster and the processes it forks. Those call setsid, so the
// postmaster's process group holds the postmaster alone: faults that must reach the
// whole server find its processes by their working directory, the data dir.
type node struct {
	name    string
	install topologies.PostgresInstall
	dir     string   // the topology's dir: socket, log
	dataDir string   // initdb's dir, the server's working directory
	port    int      // fixed once the server first starts
	config  []string // lines appended to postgresql.conf after each initdb

	mu      sync.Mutex
	cmd     *exec.Cmd
	exited  <-chan struct{} // closed when cmd has been waited for
	paused  []int           // server processes stopped by Pause, tracked by the reaper
	frozen  bool            // between Pause and Resume (or a kill)
	crashed bool            // the last server was killed: it left its shared memory
	stopped bool            // Close was called: never start again
}

func (n *node) Name() string          { return n.name }
func (n *node) Role() topologies.Role { return topologies.RoleMaster }
func (n *node) logPath() string       { return filepath.Join(n.dir, "server.log") }
func (n *node) Addr() string          { return net.JoinHostPort("127.0.0.1", strconv.Itoa(n.port)) }

func (n *node) dsn(database string) string {
	u := url.URL{Scheme: "postgres", User: url.User(User), Host: n.Addr(), Path: "/" + database, RawQuery: "sslmode=disable"}
	return u.String()
}

func (n *node) Running() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.runningLocked()
}

func (n *node) runningLocked() bool {
	if n.cmd == nil {
		return false
	}
	select {
	case <-n.exited:
		return false
	default:
		return true
	}
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
	// --no-sync: the dir does not outlive a machine crash (its owner dies with it), so
	// syncing initdb's files buys nothing; the server's fsync setting governs commits.
	cmd := n.command(n.install.Initdb(), "-D", n.dataDir, "-U", User, "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync")
	cmd.Dir = n.dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	exited, err := topologies.StartInGroup(cmd)
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
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.stopped {
		return fmt.Errorf("%s: topology is closed", n.name)
	}
	if n.runningLocked() {
		return fmt.Errorf("%s: already running", n.name)
	}
	startLog := topologies.MarkStartLog(n.logPath())
	logFile, err := os.OpenFile(n.logPath(), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	cmd := n.command(n.install.Postgres(), "-D", n.dataDir, "-p", strconv.Itoa(n.port))
	cmd.Dir = n.dataDir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	exited, err := topologies.StartInGroup(cmd)
	logFile.Close() // the server has its own copy
	if err != nil {
		return fmt.Errorf("%s: start %s: %w", n.name, n.install.Postgres(), err)
	}
	n.cmd, n.exited = cmd, exited

	if err := waitReady(ctx, n.dsn("postgres"), exited); err != nil {
		n.killLocked()
		log := startLog.Tail(800)
		if startLog.PortTaken() {
			return fmt.Errorf("%s on %s: %w; log: %s", n.name, n.Addr(), errPortTaken, log)
		}
		return fmt.Errorf("%s on %s did not come up: %w; log: %s", n.name, n.Addr(), err, log)
	}
	n.crashed = false // a server that came up has cleared what a killed one left
	return nil
}

// createDatabase makes the lockbench database on a fresh data dir.
func (n *node) createDatabase(ctx context.Context) error {
	conn, err := pgconn.Connect(ctx, n.dsn("postgres"))
	if err != nil {
		return fmt.Errorf("%s: connect to create database %s: %w", n.name, Database, err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+Database).ReadAll(); err != nil {
		return fmt.Errorf("%s: create database %s: %w", n.name, Database, err)
	}
	return nil
}

// waitReady polls dsn until it answers SELECT 1, the server exits, or ctx ends.
func waitReady(ctx context.Context, dsn string, exited <-chan struct{}) error {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		attemptCtx, cancel := context.WithTimeout(ctx, time.Second)
		go func() { // a server that exits will never answer: stop waiting for it
			select {
			case <-exited:
				cancel()
			case <-attemptCtx.Done():
			}
		}()
		err := selectOne(attemptCtx, dsn)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-exited:
			return errors.New("server exited")
		case <-ctx.Done():
			return fmt.Errorf("%w (last: %v)", ctx.Err(), err)
		case <-tick.C:
		}
	}
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

// Kill SIGKILLs the postmaster's group and every other server process: a crash, with
// no shutdown checkpoint.
func (n *node) Kill() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.runningLocked() {
		return fmt.Errorf("%s: not running", n.name)
	}
	n.killLocked()
	return nil
}

// killLocked kills the server and waits until none of its processes is left, so that a
// restart does not find the old shared memory still attached.
func (n *node) killLocked() {
	if n.cmd == nil {
		return
	}
	_ = syscall.Kill(-n.cmd.Process.Pid, syscall.SIGKILL)
	// Once the postmaster is dead nothing forks more server processes: one sweep after
	// it is reaped finds them all, reparented or not.
	<-n.exited
	killAll(n.dataDir)
	n.untrackPausedLocked()
	n.crashed = true
}

// Pause SIGSTOPs the postmaster's group, then every other server process: a backend
// left running would go on answering its connection.
func (n *node) Pause() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.runningLocked() {
		return fmt.Errorf("%s: not running", n.name)
	}
	pid := n.cmd.Process.Pid
	if err := syscall.Kill(-pid, syscall.SIGSTOP); err != nil {
		return fmt.Errorf("%s: SIGSTOP: %w", n.name, err)
	}
	// Until the postmaster has stopped it may still fork a backend the listing misses.
	topologies.WaitStopped(pid)
	for _, p := range serverProcesses(n.dataDir) {
		if p == pid || syscall.Kill(p, syscall.SIGSTOP) != nil {
			continue
		}
		// Backends lead their own group (setsid): the reaper must kill them apart.
		if pgid, err := syscall.Getpgid(p); err == nil && pgid == p {
			topologies.TrackGroup(p)
		}
		n.paused = append(n.paused, p)
	}
	// A process not yet stopped could still answer a query after Pause returned.
	for _, p := range n.paused {
		topologies.WaitStopped(p)
	}
	n.frozen = true
	return nil
}

// Resume SIGCONTs every server process Pause stopped, then the postmaster's group.
func (n *node) Resume() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.runningLocked() {
		return fmt.Errorf("%s: not running", n.name)
	}
	for _, p := range n.paused {
		_ = syscall.Kill(p, syscall.SIGCONT)
	}
	n.untrackPausedLocked()
	if err := syscall.Kill(-n.cmd.Process.Pid, syscall.SIGCONT); err != nil {
		return fmt.Errorf("%s: SIGCONT: %w", n.name, err)
	}
	return nil
}

func (n *node) untrackPausedLocked() {
	for _, p := range n.paused {
		topologies.UntrackGroup(p)
	}
	n.paused, n.frozen = nil, false
}

// Restart kills the server if it runs and starts it again on the same port:
// RestartFromDisk recovers from its WAL, RestartWithSnapshot checkpoints first (if the
// server answers), RestartEmpty starts from a fresh initdb (a lost disk).
func (n *node) Restart(ctx context.Context, mode topologies.RestartMode) error {
	n.mu.Lock()
	if mode == topologies.RestartWithSnapshot && n.runningLocked() && !n.frozen {
		if err := n.checkpoint(ctx); err != nil {
			n.mu.Unlock()
			return fmt.Errorf("%s: checkpoint before restart: %w", n.name, err)
		}
	}
	if n.runningLocked() {
		n.killLocked()
	}
	if n.stopped {
		n.mu.Unlock()
		return fmt.Errorf("%s: topology is closed", n.name)
	}
	n.mu.Unlock()
	if mode == topologies.RestartEmpty {
		if err := n.forgetData(); err != nil {
			return err
		}
		if err := n.initdb(ctx); err != nil {
			return err
		}
	}
	if err := n.start(ctx); err != nil {
		return err
	}
	if mode == topologies.RestartEmpty {
		return n.createDatabase(ctx)
	}
	return nil
}

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

// stop shuts the server down for good: an immediate shutdown, in which the postmaster
// stops its processes and frees its shared memory, or a kill if that does not end in time.
func (n *node) stop() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.stopped = true
	if n.runningLocked() {
		pid := n.cmd.Process.Pid
		for _, p := range n.paused {
			_ = syscall.Kill(p, syscall.SIGCONT)
		}
		_ = syscall.Kill(-pid, syscall.SIGCONT)
		_ = syscall.Kill(pid, syscall.SIGQUIT)
		select {
		case <-n.exited:
			n.untrackPausedLocked()
		case <-time.After(shutdownTimeout):
			n.killLocked()
		}
	}
	killAll(n.dataDir) // nothing should be left; a straggler must not outlive its dir
	if n.crashed {
		removeLeftSegment(n.dataDir)
	}
}

var _ topologies.Node = (*node)(nil)
