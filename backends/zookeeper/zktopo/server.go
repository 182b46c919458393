package zktopo

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/lockbench/lockbench/backends/zookeeper/zktopo/srvr"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/forgetful"
	"github.com/lockbench/lockbench/topologies/supervise"
)

// server is one ZooKeeper server: a single supervised JVM.
type server struct {
	*supervise.Node
	name     string
	id       int    // myid, 1-based
	dir      string // this server's dir: zoo.cfg, log4j.properties, logs, data/
	ports    Ports  // fixed once the ensemble first starts
	ensemble *Ensemble
	disk     *forgetful.Disk // data/ when it forgets what was not fsynced; nil: an ordinary disk
	asker    srvr.Patient    // waits longer for a server the load slows
}

// newServer readies server number i of e; nothing runs until start.
func newServer(e *Ensemble, i int) *server {
	s := &server{name: fmt.Sprintf("server-%d", i), id: i + 1, ensemble: e}
	s.dir = filepath.Join(e.dir, s.name)
	s.Node = supervise.New(supervise.Config{
		Name: s.name,
		Addr: s.Addr,
		// The config names every member's ports: it is written again at every start.
		Command: func() (*exec.Cmd, error) {
			cfg := s.config()
			if err := cfg.Write(); err != nil {
				return nil, fmt.Errorf("%s: %w", s.name, err)
			}
			cmd := exec.Command(e.install.Java, cfg.JavaArgs(e.install)...)
			cmd.Dir = s.dir
			return cmd, nil
		},
		Output: filepath.Join(s.dir, "server.out"),
		Logs:   []string{s.config().LogPath()},
		// Serving: it answers srvr with a mode (it has joined a quorum, or runs standalone).
		Ready: func(ctx context.Context) error {
			_, err := s.asker.Mode(ctx, s.Addr())
			return err
		},
		Every: 20 * time.Millisecond,
	})
	return s
}

func (s *server) Name() string          { return s.name }
func (s *server) Role() topologies.Role { return topologies.RoleMember }
func (s *server) Addr() string          { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.ports.Client)) }

// config is the server's files and command line as they stand: every member's ports
// are in it, so it is made again at every start.
func (s *server) config() ServerConfig {
	e := s.ensemble
	c := ServerConfig{ID: s.id, Dir: s.dir, Tick: e.tick, Port: s.ports.Client, NoFsync: e.spec.UnsafeNoFsync}
	if len(e.servers) > 1 {
		for _, m := range e.servers {
			c.Ensemble = append(c.Ensemble, m.ports)
		}
	}
	return c
}

// Restart kills the server if it runs and starts it again on the same ports.
// RestartFromDisk and RestartWithSnapshot both recover from the data dir (ZooKeeper
// logs every acknowledged write before it answers, unless UnsafeNoFsync); RestartEmpty
// deletes the data dir but myid, as a server whose disk was lost: a lone server starts
// from nothing (zxids from 0 again), a member of an ensemble syncs from the leader.
// RestartAfterHostCrash starts from what a forgetful disk kept of the data dir. It
// returns once the server serves.
func (s *server) Restart(ctx context.Context, mode topologies.RestartMode) error {
	if s.disk == nil {
		if err := topologies.RefuseHostCrash(s.Name(), mode); err != nil {
			return err
		}
	}
	var forget func() error
	if mode == topologies.RestartAfterHostCrash {
		forget = s.disk.Crash // the JVM is killed before its disk forgets
	}
	if mode == topologies.RestartEmpty {
		forget = func() error {
			if err := os.RemoveAll(s.config().DataDir()); err != nil {
				return fmt.Errorf("%s: forget data: %w", s.name, err)
			}
			return nil
		}
	}
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	if err := s.Node.Restart(ctx, nil, forget); err != nil {
		return err
	}
	return s.settleDisk(ctx)
}

// mountDisk puts the server's data dir on a disk that forgets what was not fsynced.
func (s *server) mountDisk() error {
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return err
	}
	disk, err := forgetful.Mount(s.dir)
	if err != nil {
		return fmt.Errorf("%s: %w", s.name, err)
	}
	s.disk = disk
	return nil
}

// LastHostCrash is what the last host crash dropped; false before the first, or on an
// ordinary disk.
func (s *server) LastHostCrash() (topologies.HostCrash, bool) { return s.disk.Last() }

// WriteBack makes all the server wrote durable on its forgetful disk; none on an ordinary one.
func (s *server) WriteBack() error { return s.disk.WriteBack() }

var _ topologies.Node = (*server)(nil)
