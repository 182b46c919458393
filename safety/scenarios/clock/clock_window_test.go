package clock

import (
	"strings"
	"testing"
	"time"
)

// A race is judged only when one of B's attempts began once a quorum was free and
// returned while A still believed it held; a B that was late says fault_not_produced.
func TestBWindowJudgesOnlyAttemptsInsideTheRace(t *testing.T) {
	start := time.Unix(1000, 0)
	at := func(ms int) time.Time { return start.Add(time.Duration(ms) * time.Millisecond) }
	cases := []struct {
		name     string
		opens    time.Time // zero: the model has two holders impossible
		attempts [][3]int  // began, returned (ms after A's acquire began), granted (1); only the return counts
		judged   bool
	}{
		{"refused in the window", at(250), [][3]int{{240, 245, 0}, {251, 254, 0}}, true},
		{"refused only before it opens", at(250), [][3]int{{200, 210, 0}, {240, 249, 0}}, false},
		{"granted before the model opens it", at(250), [][3]int{{20, 23, 1}}, true},
		{"begun inside, granted after A's validity", at(250), [][3]int{{270, 300, 1}}, false},
		{"late on a busy machine", at(250), [][3]int{{286, 330, 0}}, false},
		{"a window as short as an attempt", at(283), [][3]int{{280, 282, 0}, {282, 284, 0}}, true},
		{"holds: one refusal before the end", time.Time{}, [][3]int{{100, 120, 0}}, true},
		{"holds: no attempt returned in time", time.Time{}, [][3]int{{280, 400, 0}}, false},
	}
	for _, c := range cases {
		w := bWindow{opens: c.opens, closes: at(285)}
		for _, a := range c.attempts {
			w.saw(at(a[1]), a[2] == 1)
		}
		err := w.missed(start)
		switch {
		case c.judged && err != nil:
			t.Errorf("%s: %v, want judged", c.name, err)
		case !c.judged && (err == nil || !strings.HasPrefix(err.Error(), "fault not produced: ")):
			t.Errorf("%s: %v, want fault_not_produced", c.name, err)
		case !c.judged && !strings.Contains(err.Error(), "B's attempts"):
			t.Errorf("%s: %q does not say what B missed", c.name, err)
		}
	}
}
