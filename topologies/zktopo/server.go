package zktopo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/lockbench/lockbench/topologies"
)

// errPortTaken says a server could not bind one of its ports: another program has it.
var errPortTaken = errors.New("port already in use")

// server is one ZooKeeper server: a single JVM in its own process group.
type server struct {
	name     string
	id       int    // myid, 1-based
	dir      string // this server's dir: zoo.cfg, log4j.properties, logs, data/
	ports    ports  // fixed once the ensemble first starts
	ensemble *Ensemble

	mu       sync.Mutex
	proc     topologies.GroupProcess // the JVM
	startLog topologies.StartLog     // what the JVM wrote since its last start
	paused   bool
	stopped  bool // Close was called: never start again
}

func (s *server) Name() string          { return s.name }
func (s *server) Role() topologies.Role { return topologies.RoleMember }
func (s *server) Addr() string          { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.ports.client)) }
func (s *server) dataDir() string       { return filepath.Join(s.dir, "data") }
func (s *server) cfgPath() string       { return filepath.Join(s.dir, "zoo.cfg") }
func (s *server) logPath() string       { return filepath.Join(s.dir, "server.log") }
func (s *server) outPath() string       { return filepath.Join(s.dir, "server.out") }

func (s *server) Running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.runningLocked()
}

func (s *server) runningLocked() bool { return s.proc.Running() }

// Pid is the JVM's process id while it runs, else 0.
func (s *server) Pid() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.proc.Pid()
}

func (s *server) isPaused() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.paused
}

// start writes the server's config and launches its JVM. It does not wait: a member of
// an ensemble serves only once a quorum runs (waitServing).
func (s *server) start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return fmt.Errorf("%s: topology is closed", s.name)
	}
	if s.runningLocked() {
		return fmt.Errorf("%s: already running", s.name)
	}
	if err := writeConfig(s.ensemble, s); err != nil {
		return err
	}
	out, err := os.OpenFile(s.outPath(), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	s.startLog = topologies.MarkStartLog(s.outPath(), s.logPath())
	cmd := exec.Command(s.ensemble.install.Java, javaArgs(s.ensemble, s)...)
	cmd.Dir = s.dir
	cmd.Stdout, cmd.Stderr = out, out
	proc, err := topologies.StartGroupProcess(cmd)
	out.Close() // the JVM has its own copy
	if err != nil {
		return fmt.Errorf("%s: start %s: %w", s.name, s.ensemble.install.Java, err)
	}
	s.proc, s.paused = proc, false
	return nil
}

// waitServing polls srvr until the server answers with a mode (it has joined a quorum,
// or runs standalone), its JVM exits, or ctx ends.
func (s *server) waitServing(ctx context.Context) error {
	s.mu.Lock()
	exited := s.proc.Exited()
	s.mu.Unlock()
	if exited == nil {
		return fmt.Errorf("%s: not started", s.name)
	}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		_, err := mode(ctx, s.Addr())
		if err == nil {
			return nil
		}
		select {
		case <-exited:
			s.mu.Lock()
			startLog := s.startLog
			s.mu.Unlock()
			log := startLog.Tail(800)
			if startLog.PortTaken() {
				return fmt.Errorf("%s on %s: %w; log: %s", s.name, s.Addr(), errPortTaken, log)
			}
			return fmt.Errorf("%s on %s exited; log: %s", s.name, s.Addr(), log)
		case <-ctx.Done():
			return fmt.Errorf("%s on %s not serving: %w (last: %v); log: %s", s.name, s.Addr(), ctx.Err(), err, s.logTail())
		case <-tick.C:
		}
	}
}

// logTail is the end of the server's log and of its JVM's own output, for errors.
func (s *server) logTail() []byte {
	var b []byte
	for _, p := range []string{s.outPath(), s.logPath()} {
		if part, err := os.ReadFile(p); err == nil {
			b = append(b, part...)
		}
	}
	if len(b) > 800 {
		b = b[len(b)-800:]
	}
	return bytes.TrimSpace(b)
}

// Kill SIGKILLs the JVM: no goodbye, sessions and connections dropped at once.
func (s *server) Kill() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.runningLocked() {
		return fmt.Errorf("%s: not running", s.name)
	}
	s.killLocked()
	return nil
}

// killLocked SIGKILLs the JVM's group and waits until it is reaped.
func (s *server) killLocked() {
	s.proc.Kill()
	s.paused = false
}

// Pause SIGSTOPs the JVM: its sockets stay open, it answers nothing, its timers stop.
func (s *server) Pause() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.runningLocked() {
		return fmt.Errorf("%s: not running", s.name)
	}
	if err := s.proc.Stop(); err != nil {
		return fmt.Errorf("%s: %w", s.name, err)
	}
	s.paused = true
	return nil
}

func (s *server) Resume() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.runningLocked() {
		return fmt.Errorf("%s: not running", s.name)
	}
	if err := s.proc.Continue(); err != nil {
		return fmt.Errorf("%s: %w", s.name, err)
	}
	s.paused = false
	return nil
}

// Restart kills the server if it runs and starts it again on the same ports.
// RestartFromDisk and RestartWithSnapshot both recover from the data dir (ZooKeeper
// logs every acknowledged write before it answers, unless UnsafeNoFsync); RestartEmpty
// deletes the data dir but myid, as a server whose disk was lost: a lone server starts
// from nothing (zxids from 0 again), a member of an ensemble syncs from the leader.
// It returns once the server serves.
func (s *server) Restart(ctx context.Context, mode topologies.RestartMode) error {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return fmt.Errorf("%s: topology is closed", s.name)
	}
	if s.runningLocked() {
		s.killLocked()
	}
	s.mu.Unlock()
	if mode == topologies.RestartEmpty {
		if err := os.RemoveAll(s.dataDir()); err != nil {
			return fmt.Errorf("%s: forget data: %w", s.name, err)
		}
	}
	if err := s.start(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	return s.waitServing(ctx)
}

// stop kills the server for good.
func (s *server) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
	s.killLocked()
}

var _ topologies.Node = (*server)(nil)
