package bench

import (
	"fmt"
	"time"

	"github.com/lockbench/lockbench/contention"
)

// Spread draws each cycle's key by popularity and its hold from a distribution, as a
// team's traffic does, where a plain Load keeps client c on key c mod Keys for a
// constant Hold (no request ever waits for another client's key when Keys = Clients).
type Spread struct {
	Keys *contention.Keys // nil: client c keeps key c mod Keys; else popularity over Load.Keys keys
	Hold *contention.Hold // nil: every hold is Load.Hold; else its mean is Load.Hold
	Seed uint64           // each global client draws from its own streams of it
}

// Streams of a client's seed: keys and holds draw apart, so that a change of hold
// distribution leaves the keys a client asks for as they were.
const (
	keyStream  = 1
	holdStream = 2
)

// check names what disagrees with the load's own axes.
func (s *Spread) check(l Load) error {
	switch {
	case s.Keys != nil && s.Keys.N() != l.Keys:
		return fmt.Errorf("spread over %d keys, load has %d", s.Keys.N(), l.Keys)
	case s.Hold != nil && s.Hold.Mean() != l.Hold:
		return fmt.Errorf("spread's hold mean %v, load's hold %v", s.Hold.Mean(), l.Hold)
	}
	return nil
}

// draws returns local client number client's source of (key, hold) for each cycle:
// its fixed key and the load's hold, or draws from the spread. Not safe for
// concurrent use: each client goroutine owns its own.
func (l Load) draws(client int) func() (string, time.Duration) {
	if l.Spread == nil {
		key := l.key(client)
		return func() (string, time.Duration) { return key, l.Hold }
	}
	// A multiplier spreads neighbouring clients' seeds across the 64 bits PCG reads.
	seed := l.Spread.Seed + uint64(l.FirstClient+client)*0x9e3779b97f4a7c15
	keys, holds := contention.NewRand(seed, keyStream), contention.NewRand(seed, holdStream)
	fixed := l.key(client)
	return func() (string, time.Duration) {
		key, hold := fixed, l.Hold
		if l.Spread.Keys != nil {
			key = l.keyNamed(l.Spread.Keys.Sample(keys))
		}
		if l.Spread.Hold != nil {
			hold = l.Spread.Hold.Sample(holds)
		}
		return key, hold
	}
}
