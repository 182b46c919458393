package backend

import (
	"fmt"
	"sort"
)

// ScalingAxis is a scaling preset that sweeps one deployment's size, a strategy per
// size (Redlock's masters, the replicas behind a WAIT), and the figure drawn from it.
type ScalingAxis struct {
	Preset string // the preset's name (lockbench run --preset) and its figure's
	Title  string // the figure's title
	XLabel string // what the size counts
}

// Scaling places a strategy on one of its store's scaling axes.
type Scaling struct {
	Axis   string  // the axis's preset
	At     float64 // the size: masters, replicas behind the master
	Series string  // the figure's line its points join
}

// ScalingAxes lists every store's scaling axes, by preset name.
func (c *Catalog) ScalingAxes() []ScalingAxis {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := append([]ScalingAxis(nil), c.axes...)
	sort.Slice(out, func(i, j int) bool { return out[i].Preset < out[j].Preset })
	return out
}

// OnAxis lists the strategies on the axis of preset, smallest size first (then by
// position).
func (c *Catalog) OnAxis(preset string) []Strategy {
	var out []Strategy
	for _, st := range c.Strategies() {
		if st.Scaling != nil && st.Scaling.Axis == preset {
			out = append(out, st)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Scaling.At < out[j].Scaling.At })
	return out
}

// checkAxes refuses an axis declared twice, or a strategy placed on an axis its store
// does not declare.
func (c *Catalog) checkAxes(d Descriptor) error {
	own := map[string]bool{}
	for _, a := range d.Axes {
		for _, have := range c.axes {
			if have.Preset == a.Preset {
				return fmt.Errorf("backend: scaling axis %s registered twice (by %s)", a.Preset, d.Store)
			}
		}
		own[a.Preset] = true
	}
	for _, sh := range d.Shapes {
		for _, st := range sh.Strategies {
			if st.Scaling != nil && !own[st.Scaling.Axis] {
				return fmt.Errorf("backend: strategy %s is placed on scaling axis %q, which store %s does not declare",
					st.Name, st.Scaling.Axis, d.Store)
			}
		}
	}
	return nil
}
