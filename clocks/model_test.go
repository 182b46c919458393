package clocks

import (
	"strings"
	"testing"
	"time"
)

const ms = time.Millisecond

func TestTrueModelReadsRealTime(t *testing.T) {
	tl := NewTimeline(Model{})
	for _, at := range []time.Duration{0, 1, 7 * ms, 3 * time.Second} {
		if got := tl.Reading(at); got != at {
			t.Errorf("Reading(%v) = %v, want %v", at, got, at)
		}
	}
	if !(Model{}).IsTrue() || (Model{Rate: 1.01}).IsTrue() {
		t.Error("IsTrue is wrong for the zero model or a fast one")
	}
}

func TestOffsetAndRate(t *testing.T) {
	tl := NewTimeline(Model{Offset: 500 * ms, Rate: 1.5})
	if got, want := tl.Reading(2*time.Second), 3500*ms; got != want {
		t.Errorf("Reading(2s) = %v, want %v", got, want)
	}
	slow := NewTimeline(Model{Rate: 0.5})
	if got, want := slow.Reading(time.Second), 500*ms; got != want {
		t.Errorf("slow Reading(1s) = %v, want %v", got, want)
	}
}

func TestJumpAtTimeAppliesFromThatInstant(t *testing.T) {
	tl := NewTimeline(Model{Jumps: []Jump{{At: time.Second, By: 300 * ms}, {At: 2 * time.Second, By: -100 * ms}}})
	cases := map[time.Duration]time.Duration{
		999 * ms:        999 * ms,
		time.Second:     1300 * ms,
		1999 * ms:       2299 * ms,
		2 * time.Second: 2200 * ms,
	}
	for at, want := range cases {
		if got := tl.Reading(at); got != want {
			t.Errorf("Reading(%v) = %v, want %v", at, got, want)
		}
	}
}

func TestJumpAfterEventWaitsForTheEvent(t *testing.T) {
	tl := NewTimeline(Model{Jumps: []Jump{{After: "grant", At: 10 * ms, By: time.Second}}})
	if got := tl.Reading(5 * time.Second); got != 5*time.Second {
		t.Fatalf("jump applied before its event: Reading(5s) = %v", got)
	}
	tl.Fire("grant", 6*time.Second)
	tl.Fire("grant", 7*time.Second) // only the first firing counts
	if got := tl.Reading(6*time.Second + 9*ms); got != 6*time.Second+9*ms {
		t.Errorf("jump applied early: %v", got)
	}
	if got, want := tl.Reading(6*time.Second+10*ms), 7*time.Second+10*ms; got != want {
		t.Errorf("Reading after jump = %v, want %v", got, want)
	}
}

func TestSeededJitterAndPhaseReplayExactly(t *testing.T) {
	m := Model{Seed: 42, Jumps: []Jump{{At: time.Second, Jitter: time.Second, By: time.Hour}}, Strobe: Strobe{Amplitude: ms, Period: 100 * ms}}
	a, b := NewTimeline(m), NewTimeline(m)
	bpA, bpB := a.Breakpoints(0, 3*time.Second), b.Breakpoints(0, 3*time.Second)
	if len(bpA) != len(bpB) {
		t.Fatalf("same seed, different breakpoints: %d vs %d", len(bpA), len(bpB))
	}
	for i := range bpA {
		if bpA[i] != bpB[i] {
			t.Fatalf("same seed, breakpoint %d differs: %v vs %v", i, bpA[i], bpB[i])
		}
	}
	m.Seed = 43
	c := NewTimeline(m)
	if c.jitter[0] == a.jitter[0] && c.phase == a.phase {
		t.Error("a different seed drew the same jitter and phase")
	}
	if a.jitter[0] < 0 || a.jitter[0] >= time.Second {
		t.Errorf("jitter %v outside [0, 1s)", a.jitter[0])
	}
}

