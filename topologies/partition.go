package topologies

import (
	"fmt"

	"github.com/lockbench/lockbench/backend"
)

// Partitioner cuts and heals the network links between nodes of one topology. Providers
// whose nodes have their own network (containers) implement it on their Topology; a cut
// drops every packet both ways between the two nodes, clients on the host keep reaching both.
type Partitioner interface {
	// Cut drops all traffic between a and b until Heal(a, b) or HealAll.
	Cut(a, b Node) error
	// Heal restores the link between a and b (a no-op when it was not cut).
	Heal(a, b Node) error
	// HealAll restores every link this topology's partitions cut.
	HealAll() error
}

// Isolate cuts n from every node of from (n itself is skipped), as one fault: when a cut
// fails, the cuts already made are healed, so a failed isolation leaves nothing behind.
func Isolate(p Partitioner, n Node, from []Node) error {
	var done []Node
	for _, m := range from {
		if m == n {
			continue
		}
		if err := p.Cut(n, m); err != nil {
			for _, d := range done {
				_ = p.Heal(n, d)
			}
			return fmt.Errorf("isolate %s: %w", n.Name(), err)
		}
		done = append(done, m)
	}
	return nil
}

// PartitionerOf returns topo's partitioner, or an error naming its provider when that
// provider cannot cut links (processes share the host's loopback).
func PartitionerOf(topo Topology) (Partitioner, error) {
	if p, ok := topo.(Partitioner); ok {
		return p, nil
	}
	return nil, cannotPartition(topo.Provider())
}

// CanPartition is nil when p's topologies can cut links, else PartitionerOf's error,
// known before anything starts: containers (the container family) have networks of
// their own, every other provider's servers share the host's loopback.
func CanPartition(p Provider) error {
	if p.Name() == "container" || InFamily("container", p.Name()) {
		return nil
	}
	return cannotPartition(p.Name())
}

// CanPartitionOn is CanPartition for what would serve kind under the provider named
// (the kind's default when name is ""), found without starting anything.
func CanPartitionOn(name string, kind backend.Kind) error {
	p, err := DefaultProvider(kind)
	if name != "" {
		p, err = ProviderServing(name, kind)
	}
	if err != nil {
		return err
	}
	return CanPartition(p)
}

func cannotPartition(provider string) error {
	return fmt.Errorf("provider %s cannot partition nodes: use --provider container", provider)
}
