package floor

import (
	"testing"

	"github.com/lockbench/lockbench/contention"
)

// testRequests keeps each simulation near a tenth of a second.
const testRequests = 400_000

func mustKeys(t *testing.T, spec string, n int) *contention.Keys {
	t.Helper()
	k, err := contention.ParseKeys(spec, n)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func mustHold(t *testing.T, spec string) contention.Hold {
	t.Helper()
	h, err := contention.ParseHold(spec)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func mustSimulate(t *testing.T, rate float64, keys *contention.Keys, hold contention.Hold, seed uint64) *Simulation {
	t.Helper()
	s, err := Simulate(rate, keys, hold, SimOptions{Requests: testRequests, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// withinSE checks a simulated figure against its oracle: within 4 standard errors
// (batch means), and the error small enough (maxRelSE of want) that the check bites.
func withinSE(t *testing.T, what string, got, want, se, maxRelSE float64) {
	t.Helper()
	t.Logf("%s: %.6g vs %.6g, %.2f se, se/want %.3g", what, got, want, (got-want)/se, se/want)
	if diff := got - want; diff > 4*se || diff < -4*se {
		t.Errorf("%s: simulated %.6g, exact %.6g: off by %.2f standard errors (se %.3g)", what, got, want, diff/se, se)
	}
	if se > maxRelSE*want {
		t.Errorf("%s: standard error %.3g is over %.0f%% of %.6g: too few requests for the check to bite",
			what, se, 100*maxRelSE, want)
	}
}
