package resultsdir

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// ErrNotResultsFolder says a folder holds no results.json.
var ErrNotResultsFolder = errors.New("not a lockbench results folder")

// WriteRun writes results.json and results.csv into dir, each atomically.
func WriteRun(dir string, run *Run) error {
	run.SchemaVersion = SchemaVersion
	js, err := json.MarshalIndent(run, "", "  ")
	if err != nil {
		return err
	}
	if err := WriteFileAtomic(filepath.Join(dir, JSONFile), append(js, '\n')); err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(dir, CSVFile), runCSV(run))
}

// csvHeader is the flat view of a cell, one row each, for spreadsheets.
var csvHeader = []string{
	"name", "repeat", "strategy", "clients", "keys", "hold_ns", "ttl_ns", "network", "network_latency_ns",
	"load", "arrival", "target_rate", "achieved_rate", "elapsed_ns", "attempts", "granted",
	"refused", "errors", "cycles_per_second", "contended_failure_ratio",
}

func runCSV(run *Run) []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	header := append([]string{}, csvHeader...)
	for _, m := range Metrics {
		for _, p := range []string{"p50", "p90", "p99", "p99.9", "max"} {
			header = append(header, m+"_"+p+"_ns")
		}
	}
	w.Write(header)
	for _, c := range run.Cells {
		var errs int64
		for _, n := range c.Errors {
			errs += n
		}
		row := []string{
			c.Name, itoa(int64(c.Repeat)), c.Strategy, itoa(int64(c.Clients)), itoa(int64(c.Keys)), itoa(int64(c.Hold)),
			itoa(int64(c.TTL)),
			c.Network.Profile, itoa(int64(c.Network.Latency)), c.Load.Mode, c.Load.Arrival,
			ftoa(c.Load.TargetRate), ftoa(c.Load.AchievedRate), itoa(int64(c.Elapsed)), itoa(c.Attempts),
			itoa(c.Granted), itoa(c.Refused), itoa(errs), ftoa(c.CyclesPerSecond), ftoa(c.ContendedFailureRatio),
		}
		for _, m := range Metrics {
			s := c.Latency[m]
			for _, v := range []Duration{s.P50, s.P90, s.P99, s.P999, s.Max} {
				row = append(row, itoa(int64(v)))
			}
		}
		w.Write(row)
	}
	w.Flush()
	return buf.Bytes()
}

