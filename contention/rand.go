package contention

import "math/rand/v2"

// Streams of one seed: keys and holds draw apart, so changing the hold distribution
// leaves the sequence of keys as it was (runs compare on the same keys).
const (
	keyStream  = 0x6b657973 // "keys"
	holdStream = 0x686f6c64 // "hold"
)

// NewRand is a seeded source for one stream; the same seed and stream replay the same draws.
func NewRand(seed, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, stream))
}
