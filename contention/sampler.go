package contention

import (
	"math/rand/v2"
	"time"
)

// Sampler draws each request's key and hold from one seed; not safe for concurrent
// use (the engine's dispatcher draws, one goroutine, then hands each request out).
type Sampler struct {
	keys       *Keys
	hold       Hold
	keyR, hldR *rand.Rand
}

// NewSampler draws keys and holds on streams of their own from seed.
func NewSampler(keys *Keys, hold Hold, seed uint64) *Sampler {
	return &Sampler{keys: keys, hold: hold, keyR: NewRand(seed, keyStream), hldR: NewRand(seed, holdStream)}
}

// Key is the next request's key index, 0 the hottest.
func (s *Sampler) Key() int { return s.keys.Sample(s.keyR) }

// Hold is the next request's hold.
func (s *Sampler) Hold() time.Duration { return s.hold.Sample(s.hldR) }

// HoldSeconds is the next request's hold in seconds, unrounded (for models).
func (s *Sampler) HoldSeconds() float64 { return s.hold.SampleSeconds(s.hldR) }
