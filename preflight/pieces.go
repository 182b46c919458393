package preflight

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/lockbench/lockbench/clocks/faketime"
	"github.com/lockbench/lockbench/topologies"
)

// The pieces each provider needs; the finders are the providers' own.
var (
	RedisServer = Piece{Name: "redis-server", Install: "apt-get install redis-server", find: findRedis}
	ZooKeeper   = Piece{Name: "ZooKeeper (Java and zookeeper.jar)", Install: "apt-get install zookeeper", find: findZooKeeper}
	Postgres    = Piece{Name: "PostgreSQL server (initdb, postgres)", Install: "apt-get install postgresql", find: findPostgres}
	Libfaketime = Piece{Name: "libfaketime (libfaketimeMT.so.1)", Install: "apt-get install faketime", find: findLibfaketime}
	Compiler    = Piece{Name: "gcc (builds libfaketime's allocator preload)", Install: "apt-get install gcc", find: findPreload}
	Docker      = Piece{Name: "container engine (Docker)", Install: "apt-get install docker.io, then start it (or set DOCKER_HOST)", find: findDocker}
	EtcdBuiltIn = Piece{Name: "etcd (built into this program)", find: builtIn("go.etcd.io/etcd/server/v3")}
	Miniredis   = Piece{Name: "miniredis (built into this program)", find: builtIn("github.com/alicebob/miniredis/v2")}
)

func findRedis() (Found, error) {
	bin, err := topologies.FindRedisServer()
	if err != nil {
		return Found{}, err
	}
	return Found{Path: bin, Version: versionOf(bin, "--version", redisVersion)}, nil
}

func findZooKeeper() (Found, error) {
	install, err := topologies.FindZooKeeper()
	if err != nil {
		return Found{}, err
	}
	jar := install.Classpath[0]
	v := jarVersion(jar)
	if java := versionOf(install.Java, "-version", javaVersion); java != "" {
		v += ", Java " + java
	}
	return Found{Path: jar + " (java: " + install.Java + ")", Version: strings.TrimPrefix(v, ", ")}, nil
}

func findPostgres() (Found, error) {
	install, err := topologies.FindPostgres("")
	if err != nil {
		return Found{}, err
	}
	bin := install.Postgres()
	return Found{Path: bin, Version: versionOf(bin, "--version", postgresVersion)}, nil
}

func findLibfaketime() (Found, error) {
	lib, err := faketime.Library()
	if err != nil {
		return Found{}, err
	}
	f := Found{Path: lib}
	if wrapper, err := exec.LookPath("faketime"); err == nil {
		f.Version = versionOf(wrapper, "--version", faketimeVersion)
	}
	return f, nil
}

func findPreload() (Found, error) {
	built, cc, err := faketime.PreloadReady()
	if err != nil {
		return Found{}, err
	}
	if built != "" {
		return Found{Path: built, Version: "built"}, nil
	}
	return Found{Path: cc, Version: versionOf(cc, "-dumpfullversion", firstLine)}, nil
}

// findDocker asks the container provider itself whether its engine answers.
func findDocker() (Found, error) {
	p, err := topologies.ProviderNamed("container")
	if err != nil {
		return Found{}, err
	}
	a, ok := p.(topologies.Available)
	if !ok {
		return Found{Path: "(engine not checked)"}, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := a.Available(ctx); err != nil {
		return Found{}, err
	}
	f := Found{Path: "DOCKER_HOST=" + os.Getenv("DOCKER_HOST")}
	if os.Getenv("DOCKER_HOST") == "" {
		f.Path = "the default socket"
	}
	if cli, err := exec.LookPath("docker"); err == nil {
		f.Version = versionOf(cli, "version --format {{.Server.Version}}", firstLine)
	}
	return f, nil
}

// builtIn is a piece compiled into this program: its module's version, this program's path.
func builtIn(module string) func() (Found, error) {
	return func() (Found, error) {
		exe, err := os.Executable()
		if err != nil {
			exe = filepath.Base(os.Args[0])
		}
		v := moduleVersion(module)
		if v == "" {
			return Found{}, errors.New(module + " is not linked into this program")
		}
		return Found{Path: exe, Version: v}, nil
	}
}

// notServed is the piece a provider lacks for a kind it does not serve at all.
func notServed(provider string, kind topologies.Kind, why error) Piece {
	return Piece{Name: fmt.Sprintf("a provider for %s topologies", kind), unserved: true, find: func() (Found, error) {
		return Found{}, fmt.Errorf("provider %s: %v", provider, why)
	}}
}
