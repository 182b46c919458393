package capacity

import (
	"os"
	"testing"
	"time"
)

func TestParseStatCPUCountsFromTheLastParenthesis(t *testing.T) {
	line := "4242 (redis (server) x) S 1 4242 4242 0 -1 4194560 500 0 0 0 150 50 0 0 20 0 4 0 100 0 0"
	got, err := parseStatCPU(line)
	if err != nil || got != 2*time.Second {
		t.Errorf("got %v, %v; want 2s (150 + 50 ticks)", got, err)
	}
	if _, err := parseStatCPU("garbage"); err == nil {
		t.Error("a line without a command name parsed")
	}
}

func TestCPUMeterSeesItsOwnWork(t *testing.T) {
	m := NewCPUMeter(map[string]int{"self": os.Getpid()})
	before, err := ProcessCPU(os.Getpid())
	if err != nil {
		t.Skipf("no /proc here: %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	x := 0
	for time.Now().Before(deadline) {
		for i := 0; i < 1e6; i++ {
			x += i
		}
		if now, _ := ProcessCPU(os.Getpid()); now-before >= 50*time.Millisecond {
			break
		}
	}
	_ = x
	if s := m.Shares()["self"]; !(s > 0) {
		t.Errorf("share %v after spinning, want > 0", s)
	}
}

func TestParseMachineTicksCountsIdleAndIowaitAsIdle(t *testing.T) {
	busy, total, err := parseMachineTicks("cpu  100 5 50 800 40 3 2 0 0 0\ncpu0 1 2 3 4\n")
	if err != nil || busy != 160 || total != 1000 {
		t.Errorf("busy %d total %d (%v), want 160 of 1000", busy, total, err)
	}
}

func TestSaturationNamesTheBusiestOrTheMachine(t *testing.T) {
	for _, tc := range []struct {
		cpu  map[string]float64
		want string
	}{
		{map[string]float64{"lockbench": 1.9, "master-0": 0.1, MachineName: 2}, "lockbench (95% CPU)"},
		{map[string]float64{"lockbench": 0.5, "master-0": 0.97, MachineName: 1.6}, "master-0 (97% CPU)"},
		{map[string]float64{"lockbench": 0.1, "master-0": 0.1, MachineName: 1.98}, "the machine, by other processes (99% busy; ours 0.20 of 2 cores)"},
		{map[string]float64{"lockbench": 0.1, "master-0": 0.2, MachineName: 0.5}, "no process (busiest master-0, 20% CPU)"},
	} {
		if got := Saturation(tc.cpu, 2, 2); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.cpu, got, tc.want)
		}
	}
}
