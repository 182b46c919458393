package topologies

import "github.com/lockbench/lockbench/redisconn"

// redisconn.Access is what a client of any store needs to be let in (ACL user, TLS); it
// lives beside the Redis connection, whose options carry it, so that package imports no topology.

// Accessed is implemented by topologies whose servers ask clients for credentials or TLS.
type Accessed interface {
	Access() redisconn.Access
}

// AccessOf returns topo's access, or none.
func AccessOf(topo Topology) redisconn.Access {
	return optional(topo, Accessed.Access)
}

// SentinelAccessed is implemented by topologies whose sentinels ask for an ACL user of
// their own (often not the masters' one).
type SentinelAccessed interface {
	SentinelAccess() redisconn.Access
}

// SentinelAccessOf returns the access topo's sentinels ask for, or none.
func SentinelAccessOf(topo Topology) redisconn.Access {
	return optional(topo, SentinelAccessed.SentinelAccess)
}

// KeyPrefixed is implemented by topologies on which a run may write only under a
// prefix of its own (servers lockbench does not own).
type KeyPrefixed interface {
	KeyPrefix() string
}

// KeyPrefixOf returns the prefix every key on topo must start with, or "" for any key.
func KeyPrefixOf(topo Topology) string {
	return optional(topo, KeyPrefixed.KeyPrefix)
}

// optional asks topo through the optional interface I, and gives the zero value where
// topo does not implement it.
func optional[I any, T any](topo Topology, get func(I) T) T {
	if i, ok := topo.(I); ok {
		return get(i)
	}
	var none T
	return none
}
