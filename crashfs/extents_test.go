package crashfs

import (
	"reflect"
	"testing"
)

func TestExtentsMergeOverlappingAndTouchingRanges(t *testing.T) {
	var xs extents
	xs = xs.add(10, 20)
	xs = xs.add(30, 40)
	xs = xs.add(0, 5)
	xs = xs.add(20, 25) // touches the first
	xs = xs.add(5, 5)   // empty: no change
	want := extents{{0, 5}, {10, 25}, {30, 40}}
	if !reflect.DeepEqual(xs, want) {
		t.Fatalf("got %v, want %v", xs, want)
	}
	xs = xs.add(3, 35)
	if want := (extents{{0, 40}}); !reflect.DeepEqual(xs, want) {
		t.Fatalf("got %v, want %v", xs, want)
	}
	xs = xs.add(50, toEnd)
	if want := (extents{{0, 40}, {50, toEnd}}); !reflect.DeepEqual(xs, want) {
		t.Fatalf("got %v, want %v", xs, want)
	}
}
