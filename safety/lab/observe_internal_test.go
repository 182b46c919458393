package lab

import (
	"context"
	"errors"
	"testing"

	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// scriptedReader answers each read with the next of its errors (nil: the key).
type scriptedReader struct {
	errs  []error
	reads int
}

func (r *scriptedReader) ReadKey(context.Context, topologies.Topology, topologies.Node, string) (redisadmin.KeyState,
	error) {
	err := r.errs[r.reads]
	r.reads++
	if err != nil {
		return redisadmin.KeyState{}, err
	}
	return redisadmin.KeyState{Present: true, Value: "A"}, nil
}

// A read that timed out is asked again, up to three tries; any other error is final.
func TestAKeyReadThatTimedOutIsAskedAgain(t *testing.T) {
	refused := errors.New("connection refused")
	for _, c := range []struct {
		name  string
		errs  []error
		reads int
		ok    bool
	}{
		{"answered at once", []error{nil}, 1, true},
		{"two timeouts, then the key", []error{context.DeadlineExceeded, context.DeadlineExceeded, nil}, 3, true},
		{"three timeouts", []error{context.DeadlineExceeded, context.DeadlineExceeded, context.DeadlineExceeded}, 3,
			false},
		{"another error", []error{refused, nil}, 1, false},
	} {
		r := &scriptedReader{errs: c.errs}
		s, err := readKeyPatiently(context.Background(), r, nil, nil, "k")
		if r.reads != c.reads || (err == nil) != c.ok || c.ok && !s.Present {
			t.Errorf("%s: %d reads, %+v, %v; want %d reads, ok %v", c.name, r.reads, s, err, c.reads, c.ok)
		}
	}
}
