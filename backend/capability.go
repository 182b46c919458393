package backend

// A kind's capabilities are interfaces its Shape.Can implements, each with what a caller
// needs to know of it: a kind whose deployments fail over has a Can that is a Failover.
// A caller asks CanOf (or KindsThat); no list of capability names exists to keep in step.

// Consensus: a majority of members agrees each write before it is acknowledged.
type Consensus interface {
	// Quorum is how many members of s must agree a write.
	Quorum(s Spec) int
}

// OwnFence: a grant carries a number the store itself makes grow (a revision, a
// sequence node, a row version), so it can fence writes without a second counter.
type OwnFence interface {
	// OwnFence names the number.
	OwnFence() string
}

// CounterFence: one Redis master whose INCR can number grants; a failover can hand a
// number out again.
type CounterFence interface {
	// CounterFence names the counter.
	CounterFence() string
}

// Replication: replicas copy each master asynchronously.
type Replication interface {
	// Replicas is how many replicas s gives each master.
	Replicas(s Spec) int
}

// Failover: sentinels watch the master and promote a replica.
type Failover interface {
	Replication
	// Sentinels is how many sentinels s starts.
	Sentinels(s Spec) int
}

// RedisProtocol: the masters answer Redis commands (workers' rendezvous, INCR).
type RedisProtocol interface {
	// RedisMasters is how many masters of s answer them.
	RedisMasters(s Spec) int
}

// IndependentMajority: independent masters, none replicating another; a client holds
// the lock once a majority granted it (Redlock).
type IndependentMajority interface {
	// Majority is how many masters of s must grant.
	Majority(s Spec) int
}

// ConsensusGroup is what a consensus store's members can do: a majority of them commits
// each write, and a grant carries a number the log grows (Fence names it).
type ConsensusGroup struct{ Fence string }

func (ConsensusGroup) Quorum(s Spec) int  { return s.Members/2 + 1 }
func (g ConsensusGroup) OwnFence() string { return g.Fence }

// CanOf is what kind k of catalog c can do as C, and whether it can.
func CanOf[C any](c *Catalog, k Kind) (C, bool) {
	sh, err := c.Lookup(k)
	if err != nil {
		var none C
		return none, false
	}
	can, ok := sh.Can.(C)
	return can, ok
}

// KindIs says whether kind k of catalog c can do C.
func KindIs[C any](c *Catalog, k Kind) bool {
	_, ok := CanOf[C](c, k)
	return ok
}

// KindsThat lists the kinds of catalog c that can do C, in rank order.
func KindsThat[C any](c *Catalog) []Kind {
	var out []Kind
	for _, k := range c.Kinds() {
		if KindIs[C](c, k) {
			out = append(out, k)
		}
	}
	return out
}
