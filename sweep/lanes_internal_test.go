package sweep

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// Beside 2, two strategies' first cells are measured at once: each lane waits at its
// first cell for the other's, which a runner measuring one cell at a time never
// reaches. The folder holds every cell in the matrix's order, each marked beside.
func TestBesideMeasuresStrategiesAtOnce(t *testing.T) {
	testenv.RequireRedis(t)
	// 4 s hold several whole cycles of a 1 s hold, however long a loaded machine takes
	// to grant (at 1.5 s a redlock cell under CI's load completed none).
	cfg := Config{Duration: Duration(4 * time.Second), Seed: 5, Beside: 2, Sweeps: []Sweep{{
		Strategies: []string{"single", "redlock"}, Clients: []int{1, 2}, Keys: []string{PerClient},
		Hold: []Duration{Duration(BesideHold)}, TTL: []Duration{Duration(10 * time.Second)},
	}}}
	cells, err := cfg.Cells()
	if err != nil {
		t.Fatal(err)
	}
	firsts := map[int]bool{0: true, 2: true} // each strategy's first cell
	if cells[0].Strategy == cells[2].Strategy || cells[0].Strategy != cells[1].Strategy {
		t.Fatalf("cells %v: want two cells of each strategy in turn", cells)
	}
	var met sync.WaitGroup
	met.Add(len(firsts))
	apart := make(chan struct{})
	run := &resultsdir.Run{Environment: Environment(cfg, nil)}
	r := &Runner{Config: cfg, Out: t.TempDir(), Run: run, Observer: quiet{}}
	r.beforeCell = func(i int) {
		if !firsts[i] {
			return
		}
		met.Done()
		waited := make(chan struct{})
		go func() { met.Wait(); close(waited) }()
		select {
		case <-waited:
		case <-time.After(2 * time.Minute): // a deadlock guard, not a speed: one at a time never meets
			close(apart)
		case <-apart:
		}
	}
	if err := r.Execute(context.Background(), cells); err != nil {
		t.Fatal(err)
	}
	select {
	case <-apart:
		t.Fatal("the two strategies' first cells never ran at once")
	default:
	}
	back, err := resultsdir.ReadRun(r.Out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range back.Cells {
		names = append(names, c.Name)
		if c.Beside != 2 || c.Granted == 0 {
			t.Errorf("%s: beside %d, granted %d; want beside 2 and grants", c.Name, c.Beside, c.Granted)
		}
	}
	var want []string
	for _, c := range cells {
		want = append(want, c.Name())
	}
	if !back.Complete || !slices.Equal(names, want) {
		t.Errorf("complete=%v, cells %v; want complete, in the matrix's order %v", back.Complete, names, want)
	}
	if len(back.Environment.Topologies) != 2 {
		t.Errorf("environment lists %v; want both strategies' deployments", back.Environment.Topologies)
	}
}

type quiet struct{}

func (quiet) Started(int)                   {}
func (quiet) CellStarted(int, Cell)         {}
func (quiet) CellDone(int, resultsdir.Cell) {}

// Cells beside others must hold a second or longer, on servers of their own, once.
func TestBesideRefusesWhatCannotShareTheMachine(t *testing.T) {
	held := Sweep{Strategies: []string{"single"}, Hold: []Duration{Duration(BesideHold)}}
	for name, cfg := range map[string]Config{
		"short hold": {Beside: 2, Sweeps: []Sweep{{Strategies: []string{"single"}, Hold: []Duration{Duration(time.Millisecond)}}}},
		"negative":   {Beside: -1, Sweeps: []Sweep{held}},
		"external":   {Beside: 2, Provider: "external", Sweeps: []Sweep{held}},
		"repeat":     {Beside: 2, Repeat: 2, Sweeps: []Sweep{held}},
		"update":     {Beside: 2, Sweeps: []Sweep{{Strategies: []string{"cas-version"}, Workload: WorkloadUpdate}}},
	} {
		cfg.Duration = Duration(time.Second)
		if _, err := cfg.Cells(); err == nil || !strings.Contains(err.Error(), "beside") {
			t.Errorf("%s: %v; want beside refused", name, err)
		}
	}
	if _, err := (Config{Beside: 2, Duration: Duration(time.Second), Sweeps: []Sweep{held}}).Cells(); err != nil {
		t.Errorf("a 1s hold beside another: %v", err)
	}
}