func TestStrobeIsASquareWave(t *testing.T) {
	tl := NewTimeline(Model{Strobe: Strobe{Amplitude: 40 * ms, Period: 100 * ms}})
	tl.phase = 0 // make the wave start high at 0 for the check
	for _, c := range []struct{ at, step time.Duration }{
		{0, 40 * ms}, {49 * ms, 40 * ms}, {50 * ms, 0}, {99 * ms, 0}, {100 * ms, 40 * ms},
	} {
		if got := tl.Step(c.at); got != c.step {
			t.Errorf("Step(%v) = %v, want %v", c.at, got, c.step)
		}
	}
	got := tl.Breakpoints(0, 200*ms)
	want := []time.Duration{50 * ms, 100 * ms, 150 * ms, 200 * ms}
	if len(got) != len(want) {
		t.Fatalf("Breakpoints = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Breakpoints = %v, want %v", got, want)
		}
	}
}

func TestExpiresAt(t *testing.T) {
	horizon := time.Minute
	cases := []struct {
		name  string
		model Model
		setAt time.Duration
		want  time.Duration
	}{
		{"true clock", Model{}, time.Second, 9 * time.Second},
		{"offset changes nothing", Model{Offset: time.Hour}, time.Second, 9 * time.Second},
		{"fast clock", Model{Rate: 2}, 0, 4 * time.Second},
		{"forward jump before expiry", Model{Jumps: []Jump{{At: 2 * time.Second, By: 3 * time.Second}}}, 0, 5 * time.Second},
		{"jump past expiry expires at the jump", Model{Jumps: []Jump{{At: 2 * time.Second, By: 10 * time.Second}}}, 0, 2 * time.Second},
		{"backward jump lengthens", Model{Jumps: []Jump{{At: 2 * time.Second, By: -time.Second}}}, 0, 9 * time.Second},
		{"jump before the set changes nothing", Model{Jumps: []Jump{{At: 0, By: time.Hour}}}, time.Second, 9 * time.Second},
	}
	for _, c := range cases {
		got, ok := NewTimeline(c.model).ExpiresAt(c.setAt, 8*time.Second, horizon)
		if !ok || got != c.want {
			t.Errorf("%s: ExpiresAt = %v, %v; want %v", c.name, got, ok, c.want)
		}
	}
	if _, ok := NewTimeline(Model{Rate: 0.01}).ExpiresAt(0, 8*time.Second, horizon); ok {
		t.Error("a clock at 1% speed expired an 8 s key within a minute")
	}
}

func TestValidateNamesTheField(t *testing.T) {
	for _, c := range []struct {
		m    Model
		want string
	}{
		{Model{Rate: -1}, "rate"},
		{Model{Jumps: []Jump{{At: -1}}}, "jump 0: at"},
		{Model{Jumps: []Jump{{Jitter: -1}}}, "jitter"},
		{Model{Strobe: Strobe{Amplitude: ms}}, "period"},
	} {
		err := c.m.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate(%+v) = %v, want an error naming %q", c.m, err, c.want)
		}
	}
	if err := (Model{Rate: 1.02, Jumps: []Jump{{At: time.Second, By: -time.Second}}}).Validate(); err != nil {
		t.Errorf("valid model refused: %v", err)
	}
}

func TestString(t *testing.T) {
	m := Model{Offset: time.Second, Rate: 1.02, Jumps: []Jump{{After: "grant", At: 0, By: 200 * ms}}}
	if got, want := m.String(), "offset=+1s rate=1.02 jump=+200ms@grant+0s"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got := (Model{}).String(); got != "true" {
		t.Errorf("zero model String() = %q", got)
	}
}

func TestChangedClosesWhenAnEventFires(t *testing.T) {
	tl := NewTimeline(Model{})
	ch := tl.Changed()
	select {
	case <-ch:
		t.Fatal("Changed closed before any event")
	default:
	}
	tl.Fire("grant", 0)
	select {
	case <-ch:
	default:
		t.Fatal("Changed not closed after Fire")
	}
	again := tl.Changed()
	tl.Fire("grant", time.Second) // a repeat changes nothing
	select {
	case <-again:
		t.Fatal("a repeated event closed Changed")
	default:
	}
}
