package check

import (
	"time"

	"github.com/lockbench/lockbench/safety/history"
)

// Overlap is two clients inside the critical section of one resource at once.
type Overlap struct {
	Resource string        `json:"resource"`
	First    string        `json:"first"`  // the client that entered first
	Second   string        `json:"second"` // the client that entered while First was inside
	Start    time.Time     `json:"start"`
	Duration time.Duration `json:"duration_ns"`
}

// MutexReport is the verdict of MutualExclusion.
type MutexReport struct {
	Violations int       `json:"violations"` // pairs of holders that overlapped
	Overlaps   []Overlap `json:"overlaps,omitempty"`
}

// holdInterval is one client's stay inside a resource.
type holdInterval struct {
	client     string
	start, end time.Time
}

// holds reads the Entered/history.Left intervals of every resource; a stay that never left
// lasts until the end of the history.
func holds(h history.History) map[string][]holdInterval {
	end := h.End()
	open := map[[2]string]int{} // (resource, client) -> index of the open interval
	out := map[string][]holdInterval{}
	for _, e := range h {
		k := [2]string{e.Resource, e.Client}
		switch e.Kind {
		case history.Entered:
			if _, ok := open[k]; ok {
				continue // entering twice without leaving is still one stay
			}
			out[e.Resource] = append(out[e.Resource], holdInterval{client: e.Client, start: e.Time, end: end})
			open[k] = len(out[e.Resource]) - 1
		case history.Left:
			if i, ok := open[k]; ok {
				out[e.Resource][i].end = e.Time
				delete(open, k)
			}
		}
	}
	return out
}

// MutualExclusion judges at each resource: no two clients may be inside at the
// same time. Every overlapping pair is a violation, with how long it lasted.
func MutualExclusion(h history.History) MutexReport {
	var r MutexReport
	for res, ivs := range holds(h) {
		for i := range ivs {
			for j := i + 1; j < len(ivs); j++ {
				a, b := ivs[i], ivs[j]
				if a.client == b.client {
					continue
				}
				start, end := later(a.start, b.start), earlier(a.end, b.end)
				if !start.Before(end) {
					continue
				}
				first, second := a, b
				if b.start.Before(a.start) {
					first, second = b, a
				}
				r.Violations++
				r.Overlaps = append(r.Overlaps,
					Overlap{Resource: res, First: first.client, Second: second.client, Start: start, Duration: end.Sub(start)})
			}
		}
	}
	return r
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
