package scaling

import (
	"fmt"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/capacity"
	"github.com/lockbench/lockbench/plots"
)

// KneeFigures draws one knee figure per searched condition of a `lockbench capacity`
// folder's record, named capacity-knee (or capacity-knee-N_clients=C_keys=K when the
// record searched several conditions).
func KneeFigures(dir string, stores *backend.Catalog, rec capacity.Record) ([]plots.Figure, error) {
	type cond struct {
		clients, keys int
		hold          string
		arrival       string
	}
	var order []cond
	sets := map[cond][]KneeSeries{}
	for _, s := range rec.Searches {
		c := cond{s.Clients, s.Keys, s.Hold.String(), s.Arrival}
		if _, ok := sets[c]; !ok {
			order = append(order, c)
		}
		ks := KneeSeries{Strategy: s.Strategy, Kept: s.Kept, Broke: s.Broke}
		if s.GeneratorBound {
			ks.Mark = "generator-bound"
		}
		for _, p := range s.Probes {
			ks.Points = append(ks.Points, KneePoint{Offered: p.Offered, Latency: p.Latency.D(), Kept: p.Kept})
		}
		sets[c] = append(sets[c], ks)
	}
	var out []plots.Figure
	for i, c := range order {
		name := "capacity-knee"
		if len(order) > 1 {
			name = fmt.Sprintf("capacity-knee-%d_clients=%d_keys=%d", i+1, c.clients, c.keys)
		}
		words := fmt.Sprintf("%s on %s, hold %s, %s arrivals", plots.Plural(c.clients, "client"),
			plots.Plural(c.keys, "key"), c.hold, c.arrival)
		f, err := KneeFigure(dir, stores, name, words, rec.Percentile+" "+rec.Metric, rec.Budget.D(), sets[c])
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}
