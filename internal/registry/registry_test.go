package registry

import (
	"strings"
	"testing"
)

func TestRegistry(t *testing.T) {
	r := New[int]("widget")
	r.Add("b", 2)
	r.Add("a", 1)
	if got, err := r.Get("b"); err != nil || got != 2 {
		t.Errorf("Get(b) = %d, %v", got, err)
	}
	if _, err := r.Get("c"); err == nil || !strings.Contains(err.Error(), `unknown widget "c": want one of a, b`) {
		t.Errorf("Get(c): %v", err)
	}
	if names := r.Names(); strings.Join(names, ",") != "a,b" {
		t.Errorf("Names() = %v", names)
	}
	defer func() {
		if recover() == nil {
			t.Error("a duplicate name did not panic")
		}
	}()
	r.Add("a", 3)
}
