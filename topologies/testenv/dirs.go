package testenv

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// OwnedDirs lists the topology dirs named prefix* in the temp dir whose owner.pid
// names this test process: what a test's topologies must have removed when closed.
func OwnedDirs(prefix string) []string {
	all, _ := filepath.Glob(filepath.Join(os.TempDir(), prefix+"*"))
	var ours []string
	for _, d := range all {
		b, err := os.ReadFile(filepath.Join(d, "owner.pid"))
		if err == nil && strings.TrimSpace(string(b)) == strconv.Itoa(os.Getpid()) {
			ours = append(ours, d)
		}
	}
	return ours
}
