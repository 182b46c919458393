// Package pgtopo runs one PostgreSQL server as a process of its own, the way package
// topologies runs redis-server: initdb into a temp dir, postgres on 127.0.0.1 with a free
// port, its own process group with a parent-death signal, the same reaper, stopped and
// removed on every path. It lives apart from package topologies so that programs that
// never start PostgreSQL do not carry a driver; importing it registers the
// "postgres-process" provider as the default for topologies.Postgres.
package pgtopo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/postgres"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/forgetful"
	"github.com/lockbench/lockbench/topologies/supervise"
)

// AutoChoice runs the server as a process; containers copy the host's install, so
// without it nothing can serve postgres.
func AutoChoice() (string, string, error) {
	if _, err := topologies.FindPostgres(""); err != nil {
		return "", "", fmt.Errorf("provider auto: no provider can serve postgres: %w", err)
	}
	return "process", "the PostgreSQL server is installed", nil
}

// maxConnections leaves room for 256 clients holding a connection each plus as many
// again for short side queries (pg-for-update takes its fence on a second connection).
const maxConnections = 1000

// Process starts the server as a postgres process on 127.0.0.1.
type Process struct {
	// BinDir holds initdb and postgres; empty means topologies.FindPostgres.
	BinDir string
	// Port is the port to listen on; 0 picks a free one, and picks again when another
	// program takes it first. A fixed port that is in use fails the start.
	Port int
}

// ProviderName is the process provider's name; --provider process picks it for postgres.
const ProviderName = "postgres-process"

func (Process) Name() string { return ProviderName }

// Start runs initdb, starts the server and creates the lockbench database; it returns
// once that database answers SELECT 1. On any failure it stops what it started and
// removes the temp dir.
func (p Process) Start(ctx context.Context, spec backend.Spec) (topologies.Topology, error) {
	spec, err := topologies.SpecOfOwnKind(spec, topologies.Postgres, ProviderName)
	if err != nil {
		return nil, err
	}
	if p.Port < 0 || p.Port > 65535 {
		return nil, fmt.Errorf("port = %d: must be 0 (any free port) or 1-65535", p.Port)
	}
	install, err := topologies.FindPostgres(p.BinDir)
	if err != nil {
		return nil, err
	}
	killOrphanedServers()
	dir, err := topologies.NewTempDir("postgres")
	if err != nil {
		return nil, err
	}
	// Server processes are found by their working directory, which the kernel reports
	// with symlinks resolved.
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		realDir = dir
	}
	dataDir := forgetful.DataDir(realDir)
	s := &Server{spec: spec, dir: dir}
	// On SIGINT/SIGTERM the reaper kills the postmaster; what it forked and the shared
	// memory it made are this provider's to clean before the dir goes.
	s.forgetReap = topologies.OnReap(func() {
		supervise.KillWorkingIn(dataDir)
		removeLeftSegment(dataDir)
	})
	s.node = newNode(&node{
		name:    "master-0",
		install: install,
		dir:     realDir,
		dataDir: dataDir,
		port:    p.Port,
		config:  serverConfig(spec, realDir),
	})
	if spec.ForgetfulDisk {
		if s.node.disk, err = mountForgetful(realDir, install); err != nil {
			s.Close()
			return nil, err
		}
	}
	if err := s.launch(ctx, p.Port == 0); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// mountForgetful puts the data dir on a disk that forgets what was not fsynced, owned
// by the server's user and durable before initdb fills it (initdb fsyncs what it makes
// inside the data dir, never the entry naming it).
func mountForgetful(dir string, install topologies.PostgresInstall) (*forgetful.Disk, error) {
	disk, err := forgetful.Mount(dir)
	if err != nil {
		return nil, fmt.Errorf("master-0: %w", err)
	}
	data := forgetful.DataDir(dir)
	if cred := install.RunAs; cred != nil {
		err = os.Chown(data, int(cred.Uid), int(cred.Gid))
	}
	if err == nil {
		err = os.Chmod(data, 0o700)
	}
	if err == nil {
		err = disk.SettleEntries()
	}
	if err != nil {
		return nil, errors.Join(fmt.Errorf("master-0: forgetful disk: %w", err), disk.Unmount())
	}
	return disk, nil
}

// serverConfig is what the server runs with beyond initdb's defaults: loopback only,
// its socket inside the topology's dir, fsync as the spec says.
func serverConfig(spec backend.Spec, dir string) []string {
	fsync := "on"
	if spec.UnsafeNoFsync {
		fsync = "off" // unsafe: a commit acknowledged before an OS crash can vanish
	}
	lines := []string{
		"# lockbench: loopback only, the socket in this topology's dir",
		"listen_addresses = '127.0.0.1'",
		"unix_socket_directories = " + quote(dir),
		"fsync = " + fsync,
		"max_connections = " + strconv.Itoa(maxConnections),
		"logging_collector = off",
	}
	return append(lines, spec.ExtraConfig...)
}

// quote makes a postgresql.conf string value.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// Server is a running PostgreSQL server: Masters() and Nodes() are its one node.
type Server struct {
	spec       backend.Spec
	dir        string
	node       *node
	forgetReap func()
	closeOnce  sync.Once
	leasedPort int // the port launch leased (0 for a port the caller fixed): Close ends the lease
}

func (s *Server) Spec() backend.Spec           { return s.spec }
func (s *Server) Provider() string             { return Process{}.Name() }
func (s *Server) Masters() []topologies.Node   { return []topologies.Node{s.node} }
func (s *Server) Replicas() []topologies.Node  { return nil }
func (s *Server) Sentinels() []topologies.Node { return nil }
func (s *Server) Nodes() []topologies.Node     { return []topologies.Node{s.node} }

// Dir is where the server keeps its data dir, socket and log; Close removes it.
func (s *Server) Dir() string { return s.dir }

// DSN is a connection string for the lockbench database as the lockbench superuser.
func (s *Server) DSN() string { return s.node.dsn(postgres.Database) }

// Close stops the server and removes its dir. Safe to call twice.
func (s *Server) Close() error {
	var err error
	s.closeOnce.Do(func() {
		s.node.stop()
		topologies.ReleasePort(s.leasedPort)
		err = errors.Join(s.node.disk.Unmount(), topologies.RemoveTempDir(s.dir))
		s.forgetReap()
	})
	return err
}

// launch prepares the data dir and starts the server, taking a new free port when
// another program grabbed the one it picked (pickPorts) or failing at once (a fixed port).
func (s *Server) launch(ctx context.Context, pickPorts bool) error {
	n := s.node
	if cred := n.install.RunAs; cred != nil {
		if err := os.Chown(s.dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return fmt.Errorf("hand the temp dir to user %s: %w", topologies.PostgresRunAsUser, err)
		}
	}
	if err := n.initdb(ctx); err != nil {
		return err
	}
	attempts := 1
	if pickPorts {
		attempts = 5
	}
	err := supervise.RetryPorts(attempts, func() error {
		if pickPorts {
			topologies.ReleasePort(s.leasedPort) // the last attempt's port: someone else has it
			port, err := topologies.FreePort()
			if err != nil {
				return err
			}
			n.port, s.leasedPort = port, port
		}
		return n.start(ctx)
	})
	if err != nil {
		return err
	}
	if err := n.createDatabase(ctx); err != nil {
		return err
	}
	return n.disk.WriteBack() // a server up a while: its setup is on disk, whatever fsync says
}
