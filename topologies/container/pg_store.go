package container

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

	"github.com/lockbench/lockbench/topologies"
)

// pgServer is one PostgreSQL server in a container. initdb runs on the host into the
// node's mounted dir (it needs a shell the image lacks); the container runs postgres.
type pgServer struct {
	*topology
	install topologies.PostgresInstall
	needDB  bool // a fresh initdb: the lockbench database is still to be made
}

// DSN connects to the lockbench database as the lockbench superuser, as pgtopo's does.
func (s *pgServer) DSN() string { return s.dsn(pgDatabase) }

func (s *pgServer) dsn(database string) string {
	u := url.URL{Scheme: "postgres", User: url.User(pgUser), Host: s.masters[0].Addr(), Path: "/" + database, RawQuery: "sslmode=disable"}
	return u.String()
}

func (s *pgServer) dataDir(n *node) string { return filepath.Join(n.dir, "data") }

// startPostgres starts the one server and returns once the lockbench database answers.
func (t *topology) startPostgres(ctx context.Context) (topologies.Topology, error) {
	install, err := topologies.FindPostgres("")
	if err != nil {
		return nil, err
	}
	image, _, err := onceImage("postgres", func() (string, []string, error) {
		tag, err := postgresImage(ctx, t.cli, install)
		return tag, nil, err
	})
	if err != nil {
		return nil, err
	}
	s := &pgServer{topology: t, install: install}
	user := fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid())
	if cred := install.RunAs; cred != nil { // postgres refuses to run as root
		user = fmt.Sprintf("%d:%d", cred.Uid, cred.Gid)
		if err := os.Chown(t.dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return nil, err
		}
	}
	n := t.newNode("master-0", topologies.RoleMaster)
	if n.port, err = t.leasePort(); err != nil {
		return nil, err
	}
	n.svc = &service{
		image: image,
		command: func(n *node) []string {
			return []string{install.Postgres(), "-D", s.dataDir(n), "-p", strconv.Itoa(n.port)}
		},
		env:   map[string]string{"LC_ALL": "C"},
		user:  user,
		ready: func(ctx context.Context, n *node) error { return s.ready(ctx, n) },
		prepare: func(ctx context.Context, n *node, mode topologies.RestartMode, first bool) error {
			// A first start tried again on another port keeps the data dir it made.
			if _, err := os.Stat(s.dataDir(n)); mode == topologies.RestartEmpty || errors.Is(err, os.ErrNotExist) {
				return s.initdb(ctx, n)
			}
			return nil
		},
		forget: func(n *node) error { return os.RemoveAll(s.dataDir(n)) },
		// pgtopo's with-snapshot: a checkpoint first, which matters under UnsafeNoFsync.
		snapshot: func(ctx context.Context, n *node) error {
			return s.psql(ctx, pgDatabase, "CHECKPOINT", 30*time.Second)
		},
	}
	t.masters = []*node{n}
	if err := t.createNetwork(ctx); err != nil {
		return nil, err
	}
	if err := t.startServices(ctx, t.masters); err != nil {
		return nil, err
	}
	return s, nil
}

// initdb makes a fresh data dir with the lockbench superuser and trust auth, as pgtopo
// does, but listening on the container's interfaces: clients come through the engine's
// proxy from the network's gateway, never from outside (the port is published on 127.0.0.1).
func (s *pgServer) initdb(ctx context.Context, n *node) error {
	if err := os.MkdirAll(n.dir, 0o755); err != nil {
		return err
	}
	if cred := s.install.RunAs; cred != nil {
		if err := os.Chown(n.dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return err
		}
	}
	cmd := exec.CommandContext(ctx, s.install.Initdb(), "-D", s.dataDir(n), "-U", pgUser, "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync")
	cmd.Dir = n.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.install.RunAs}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: initdb: %w: %s", n.name, err, strings.TrimSpace(out.String()))
	}
	hba := "# lockbench: trust; the port is published on 127.0.0.1 only\nlocal all all trust\nhost all all 0.0.0.0/0 trust\n"
	if err := os.WriteFile(filepath.Join(s.dataDir(n), "pg_hba.conf"), []byte(hba), 0o600); err != nil {
		return err
	}
	fsync := "on"
	if s.spec.UnsafeNoFsync {
		fsync = "off"
	}
	conf := append([]string{"", "# lockbench: in a container",
		"listen_addresses = '*'",
		"unix_socket_directories = '" + n.dir + "'",
		"fsync = " + fsync,
		"max_connections = 1000",
		"logging_collector = off",
		"jit = off", // the image leaves LLVM out (pg_image.go)
	}, s.spec.ExtraConfig...)
	f, err := os.OpenFile(filepath.Join(s.dataDir(n), "postgresql.conf"), os.O_WRONLY|os.O_APPEND, 0)
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
// lockbench database on a fresh data dir.
func (s *pgServer) ready(ctx context.Context, n *node) error {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	var last error = errors.New("no answer yet")
	for {
		if !alive(n.topo.pidOf(n)) {
			return fmt.Errorf("%s exited before it served; log: %s", n.name, containerLog(n))
		}
		if last = s.psql(ctx, "postgres", "SELECT 1", 2*time.Second); last == nil {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s on %s did not answer SELECT 1: %v; log: %s", n.name, n.Addr(), last, containerLog(n))
		case <-time.After(10 * time.Millisecond):
		}
	}
	if !s.needDB {
		return nil
	}
	if err := s.psql(ctx, "postgres", "CREATE DATABASE "+pgDatabase, 30*time.Second); err != nil {
		return fmt.Errorf("%s: create database %s: %w", n.name, pgDatabase, err)
	}
	s.needDB = false
	return nil
}

// psql runs sql through the host's own psql, beside the server binaries it started: the
// core packages link this provider (through topologies/testenv) and must stay free of the
// PostgreSQL driver.
func (s *pgServer) psql(ctx context.Context, database, sql string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(s.install.BinDir, "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", s.dsn(database), "-c", sql)
	cmd.Env = append(os.Environ(), "PGCONNECT_TIMEOUT=2")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("psql: %v: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}
