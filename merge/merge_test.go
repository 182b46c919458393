package merge_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/lockbench/lockbench/merge"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/sweep"
)

const cellName = "strategy=single/clients=3/keys=1/hold=0s/ttl=10s/net=none/load=closed"

// fake is one worker's folder of a one-cell run, with the cycle latencies given per
// interval (two of 500ms).
type fake struct {
	index, of int
	runID     string
	values    [2][]int64
	start     time.Duration // past a common instant
	offset    time.Duration
	clients   int // 0: 1
	complete  bool
	seed      uint64 // the config's seed: another seed is another config
}

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func newHist() *hdrhistogram.Histogram { return hdrhistogram.New(1000, int64(time.Hour), 2) }

func (f fake) write(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	cfg := sweep.Config{Duration: sweep.Duration(time.Second), RunID: f.runID, Seed: f.seed,
		Sweeps: []sweep.Sweep{{Strategies: []string{"single"}, Clients: []int{3}, Keys: []string{"1"}}}}
	if err := sweep.SaveConfig(dir, cfg); err != nil {
		t.Fatal(err)
	}
	clients := max(f.clients, 1)
	start := t0.Add(f.start)
	tag := resultsdir.WorkerTag{Index: f.index, Of: f.of, RunID: f.runID}
	cellTag := tag
	cellTag.Clients, cellTag.FirstClient = clients, f.index
	cellTag.ScheduledStart, cellTag.ActualStart, cellTag.ClockOffsetToTarget = t0, start, resultsdir.Duration(f.offset)
	cell := resultsdir.Cell{Name: cellName, Strategy: "single", Clients: 3, Keys: 1, Load: resultsdir.LoadMode{Mode: "closed"},
		Elapsed: resultsdir.Duration(time.Second), Latency: map[string]resultsdir.Summary{}, Histograms: map[string]string{}, Worker: &cellTag,
		Errors: map[string]int64{"timeout": 1}}
	var spans []resultsdir.Span
	whole := newHist()
	for i, vs := range f.values {
		h := newHist()
		for _, v := range vs {
			h.RecordValue(v)
		}
		whole.Merge(h)
		at := start.Add(time.Duration(i) * 500 * time.Millisecond)
		spans = append(spans, resultsdir.Span{H: h, Start: at, End: at.Add(500 * time.Millisecond), Tag: tag.String()})
		cell.Intervals = append(cell.Intervals, resultsdir.Interval{Elapsed: resultsdir.Duration(500 * time.Millisecond), Granted: int64(len(vs)),
			Latency: map[string]resultsdir.Summary{resultsdir.MetricCycle: resultsdir.Summarize(h)}})
		cell.Granted += int64(len(vs))
		cell.Attempts += int64(len(vs)) + 2
		cell.Refused += 2
	}
	rel := "histograms/000-cycle.hlog"
	if err := resultsdir.WriteHistogramLog(dir, rel, spans); err != nil {
		t.Fatal(err)
	}
	cell.Histograms[resultsdir.MetricCycle] = rel
	cell.Latency[resultsdir.MetricCycle] = resultsdir.Summarize(whole)
	run := &resultsdir.Run{Started: t0, Finished: t0.Add(2 * time.Second), Complete: f.complete, Worker: &tag, Cells: []resultsdir.Cell{cell}}
	if err := resultsdir.WriteRun(dir, run); err != nil {
		t.Fatal(err)
	}
	return dir
}

