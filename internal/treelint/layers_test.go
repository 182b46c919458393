package treelint

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// belowTheStores are the folders the stores build on: none may import a store's folder,
// or the import graph would run back up (a store's registration imports them all).
var belowTheStores = []string{"backend", "bench", "clocks", "contention", "crashfs", "internal", "locks", "netem",
	"plots", "redisconn", "report", "resources", "resultsdir", "safety", "stats", "sweep", "topologies", "updates"}

// TestNothingBelowTheStoresImportsThem: what a scenario or a provider needs of a store
// it reads from a lower package (the catalog, redisadmin, a library's key layout).
func TestNothingBelowTheStoresImportsThem(t *testing.T) {
	root := moduleRoot(t)
	for _, dir := range belowTheStores {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			for _, imp := range f.Imports {
				if strings.HasPrefix(strings.Trim(imp.Path.Value, `"`), "github.com/lockbench/lockbench/backends/") {
					rel, _ := filepath.Rel(root, path)
					t.Errorf("%s imports %s: its floor is below the stores", rel, imp.Path.Value)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
