// Package results is the safety lab's results schema: what each trial of each variant
// came to, the tallies and intervals computed from them, the tables of results.md and
// the file results.json. It knows nothing of servers or locks; plots reads it directly.
package results

import (
	"encoding/json"
	"fmt"
)

// Outcome is what one trial came to. It is a closed set: a trial is judged only after
// it proved its fault happened; everything else says why it was not judged.
type Outcome string

const (
	// Judged: the fault was proven (Trial.Proof) and the checkers read the history.
	Judged Outcome = "judged"
	// FaultNotProduced: the nemesis acted but the fault it aims at could not be shown
	// (no promotion, no clock step seen on the node, no write lost by the cut).
	FaultNotProduced Outcome = "fault_not_produced"
	// Errored: something else failed (Trial.ErrorKind, Trial.Message).
	Errored Outcome = "error"
	// NotGranted: the first lock was refused by WAIT or min-replicas-to-write: the
	// safety mechanism working, with nothing to lose.
	NotGranted Outcome = "not_granted"
)

// Outcomes lists every outcome, in table order.
var Outcomes = []Outcome{Judged, FaultNotProduced, Errored, NotGranted}

// Valid says whether o is one of Outcomes.
func (o Outcome) Valid() bool {
	for _, known := range Outcomes {
		if o == known {
			return true
		}
	}
	return false
}

// UnmarshalJSON refuses an outcome outside the closed set.
func (o *Outcome) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if !Outcome(s).Valid() {
		return fmt.Errorf("outcome %q: want one of %v", s, Outcomes)
	}
	*o = Outcome(s)
	return nil
}
