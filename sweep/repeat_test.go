package sweep_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/sweep"
)

func TestRepeatInterleavesWholePasses(t *testing.T) {
	cfg := sweep.Config{Duration: sweep.Duration(time.Second), Repeat: 3, Sweeps: []sweep.Sweep{
		{Strategies: []string{"single", "redlock"}, Clients: []int{8}, Keys: []string{"1", sweep.PerClient}},
	}}
	cells, err := cfg.Cells()
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 12 {
		t.Fatalf("%d cells, want 4 cells x 3 passes", len(cells))
	}
	// ABCD ABCD ABCD: pass p holds the same names in the same order as pass 1.
	for i, c := range cells {
		if want := i/4 + 1; c.Repeat != want {
			t.Errorf("cell %d: repeat %d, want %d", i, c.Repeat, want)
		}
		if c.Name() != cells[i%4].Name() {
			t.Errorf("cell %d is %s, want %s: passes must repeat the order", i, c.Name(), cells[i%4].Name())
		}
	}
	// Within a pass each strategy stays grouped: its servers start once per pass.
	starts := 0
	for i := range cells {
		if i == 0 || cells[i].Strategy != cells[i-1].Strategy {
			starts++
		}
	}
	if starts != 2*3 {
		t.Errorf("%d topology starts, want one per strategy and pass (6)", starts)
	}
	once, _ := sweep.Config{Duration: sweep.Duration(time.Second), Sweeps: cfg.Sweeps}.Cells()
	if len(once) != 4 || once[0].Repeat != 0 {
		t.Errorf("unrepeated run: %d cells, repeat %d; want 4 and 0", len(once), once[0].Repeat)
	}
}

func TestIntervalCountDefaultsToWhatTheDurationHolds(t *testing.T) {
	for _, tc := range []struct {
		duration  time.Duration
		intervals int
		want      int
	}{
		{5 * time.Second, 0, 10}, {300 * time.Millisecond, 0, 3}, {150 * time.Millisecond, 0, 1}, {5 * time.Second, 4, 4},
	} {
		cfg := sweep.Config{Duration: sweep.Duration(tc.duration), Intervals: tc.intervals}
		if got := cfg.IntervalCount(); got != tc.want {
			t.Errorf("duration %v intervals %d: count %d, want %d", tc.duration, tc.intervals, got, tc.want)
		}
	}
}

func TestBadIntervalsAndRepeatAreRefusedByName(t *testing.T) {
	sweeps := []sweep.Sweep{{Strategies: []string{"single"}}}
	for _, tc := range []struct {
		cfg  sweep.Config
		want string
	}{
		{sweep.Config{Duration: sweep.Duration(time.Second), Intervals: 1, Sweeps: sweeps}, "intervals = 1: want at least 2"},
		{sweep.Config{Duration: sweep.Duration(time.Second), Intervals: -3, Sweeps: sweeps}, "intervals = -3"},
		{sweep.Config{Duration: sweep.Duration(time.Second), Intervals: 20, Sweeps: sweeps}, "intervals = 20: a measured duration of 1s holds at most 10"},
		{sweep.Config{Duration: sweep.Duration(time.Second), Repeat: -1, Sweeps: sweeps}, "repeat = -1"},
	} {
		if _, err := tc.cfg.Cells(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one containing %q", err, tc.want)
		}
	}
}
