package check

import "github.com/lockbench/lockbench/safety/history"

// GrantReport is the verdict of Grants.
type GrantReport struct {
	// Second counts grants to clients other than the history's first holder. Where
	// the first holder had stopped, a second grant shows the lock stayed usable; where
	// it still held, MutualExclusion says what the grant cost.
	Second int `json:"second"`
}

// Grants counts who else was granted the lock after the first holder.
func Grants(h history.History) GrantReport {
	var r GrantReport
	first := ""
	for _, e := range h {
		if e.Kind != history.AcquireGranted {
			continue
		}
		if first == "" {
			first = e.Client
			continue
		}
		if e.Client != first {
			r.Second++
		}
	}
	return r
}
