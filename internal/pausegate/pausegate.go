// Package pausegate is a gate goroutines pass while it is open and wait at while it
// is paused: how lockbench makes a client or a forwarder stand still as a SIGSTOPped
// process would. The safety lab's clients and etcd's member gates share it.
package pausegate

import (
	"context"
	"sync"
)

// Gate is open until Pause; its zero value is open. Safe for concurrent use.
type Gate struct {
	mu   sync.Mutex
	open chan struct{} // closed while open; a fresh one while paused; nil: never paused
}

// alwaysOpen stands for the channel of a gate never paused.
var alwaysOpen = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// current is the gate's channel; g.mu must be held.
func (g *Gate) current() chan struct{} {
	if g.open == nil {
		return alwaysOpen
	}
	return g.open
}

// Pause shuts the gate: Wait blocks from now until Resume. Pausing a paused gate does
// nothing.
func (g *Gate) Pause() {
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-g.current():
		g.open = make(chan struct{})
	default: // already paused
	}
}

// Resume opens the gate and lets every waiter go. Resuming an open gate does nothing.
func (g *Gate) Resume() {
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-g.current():
	default:
		close(g.open)
	}
}

// Wait returns once the gate is open, or ctx's error if ctx ends first.
func (g *Gate) Wait(ctx context.Context) error {
	g.mu.Lock()
	open := g.current()
	g.mu.Unlock()
	select {
	case <-open:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
