package main

import (
	"strings"
	"testing"
)

func TestParseBenchOutputKeepsHyphenatedStrategies(t *testing.T) {
	out := `BenchmarkAcquireRelease/strategy=etcd-3/clients=8/keys=1         	     100	  35749456 ns/op	        27.98 acquisitions/s
BenchmarkAcquireRelease/strategy=redlock-failfast/clients=64/keys=64-2 	     100	  3574 ns/op	        279.8 acquisitions/s
BenchmarkAcquireRelease/strategy=single/clients=1/keys=1
redis: some log line
`
	rows, err := parseBenchOutput(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2 (a name without results is not a row)", len(rows))
	}
	if got := rows[0].params["strategy"]; got != "etcd-3" || rows[0].params["keys"] != "1" {
		t.Errorf("row 0 params %v, want strategy etcd-3 keys 1", rows[0].params)
	}
	if got := rows[1].params["strategy"]; got != "redlock-failfast" || rows[1].params["keys"] != "64" {
		t.Errorf("row 1 params %v, want strategy redlock-failfast keys 64 (the -2 suffix dropped)", rows[1].params)
	}
	if rows[0].metrics["acquisitions/s"] != 27.98 {
		t.Errorf("metrics %v", rows[0].metrics)
	}
}
