package preflight

import (
	"fmt"
	"slices"

	"github.com/lockbench/lockbench/backend"
)

// Missing is one piece a plan needs and this machine lacks.
type Missing struct {
	Piece     Piece
	Providers []string       // the providers that need it
	Kinds     []backend.Kind // the kinds it would have served
	Err       error          // what the finder said
	By        []string       // who needs it, in the plan's order
	needs     []Need
}

// Check resolves every need of a plan with provider ("" for each kind's default) and
// returns what is missing, each piece once, in the order the plan first needs it.
func Check(provider string, needs []Need) []Missing {
	var out []Missing
	index := map[string]int{}
	found := map[string]error{} // each piece is looked for once
	add := func(p Piece, prov string, n Need, err error) {
		i, ok := index[p.Name]
		if !ok {
			i = len(out)
			index[p.Name] = i
			out = append(out, Missing{Piece: p, Err: err})
		}
		m := &out[i]
		if prov != "" && !slices.Contains(m.Providers, prov) {
			m.Providers = append(m.Providers, prov)
		}
		if !slices.Contains(m.Kinds, n.Kind) {
			m.Kinds = append(m.Kinds, n.Kind)
		}
		if !slices.Contains(m.By, n.by()) {
			m.By = append(m.By, n.by())
		}
		m.needs = append(m.needs, n)
	}
	for _, n := range needs {
		prov, err := resolve(provider, n.Kind)
		if err != nil {
			// auto found nothing, or the provider cannot serve the kind: name the
			// pieces the kind's own processes would need, which auto tries first.
			if provider == "auto" {
				if def, derr := resolve("process", n.Kind); derr == nil {
					prov, err = def, nil
				}
			}
			if err != nil {
				add(notServed(provider, n.Kind, err), provider, n, err)
				continue
			}
		}
		for _, p := range piecesFor(prov, n.Kind, n.Clocks) {
			ferr, seen := found[p.Name]
			if !seen {
				_, ferr = p.Find()
				found[p.Name] = ferr
			}
			if ferr != nil {
				add(p, prov, n, ferr)
			}
		}
	}
	return out
}

// piecesNeeded names the missing pieces some need matching pred is behind.
func piecesNeeded(missing []Missing, pred func(Need) bool) []string {
	var names []string
	for _, m := range missing {
		for _, n := range m.needs {
			if pred(n) {
				names = append(names, m.Piece.Name)
				break
			}
		}
	}
	return names
}

// needsAny reports whether n is among the needs behind a missing piece.
func needsAny(missing []Missing, pred func(Need) bool) bool {
	for _, m := range missing {
		for _, n := range m.needs {
			if pred(n) {
				return true
			}
		}
	}
	return false
}

// describe is one missing piece as the user reads it.
func (m Missing) describe() string {
	s := fmt.Sprintf("  %s, for %s", m.Piece.Name, join(m.By))
	if len(m.Providers) > 0 {
		s += fmt.Sprintf(" (%s topologies on provider %s)", joinKinds(m.Kinds), join(m.Providers))
	}
	s += "\n      " + m.Err.Error()
	if m.Piece.Install != "" {
		s += "\n      install: " + m.Piece.Install
	}
	return s + "\n"
}