func itoa(v int64) string   { return strconv.FormatInt(v, 10) }
func ftoa(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// ReadRun reads dir/results.json, refusing files from a newer schema.
func ReadRun(dir string) (*Run, error) {
	path := filepath.Join(dir, JSONFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w (no %s)", dir, ErrNotResultsFolder, JSONFile)
	}
	if err != nil {
		return nil, err
	}
	return DecodeRun(path, b)
}

// DecodeRun reads the bytes of a results.json found at path (named in errors).
func DecodeRun(path string, b []byte) (*Run, error) {
	var run Run
	if err := json.Unmarshal(b, &run); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if run.SchemaVersion == 0 {
		return nil, fmt.Errorf("%s: %w (no schema_version)", path, ErrNotResultsFolder)
	}
	if run.SchemaVersion > SchemaVersion {
		return nil,
			fmt.Errorf("%s: schema version %d is newer than this lockbench reads (%d): upgrade lockbench", path,
				run.SchemaVersion, SchemaVersion)
	}
	return &run, nil
}

// Span is one interval histogram of a log and the time it covers.
type Span struct {
	H          *hdrhistogram.Histogram
	Start, End time.Time
	Tag        string // the log line's tag (no commas); empty: the log's file name
}

// WriteHistogram writes h as an HdrHistogram log of one interval at dir/rel, atomically.
func WriteHistogram(dir, rel string, h *hdrhistogram.Histogram, start, end time.Time) error {
	return WriteHistogramLog(dir, rel, []Span{{H: h, Start: start, End: end}})
}

// WriteHistogramLog writes an HdrHistogram log of consecutive interval histograms at
// dir/rel, atomically; its start time is the first span's.
func WriteHistogramLog(dir, rel string, spans []Span) error {
	path := filepath.Join(dir, rel)
	if len(spans) == 0 {
		return fmt.Errorf("%s: no histogram to write", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	var buf bytes.Buffer
	lw := hdrhistogram.NewHistogramLogWriter(&buf)
	start := spans[0].Start
	steps := []func() error{
		lw.OutputLogFormatVersion,
		func() error { return lw.OutputComment("lockbench latency histogram, values in nanoseconds") },
		func() error { return lw.OutputStartTime(start.UnixMilli()) },
		lw.OutputLegend,
	}
	for _, s := range spans {
		h := s.H.Clone()
		h.SetStartTimeMs(s.Start.UnixMilli())
		h.SetEndTimeMs(s.End.UnixMilli())
		h.SetTag(filepath.Base(rel))
		if s.Tag != "" {
			h.SetTag(s.Tag)
		}
		steps = append(steps, func() error { return lw.OutputIntervalHistogram(h) })
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return WriteFileAtomic(path, buf.Bytes())
}

// ReadHistogram reads the HdrHistogram log at dir/rel and merges its intervals.
func ReadHistogram(dir, rel string) (*hdrhistogram.Histogram, error) {
	parts, err := ReadHistogramIntervals(dir, rel)
	if err != nil {
		return nil, err
	}
	merged := parts[0]
	for _, h := range parts[1:] {
		merged.Merge(h)
	}
	return merged, nil
}

// ReadHistogramIntervals reads every interval histogram of the log at dir/rel, in order.
func ReadHistogramIntervals(dir, rel string) ([]*hdrhistogram.Histogram, error) {
	path := filepath.Join(dir, rel)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return DecodeHistogramLog(path, f)
}

// maxHistogramLogBytes bounds the memory one log may take once read: a run's logs
// (1 us to 1 h at 2 digits) take 27 KB an interval; the widest geometry 47 MiB.
const maxHistogramLogBytes = 64 << 20

// DecodeHistogramLog reads every interval histogram of a log found at path (named in errors).
func DecodeHistogramLog(path string, f io.Reader) ([]*hdrhistogram.Histogram, error) {
	r := hdrhistogram.NewHistogramLogReader(f)
	var parts []*hdrhistogram.Histogram
	var size int
	for {
		h, err := r.NextIntervalHistogram()
		if err != nil {
			return nil, fmt.Errorf("%s: corrupt histogram log: %w", path, err)
		}
		if h == nil {
			break
		}
		// Each line names its own range and precision: a few bytes can ask for tens of MB.
		if size += h.ByteSize(); size > maxHistogramLogBytes {
			return nil,
				fmt.Errorf("%s: corrupt histogram log: its histograms would take over %d MiB", path, maxHistogramLogBytes>>20)
		}
		parts = append(parts, h)
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("%s: corrupt histogram log: no histogram in it", path)
	}
	return parts, nil
}

// Summarize digests a latency histogram in nanoseconds.
func Summarize(h *hdrhistogram.Histogram) Summary {
	if h.TotalCount() == 0 {
		return Summary{}
	}
	s := Summary{
		Count: h.TotalCount(),
		P50:   Duration(h.ValueAtQuantile(50)),
		P90:   Duration(h.ValueAtQuantile(90)),
		P99:   Duration(h.ValueAtQuantile(99)),
		P999:  Duration(h.ValueAtQuantile(99.9)),
		Max:   Duration(h.Max()),
		Mean:  Duration(h.Mean()),
	}
	low, high := QuantileRanks(h.TotalCount(), 0.99)
	s.P99Low = Duration(h.ValueAtQuantile(100 * float64(low) / float64(h.TotalCount())))
	if high <= h.TotalCount() {
		s.P99High = Duration(h.ValueAtQuantile(100 * float64(high) / float64(h.TotalCount())))
	}
	return s
}

// QuantileRanks are the 1-based ranks of the order statistics that bound the q
// quantile of n samples at about 95% confidence (the normal approximation to the
// binomial count of samples below it, with its continuity correction); high may
// exceed n: no bound above.
func QuantileRanks(n int64, q float64) (low, high int64) {
	mid, half := float64(n)*q, 1.96*math.Sqrt(float64(n)*q*(1-q))
	return max(1, int64(math.Ceil(mid-half))), int64(math.Floor(mid+half)) + 1
}
