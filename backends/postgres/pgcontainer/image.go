package pgcontainer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/container"
)

// buildImage holds the host's PostgreSQL install: its bin and lib dirs (every ELF
// file with the libraries ldd lists), its share dir, the time zone files, and the
// host's passwd and group (the server looks its own user up). initdb runs on the host.
func buildImage(ctx context.Context, d *container.Topology, install topologies.PostgresInstall) (string, error) {
	home := filepath.Dir(install.BinDir)                                 // /usr/lib/postgresql/15
	share := filepath.Join("/usr/share/postgresql", filepath.Base(home)) // its share files
	files := container.Files{"/etc/passwd": "/etc/passwd", "/etc/group": "/etc/group"}
	for _, dir := range []string{home, share, "/usr/share/zoneinfo"} {
		if _, err := os.Stat(dir); err != nil {
			return "", fmt.Errorf("postgres image: %w", err)
		}
		if err := files.AddTree(dir, withoutJIT); err != nil {
			return "", fmt.Errorf("postgres image: %w", err)
		}
	}
	return d.BuildImage(ctx, "lockbench/postgres-host", files)
}

// withoutJIT leaves out the JIT provider and its bitcode, which pull in LLVM and z3
// (most of the image otherwise): the server runs with jit = off in containers
// (recipe.go), and lockbench's queries never reach jit_above_cost anyway.
func withoutJIT(p string) bool {
	return strings.Contains(p, "llvmjit") || strings.Contains(p, "/bitcode")
}
