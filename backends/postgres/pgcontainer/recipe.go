// Package pgcontainer runs PostgreSQL with the container provider: the host's server
// binaries in an image of their own, initdb run on the host into the server's mounted
// dir (it needs a shell the image lacks). Start is its recipe for topologies/container;
// like the container provider, it carries no PostgreSQL driver: it speaks through the
// host's psql.
package pgcontainer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/lockbench/lockbench/backends/postgres"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/container"
)

// server is the one PostgreSQL server in a container.
type server struct {
	*container.Topology
	install topologies.PostgresInstall
	needDB  bool // a fresh initdb: the lockbench database is still to be made
}

// DSN connects to the lockbench database as the lockbench superuser, as pgtopo's does.
func (s *server) DSN() string { return s.dsn(postgres.Database) }

func (s *server) dsn(database string) string {
	u := url.URL{Scheme: "postgres", User: url.User(postgres.User), Host: s.Masters()[0].Addr(), Path: "/" + database,
		RawQuery: "sslmode=disable"}
	return u.String()
}

func dataDir(c *container.Server) string { return filepath.Join(c.Dir(), "data") }

// Start starts the one server and returns once the lockbench database answers.
func Start(ctx context.Context, d *container.Topology) (topologies.Topology, error) {
	install, err := topologies.FindPostgres("")
	if err != nil {
		return nil, err
	}
	image, _, err := container.OnceImage("postgres", func() (string, []string, error) {
		tag, err := buildImage(ctx, d, install)
		return tag, nil, err
	})
	if err != nil {
		return nil, err
	}
	s := &server{Topology: d, install: install}
	user := fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid())
	if cred := install.RunAs; cred != nil { // postgres refuses to run as root
		user = fmt.Sprintf("%d:%d", cred.Uid, cred.Gid)
		if err := os.Chown(d.Dir(), int(cred.Uid), int(cred.Gid)); err != nil {
			return nil, err
		}
	}
	ports, err := d.Ports(1)
	if err != nil {
		return nil, err
	}
	d.AddServer("master-0", topologies.RoleMaster, ports[0], nil, container.Service{
		Image: image,
		Command: func(c *container.Server) []string {
			return []string{install.Postgres(), "-D", dataDir(c), "-p", strconv.Itoa(c.Port())}
		},
		Env:   map[string]string{"LC_ALL": "C"},
		User:  user,
		Ready: s.ready,
		Prepare: func(ctx context.Context, c *container.Server, mode topologies.RestartMode, first bool) error {
			// A first start tried again on another port keeps the data dir it made.
			if _, err := os.Stat(dataDir(c)); mode == topologies.RestartEmpty || errors.Is(err, os.ErrNotExist) {
				return s.initdb(ctx, c)
			}
			return nil
		},
		Forget: func(c *container.Server) error { return os.RemoveAll(dataDir(c)) },
		// pgtopo's with-snapshot: a checkpoint first, which matters under UnsafeNoFsync.
		Snapshot: func(ctx context.Context, _ *container.Server) error {
			return s.psql(ctx, postgres.Database, "CHECKPOINT", 30*time.Second)
		},
	})
	if err := d.Start(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// initdb makes a fresh data dir with the lockbench superuser and trust auth, as pgtopo
// does, but listening on the container's interfaces: clients come through the engine's
// proxy from the network's gateway, never from outside (the port is published on 127.0.0.1).
func (s *server) initdb(ctx context.Context, c *container.Server) error {
	if err := os.MkdirAll(c.Dir(), 0o755); err != nil {
		return err
	}
	if cred := s.install.RunAs; cred != nil {
		if err := os.Chown(c.Dir(), int(cred.Uid), int(cred.Gid)); err != nil {
			return err
		}
	}
	cmd := exec.CommandContext(ctx, s.install.Initdb(), "-D", dataDir(c), "-U", postgres.User, "--auth=trust",
		"--encoding=UTF8", "--locale=C", "--no-sync")
	cmd.Dir = c.Dir()
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.install.RunAs}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: initdb: %w: %s", c.Name(), err, strings.TrimSpace(out.String()))
	}
	hba := "# lockbench: trust; the port is published on 127.0.0.1 only\nlocal all all trust\nhost all all 0.0.0.0/0 " +
		"trust\n"
	if err := os.WriteFile(filepath.Join(dataDir(c), "pg_hba.conf"), []byte(hba), 0o600); err != nil {
		return err
	}
	fsync := "on"
	if s.Spec().UnsafeNoFsync {
		fsync = "off"
	}
	conf := append([]string{"", "# lockbench: in a container",
		"listen_addresses = '*'",
		"unix_socket_directories = '" + c.Dir() + "'",
		"fsync = " + fsync,
		"max_connections = 1000",
		"logging_collector = off",
		"jit = off", // the image leaves LLVM out (image.go)
	}, s.Spec().ExtraConfig...)
	f, err := os.OpenFile(filepath.Join(dataDir(c), "postgresql.conf"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(strings.Join(conf, "\n") + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	s.needDB = true
	return err
}

// ready polls SELECT 1 (pgtopo's check) through the published port, then makes the
// lockbench database on a fresh data dir. Three minutes, and each try that timed out
// gives the next twice as long (up to 16 s): on a loaded 2-core machine a psql that
// needs 3 s would otherwise be killed at 2 s every time.
func (s *server) ready(ctx context.Context, c *container.Server) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	var last error = errors.New("no answer yet")
	try := 2 * time.Second
	for {
		if c.Exited() {
			return fmt.Errorf("%s exited before it served; log: %s", c.Name(), c.Log())
		}
		started := time.Now()
		if last = s.psql(ctx, "postgres", "SELECT 1", try); last == nil {
			break
		}
		if time.Since(started) >= try {
			try = min(2*try, 16*time.Second)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s on %s did not answer SELECT 1: %v; log: %s", c.Name(), c.Addr(), last, c.Log())
		case <-time.After(10 * time.Millisecond):
		}
	}
	if !s.needDB {
		return nil
	}
	if err := s.psql(ctx, "postgres", "CREATE DATABASE "+postgres.Database, 30*time.Second); err != nil {
		return fmt.Errorf("%s: create database %s: %w", c.Name(), postgres.Database, err)
	}
	s.needDB = false
	return nil
}

// psql runs sql through the host's own psql, beside the server binaries it started: the
// programs that link the container provider need no PostgreSQL driver for it.
func (s *server) psql(ctx context.Context, database, sql string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(s.install.BinDir, "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d",
		s.dsn(database), "-c", sql)
	cmd.Env = append(os.Environ(), "PGCONNECT_TIMEOUT="+strconv.Itoa(max(2, int(timeout.Seconds()))))
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("psql: %v: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}
