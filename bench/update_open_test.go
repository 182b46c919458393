package bench_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/contention"
)

// accountsUpdater counts the updates of each account; each update takes a millisecond.
type accountsUpdater struct {
	mu   sync.Mutex
	seen map[int]int
}

func (u *accountsUpdater) Update(ctx context.Context, _, account int) (bench.UpdateOutcome, error) {
	time.Sleep(time.Millisecond)
	u.mu.Lock()
	u.seen[account]++
	u.mu.Unlock()
	return bench.UpdateOutcome{}, nil
}

// An open loop of updates draws its accounts over more rows than clients, the hottest
// first by its zipf law; every request due is served, the discarded part apart.
func TestRunUpdatesOpenDrawsItsAccounts(t *testing.T) {
	keys, err := contention.ParseKeys("zipf:1", 100)
	if err != nil {
		t.Fatal(err)
	}
	u := &accountsUpdater{seen: map[int]int{}}
	res, err := bench.RunUpdatesOpen(context.Background(), u,
		bench.UpdateLoad{Clients: 4, Rows: 100, Accounts: keys, Seed: 1},
		bench.Open{Rate: 500, Arrival: "constant", Seed: 1, Discard: 100 * time.Millisecond, Drain: time.Minute,
			For: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for account, n := range u.seen {
		if account < 1 || account > 100 {
			t.Errorf("account %d is outside the 100 rows", account)
		}
		total += n
	}
	// Constant arrivals every 2 ms: the 49 due before 100 ms are served unrecorded, every
	// later one due before the deadline is served and measured.
	if measured := int(res.Applied); measured+49 != total || measured == 0 {
		t.Errorf("%d updates served, %d measured; want all but the first 49 measured", total, measured)
	}
	if u.seen[1] <= u.seen[100] || len(u.seen) <= 4 {
		t.Errorf("account 1 updated %d times, account 100 %d, %d accounts in all: not drawn by zipf:1 over the rows",
			u.seen[1], u.seen[100], len(u.seen))
	}
}

// A closed loop cannot draw accounts: rows past the clients are refused.
func TestUpdateLoadRefusesMoreRowsThanClientsUnlessDrawn(t *testing.T) {
	if err := (bench.UpdateLoad{Clients: 2, Rows: 5}).Validate(); err == nil {
		t.Error("5 rows for 2 clients, none drawn, accepted")
	}
	keys, _ := contention.ParseKeys("uniform", 5)
	if err := (bench.UpdateLoad{Clients: 2, Rows: 5, Accounts: keys}).Validate(); err != nil {
		t.Error(err)
	}
}
