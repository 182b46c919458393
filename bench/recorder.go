// Package bench is the load engine: it drives a Locker with a workload and records
// what each step cost. It starts no servers and judges nothing.
package bench

import (
	"errors"
	"net"
	"sort"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/lockbench/lockbench/internal/timeout"
	"github.com/lockbench/lockbench/locks"
)

// Histogram range: 1 us resolution floor, up to one hour, 2 significant digits (1%):
// about 25 KB per histogram, so a thousand clients' recorders fit in memory.
const (
	histLowest  = int64(time.Microsecond)
	histHighest = int64(time.Hour)
	histDigits  = 2
)

// NewHistogram returns an empty latency histogram in nanoseconds.
func NewHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(histLowest, histHighest, histDigits)
}

// Recorder holds what one client measured; recorders merge after a run.
type Recorder struct {
	Attempt     *hdrhistogram.Histogram // one Acquire call, granted or not
	AcquireWait *hdrhistogram.Histogram // first attempt to grant, retries included
	Release     *hdrhistogram.Histogram // one Release call
	Cycle       *hdrhistogram.Histogram // acquire (with retries), hold, release
	// Handoff is from a release made while another client waited for its key to the
	// key's next grant (see turns): the lock idle between two holders.
	Handoff  *hdrhistogram.Histogram
	Attempts int64
	Granted  int64 // completed cycles
	Refused  int64 // attempts lost to another owner
	Errors   map[string]int64
	// CutOffAttempts are attempts the run's end (ctx) cut short: not in Attempts nor
	// in any histogram, as their latency is the deadline's; the locker released what
	// they may have taken.
	CutOffAttempts int64
	// CutOffHolds are granted locks whose hold the run's end cut short: released, and
	// counted neither in Granted nor in Cycle.
	CutOffHolds int64
}

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder {
	return &Recorder{
		Attempt: NewHistogram(), AcquireWait: NewHistogram(), Release: NewHistogram(), Cycle: NewHistogram(),
		Handoff: NewHistogram(), Errors: map[string]int64{},
	}
}

// record adds d to h; values past the histogram's range count as its maximum.
func record(h *hdrhistogram.Histogram, d time.Duration) {
	if h.RecordValue(int64(d)) != nil {
		_ = h.RecordValue(histHighest)
	}
}

// Merge adds o into r.
func (r *Recorder) Merge(o *Recorder) {
	r.Attempt.Merge(o.Attempt)
	r.AcquireWait.Merge(o.AcquireWait)
	r.Release.Merge(o.Release)
	r.Cycle.Merge(o.Cycle)
	r.Handoff.Merge(o.Handoff)
	r.Attempts += o.Attempts
	r.Granted += o.Granted
	r.Refused += o.Refused
	r.CutOffAttempts += o.CutOffAttempts
	r.CutOffHolds += o.CutOffHolds
	for k, v := range o.Errors {
		r.Errors[k] += v
	}
}

// reset empties r for reuse: a client's recording after it is handed over.
func (r *Recorder) reset() {
	for _, h := range []*hdrhistogram.Histogram{r.Attempt, r.AcquireWait, r.Release, r.Cycle, r.Handoff} {
		h.Reset()
	}
	r.Attempts, r.Granted, r.Refused, r.CutOffAttempts, r.CutOffHolds = 0, 0, 0, 0, 0
	clear(r.Errors)
}

// newRecorderSplit keeps one Recorder per interval of a lock run.
func newRecorderSplit(iv Intervals) *split[*Recorder] {
	return newSplit(iv, NewRecorder, (*Recorder).Merge, (*Recorder).reset)
}

// lockResult merges the intervals of a lock run that lasted elapsed into one Result,
// keeping them apart too when the run was split.
func lockResult(s *split[*Recorder], elapsed time.Duration) Result {
	res := Result{Recorder: NewRecorder(), Started: s.start, Elapsed: elapsed}
	for _, p := range s.parts {
		res.Merge(p)
	}
	if len(s.parts) > 1 {
		for i, p := range s.parts {
			res.Intervals = append(res.Intervals,
				Result{Recorder: p, Started: s.start.Add(time.Duration(i) * s.iv.Every), Elapsed: s.elapsed(i, elapsed)})
		}
	}
	return res
}

// ErrorTotal is the number of failed calls of every kind.
func (r *Recorder) ErrorTotal() int64 {
	var n int64
	for _, v := range r.Errors {
		n += v
	}
	return n
}

// ErrorKinds lists the error kinds seen, sorted.
func (r *Recorder) ErrorKinds() []string {
	kinds := make([]string, 0, len(r.Errors))
	for k := range r.Errors {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return kinds
}

// errorKind names an error for counting: a few stable kinds, not messages.
func errorKind(err error) string {
	var netErr net.Error
	switch {
	case errors.Is(err, locks.ErrNotReplicated):
		return "not-replicated"
	case errors.Is(err, locks.ErrNotHeld):
		return "lost-before-release"
	case timeout.Is(err):
		return "timeout"
	case errors.As(err, &netErr):
		return "network"
	}
	return "other"
}
