package preflight

import (
	"fmt"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/topologies"
)

// Need is one topology a plan starts: its kind, whether its clocks are faked, and who
// asks for it (a strategy, and for safety the scenario).
type Need struct {
	Scenario string // "" for run and capacity
	Strategy string // "" when the scenario starts the topology whatever its params
	Kind     backend.Kind
	Clocks   bool
}

// by names who needs it, as the user would leave it out.
func (n Need) by() string {
	switch {
	case n.Scenario == "":
		return n.Strategy
	case n.Strategy == "":
		return n.Scenario
	}
	return n.Scenario + " (" + n.Strategy + ")"
}

// resolve is the provider that would serve kind when provider is asked for ("" is the
// kind's default), without printing what auto picks.
func resolve(provider string, kind backend.Kind) (string, error) {
	if provider == "" {
		p, err := topologies.DefaultProvider(kind)
		if err != nil {
			return "", err
		}
		provider = p.Name()
	}
	p, err := topologies.ProviderServing(provider, kind)
	if err != nil {
		return "", err
	}
	return p.Name(), nil
}

// piecesFor are what the concrete provider needs on this machine to start kind.
func piecesFor(provider string, kind backend.Kind, clocks bool) []Piece {
	var pieces []Piece
	if topologies.InFamily("process", provider) {
		provider = "process" // a store's own process provider (zookeeper-process, say)
	}
	if topologies.InFamily("container", provider) {
		provider = "container" // a store's own container provider (rediscluster-container)
	}
	switch provider {
	case "process", "embedded-etcd":
		// The process family's member for kind, or etcd inside this program: the store's own server.
		pieces = []Piece{serverPiece(kind)}
	case "embedded":
		if !backend.KindIs[backend.RedisProtocol](linked.Catalog(), kind) ||
			backend.KindIs[backend.Replication](linked.Catalog(), kind) {
			return []Piece{notServed(provider, kind, fmt.Errorf(
				"serves single and redlock topologies only (miniredis has no replication): choose another --provider"))}
		}
		return []Piece{Miniredis} // its clocks are models: no libfaketime
	case "container":
		// The store images are built from this machine's own installs.
		pieces = []Piece{Docker}
		if sh, err := linked.Catalog().Lookup(kind); err == nil && sh.ImageFromHost() {
			pieces = append(pieces, serverPiece(kind))
		}
	case "external":
		return nil // the deployment file names servers this machine does not run
	}
	if clocks {
		pieces = append(pieces, Libfaketime, Compiler)
	}
	return pieces
}

// serverPiece is what kind's servers run on, from its store's descriptor.
func serverPiece(kind backend.Kind) Piece {
	sh, err := linked.Catalog().Lookup(kind)
	if err != nil {
		return Piece{Name: fmt.Sprintf("a server for %s topologies", kind),
			find: func() (Found, error) { return Found{}, err }}
	}
	server := sh.Server()
	return Piece{Name: server.Name, Install: server.Install, find: func() (Found, error) {
		path, err := server.Find()
		if err != nil {
			return Found{}, err
		}
		return Found{Path: path, Version: server.Version()}, nil
	}}
}
