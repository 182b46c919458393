package linked

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backend"
)

func TestRegisterPanicsOnADuplicate(t *testing.T) {
	d := backend.Descriptor{Store: "test-only-duplicate", Shapes: []backend.Shape{{Kind: "test-only-duplicate", Rank: 1000}}}
	Register(d)
	if _, err := Catalog().Lookup("test-only-duplicate"); err != nil {
		t.Fatalf("a registered kind is not in the program's catalog: %v", err)
	}
	defer func() {
		r := recover()
		err, ok := r.(error)
		if !ok || !strings.Contains(err.Error(), "registered twice") {
			t.Errorf("second Register recovered %v, want a registered-twice panic", r)
		}
	}()
	Register(d)
}
