package backend

import "time"

// Lease is how a kind's servers turn the lease a client asks for into the one they
// grant: rounded up to a whole Step, then raised to Min and cut to Max (a zero field
// leaves it as it is). The zero Lease grants what is asked.
type Lease struct {
	Step, Min, Max time.Duration
}

// Granted is the lease the servers grant when asked for ttl.
func (l Lease) Granted(ttl time.Duration) time.Duration {
	if l.Step > 0 {
		ttl = (ttl + l.Step - 1) / l.Step * l.Step
	}
	if l.Min > 0 {
		ttl = max(ttl, l.Min)
	}
	if l.Max > 0 {
		ttl = min(ttl, l.Max)
	}
	return ttl
}

// GrantsAsAsked says whether a lease of ttl is granted unchanged.
func (l Lease) GrantsAsAsked(ttl time.Duration) bool { return l.Granted(ttl) == ttl }

// LeaseOf is the lease rule of the kind strategy runs on; the zero Lease for a strategy
// or kind the catalog does not know.
func (c *Catalog) LeaseOf(strategy string) Lease {
	st, ok := c.StrategyOf(strategy)
	if !ok {
		return Lease{}
	}
	sh, err := c.Lookup(st.Kind())
	if err != nil {
		return Lease{}
	}
	return sh.Lease
}
