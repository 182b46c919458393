package supervise

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// ErrPortTaken says the child could not bind a port it was given: another program won
// the race for it, and a new port may do.
var ErrPortTaken = errors.New("port already in use")

// logTailBytes is how much of what a failed child logged an error quotes.
const logTailBytes = 800

// Config is what a Node needs to know about its child; the hooks keep each kind's
// specifics (a server whose processes leave the group) with the kind.
type Config struct {
	Name string        // for errors: "master-0"
	Addr func() string // host:port it serves on, for errors
	// Command prepares one start (a config to write, say) and makes its command: an
	// exec.Cmd runs once.
	Command func() (*exec.Cmd, error)
	// Output, when set, is the file the child's stdout and stderr are appended to.
	Output string
	// Logs are the files the child writes itself; a failed start is judged on them and
	// on Output, as far as written since it began.
	Logs []string
	// Ready returns nil once the child serves. It is called until then, at most every
	// Every (default 10 ms), with a ctx that ends after Attempt (default 1 s) or when
	// the child exits.
	Ready   func(ctx context.Context) error
	Every   time.Duration
	Attempt time.Duration
	// The hooks run with the node locked: Stopped once SIGSTOP has reached the group
	// (pid is its leader), Continuing before SIGCONT is sent to it, Killed once the
	// group was SIGKILLed and the child reaped.
	Stopped    func(pid int)
	Continuing func()
	Killed     func()
	// Quit, when set, is the signal Close asks the child to shut down with, waiting up to
	// QuitWait before it kills it instead; without it Close kills at once.
	Quit     syscall.Signal
	QuitWait time.Duration
}

// Node is one supervised child process. The zero value is not usable: see New.
type Node struct {
	cfg Config

	mu       sync.Mutex
	cmd      *exec.Cmd
	exited   <-chan struct{} // closed once cmd has been waited for
	startLog StartLog        // what the child wrote since its last start
	paused   bool
	closed   bool // Close was called: never start again
}

// New makes a node for cfg; nothing runs until Start or Launch.
func New(cfg Config) *Node {
	if cfg.Every == 0 {
		cfg.Every = 10 * time.Millisecond
	}
	if cfg.Attempt == 0 {
		cfg.Attempt = time.Second
	}
	return &Node{cfg: cfg}
}

// Running: started and not yet exited.
func (n *Node) Running() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.runningLocked()
}

func (n *Node) runningLocked() bool {
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

// Paused: between a Pause and a Resume, Kill or Restart.
func (n *Node) Paused() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.paused
}

// Pid is the child's process id while it runs, else 0.
func (n *Node) Pid() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.runningLocked() {
		return 0
	}
	return n.cmd.Process.Pid
}

// LogTail is the end (at most max bytes) of what the child wrote since its last start.
func (n *Node) LogTail(max int) []byte {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.startLog.Tail(max)
}

// Start launches the child and waits until Ready says it serves; a child that does not
// is killed, and the error quotes its log (and wraps ErrPortTaken when the log says so).
func (n *Node) Start(ctx context.Context) error {
	if err := n.Launch(); err != nil {
		return err
	}
	if err := n.WaitReady(ctx); err != nil {
		n.mu.Lock()
		n.killLocked()
		n.mu.Unlock()
		return err
	}
	return nil
}

// Launch starts the child without waiting: a member of an ensemble serves only once a
// quorum runs (WaitReady).
func (n *Node) Launch() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return fmt.Errorf("%s: topology is closed", n.cfg.Name)
	}
	if n.runningLocked() {
		return fmt.Errorf("%s: already running", n.cfg.Name)
	}
	cmd, err := n.cfg.Command()
	if err != nil {
		return fmt.Errorf("%s: %w", n.cfg.Name, err)
	}
	logs := n.cfg.Logs
	if n.cfg.Output != "" {
		out, err := os.OpenFile(n.cfg.Output, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		defer out.Close() // the child has its own copy
		cmd.Stdout, cmd.Stderr = out, out
		logs = append([]string{n.cfg.Output}, logs...)
	}
	startLog := MarkStartLog(logs...)
	exited, err := StartInGroup(cmd)
	if err != nil {
		return fmt.Errorf("%s: start %s: %w", n.cfg.Name, cmd.Path, err)
	}
	n.cmd, n.exited, n.startLog, n.paused = cmd, exited, startLog, false
	return nil
}

// WaitReady polls Ready until the child serves, exits, or ctx ends. It holds no lock
// while it waits: the node may be killed meanwhile, which ends the wait.
func (n *Node) WaitReady(ctx context.Context) error {
	n.mu.Lock()
	exited, startLog := n.exited, n.startLog
	n.mu.Unlock()
	if exited == nil {
		return fmt.Errorf("%s: not started", n.cfg.Name)
	}
	tick := time.NewTicker(n.cfg.Every)
	defer tick.Stop()
	for {
		err := n.probe(ctx, exited)
		if err == nil {
			return nil
		}
		select {
		case <-exited:
			return n.failed(startLog, errors.New("exited"))
		case <-ctx.Done():
			return n.failed(startLog, fmt.Errorf("%w (last: %v)", ctx.Err(), err))
		case <-tick.C:
		}
	}
}

