package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Module is the import path every lockbench package starts with.
const Module = "github.com/lockbench/lockbench/"

// Deps lists the non-test dependencies of pkgs (full import paths), as go list -deps
// does: the tests that keep heavy trees out of light packages read it.
func Deps(tb testing.TB, pkgs ...string) []string {
	tb.Helper()
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		if goBin, err = exec.LookPath("go"); err != nil {
			tb.Fatalf("no go tool to list dependencies: %v", err)
		}
	}
	out, err := exec.Command(goBin, append([]string{"list", "-deps"}, pkgs...)...).CombinedOutput()
	if err != nil {
		tb.Fatalf("go list -deps %v: %v\n%s", pkgs, err, out)
	}
	return strings.Fields(string(out))
}

// DependsOn lists the deps that are prefix or below it.
func DependsOn(deps []string, prefix string) []string {
	var out []string
	for _, d := range deps {
		if d == prefix || strings.HasPrefix(d, prefix+"/") {
			out = append(out, d)
		}
	}
	return out
}
