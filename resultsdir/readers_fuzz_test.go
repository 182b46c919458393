package resultsdir

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// FuzzDecodeRun feeds results.json bytes to the reader: it must refuse or read, never
// panic, and whatever it reads must write back into a file it reads again.
func FuzzDecodeRun(f *testing.F) {
	good, err := json.Marshal(sampleRun())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"schema_version": 1, "cells": [{"hold": "1ms", "intervals": [{}]}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		run, err := DecodeRun("results.json", b)
		if err != nil {
			return
		}
		again, err := json.Marshal(run)
		if err != nil {
			t.Fatalf("a run read from %q does not encode: %v", b, err)
		}
		if _, err := DecodeRun("results.json", again); err != nil {
			t.Fatalf("a run read from %q does not read back after encoding: %v", b, err)
		}
	})
}

// FuzzDecodeHistogramLog feeds HdrHistogram log bytes to the reader: refuse or read,
// never panic; what it reads must summarize and merge as report and compare do.
func FuzzDecodeHistogramLog(f *testing.F) {
	f.Add(sampleLog(f))
	f.Add([]byte("#[StartTime: 1]\n\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n0.1,1.0,1.0,NOT-BASE64!!\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		parts, err := DecodeHistogramLog("x.hlog", bytes.NewReader(b))
		if err != nil {
			return
		}
		if len(parts) == 0 {
			t.Fatal("read a log without error but with no histogram")
		}
		merged := parts[0].Clone()
		for _, h := range parts {
			Summarize(h)
			merged.Merge(h)
		}
		Summarize(merged)
	})
}

// sampleLog is a real log as the runner writes it: two intervals of a few values.
func sampleLog(tb testing.TB) []byte {
	dir := tb.TempDir()
	start := time.Unix(1_800_000_000, 0)
	var spans []Span
	for i := int64(1); i <= 2; i++ {
		h := hdrhistogram.New(1000, int64(time.Hour), 2)
		for v := int64(1); v <= 20*i; v++ {
			h.RecordValue(v * 10_000)
		}
		spans = append(spans, Span{H: h, Start: start.Add(time.Duration(i-1) * time.Second), End: start.Add(time.Duration(i) * time.Second)})
	}
	if err := WriteHistogramLog(dir, "x.hlog", spans); err != nil {
		tb.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "x.hlog"))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
