package resultsdir

import (
	"fmt"
	"time"
)

// WorkerTag says which share of a run spread over several load hosts (`run --worker
// I/N`) a run or a cell is. On a run only Index, Of and RunID are set.
type WorkerTag struct {
	Index int    `json:"index"`
	Of    int    `json:"of"`
	RunID string `json:"run_id"`
	// Clients is this worker's share of the cell's clients: global clients
	// [FirstClient, FirstClient+Clients).
	Clients     int `json:"clients,omitempty"`
	FirstClient int `json:"first_client,omitempty"`
	// Rate is this worker's share of an open loop's rate; the cell's own fields (clients,
	// target rate) are the whole cell's, as its name says.
	Rate float64 `json:"rate,omitempty"`
	// ScheduledStart is when the workers agreed the measured part starts (this worker's
	// clock); ActualStart when its clock started.
	ScheduledStart time.Time `json:"scheduled_start,omitempty"`
	ActualStart    time.Time `json:"actual_start,omitempty"`
	// ClockOffsetToTarget is the target's clock minus this worker's (Redis TIME at the
	// midpoint of the round trip).
	ClockOffsetToTarget Duration `json:"clock_offset_to_target"`
}

// String names the worker as its histogram logs are tagged: worker=1/3.
func (w WorkerTag) String() string { return fmt.Sprintf("worker=%d/%d", w.Index, w.Of) }

// SkippedCell is a cell a worker did not measure, and why (a share of 0 clients).
type SkippedCell struct {
	Name   string    `json:"name"`
	Repeat int       `json:"repeat,omitempty"`
	Reason string    `json:"reason"`
	Worker WorkerTag `json:"worker"`
}
