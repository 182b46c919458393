package workload

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/adr/adrtest"
	"github.com/lockbench/lockbench/backend"
)

func TestGoodWorkloadParses(t *testing.T) {
	w, err := Parse("w.yaml", []byte(adrtest.GoodWorkload))
	if err != nil {
		t.Fatal(err)
	}
	if w.Purpose != Correctness || w.HoldD.Milliseconds() != 5 || w.SLO.Budget.Milliseconds() != 5 {
		t.Fatalf("parsed %+v", w)
	}
}

// Holds spread as the file says around their mean: const by default, exp or lognormal
// as `run --hold-dist` takes them; the floor's hold follows.
func TestHoldDistributionIsTheRunsHoldDist(t *testing.T) {
	for spec, want := range map[string]string{"": "", "const": "", "exp": "exp", "lognormal:0.5": "lognormal:0.5"} {
		text := adrtest.GoodWorkload
		if spec != "" {
			text = strings.Replace(text, "ttl: 1s", "ttl: 1s\nhold_distribution: "+spec, 1)
		}
		w, err := Parse("w.yaml", []byte(text))
		if err != nil {
			t.Fatalf("%q: %v", spec, err)
		}
		h, err := w.HoldOf(w.HoldD)
		if w.HoldDist != want || err != nil || h.Mean() != w.HoldD {
			t.Errorf("%q: hold-dist %q (want %q), hold %v %v", spec, w.HoldDist, want, h, err)
		}
	}
}

func TestBadWorkloadNamesTheField(t *testing.T) {
	cases := []struct{ name, from, to, field string }{
		{"unknown field", "title: t", "title: t\ncolour: red", "colour"},
		{"negative rate", "failover: {per_year: 1,", "failover: {per_year: -1,", "faults.failover.per_year"},
		{"purpose not one of the two", "purpose: correctness", "purpose: speed", "purpose"},
		{"zero lock rate", "lock_rate_per_second: 10", "lock_rate_per_second: 0", "lock_rate_per_second"},
		{"bad hold", "hold: 5ms", "hold: soon", "hold"},
		{"bad watchdog", "ttl: 1s", "ttl: 1s\nwatchdog_interval: often", "watchdog_interval"},
		{"unknown hold distribution", "ttl: 1s", "ttl: 1s\nhold_distribution: pareto", "hold_distribution"},
		{"lognormal without sigma", "ttl: 1s", "ttl: 1s\nhold_distribution: lognormal", "hold_distribution"},
		{"exp with a parameter", "ttl: 1s", "ttl: 1s\nhold_distribution: exp:2", "hold_distribution"},
		{"a watchdog slower than the TTL", "ttl: 1s", "ttl: 1s\nwatchdog_interval: 1s", "watchdog_interval"},
		{"no keys", "keys: {count: 1, distribution: uniform}\n", "", "keys.count"},
		{"unknown spread", "distribution: uniform}", "distribution: hot}", "keys.distribution"},
		{"zipf without exponent", "distribution: uniform}", "distribution: zipf}", "keys.zipf_exponent"},
		{"a mutex held over all of the time", "lock_rate_per_second: 10", "lock_rate_per_second: 200", "keys"},
		{"correctness without a budget", "violation_budget_per_year: 0.1\n", "", "violation_budget_per_year"},
		{"percentile", "percentile: p99,", "percentile: p50,", "latency_budget.percentile"},
		{"missing fault", "  node_restart_empty: {per_year: 0, source: team's guess}\n", "", "faults.node_restart_empty"},
		{"missing source", "clock_jump: {per_year: 1, above: 100ms, source: team's guess}", "clock_jump: {per_year: 1, above: 100ms}", "faults.clock_jump.source"},
		{"pause without its size", "longer_than: 1s, ", "", "faults.client_pause.longer_than"},
		{"efficiency without its budget", "purpose: correctness", "purpose: efficiency", "duplicate_work_budget_per_year"},
		{"redelivery without a source", "faults:\n", "faults:\n  redelivery: {per_year: 12}\n", "faults.redelivery.source"},
		{"a lag's p50 above its p99", "faults:\n", "replication_lag: {p50: 5ms, p99: 1ms, source: x}\nfaults:\n",
			"replication_lag.p50"},
		{"a lag with no source", "faults:\n", "replication_lag: {p50: 1ms, p99: 5ms}\nfaults:\n", "replication_lag.source"},
		{"a lag that is no duration", "faults:\n", "replication_lag: {p50: 1ms, p99: soon, source: x}\nfaults:\n",
			"replication_lag.p99"},
		{"redelivery with a size", "faults:\n", "faults:\n  redelivery: {per_year: 1, longer_than: 1s, source: x}\n",
			"faults.redelivery.longer_than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(adrtest.GoodWorkload, c.from, c.to, 1)
			if text == adrtest.GoodWorkload {
				t.Fatalf("the case changed nothing")
			}
			_, err := Parse("w.yaml", []byte(text))
			var fe FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("want a FieldError, got %v", err)
			}
			if !strings.Contains(err.Error(), c.field) {
				t.Fatalf("error %q does not name %s", err, c.field)
			}
		})
	}
}

// Redelivery is the one optional fault (files written before it name none): absent, the
// workload does not weigh it; named, it does.
func TestRedeliveryIsWeighedOnlyWhereNamed(t *testing.T) {
	for _, c := range []struct {
		text  string
		weigh bool
	}{
		{adrtest.GoodWorkload, false},
		{strings.Replace(adrtest.GoodWorkload, "faults:\n", "faults:\n  redelivery: {per_year: 12, source: team's guess}\n", 1),
			true},
	} {
		w, err := Parse("w.yaml", []byte(c.text))
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.Contains(w.FaultKinds(), backend.RedeliveryFault); got != c.weigh {
			t.Errorf("redelivery weighed: %v, want %v", got, c.weigh)
		}
	}
}

func TestShippedWorkloadFilesParse(t *testing.T) {
	for _, path := range []string{"../../docs/adr-workload.yaml", "../../docs/adr-workload-correctness.yaml", "../testdata/efficiency.yaml", "../testdata/correctness.yaml"} {
		if _, err := Load(path); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
}

func TestAtMostIsCheckedAgainstTheSmallestCounted(t *testing.T) {
	for _, bad := range []string{"above: 100ms, at_most: 50ms,", "above: 100ms, at_most: soon,"} {
		text := strings.Replace(adrtest.GoodWorkload, "clock_jump: {per_year: 1, above: 100ms,", "clock_jump: {per_year: 1, "+bad, 1)
		if _, err := Parse("w.yaml", []byte(text)); err == nil || !strings.Contains(err.Error(), "faults.clock_jump.at_most") {
			t.Errorf("%s: %v", bad, err)
		}
	}
	text := strings.Replace(adrtest.GoodWorkload, "failover: {per_year: 1,", "failover: {per_year: 1, at_most: 1s,", 1)
	if _, err := Parse("w.yaml", []byte(text)); err == nil || !strings.Contains(err.Error(), "only client_pause and clock_jump") {
		t.Errorf("at_most on a failover: %v", err)
	}
}
