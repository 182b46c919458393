package all_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backend/linked"
)

// TestDepsInstallsEveryStoresServer: scripts/deps.sh, which CI and `make deps` run on a
// fresh machine, installs the package each store's descriptor names for its server, so
// a store registered with a new server cannot pass here and fail on a fresh machine.
func TestDepsInstallsEveryStoresServer(t *testing.T) {
	script, err := os.ReadFile("../../scripts/deps.sh")
	if err != nil {
		t.Fatal(err)
	}
	packages := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)(?:\]=|missing\+=\()([a-z0-9-]+)`).FindAllStringSubmatch(string(script), -1) {
		packages[m[1]] = true
	}
	checked := 0
	for _, k := range linked.Catalog().Kinds() {
		sh, _ := linked.Catalog().Lookup(k)
		pkg, ok := strings.CutPrefix(sh.Server().Install, "apt-get install ")
		if !ok {
			continue // built into this program
		}
		checked++
		if !packages[pkg] {
			t.Errorf("kind %s: its server is installed by %q, which scripts/deps.sh never installs (it installs %v)",
				k, sh.Server().Install, packages)
		}
	}
	if checked == 0 {
		t.Fatal("no store names an apt package: the check saw nothing")
	}
}
