package sweep

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/lockbench/lockbench/netem"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies"
)

// BesideHold is the shortest hold cells may be measured beside other strategies' at:
// their waits are then seconds, and the milliseconds another cell's load adds to a
// hand-off stay within a thousandth of them.
const BesideHold = time.Second

// checkBeside refuses cells that cannot share the machine with other strategies'.
func (cfg Config) checkBeside(cells []Cell) error {
	switch {
	case cfg.Beside < 0:
		return fmt.Errorf("beside = %d: want how many strategies run at once, from 1", cfg.Beside)
	case cfg.Beside <= 1:
		return nil
	case cfg.Provider == "external":
		return fmt.Errorf("beside = %d: not on provider external, whose one deployment every strategy shares", cfg.Beside)
	case cfg.Repeat > 1:
		return fmt.Errorf("beside = %d with repeat = %d: repeats are passes over the whole matrix, one at a time",
			cfg.Beside, cfg.Repeat)
	}
	for _, c := range cells {
		if c.Workload == WorkloadUpdate {
			return fmt.Errorf("beside = %d: cell %s is an update, whose PostgreSQL every strategy shares", cfg.Beside,
				c.Name())
		}
		if c.Hold < BesideHold {
			return fmt.Errorf("beside = %d: cell %s holds %v, under %v: another strategy's load would add a share "+
				"of its waits that matters", cfg.Beside, c.Name(), c.Hold, BesideHold)
		}
	}
	return nil
}

// lanes splits the cells' indexes into strategies: with Beside above 1, each
// strategy's cells are one lane, the lanes run at once, at most Beside of them; else
// one lane holds every cell, in order.
func (r *Runner) lanes(cells []Cell) [][]int {
	if r.Config.Beside <= 1 || r.Worker != nil || r.Target != nil {
		all := make([]int, len(cells))
		for i := range cells {
			all[i] = i
		}
		return [][]int{all}
	}
	var out [][]int
	lane := map[string]int{}
	for i, c := range cells {
		j, ok := lane[c.Strategy]
		if !ok {
			j = len(out)
			lane[c.Strategy] = j
			out = append(out, nil)
		}
		out[j] = append(out[j], i)
	}
	return out
}

// runLanes measures every lane, at most Beside at once; the first error stops the
// others (each keeps the cells it finished) and is returned.
func (r *Runner) runLanes(ctx context.Context, cells []Cell) error {
	lanes := r.lanes(cells)
	if len(lanes) == 1 {
		return r.runLane(ctx, cells, lanes[0])
	}
	r.beside = min(r.Config.Beside, len(lanes))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
	)
	slots := make(chan struct{}, r.Config.Beside)
	for _, lane := range lanes {
		wg.Go(func() {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			defer func() { <-slots }()
			if err := r.runLane(ctx, cells, lane); err != nil {
				once.Do(func() { first = err; cancel() })
			}
		})
	}
	wg.Wait()
	return first
}

// runLane measures the lane's cells in order, a topology kept while the strategy and
// its deployment stay the same.
func (r *Runner) runLane(ctx context.Context, cells []Cell, lane []int) error {
	var topo topologies.Topology
	var network *netem.Network
	var networkAdded map[string]time.Duration
	closeAll := func() {
		if network != nil {
			network.Close()
			network = nil
		}
		if topo != nil && topo != r.Target {
			r.closeTopology(topo)
		}
		topo = nil
	}
	defer closeAll()
	for n, i := range lane {
		cell := cells[i]
		if ctx.Err() != nil {
			break
		}
		if r.has(cell) {
			continue
		}
		if skip, err := r.skipEmptyShare(cell); skip || err != nil {
			if err != nil {
				return err
			}
			continue
		}
		if r.Target != nil {
			topo = r.Target
		} else if n == 0 || cell.Strategy != cells[lane[n-1]].Strategy || topologyMismatch(topo, cell) {
			closeAll()
			var err error
			if topo, err = r.startTopology(ctx, cell); err != nil {
				return err
			}
		}
		if network == nil || network.Profile() != cell.Network {
			if network != nil {
				network.Close()
				network = nil
			}
			networkAdded = nil
			if cell.Network.Name != "none" {
				var err error
				if network, err = netem.Start(topo, cell.Network, r.Config.Seed); err != nil {
					return fmt.Errorf("cell %s: %w", cell.Name(), err)
				}
				if networkAdded, err = network.MeasureAddedRTT(ctx, 21); err != nil {
					return fmt.Errorf("cell %s: measure the network: %w", cell.Name(), err)
				}
			}
		}
		if r.beforeCell != nil {
			r.beforeCell(i)
		}
		r.started(i, cell)
		measured, err := r.measure(ctx, i, cell, topo, network)
		if err != nil {
			if ctx.Err() != nil {
				break // interrupted mid-cell: keep what was finished
			}
			return fmt.Errorf("cell %s: %w", cell.Name(), err)
		}
		for node, d := range networkAdded {
			if measured.Network.MeasuredAddedRTT == nil {
				measured.Network.MeasuredAddedRTT = map[string]resultsdir.Duration{}
			}
			measured.Network.MeasuredAddedRTT[node] = resultsdir.Duration(d)
		}
		if err := r.keep(i, cells, measured); err != nil {
			return err
		}
	}
	return nil
}

// has says whether the run holds the cell already (a resumed run's), or skipped it.
func (r *Runner) has(cell Cell) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.Run.Has(cell.Name(), cell.Repeat) || r.hasSkipped(cell)
}

// started tells the observer, one lane at a time.
func (r *Runner) started(i int, cell Cell) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Observer.CellStarted(i, cell)
}

// keep adds a measured cell to the run in the cells' order, whichever lane finished
// first, and rewrites the folder.
func (r *Runner) keep(i int, cells []Cell, measured resultsdir.Cell) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	measured.Beside = r.beside
	position := func(c resultsdir.Cell) int {
		return slices.IndexFunc(cells, func(x Cell) bool { return x.Name() == c.Name && x.Repeat == c.Repeat })
	}
	at := slices.IndexFunc(r.Run.Cells, func(c resultsdir.Cell) bool { return position(c) > i })
	if at < 0 {
		at = len(r.Run.Cells)
	}
	r.Run.Cells = slices.Insert(r.Run.Cells, at, measured)
	if err := resultsdir.WriteRun(r.Out, r.Run); err != nil {
		return err
	}
	r.Observer.CellDone(i, measured)
	return nil
}
