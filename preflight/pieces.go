package preflight

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/clocks/faketime"
	"github.com/lockbench/lockbench/internal/version"
	"github.com/lockbench/lockbench/topologies"
)

// The pieces the providers need beside each store's own server (its descriptor's
// Server, see serverPiece); the finders are the providers' own.
var (
	Libfaketime = Piece{Name: "libfaketime (libfaketimeMT.so.1)", Install: "apt-get install faketime",
		find: findLibfaketime}
	Compiler = Piece{Name: "gcc (builds libfaketime's allocator preload)", Install: "apt-get install gcc",
		find: findPreload}
	Docker = Piece{Name: "container engine (Docker)", Install: "apt-get install docker.io, then start it (or set " +
		"DOCKER_HOST)", find: findDocker}
	Miniredis = Piece{Name: "miniredis (built into this program)", find: builtIn("github.com/alicebob/miniredis/v2")}
)

func findLibfaketime() (Found, error) {
	lib, err := faketime.Library()
	if err != nil {
		return Found{}, err
	}
	f := Found{Path: lib}
	if wrapper, err := exec.LookPath("faketime"); err == nil {
		f.Version = version.Of(wrapper, "--version", faketimeVersion)
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
	return Found{Path: cc, Version: version.Of(cc, "-dumpfullversion", version.FirstLine)}, nil
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
		f.Version = version.Of(cli, "version --format {{.Server.Version}}", version.FirstLine)
	}
	return f, nil
}

// notServed is the piece a provider lacks for a kind it does not serve at all.
func notServed(provider string, kind backend.Kind, why error) Piece {
	return Piece{Name: fmt.Sprintf("a provider for %s topologies", kind), unserved: true, find: func() (Found, error) {
		return Found{}, fmt.Errorf("provider %s: %v", provider, why)
	}}
}
