package floor

import (
	"fmt"
	"time"

	"github.com/lockbench/lockbench/contention"
)

// Saturation is the keys whose queue grows without bound: asked for at least a second
// of holding each second (rho >= 1). No lock can serve them, at any wait.
type Saturation struct {
	Keys     int           // saturated keys
	Of       int           // keys in all
	Share    float64       // the share of requests that lock a saturated key
	Hottest  Queue         // key 0, the first to saturate
	MeanHold time.Duration // E[S]
}

// saturationOf finds the saturated keys; nil when every key is stable. Zipf keys
// saturate hottest first, so the saturated ones are a prefix.
func saturationOf(rate float64, keys *contention.Keys, hold contention.Hold) *Saturation {
	hot := KeyQueue(rate, keys, hold, 0)
	if !hot.Saturated() {
		return nil
	}
	s := &Saturation{Of: keys.N(), Hottest: hot, MeanHold: hold.Mean()}
	eachKeyClass(keys, func(first int, p float64, count int) {
		if rate*p*hold.MeanSeconds() >= 1 {
			s.Keys += count
			s.Share += p * float64(count)
		}
	})
	return s
}

func (s *Saturation) String() string {
	return fmt.Sprintf("saturated: key %d takes %.4g locks/s x mean hold %v = utilisation %.3g >= 1, so its "+
		"queue grows without bound; %d of %d keys saturated (%.3g%% of requests): no lock can serve them",
		s.Hottest.Key, s.Hottest.Rate, s.MeanHold, s.Hottest.Rho, s.Keys, s.Of, 100*s.Share)
}
