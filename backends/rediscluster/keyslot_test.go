package rediscluster_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/locks/rueidislayout"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// KeySlot answers as the server's CLUSTER KEYSLOT does, hash tags included.
func TestKeySlotIsTheServers(t *testing.T) {
	t.Parallel()
	c := sharedCluster(t)
	server := client(t, c.Masters()[0].Addr())
	r := rand.New(rand.NewPCG(1, 2))
	keys := []string{"", "{", "}", "{}", "{}x", "a{b}c", "a{}c{d}", "x}y{z}", "{tag}rest", "rueidislock:0:orders:42"}
	for range 300 {
		b := make([]byte, 1+r.IntN(40))
		for i := range b {
			b[i] = "ab{}:-9"[r.IntN(7)]
		}
		keys = append(keys, string(b))
	}
	for _, key := range keys {
		want, err := server.ClusterKeySlot(context.Background(), key).Result()
		if err != nil {
			t.Fatal(err)
		}
		if got := redisadmin.KeySlot(key); int64(got) != want {
			t.Errorf("KeySlot(%q) = %d, the server says %d", key, got, want)
		}
	}
}

// rueidislock's three keys of a name differ in one character, and CRC16 is linear: how
// their slots differ is fixed by the name's length. On this cluster's own slot map,
// names of some lengths never put their keys on three masters, others do often; the
// share per length is logged (go test -v). What is asserted holds whatever the machine:
// it is arithmetic on the slot map.
func TestRueidislockKeysSpreadByTheNamesLength(t *testing.T) {
	t.Parallel()
	c := sharedCluster(t)
	masterOf, err := redisadmin.SlotMasters(context.Background(), c.Masters()[0].Addr())
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	var never []int
	often := 0
	var line strings.Builder
	for length := 1; length <= 40; length++ {
		const names = 2000
		spread := 0
		for range names {
			b := make([]byte, length)
			for i := range b {
				b[i] = "abcdefghijklmnopqrstuvwxyz0123456789:-"[r.IntN(38)]
			}
			masters := map[string]bool{}
			for i := range 3 {
				slot := redisadmin.KeySlot(rueidislayout.KeyOf(string(b), i))
				m, ok := masterOf(slot)
				if !ok {
					t.Fatalf("no master serves slot %d", slot)
				}
				masters[m] = true
			}
			if len(masters) == 3 {
				spread++
			}
		}
		share := float64(spread) / names
		fmt.Fprintf(&line, " %d:%.2f", length, share)
		switch {
		case spread == 0:
			never = append(never, length)
		case share >= 0.3:
			often++
		}
	}
	t.Logf("names of each length with their three keys on three masters (of %d masters):%s", len(c.Masters()),
		line.String())
	t.Logf("lengths at which no name spread: %v", never)
	if len(never) == 0 || often == 0 {
		t.Errorf("%d lengths never spread, %d spread in 30%% or more: want both, as CRC16's linearity makes them",
			len(never), often)
	}
}
