package compare

import (
	"flag"
	"sync"

	"github.com/lockbench/lockbench/report/synth"
	"github.com/lockbench/lockbench/resultsdir"
)

// long restores the A/A tables to their full size, for a change to the statistics or
// the gate: `go test ./report/compare -long` takes about a minute where the default
// sizes take seconds yet assert the same bounds.
var long = flag.Bool("long", false, "run the seeded A/A tables at full size (about a minute)")

// tableSize is full under -long, else small.
func tableSize(full, small int) int {
	if *long {
		return full
	}
	return small
}

// generatedRuns holds each synthetic run the A/A tables made, by its options: the
// gate tests share their old sides, and Compare only reads a run.
var generatedRuns sync.Map

// generated is synth.Generate(o), made once per options.
func generated(o synth.Options) *resultsdir.Run {
	if run, ok := generatedRuns.Load(o); ok {
		return run.(*resultsdir.Run)
	}
	run, _ := generatedRuns.LoadOrStore(o, synth.Generate(o))
	return run.(*resultsdir.Run)
}
