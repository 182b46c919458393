package runs

import (
	"flag"
	"fmt"
	"slices"

	"github.com/lockbench/lockbench/internal/flagrecord"
	"github.com/lockbench/lockbench/internal/usage"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/sweep"
)

// runFlagsBesideConfig are the flags of `lockbench run` that decide what it does but
// that config.yaml does not hold: flags.json records those given. --progress only
// draws the terminal, so a resume picks its own.
var runFlagsBesideConfig = []string{"no-report", "redis-image", "worker", "start-at", "cell-gap", "rendezvous-timeout"}

// matrixFlags build a matrix from scratch; beside --resume one of them builds it as a
// fresh run would, to be checked against the recorded one.
var matrixFlags = []string{"config", "quick", "preset", "workload"}

// FlagsToRecord is what flags.json keeps of the command line: the given flags
// config.yaml does not hold.
func FlagsToRecord(fs *flag.FlagSet) map[string]string {
	given := map[string]string{}
	fs.Visit(func(f *flag.Flag) {
		if slices.Contains(runFlagsBesideConfig, f.Name) {
			given[f.Name] = f.Value.String()
		}
	})
	return given
}

// runRecord is what an interrupted run's folder says of the command that wrote it.
type runRecord struct {
	matrix sweep.Config
	// flags are flags.json's; hasFlags is false in a folder from before it was written.
	flags    map[string]string
	hasFlags bool
	worker   *resultsdir.WorkerTag
}

// readRunRecord reads the record in dir, or says why dir is no run to resume.
func readRunRecord(dir string) (runRecord, error) {
	if err := resultsdir.CheckResumable(dir); err != nil {
		return runRecord{}, err
	}
	run, err := resultsdir.ReadRun(dir)
	if err != nil {
		return runRecord{}, usage.Errorf("--resume %s: not the folder of a `lockbench run`: %v", dir, err)
	}
	var rec runRecord
	if rec.matrix, err = sweep.ReadConfig(dir); err != nil {
		return runRecord{}, usage.Errorf("--resume %s: %v", dir, err)
	}
	if rec.flags, rec.hasFlags, err = resultsdir.ReadFlags(dir); err != nil {
		return runRecord{}, usage.Errorf("--resume %s: %v", dir, err)
	}
	rec.worker = run.Worker
	return rec, nil
}

// applyTo checks that the flags given beside --resume agree with the recorded ones,
// then sets those not given. A folder from before flags.json has only its worker tag.
func (r runRecord) applyTo(fs *flag.FlagSet, dir string) error {
	recorded := map[string][]string{}
	for name, v := range r.flags {
		recorded[name] = []string{v}
	}
	if !r.hasFlags && r.worker != nil {
		recorded["worker"] = []string{fmt.Sprintf("%d/%d", r.worker.Index, r.worker.Of)}
	}
	if r.hasFlags || r.worker != nil {
		if err := agreeWithRecord(fs, dir, recorded, r.hasFlags); err != nil {
			return err
		}
	}
	_, err := flagrecord.SetNotGiven(fs, dir, recorded)
	return err
}

// agreeWithRecord refuses a given flag whose value is not the recorded one; a flag the
// record lacks was left at its default, when the record is whole.
func agreeWithRecord(fs *flag.FlagSet, dir string, recorded map[string][]string, whole bool) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err != nil || !slices.Contains(runFlagsBesideConfig, f.Name) {
			return
		}
		want, ok := recorded[f.Name]
		if !ok && !whole {
			return
		}
		there := "not given"
		if ok {
			there = want[0]
		}
		if here := f.Value.String(); (!ok && here != f.DefValue) || (ok && here != want[0]) {
			err = usage.Errorf("--resume %s: not the run recorded in %s: --%s is %s here, %s there", dir, resultsdir.FlagsFile,
				f.Name, here, there)
		}
	})
	return err
}

// resumeMatrix is the matrix a resumed run starts from before the flags given beside
// --resume: the recorded one, unless a matrix flag asks to build it afresh (nil).
func resumeMatrix(fs *flag.FlagSet, rec runRecord) *sweep.Config {
	for _, name := range matrixFlags {
		if flagrecord.Given(fs, name) {
			return nil
		}
	}
	m := rec.matrix
	m.Sweeps = slices.Clone(m.Sweeps) // the flags override each sweep's axes in place
	return &m
}
