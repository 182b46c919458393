// Package benchtable reads the `go test -bench` output of the bench package's
// benchmarks with benchfmt, benchstat's reader, and prints the acquisitions table and
// the comparison with redis-benchmark.
package benchtable

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/resultsdir"
	"golang.org/x/perf/benchfmt"
)

// benchRow is one benchmark result line: its name parts and its metrics by unit.
type benchRow struct {
	name    string
	params  map[string]string // strategy=single/clients=8/keys=1 -> map
	metrics map[string]float64
}

// parseBenchOutput reads `go test -bench` output with benchfmt, the reader benchstat uses.
func parseBenchOutput(r io.Reader) ([]benchRow, error) {
	var rows []benchRow
	br := benchfmt.NewReader(r, "stdin")
	for br.Scan() {
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			if strings.Contains(rec.Msg, "iteration count") {
				continue // a benchmark's name with its own output after it, not a result
			}
			return nil, fmt.Errorf("benchmark output: %v", rec)
		case *benchfmt.Result:
			rows = append(rows, benchRowOf(rec))
		}
	}
	return rows, br.Err()
}

// benchRowOf keeps a result's name parts and its values in the units the benchmark printed.
func benchRowOf(res *benchfmt.Result) benchRow {
	base, parts := res.Name.Parts()
	row := benchRow{name: "Benchmark" + res.Name.String(), params: map[string]string{}, metrics: map[string]float64{}}
	row.params["bench"] = "Benchmark" + string(base)
	for _, part := range parts {
		if k, v, ok := strings.Cut(strings.TrimPrefix(string(part), "/"), "="); ok && part[0] == '/' {
			row.params[k] = v
		}
	}
	for _, v := range res.Values {
		if v.OrigUnit != "" { // benchfmt tidies ns to sec; the table reads the printed units
			row.metrics[v.OrigUnit] = v.OrigValue
			continue
		}
		row.metrics[v.Unit] = v.Value
	}
	return row
}

// Write reads benchmark output from r and prints the table on w; output without a
// result is an error.
func Write(w io.Writer, r io.Reader) error {
	rows, err := parseBenchOutput(r)
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return fmt.Errorf("no benchmark results on stdin")
	}
	writeBenchTable(w, rows)
	return nil
}

func writeBenchTable(w io.Writer, rows []benchRow) {
	var locks []benchRow
	var baseline *benchRow
	for i, r := range rows {
		switch r.params["bench"] {
		case "BenchmarkAcquireRelease":
			locks = append(locks, r)
		case "BenchmarkRedisBenchmarkSetNX":
			baseline = &rows[i]
		}
	}
	sort.SliceStable(locks, func(i, j int) bool {
		a, b := locks[i].params, locks[j].params
		if a["strategy"] != b["strategy"] {
			return a["strategy"] < b["strategy"]
		}
		ca, _ := strconv.Atoi(a["clients"])
		cb, _ := strconv.Atoi(b["clients"])
		if ca != cb {
			return ca < cb
		}
		ka, _ := strconv.Atoi(a["keys"])
		kb, _ := strconv.Atoi(b["keys"])
		return ka < kb
	})
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "strategy\tclients\tkeys\tacquisitions/s\tp50\tp99\tp99.9\tfails/op\t")
	for _, r := range locks {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t\n",
			r.params["strategy"], r.params["clients"], r.params["keys"], rate(r.metrics["acquisitions/s"]),
			ns(r.metrics["p50-ns"]), ns(r.metrics["p99-ns"]), ns(r.metrics["p99.9-ns"]), r.metrics["fails/op"])
	}
	tw.Flush()
	if baseline == nil {
		return
	}
	fmt.Fprintf(w, "\nredis-benchmark SET NX PX, 64 connections: %.0f commands/s (p50 %s, p99 %s)\n",
		baseline.metrics["commands/s"], ns(baseline.metrics["p50-ns"]), ns(baseline.metrics["p99-ns"]))
	// The baseline's shape (64 connections, 64 keys) against each strategy whose
	// acquire is the baseline's one command.
	for _, r := range locks {
		st, declared := linked.Catalog().StrategyOf(r.params["strategy"])
		onBaseline := declared && st.BaselineCommand
		if onBaseline && r.params["clients"] == "64" && r.params["keys"] == "64" {
			fmt.Fprintf(w, "%-42s %.0f commands/s = %.2f x redis-benchmark\n", r.params["strategy"]+", clients=64 keys=64:",
				r.metrics["commands/s"], r.metrics["commands/s"]/baseline.metrics["commands/s"])
		}
	}
}

// ns prints a nanosecond figure as a rounded duration.
func ns(v float64) string { return resultsdir.Duration(v).Rounded() }

// rate prints a per-second figure with the digits that matter: 0.15, 27.98, 4679.
func rate(v float64) string {
	if v < 100 {
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}