func repeat(v int64, n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// three workers: worker 0 has a slow tail its p99 sees, the others none; the union's
// p99 is fast, the average of the three p99s is not.
func threeWorkers(runID string) []fake {
	ms := int64(time.Millisecond)
	return []fake{
		{index: 0, of: 3, runID: runID, complete: true, values: [2][]int64{append(repeat(ms, 480), repeat(100*ms, 20)...), repeat(ms, 500)}},
		{index: 1, of: 3, runID: runID, complete: true, values: [2][]int64{repeat(2*ms, 500), repeat(ms, 500)}},
		{index: 2, of: 3, runID: runID, complete: true, values: [2][]int64{repeat(ms, 500), repeat(ms, 500)}},
	}
}

func writeAll(t *testing.T, fs []fake) []string {
	var dirs []string
	for _, f := range fs {
		dirs = append(dirs, f.write(t))
	}
	return dirs
}

func TestMergeAddsHistogramsExactlyAndNeverAveragesPercentiles(t *testing.T) {
	fs := threeWorkers("r1")
	dirs := writeAll(t, fs)
	out := filepath.Join(t.TempDir(), "merged")
	res, err := merge.Merge(out, dirs, merge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	back, err := resultsdir.ReadRun(out)
	if err != nil {
		t.Fatal(err)
	}
	c := back.Cells[0]
	union := newHist()
	var sumP99 time.Duration
	for _, f := range fs {
		one := newHist()
		for _, vs := range f.values {
			for _, v := range vs {
				union.RecordValue(v)
				one.RecordValue(v)
			}
		}
		sumP99 += time.Duration(one.ValueAtQuantile(99))
	}
	merged, err := resultsdir.ReadHistogram(out, c.Histograms[resultsdir.MetricCycle])
	if err != nil {
		t.Fatal(err)
	}
	if merged.TotalCount() != union.TotalCount() || c.Latency[resultsdir.MetricCycle].Count != union.TotalCount() {
		t.Errorf("merged log holds %d values, summary %d; the workers' add up to %d", merged.TotalCount(), c.Latency[resultsdir.MetricCycle].Count, union.TotalCount())
	}
	want := time.Duration(union.ValueAtQuantile(99))
	averaged := sumP99 / 3
	if want == averaged {
		t.Fatalf("the case is no test: the union's p99 %v equals the average of the p99s", want)
	}
	if got := c.Latency[resultsdir.MetricCycle].P99.D(); got != want {
		t.Errorf("merged p99 %v, want the union's %v (the average of the workers' p99s is %v)", got, want, averaged)
	}
	// Interval 0 holds worker 0's tail: its p99 is the union of the workers' interval 0.
	iv0 := newHist()
	for _, f := range fs {
		for _, v := range f.values[0] {
			iv0.RecordValue(v)
		}
	}
	if got := c.Intervals[0].Latency[resultsdir.MetricCycle]; got.Count != iv0.TotalCount() || got.P99.D() != time.Duration(iv0.ValueAtQuantile(99)) {
		t.Errorf("interval 0: %d values, p99 %v; want %d, %v", got.Count, got.P99, iv0.TotalCount(), time.Duration(iv0.ValueAtQuantile(99)))
	}
	if c.Granted != 3000 || c.Attempts != 3012 || c.Refused != 12 || c.Errors["timeout"] != 3 || c.Intervals[0].Granted != 1500 {
		t.Errorf("counts granted %d attempts %d refused %d errors %v interval 0 %d; want 3000, 3012, 12, 3 timeouts, 1500", c.Granted, c.Attempts, c.Refused, c.Errors, c.Intervals[0].Granted)
	}
	if c.CyclesPerSecond != 3000 || len(c.Workers) != 3 || c.Worker != nil {
		t.Errorf("rate %v over the common window, %d workers listed, worker tag %v; want 3000/s, 3, none", c.CyclesPerSecond, len(c.Workers), c.Worker)
	}
	if back.Worker != nil || !back.Complete || len(res.Warnings) != 0 {
		t.Errorf("merged run: worker %v complete %v warnings %v", back.Worker, back.Complete, res.Warnings)
	}
}

func TestMergeRefusesWhatIsNotOneCompleteRunNamingIt(t *testing.T) {
	good := threeWorkers("r1")
	cases := map[string]struct {
		fs   []fake
		want []string
	}{
		"other run":       {[]fake{good[0], good[1], withRunID(good[2], "r2")}, []string{`run id "r2"`, `"r1"`, "different runs"}},
		"missing worker":  {good[:2], []string{"worker(s) [2] of 3 missing"}},
		"duplicate":       {[]fake{good[0], good[1], good[1], good[2]}, []string{"worker 1/3 given twice"}},
		"incomplete":      {[]fake{good[0], incomplete(good[1]), good[2]}, []string{"worker 1/3's run is incomplete"}},
		"other config":    {[]fake{good[0], good[1], withSeed(good[2], 7)}, []string{"config.yaml differs"}},
		"shares overlap":  {[]fake{good[0], withClients(good[1], 2), good[2]}, []string{"clients start at 2, want 3"}},
		"other worker of": {[]fake{good[0], good[1], withOf(good[2], 4)}, []string{"worker 2 of 4"}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dirs := writeAll(t, c.fs)
			out := filepath.Join(t.TempDir(), "merged")
			_, err := merge.Merge(out, dirs, merge.Options{})
			var bad merge.InputError
			if !errors.As(err, &bad) {
				t.Fatalf("error %v; want an InputError", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %q", err, w)
				}
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("%s exists after a refusal", out)
			}
		})
	}
	t.Run("not a worker folder", func(t *testing.T) {
		dir := t.TempDir()
		resultsdir.WriteRun(dir, &resultsdir.Run{Complete: true})
		_, err := merge.Merge(filepath.Join(t.TempDir(), "m"), []string{dir}, merge.Options{})
		if err == nil || !strings.Contains(err.Error(), "not a worker's folder") {
			t.Errorf("error %v", err)
		}
	})
}

func withRunID(f fake, id string) fake { f.runID = id; return f }
func incomplete(f fake) fake           { f.complete = false; return f }
func withSeed(f fake, s uint64) fake   { f.seed = s; return f }
func withOf(f fake, n int) fake        { f.of = n; return f }

// withClients gives the worker more clients than its share: the shares overlap.
func withClients(f fake, n int) fake { f.clients = n; return f }

func TestMergeWarnsWhenStartsOrClocksDisagreeBeyondTheBound(t *testing.T) {
	cases := map[string]struct {
		start, offset time.Duration
		want          []string // empty: no warning
	}{
		"within":        {start: 2 * time.Millisecond},
		"late start":    {start: 50 * time.Millisecond, want: []string{"actual starts disagree by 50ms", "worker 0 started first, worker 1 last"}},
		"clock skew":    {start: -30 * time.Millisecond, offset: 30 * time.Millisecond, want: []string{"clock offsets to the target disagree by 30ms", "worker 1 at 30ms"}},
		"within clocks": {start: -5 * time.Millisecond, offset: 5 * time.Millisecond},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			fs := threeWorkers("r1")
			fs[1].start, fs[1].offset = c.start, c.offset
			out := filepath.Join(t.TempDir(), "merged")
			res, err := merge.Merge(out, writeAll(t, fs), merge.Options{MaxSkew: 10 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			back, _ := resultsdir.ReadRun(out)
			notes := strings.Join(back.Notes, "\n")
			if len(c.want) == 0 && len(res.Warnings) > 0 {
				t.Errorf("warned within the bound: %v", res.Warnings)
			}
			if len(c.want) > 0 && len(res.Warnings) != 1 {
				t.Errorf("warnings %v; want one", res.Warnings)
			}
			for _, w := range c.want {
				if !strings.Contains(strings.Join(res.Warnings, "\n"), w) || !strings.Contains(notes, w) {
					t.Errorf("warnings %v / notes %q do not say %q", res.Warnings, notes, w)
				}
			}
		})
	}
}
