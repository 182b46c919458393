package resultsdir

import (
	"bytes"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

func sampleRun() *Run {
	return &Run{
		Started:  time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC),
		Complete: true,
		Environment: Environment{
			GoVersion: "go1.26.8", Libraries: map[string]string{"github.com/redis/go-redis/v9": "v9.23.0"},
			Provider: "process", Topologies: map[string]string{"single": "single"}, Cores: 2, Seed: 7,
			CommandLine: []string{"lockbench", "run", "--quick"},
		},
		Cells: []Cell{{
			Name: "strategy=single/clients=8/keys=1", Strategy: "single", Clients: 8, Keys: 1,
			Hold: Duration(time.Millisecond), TTL: Duration(10 * time.Second),
			Network:  Network{Profile: "uniform", Latency: Duration(time.Millisecond), MeasuredAddedRTT: map[string]Duration{"master-0": Duration(2100 * time.Microsecond)}},
			Load:     LoadMode{Mode: "open", Arrival: "poisson", TargetRate: 1000, AchievedRate: 998.5},
			Attempts: 100, Granted: 90, Refused: 10, Errors: map[string]int64{"timeout": 1},
			Latency:    map[string]Summary{MetricAttempt: {Count: 100, P50: Duration(80 * time.Microsecond)}},
			Histograms: map[string]string{MetricAttempt: "histograms/0-attempt.hlog"},
			Repeat:     2,
			Intervals: []Interval{
				{Elapsed: Duration(time.Second), Granted: 40, CyclesPerSecond: 40, Latency: map[string]Summary{MetricAttempt: {Count: 45, P50: Duration(79 * time.Microsecond)}}},
				{Elapsed: Duration(time.Second), Granted: 50, CyclesPerSecond: 50, Latency: map[string]Summary{MetricAttempt: {Count: 55, P50: Duration(81 * time.Microsecond)}}},
			},
		}},
	}
}

func TestRunRoundTrips(t *testing.T) {
	dir := t.TempDir()
	run := sampleRun()
	if err := WriteRun(dir, run); err != nil {
		t.Fatal(err)
	}
	back, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(run, back) {
		t.Errorf("read back differs:\nwrote %+v\nread  %+v", run, back)
	}
	csv, _ := os.ReadFile(filepath.Join(dir, CSVFile))
	if lines := strings.Count(string(csv), "\n"); lines != 2 {
		t.Errorf("results.csv has %d lines, want header + 1 cell", lines)
	}
}

