package topologies

import "crypto/tls"

// Access is what a client needs to be let in by servers that ask for it: an ACL user
// and its password, and TLS. A topology lockbench started itself needs none of it.
type Access struct {
	Username string
	Password string
	TLS      *tls.Config // nil: plain TCP
}

// Accessed is implemented by topologies whose servers ask clients for credentials or TLS.
type Accessed interface {
	Access() Access
}

// AccessOf returns topo's access, or none.
func AccessOf(topo Topology) Access {
	if a, ok := topo.(Accessed); ok {
		return a.Access()
	}
	return Access{}
}

// SentinelAccessed is implemented by topologies whose sentinels ask for an ACL user of
// their own (often not the masters' one).
type SentinelAccessed interface {
	SentinelAccess() Access
}

// SentinelAccessOf returns the access topo's sentinels ask for, or none.
func SentinelAccessOf(topo Topology) Access {
	if a, ok := topo.(SentinelAccessed); ok {
		return a.SentinelAccess()
	}
	return Access{}
}
