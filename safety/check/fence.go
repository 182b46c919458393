package check

import "github.com/lockbench/lockbench/safety/history"

// FenceReport is the verdict of Fencing.
type FenceReport struct {
	// Violations are accepted writes whose token is lower than one accepted earlier
	// by the same resource: the order of writes went backwards.
	Violations int `json:"violations"`
	// StaleAccepted and StaleRejected count writes whose token was not above the
	// highest already accepted: applied anyway (unfenced), or refused (fenced).
	StaleAccepted int `json:"stale_accepted"`
	StaleRejected int `json:"stale_rejected"`
}

// Fencing walks each resource's fenced writes in time order.
func Fencing(h history.History) FenceReport {
	var r FenceReport
	type seen struct {
		highest int64
		any     bool
	}
	byResource := map[string]*seen{}
	for _, e := range h {
		if e.Kind != history.Write || !e.HasFence {
			continue
		}
		s := byResource[e.Resource]
		if s == nil {
			s = &seen{}
			byResource[e.Resource] = s
		}
		stale := s.any && e.Fence <= s.highest
		switch {
		case e.Accepted && s.any && e.Fence < s.highest:
			r.Violations++
			r.StaleAccepted++
		case e.Accepted && stale:
			r.StaleAccepted++
		case !e.Accepted && stale:
			r.StaleRejected++
		}
		if e.Accepted && (!s.any || e.Fence > s.highest) {
			s.highest, s.any = e.Fence, true
		}
	}
	return r
}

// TokenReport is the verdict of Tokens.
type TokenReport struct {
	// Reissued counts grants whose fence was not above a fence granted earlier for the
	// same key: a fencing counter that went backwards (or repeated itself).
	Reissued int `json:"reissued"`
}

// Tokens checks that fencing tokens handed out for a key only ever grow.
func Tokens(h history.History) TokenReport {
	var r TokenReport
	highest := map[string]int64{}
	for _, e := range h {
		if e.Kind != history.AcquireGranted || !e.HasFence {
			continue
		}
		if top, ok := highest[e.Key]; ok && e.Fence <= top {
			r.Reissued++
			continue
		}
		highest[e.Key] = e.Fence
	}
	return r
}
