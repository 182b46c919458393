package treelint

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// storeRegistrations are the calls that add one part of a store to one registry; a
// store makes them only through backends/store, from the one value it registers.
var storeRegistrations = regexp.MustCompile(`\b(linked\.Register|locks\.Register|topologies\.RegisterProvider|` +
	`topologies\.JoinFamily|topologies\.RegisterAutoChoice|container\.Register(Clocked)?Recipe|lab\.RegisterStore|` +
	`external\.RegisterStore|accounts\.Register)\(`)

// registersItself are the files allowed such a call: backends/store, and the house's
// own providers (containers, embedded servers), which are no store's.
var registersItself = map[string]bool{
	"backends/store/store.go":          true,
	"topologies/container/provider.go": true,
	"topologies/embedded/provider.go":  true,
}

// TestStoresRegisterOnlyAsOneValue: no part of a store joins a registry on its own, so
// what a store adds is all in the value its folder registers.
func TestStoresRegisterOnlyAsOneValue(t *testing.T) {
	root := moduleRoot(t)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || registersItself[rel] {
			return nil
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range storeRegistrations.FindAll(body, -1) {
			t.Errorf("%s calls %s: a store registers through backends/store, as one value", rel, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
