package runs

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/lockbench/lockbench/bench"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/sweep"
	"golang.org/x/term"
)

// NewObserver draws a progress bar on a terminal and one line per cell elsewhere.
func NewObserver(w io.Writer, mode string, cfg sweep.Config) sweep.Observer {
	perCell := cfg.Duration.D() + cfg.Warmup.D()
	if mode == "bar" || (mode == "auto" && isTerminal(w)) {
		return &barObserver{w: w, perCell: perCell}
	}
	return &lineObserver{w: w}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// lineObserver prints one line per finished cell: logs and CI read it.
type lineObserver struct {
	w     io.Writer
	total int
}

func (o *lineObserver) Started(total int)           { o.total = total }
func (o *lineObserver) CellStarted(int, sweep.Cell) {}
func (o *lineObserver) CellDone(i int, c resultsdir.Cell) {
	if c.IsUpdate() && c.Update != nil {
		lat := c.Latency[resultsdir.MetricUpdate]
		fmt.Fprintf(o.w, "[%d/%d] %s%s: %.0f updates/s, update p50 %v p99 %v, %d lost%s\n", i+1, o.total, c.Name,
			repeatNote(c),
			c.Update.UpdatesPerSecond, lat.P50, lat.P99, c.Update.LostUpdates, errorNote(c))
		return
	}
	attempt, acquire := c.Latency[resultsdir.MetricAttempt], c.Latency[resultsdir.MetricAcquire]
	head := fmt.Sprintf("[%d/%d] %s%s: %.0f cycles/s", i+1, o.total, c.Name, repeatNote(c), c.CyclesPerSecond)
	if c.Load.Wait == bench.WaitNatural && acquire.Count > 0 {
		// The wait is the measure; one attempt's cost stands beside it where it was seen.
		oneAttempt := ""
		if attempt.Count > 0 {
			oneAttempt = fmt.Sprintf(", one attempt p50 %v p99 %v", attempt.P50, attempt.P99)
		}
		fmt.Fprintf(o.w, "%s, natural wait p50 %v p99 %v%s%s\n", head, acquire.P50, acquire.P99, oneAttempt, errorNote(c))
		return
	}
	fmt.Fprintf(o.w, "%s, attempt p50 %v p99 %v%s\n", head, attempt.P50, attempt.P99, errorNote(c))
}

// repeatNote says which pass of a repeated run a cell belongs to.
func repeatNote(c resultsdir.Cell) string {
	if c.Repeat == 0 {
		return ""
	}
	return fmt.Sprintf(" (repeat %d)", c.Repeat)
}

func errorNote(c resultsdir.Cell) string {
	n := errorCount(c)
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", %d errors %v", n, c.Errors)
}

// barObserver redraws one line: cells done, the cell running, time left.
type barObserver struct {
	w       io.Writer
	total   int
	done    int
	started time.Time
	perCell time.Duration
}

func (o *barObserver) Started(total int) { o.total, o.started = total, time.Now() }

func (o *barObserver) CellStarted(i int, c sweep.Cell) { o.draw(c.Name()) }

func (o *barObserver) CellDone(i int, c resultsdir.Cell) {
	o.done = i + 1
	if o.done == o.total {
		o.draw("done")
		fmt.Fprintln(o.w)
	}
}

func (o *barObserver) draw(current string) {
	const width = 30
	filled := width * o.done / max(o.total, 1)
	left := time.Duration(o.total-o.done) * o.perCell
	if o.done > 0 { // measured pace beats the estimate once there is one
		left = time.Since(o.started) / time.Duration(o.done) * time.Duration(o.total-o.done)
	}
	if len(current) > 70 {
		current = current[:67] + "..."
	}
	fmt.Fprintf(o.w, "\r\033[K[%s%s] %d/%d cells, %v left  %s", strings.Repeat("#", filled),
		strings.Repeat(".", width-filled), o.done, o.total, left.Round(time.Second), current)
}
