package bench

import (
	"testing"
	"time"

	"github.com/lockbench/lockbench/contention"
)

// TestSpreadDrawsReplayPerGlobalClient: a global client draws the same keys and holds
// from one seed whichever process runs it, and two clients draw apart.
func TestSpreadDrawsReplayPerGlobalClient(t *testing.T) {
	keys, _ := contention.ZipfKeys(1000, 0.8)
	hold, _ := contention.NewHold(contention.Exp, 20*time.Millisecond, 0)
	spread := &Spread{Keys: keys, Hold: &hold, Seed: 42}
	whole := Load{Clients: 4, Keys: 1000, Hold: 20 * time.Millisecond, Spread: spread}
	share := whole
	share.Clients, share.FirstClient, share.AllClients = 2, 2, 4
	a, b, other := whole.draws(3), share.draws(1), whole.draws(2)
	same, holdsDiffer := 0, false
	var first time.Duration
	for i := range 100 {
		ka, ha := a()
		kb, hb := b()
		ko, _ := other()
		if ka != kb || ha != hb {
			t.Fatalf("draw %d: global client 3 drew %s/%v alone, %s/%v in a share", i, ka, ha, kb, hb)
		}
		if ka == ko {
			same++
		}
		if i == 0 {
			first = ha
		} else if ha != first {
			holdsDiffer = true
		}
	}
	if same > 50 {
		t.Errorf("clients 2 and 3 drew the same key %d times in 100", same)
	}
	if !holdsDiffer {
		t.Error("an exponential hold drew one value 100 times")
	}
}
