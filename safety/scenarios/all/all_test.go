package all

import (
	"context"
	"errors"
	"testing"

	"github.com/lockbench/lockbench/backend"
	_ "github.com/lockbench/lockbench/backends/all" // every store, as cmd/lockbench registers them
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/topologies"
)

// TestBadParamsStartNothing: every declared param of every scenario refuses a value
// that is not one, with a *ParamError naming it, before any server starts.
func TestBadParamsStartNothing(t *testing.T) {
	started := false
	env := &lab.Env{Trials: 1, Start: func(context.Context, backend.Spec) (topologies.Topology, error) {
		started = true
		return nil, errors.New("must not start")
	}}
	for _, name := range lab.Names() {
		s, _ := lab.Lookup(name)
		for _, p := range s.Params() {
			env.Params = lab.Params{p.Name: "not-a-value"}
			_, err := lab.Run(context.Background(), s, env)
			var pe *lab.ParamError
			if !errors.As(err, &pe) || pe.Name != p.Name {
				t.Errorf("%s --param %s=not-a-value: %v, want a *ParamError naming it", name, p.Name, err)
			}
		}
	}
	// Cross-param checks come before anything starts too.
	for name, params := range map[string]lab.Params{
		"etcd-leader-kill": {"ttl": "5s", "probe": "6s"},
	} {
		s, _ := lab.Lookup(name)
		env.Params = params
		if _, err := lab.Run(context.Background(), s, env); !errors.As(err, new(*lab.ParamError)) {
			t.Errorf("%s with %v: %v, want a *ParamError", name, params, err)
		}
	}
	if started {
		t.Error("a topology was started despite bad params")
	}
}
