package external

import (
	"context"
	"fmt"

	"github.com/lockbench/lockbench/topologies"
)

// node is a server someone else runs: it can be addressed, never broken.
type node struct {
	name string
	role topologies.Role
	addr string
}

func (n node) Name() string          { return n.name }
func (n node) Role() topologies.Role { return n.role }
func (n node) Addr() string          { return n.addr }
func (n node) Running() bool         { return true } // not ours to know; assumed up
func (n node) Kill() error           { return n.notOwned("kill") }
func (n node) Pause() error          { return n.notOwned("pause") }
func (n node) Resume() error         { return n.notOwned("resume") }
func (n node) Restart(context.Context, topologies.RestartMode) error {
	return n.notOwned("restart")
}

func (n node) notOwned(what string) error {
	return fmt.Errorf("%s %s (%s): lockbench does not own this server (provider external) and never breaks it", what,
		n.name, n.addr)
}

// NewNodes are the servers at addrs, named prefix-0, prefix-1, ... in the file's order.
func NewNodes(role topologies.Role, prefix string, addrs []string) []topologies.Node {
	out := make([]topologies.Node, len(addrs))
	for i, a := range addrs {
		out[i] = node{name: fmt.Sprintf("%s-%d", prefix, i), role: role, addr: a}
	}
	return out
}
