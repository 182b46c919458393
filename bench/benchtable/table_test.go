package benchtable

import (
	"bytes"
	"os"
	"strings"
	"testing"

	_ "github.com/lockbench/lockbench/backends/redis/redisstore" // declares which strategy sends the baseline's command
)

func TestParseBenchOutputKeepsHyphenatedStrategies(t *testing.T) {
	out := `BenchmarkAcquireRelease/strategy=etcd-3/clients=8/keys=1         	     100	  35749456 ns/op	        27.98 acquisitions/s
BenchmarkAcquireRelease/strategy=redlock-failfast/clients=64/keys=64-2 	     100	  3574 ns/op	        279.8 acquisitions/s
BenchmarkAcquireRelease/strategy=single/clients=1/keys=1
BenchmarkAcquireRelease/strategy=single/clients=8/keys=1-2   	redis: a log line printed mid-benchmark
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

// An old `make gobench` output (a parser fixture, not a result: its figures are from
// another machine) reads whole: every result line a row, values in
// the units the benchmark printed (benchfmt would turn ns/op into sec/op).
func TestParseBenchOutputReadsAWholeGobenchRun(t *testing.T) {
	f, err := os.Open("testdata/gobench-output.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := parseBenchOutput(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 21 {
		t.Fatalf("%d rows, want the file's 20 lock rows and the baseline", len(rows))
	}
	first := rows[0]
	if first.params["bench"] != "BenchmarkAcquireRelease" || first.params["strategy"] != "redlock" || first.params["clients"] != "1" {
		t.Errorf("first row %+v", first.params)
	}
	if first.metrics["ns/op"] != 397358 || first.metrics["p50-ns"] != 177151 || first.metrics["acquisitions/s"] != 2517 {
		t.Errorf("first row metrics %v, want ns/op 397358, p50-ns 177151, acquisitions/s 2517 as printed", first.metrics)
	}
	var table bytes.Buffer
	writeBenchTable(&table, rows)
	if !strings.Contains(table.String(), "redis-benchmark SET NX PX, 64 connections: 57988 commands/s") ||
		!strings.Contains(table.String(), "single, clients=64 keys=64:                80655 commands/s = 1.39 x redis-benchmark") {
		t.Errorf("table lacks the baseline lines:\n%s", table.String())
	}
}

func TestParseBenchOutputRefusesABrokenResultLine(t *testing.T) {
	for _, line := range []string{
		"BenchmarkAcquireRelease/strategy=single 100 35749456 ns/op 27.98\n",
		"BenchmarkAcquireRelease/strategy=single 100 lots ns/op\n",
	} {
		if _, err := parseBenchOutput(strings.NewReader(line)); err == nil || !strings.Contains(err.Error(), "stdin:1") {
			t.Errorf("%q: error %v, want one naming stdin:1", line, err)
		}
	}
}
