// Package modelcheck reads what the lab's boundary runs say of a size model at a
// workload's TTL and hold: each side's judged trials with two holders, against the
// model's none below the boundary and every one above. adr writes it into the model's
// line; adr/plan asks which runs the results already have.
package modelcheck

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/lockbench/lockbench/plots/decision"
	"github.com/lockbench/lockbench/safety/results"
)

// Side is one side of a size model's boundary run at a workload's TTL and hold.
type Side struct {
	Strategy string
	Below    bool
	Size     string // what ran, in words
	P        results.Proportion
}

// Pause is pause-past-ttl's boundary variants run at ttl, the holder stopping after it
// held for hold (the lease left is then TTL - hold, where the pause model's share
// starts).
func Pause(reports []*results.Report, ttl, hold time.Duration) []Side {
	return sides(reports, "pause-past-ttl", func(p map[string]string) (string, bool) {
		at, err := time.ParseDuration(p["pause_at"])
		return fmt.Sprintf("a stop of %s x the lease left", p["pause_factor"]), err == nil && at == hold && AtTTL(p, ttl)
	})
}

// PauseScaled is pause-past-ttl's boundary variants run at the lab's TTL lab, the
// holder stopping after ScaledHold(hold, lab, ttl): the workload's hold as the same
// share of the lab's TTL (the pause model is in units of the lease left).
func PauseScaled(reports []*results.Report, lab, ttl, hold time.Duration) []Side {
	want := ScaledHold(hold, lab, ttl)
	return sides(reports, "pause-past-ttl", func(p map[string]string) (string, bool) {
		at, err := time.ParseDuration(p["pause_at"])
		return fmt.Sprintf("a stop of %s x the lease left at TTL %v, after %v", p["pause_factor"], lab, want),
			err == nil && at == want && AtTTL(p, lab)
	})
}

// ScaledHold is hold as the same share of the TTL lab as of ttl, in whole
// milliseconds (at least one).
func ScaledHold(hold, lab, ttl time.Duration) time.Duration {
	return max(time.Millisecond, time.Duration(float64(hold)*float64(lab)/float64(ttl)).Round(time.Millisecond))
}

// SingleJump is single-clock-skew's boundary variants run at ttl and hold.
func SingleJump(reports []*results.Report, ttl, hold time.Duration) []Side {
	return sides(reports, "single-clock-skew", func(p map[string]string) (string, bool) {
		h, err := time.ParseDuration(p["hold"])
		return fmt.Sprintf("a jump of %s (%s x TTL - hold)", p["jump"], p["jump_factor"]), err == nil && h == hold &&
			AtTTL(p, ttl)
	})
}

// AtTTL says whether a report or variant ran at ttl.
func AtTTL(params map[string]string, ttl time.Duration) bool {
	d, err := time.ParseDuration(params["ttl"])
	return err == nil && d == ttl
}

// sides reads the variants of scenario that name a side and that at accepts.
func sides(reports []*results.Report, scenario string, at func(map[string]string) (string, bool)) []Side {
	var out []Side
	for _, r := range reports {
		if r == nil || r.Scenario != scenario {
			continue
		}
		for _, v := range r.Variants {
			side := v.Params["side"]
			size, ok := at(v.Params)
			if side == "" || !ok || v.Tally.Judged == 0 {
				continue
			}
			strategy := v.Params["strategy"]
			if strategy == "" {
				strategy = "single" // single-clock-skew runs no other
			}
			out = append(out, Side{Strategy: strategy, Below: side == "below", Size: size,
				P: results.ProportionOf(v.Tally.Broke[results.Violations], v.Tally.Judged)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Strategy < out[j].Strategy })
	return out
}

// Text says each side's count. against, when not empty, is how the runs contradict
// the model: a break below the boundary, where the model counts none (it would
// undercount). A judged trial above it that held is said too, but contradicts no
// count: the model takes it as broken, so its count is an upper end there.
func Text(ss []Side) (text, against string) {
	var parts []sideResult
	var why, over []string
	for _, s := range ss {
		where := "above"
		if s.Below {
			where = "below"
		}
		parts = appendSide(parts, s.Strategy, fmt.Sprintf("%s (%s): two holders in %s", where, s.Size, s.P))
		switch {
		case s.Below && s.P.K > 0:
			why = append(why, fmt.Sprintf("%s broke %d of %d judged below the boundary", s.Strategy, s.P.K, s.P.N))
		case !s.Below && s.P.K < s.P.N:
			over = append(over, fmt.Sprintf("%s held in %d of %d judged above it", s.Strategy, s.P.N-s.P.K, s.P.N))
		}
	}
	text = strings.Join(sideLines(parts), "; ")
	if len(over) > 0 {
		text += "; the model overcounts there (" + strings.Join(over, ", ") + "): its count is an upper end"
	}
	if len(why) > 0 {
		against = strings.Join(why, ", ")
		return text + "; the model is contradicted: " + against, against
	}
	if len(over) > 0 {
		return text + "; none broke below the boundary, as the model says", ""
	}
	return text + "; as the model says: none below the boundary, every one above", ""
}

// sideResult is one side's outcome and the strategies that had it, in their order.
type sideResult struct {
	outcome    string
	strategies []string
}

// appendSide adds strategy to the side with the same outcome, or a new one: eleven
// strategies agreeing read as one line, not eleven.
func appendSide(sides []sideResult, strategy, outcome string) []sideResult {
	for i := range sides {
		if sides[i].outcome == outcome {
			sides[i].strategies = append(sides[i].strategies, strategy)
			return sides
		}
	}
	return append(sides, sideResult{outcome, []string{strategy}})
}

// sideLines words each side: "single, below (...): ..." alone, "below (...): ... on
// each of a, b (2)" when several strategies agree.
func sideLines(sides []sideResult) []string {
	var out []string
	for _, s := range sides {
		if len(s.strategies) == 1 {
			out = append(out, s.strategies[0]+", "+s.outcome)
			continue
		}
		out = append(out,
			fmt.Sprintf("%s on each of %s (%d)", s.outcome, strings.Join(s.strategies, ", "), len(s.strategies)))
	}
	return out
}

// Covered names the strategies whose every side ran at least n judged trials.
func Covered(ss []Side, n int) []string {
	judged := map[string]map[bool]int{}
	for _, s := range ss {
		if judged[s.Strategy] == nil {
			judged[s.Strategy] = map[bool]int{}
		}
		judged[s.Strategy][s.Below] += s.P.N
	}
	var out []string
	for s, by := range judged {
		if by[true] >= n && by[false] >= n {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// Figure draws the sides against the model's rule, one column a strategy and side: the
// model predicts none below the boundary and every one above.
func Figure(name, title, caption string, ss []Side) decision.ModelCheck {
	f := decision.ModelCheck{Name: name, Title: title, YLabel: "share of judged trials with two holders",
		Caption: caption, Upright: true}
	for _, s := range ss {
		side, predicted := "above", 1.0
		if s.Below {
			side, predicted = "below", 0
		}
		f.Points = append(f.Points,
			decision.ModelPoint{Label: s.Strategy + " " + side, Predicted: predicted, K: s.P.K, N: s.P.N, Lo: s.P.Lo,
				Hi: s.P.Hi})
	}
	return f
}
