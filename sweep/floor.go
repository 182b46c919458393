package sweep

import (
	"github.com/lockbench/lockbench/contention/floor"
	"github.com/lockbench/lockbench/resultsdir"
)

// floorQuantiles are the waits a cell's floor records, by the names results.json uses.
var floorQuantiles = []struct {
	name string
	q    float64
}{{"p50", 0.5}, {"p99", 0.99}, {"p99.9", 0.999}}

// queueFloor is the wait no lock can beat in an open cell of Poisson arrivals whose
// keys were drawn (M/G/1 per key: contention/floor), or nil where the model does not
// describe the cell: a closed loop, constant arrivals, fixed keys or no hold.
func queueFloor(c Cell, seed uint64) (*resultsdir.QueueFloor, error) {
	if c.Load != "open" || c.Arrival != "poisson" || c.KeyDist == "" || c.Hold <= 0 {
		return nil, nil
	}
	keys, hold, err := c.draws()
	if err != nil {
		return nil, err
	}
	f, err := floor.Compute(c.Rate, keys, *hold, floor.Options{Sim: floor.SimOptions{Seed: seed}})
	if err != nil {
		return nil, err
	}
	out := &resultsdir.QueueFloor{Method: f.Method, HottestRho: f.Hottest.Rho, WaitShare: f.PWait,
		Wait: map[string]resultsdir.Duration{}}
	if f.Saturation != nil {
		out.SaturatedKeys = f.Saturation.Keys
	}
	record := func(name string, w floor.Wait) {
		if d, ok := w.Duration(); ok {
			out.Wait[name] = resultsdir.Duration(d)
		} else {
			out.Unbounded = append(out.Unbounded, name)
		}
	}
	record("mean", f.MeanWait)
	for _, fq := range floorQuantiles {
		record(fq.name, f.Percentile(fq.q))
	}
	return out, nil
}
