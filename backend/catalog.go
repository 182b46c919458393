package backend

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Catalog is a set of store descriptors and what every list of kinds and strategies
// reads from them. The program's is filled by the stores it links (backend/linked);
// tests build their own, so nothing here is process-wide.
type Catalog struct {
	mu         sync.RWMutex
	stores     map[string]bool
	shapes     map[Kind]Shape
	strategies map[string]Strategy
	positions  map[int]string // who holds each position
	axes       []ScalingAxis
}

// NewCatalog returns an empty catalog.
func NewCatalog() *Catalog {
	return &Catalog{
		stores: map[string]bool{}, shapes: map[Kind]Shape{}, strategies: map[string]Strategy{}, positions: map[int]string{},
	}
}

// Add adds a store's descriptor; it refuses, changing nothing, a store, kind, strategy,
// position or scaling axis already added, and a descriptor that names no kind.
func (c *Catalog) Add(d Descriptor) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d.Store == "" || len(d.Shapes) == 0 {
		return fmt.Errorf("backend: a descriptor needs a store name and at least one kind (store %q, %d kinds)",
			d.Store, len(d.Shapes))
	}
	if c.stores[d.Store] {
		return fmt.Errorf("backend: store registered twice: %s", d.Store)
	}
	for i, sh := range d.Shapes {
		if sh.Kind == "" {
			return fmt.Errorf("backend: store %s: kind %d has no name", d.Store, i)
		}
		if prev, dup := c.shapes[sh.Kind]; dup {
			return fmt.Errorf("backend: kind %s registered twice (by %s and %s)", sh.Kind, prev.Store(), d.Store)
		}
	}
	if err := c.checkStrategies(d); err != nil {
		return err
	}
	if err := c.checkAxes(d); err != nil {
		return err
	}
	c.axes = append(c.axes, d.Axes...)
	desc := d
	for _, sh := range d.Shapes {
		sh.store = &desc
		c.shapes[sh.Kind] = sh
		c.addStrategies(sh)
	}
	c.stores[d.Store] = true
	return nil
}

// Lookup returns the shape of kind k, or an error naming every known kind.
func (c *Catalog) Lookup(k Kind) (Shape, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	sh, ok := c.shapes[k]
	if !ok {
		names := make([]string, 0, len(c.shapes))
		for _, sh := range c.sortedLocked() {
			names = append(names, string(sh.Kind))
		}
		known := strings.Join(names, ", ")
		if known == "" {
			known = "none registered (import backends/all)"
		}
		return Shape{}, fmt.Errorf("topology kind %q: want one of %s", k, known)
	}
	return sh, nil
}

// sortedLocked lists the shapes by rank, then kind.
func (c *Catalog) sortedLocked() []Shape {
	out := make([]Shape, 0, len(c.shapes))
	for _, sh := range c.shapes {
		out = append(out, sh)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Rank != out[j].Rank {
			return out[i].Rank < out[j].Rank
		}
		return out[i].Kind < out[j].Kind
	})
	return out
}

// Kinds lists every kind, in rank order.
func (c *Catalog) Kinds() []Kind {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []Kind
	for _, sh := range c.sortedLocked() {
		out = append(out, sh.Kind)
	}
	return out
}