// A reader that opened results.json before a rewrite keeps reading the whole old
// file: the new one replaces it by rename, never by writing over it.
func TestRewriteNeverChangesAFileAReaderHasOpen(t *testing.T) {
	dir := t.TempDir()
	first := sampleRun()
	if err := WriteRun(dir, first); err != nil {
		t.Fatal(err)
	}
	old, err := os.Open(filepath.Join(dir, JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	second := sampleRun()
	second.Cells = append(second.Cells, second.Cells[0])
	second.Cells[1].Name = "strategy=redlock/clients=8/keys=1"
	if err := WriteRun(dir, second); err != nil {
		t.Fatal(err)
	}
	held, err := io.ReadAll(old)
	if err != nil {
		t.Fatal(err)
	}
	if back, err := DecodeRun("held", held); err != nil || len(back.Cells) != 1 {
		t.Fatalf("the reader's open file changed under it: %d cells, %v; want the first run's 1", len(back.Cells), err)
	}
	if back, err := ReadRun(dir); err != nil || len(back.Cells) != 2 {
		t.Fatalf("after the rewrite results.json reads %v, %v; want 2 cells", back, err)
	}
}

// A write whose rename fails leaves the file it would have replaced as it was and no
// temp file behind.
func TestFailedWriteLeavesNoTempFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "taken")
	if err := os.MkdirAll(filepath.Join(target, "inside"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(target, []byte("data")); err == nil {
		t.Fatal("renamed a file over a non-empty directory")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "taken" {
		t.Errorf("after a failed write the folder holds %v; want only the directory it could not replace", entries)
	}
	if _, err := os.Stat(filepath.Join(target, "inside")); err != nil {
		t.Errorf("the directory in the way changed: %v", err)
	}
}

func TestReadRunRefusesWhatItCannotRead(t *testing.T) {
	empty := t.TempDir()
	if _, err := ReadRun(empty); err == nil || !strings.Contains(err.Error(), "not a lockbench results folder") {
		t.Errorf("empty folder: %v", err)
	}
	newer := t.TempDir()
	os.WriteFile(filepath.Join(newer, JSONFile), []byte(`{"schema_version": 99, "cells": []}`), 0o644)
	if _, err := ReadRun(newer); err == nil || !strings.Contains(err.Error(), "newer") || !strings.Contains(err.Error(), JSONFile) {
		t.Errorf("newer schema: %v", err)
	}
	garbage := t.TempDir()
	os.WriteFile(filepath.Join(garbage, JSONFile), []byte(`{"schema_version": 1, "cells": [{"hold": 5}]}`), 0o644)
	if _, err := ReadRun(garbage); err == nil || !strings.Contains(err.Error(), JSONFile) {
		t.Errorf("wrong type: %v", err)
	}
}

func TestHistogramLogRoundTrips(t *testing.T) {
	dir := t.TempDir()
	h := hdrhistogram.New(1000, int64(time.Hour), 2)
	for v := int64(1); v <= 1000; v++ {
		h.RecordValue(v * 1000)
	}
	now := time.Now()
	if err := WriteHistogram(dir, "histograms/x.hlog", h, now.Add(-time.Second), now); err != nil {
		t.Fatal(err)
	}
	back, err := ReadHistogram(dir, "histograms/x.hlog")
	if err != nil {
		t.Fatal(err)
	}
	if back.TotalCount() != h.TotalCount() || back.ValueAtQuantile(99) != h.ValueAtQuantile(99) {
		t.Errorf("read back count %d p99 %d, want %d %d", back.TotalCount(), back.ValueAtQuantile(99), h.TotalCount(), h.ValueAtQuantile(99))
	}
	os.WriteFile(filepath.Join(dir, "bad.hlog"), []byte("#[StartTime: 1]\n\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n0.1,1.0,1.0,NOT-BASE64!!\n"), 0o644)
	if _, err := ReadHistogram(dir, "bad.hlog"); err == nil || !strings.Contains(err.Error(), "bad.hlog") {
		t.Errorf("corrupt log: %v", err)
	}
}

func TestHistogramLogKeepsItsIntervalsApart(t *testing.T) {
	dir := t.TempDir()
	start := time.Now()
	var spans []Span
	for i := int64(1); i <= 3; i++ {
		h := hdrhistogram.New(1000, int64(time.Hour), 2)
		for v := int64(0); v < 100*i; v++ {
			h.RecordValue(i * 1_000_000) // interval i holds 100*i values of i ms
		}
		spans = append(spans, Span{H: h, Start: start.Add(time.Duration(i-1) * time.Second), End: start.Add(time.Duration(i) * time.Second)})
	}
	if err := WriteHistogramLog(dir, "histograms/x.hlog", spans); err != nil {
		t.Fatal(err)
	}
	parts, err := ReadHistogramIntervals(dir, "histograms/x.hlog")
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 3 {
		t.Fatalf("read %d intervals, want 3", len(parts))
	}
	for i, h := range parts {
		if h.TotalCount() != int64(100*(i+1)) || h.ValueAtQuantile(50)/1_000_000 != int64(i+1) {
			t.Errorf("interval %d: %d values, p50 %d ns", i, h.TotalCount(), h.ValueAtQuantile(50))
		}
	}
	merged, err := ReadHistogram(dir, "histograms/x.hlog")
	if err != nil || merged.TotalCount() != 600 {
		t.Errorf("merged log: %v, %d values; want 600", err, merged.TotalCount())
	}
}

// Each log line carries its own geometry: a few lines asking for the widest one must be
// refused before they take gigabytes.
func TestHistogramLogOfHugeGeometriesIsRefused(t *testing.T) {
	h := hdrhistogram.New(1, math.MaxInt64, 5)
	h.RecordValue(1)
	var line bytes.Buffer
	if err := hdrhistogram.NewHistogramLogWriter(&line).OutputIntervalHistogram(h); err != nil {
		t.Fatal(err)
	}
	log := bytes.Repeat(line.Bytes(), 40) // 40 x 47 MiB if read whole
	if _, err := DecodeHistogramLog("huge.hlog", bytes.NewReader(log)); err == nil || !strings.Contains(err.Error(), "huge.hlog") || !strings.Contains(err.Error(), "MiB") {
		t.Fatalf("a %d-byte log of 40 widest histograms: %v; want refused naming the file and the size", len(log), err)
	}
	if parts, err := DecodeHistogramLog("one.hlog", bytes.NewReader(line.Bytes())); err != nil || len(parts) != 1 {
		t.Fatalf("one widest histogram: %d parts, %v; want it read", len(parts), err)
	}
}
