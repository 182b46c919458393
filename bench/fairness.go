package bench

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Fairness is how evenly clients with equal demand were served: Jain's index over
// their completed cycles ((sum x)^2 / (n sum x^2): 1 when every client got as many, 1/n
// when one took them all), and the worst client's p99 wait from request to grant.
type Fairness struct {
	Clients int
	Jain    float64
	// WorstP99 is the highest of the clients' p99 waits, and WorstClient whose it is; a
	// client that completed no cycle waited the whole run and is reported as Starved.
	WorstP99    time.Duration
	WorstClient int
	Starved     int
}

// share is one client's completed cycles and their waits.
type share struct {
	cycles int64
	waits  *hdrhistogram.Histogram
}

func newShares(clients int) []*share {
	out := make([]*share, clients)
	for i := range out {
		out[i] = &share{waits: NewHistogram()}
	}
	return out
}

func (s *share) add(waited time.Duration) {
	s.cycles++
	record(s.waits, waited)
}

// fairnessOf reads the clients' shares; zero when there are fewer than two clients or
// no cycle completed, where evenness means nothing.
func fairnessOf(shares []*share) Fairness {
	f := Fairness{Clients: len(shares), WorstClient: -1}
	var sum, squares float64
	for c, s := range shares {
		x := float64(s.cycles)
		sum, squares = sum+x, squares+x*x
		if s.cycles == 0 {
			f.Starved++
			continue
		}
		if p99 := time.Duration(s.waits.ValueAtQuantile(99)); p99 > f.WorstP99 || f.WorstClient < 0 {
			f.WorstP99, f.WorstClient = p99, c
		}
	}
	if len(shares) < 2 || squares == 0 {
		return Fairness{}
	}
	f.Jain = sum * sum / (float64(len(shares)) * squares)
	return f
}
