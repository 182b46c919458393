package stats

import "testing"

// The slow-node figures take the strategies the data measured with one slow node, by
// that measurement, whatever they are named (once a "redlock" name prefix).
func TestSlowNodeStrategiesAreThoseMeasuredWithOne(t *testing.T) {
	groups := []*Group{
		{Strategy: "redlock", Condition: Condition{Network: "none"}},
		{Strategy: "redlock", Condition: Condition{Network: "one-slow"}},
		{Strategy: "redlock-failfast", Condition: Condition{Network: "none"}},
		{Strategy: "quorum-store", Condition: Condition{Network: "one-slow"}},
		{Strategy: "single", Condition: Condition{Network: "uniform"}},
	}
	got := SlowNodeStrategies(groups)
	if len(got) != 2 || !got["redlock"] || !got["quorum-store"] {
		t.Errorf("SlowNodeStrategies = %v, want redlock and quorum-store only", got)
	}
}