// probe is one Ready call, cut short when the child exits: it will never answer.
func (n *Node) probe(ctx context.Context, exited <-chan struct{}) error {
	ctx, cancel := context.WithTimeout(ctx, n.cfg.Attempt)
	defer cancel()
	go func() {
		select {
		case <-exited:
			cancel()
		case <-ctx.Done():
		}
	}()
	return n.cfg.Ready(ctx)
}

// failed is the error of a start that did not come up, judged on all it logged.
func (n *Node) failed(startLog StartLog, why error) error {
	log := startLog.Tail(logTailBytes)
	if startLog.PortTaken() {
		return fmt.Errorf("%s on %s: %w; log: %s", n.cfg.Name, n.cfg.Addr(), ErrPortTaken, log)
	}
	return fmt.Errorf("%s on %s did not come up: %w; log: %s", n.cfg.Name, n.cfg.Addr(), why, log)
}

// Kill SIGKILLs the child's group and returns once the child is reaped.
func (n *Node) Kill() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.runningLocked() {
		return fmt.Errorf("%s: not running", n.cfg.Name)
	}
	n.killLocked()
	return nil
}

// Halt kills the child if it runs, as a restart does first; an error once closed.
func (n *Node) Halt() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return fmt.Errorf("%s: topology is closed", n.cfg.Name)
	}
	n.killLocked()
	return nil
}

func (n *Node) killLocked() {
	if n.cmd == nil {
		return
	}
	if n.runningLocked() { // a reaped child's pid may belong to someone else by now
		_ = syscall.Kill(-n.cmd.Process.Pid, syscall.SIGKILL)
	}
	<-n.exited
	n.paused = false
	if n.cfg.Killed != nil {
		n.cfg.Killed()
	}
}

// Pause SIGSTOPs the child's group and returns once the child shows stopped: it keeps
// its sockets open and answers nothing.
func (n *Node) Pause() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.runningLocked() {
		return fmt.Errorf("%s: not running", n.cfg.Name)
	}
	pid := n.cmd.Process.Pid
	if err := syscall.Kill(-pid, syscall.SIGSTOP); err != nil {
		return fmt.Errorf("%s: SIGSTOP: %w", n.cfg.Name, err)
	}
	WaitStopped(pid)
	if n.cfg.Stopped != nil {
		n.cfg.Stopped(pid)
	}
	n.paused = true
	return nil
}

// Resume SIGCONTs the child's group.
func (n *Node) Resume() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.runningLocked() {
		return fmt.Errorf("%s: not running", n.cfg.Name)
	}
	if n.cfg.Continuing != nil {
		n.cfg.Continuing()
	}
	if err := syscall.Kill(-n.cmd.Process.Pid, syscall.SIGCONT); err != nil {
		return fmt.Errorf("%s: SIGCONT: %w", n.cfg.Name, err)
	}
	n.paused = false
	return nil
}

// Restart kills the child if it runs and starts it again from a fresh Command, on the
// address that command names. snapshot, if set, runs first while the child runs
// unpaused (a save to restart from); between, if set, runs once it is dead (forgetting
// its data); both with the node locked.
func (n *Node) Restart(ctx context.Context, snapshot func(context.Context) error, between func() error) error {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return fmt.Errorf("%s: topology is closed", n.cfg.Name)
	}
	if snapshot != nil && n.runningLocked() && !n.paused {
		if err := snapshot(ctx); err != nil {
			n.mu.Unlock()
			return fmt.Errorf("%s: snapshot before restart: %w", n.cfg.Name, err)
		}
	}
	n.killLocked()
	if between != nil {
		if err := between(); err != nil {
			n.mu.Unlock()
			return err
		}
	}
	n.mu.Unlock()
	return n.Start(ctx)
}

// Close stops the child for good: Quit and a bounded wait when set, else a kill. Safe
// on a node never started, and twice.
func (n *Node) Close() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.closed = true
	if !n.runningLocked() {
		return
	}
	if n.cfg.Quit != 0 {
		if n.cfg.Continuing != nil {
			n.cfg.Continuing()
		}
		pid := n.cmd.Process.Pid
		_ = syscall.Kill(-pid, syscall.SIGCONT) // a stopped child must run to quit
		_ = syscall.Kill(pid, n.cfg.Quit)
		select {
		case <-n.exited:
			n.paused = false
			return
		case <-time.After(n.cfg.QuitWait):
		}
	}
	n.killLocked()
}

// RetryPorts calls start up to attempts times while it fails with ErrPortTaken, which
// says another program bound a port the last attempt picked: start picks new ones.
func RetryPorts(attempts int, start func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = start(); !errors.Is(err, ErrPortTaken) {
			return err
		}
	}
	return err
}
