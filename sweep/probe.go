package sweep

import (
	"context"
	"time"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies"
)

// Session keeps one strategy's servers running while cells are measured one at a
// time, each chosen after the last one's result (a capacity search), instead of a
// matrix known in advance.
type Session struct {
	r    *Runner
	topo topologies.Topology
}

// Session starts the servers strategy runs on; Close stops them.
func (r *Runner) Session(ctx context.Context, strategy string) (*Session, error) {
	topo, err := r.startTopology(ctx, Cell{Strategy: strategy})
	if err != nil {
		return nil, err
	}
	return &Session{r: r, topo: topo}, nil
}

// Topology is the running deployment.
func (s *Session) Topology() topologies.Topology { return s.topo }

// Measure runs cell as the index-th cell of the run (its key prefix, arrival seed and
// histogram files follow from index) with its own warm-up and measured duration,
// appends it to the run and rewrites the results folder. It injects no network.
func (s *Session) Measure(ctx context.Context, index int, cell Cell, warmup, duration time.Duration) (resultsdir.Cell,
	error) {
	saved := s.r.Config
	defer func() { s.r.Config = saved }()
	s.r.Config.Warmup, s.r.Config.Duration = Duration(warmup), Duration(duration)
	measured, err := s.r.measure(ctx, index, cell, s.topo, nil)
	if err != nil {
		return measured, err
	}
	s.r.Run.Cells = append(s.r.Run.Cells, measured)
	return measured, resultsdir.WriteRun(s.r.Out, s.r.Run)
}

// Close stops the servers.
func (s *Session) Close() {
	if s.topo != nil {
		s.topo.Close()
		s.topo = nil
	}
}
