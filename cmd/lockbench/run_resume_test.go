package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/sweep"
)

// resumedRun is four cells: two client counts, each measured in two passes; its
// --no-report is a flag config.yaml does not hold, which a resume alone must carry on.
var resumedRun = []string{"run", "--strategies", "single", "--clients", "1,2", "--keys", "1", "--duration", "300ms",
	"--warmup", "0", "--repeat", "2", "--seed", "3", "--progress", "plain", "--no-report"}

// TestRunResumedAfterCtrlCHasEveryCellOnce: a run stopped by SIGINT after its first
// cell exits 130 with the finished cells and no server left; a resume with another
// seed, matrix, repeat count, duration or redis-server is refused and changes
// nothing, whether given whole or as one flag beside --resume; `run --resume DIR`
// alone measures the missing cells only, each at its index, with the recorded
// --no-report, and ends with every cell of the matrix once, in the order of a run
// never stopped. A folder from before flags.json resumes alone from config.yaml.
func TestRunResumedAfterCtrlCHasEveryCellOnce(t *testing.T) {
	underCtrlC(t)

	out := filepath.Join(t.TempDir(), "results")
	var stdout, stderr lockedBuffer
	code := make(chan int, 1)
	go func() { code <- run(with(resumedRun, "--out", out), nil, &stdout, &stderr) }()
	// The first cell is finished: the interrupt cuts the run between cells.
	awaitOutput(t, &stdout, "[1/4]", code, &stdout, &stderr)
	if c := interruptRun(t, code, &stderr); c != exitInterrupted {
		t.Fatalf("exit %d after SIGINT, want %d: %s", c, exitInterrupted, stderr.String())
	}
	cut, err := resultsdir.ReadRun(out)
	if err != nil {
		t.Fatal(err)
	}
	if cut.Complete || len(cut.Cells) == 0 || len(cut.Cells) >= 4 {
		t.Fatalf("after SIGINT: complete %v with %d cells, want 1 to 3 cells, incomplete", cut.Complete, len(cut.Cells))
	}

	resume := with(resumedRun, "--resume", out)
	refusedResume(t, replaced(resume, "--seed", "4"), out, "seed is 4 here, 3 there")
	refusedResume(t, replaced(resume, "--clients", "1,4"), out, "sweeps[0].clients is [1 4] here, [1 2] there")
	refusedResume(t, replaced(resume, "--repeat", "3"), out, "repeat is 3 here, 2 there")
	refusedResume(t, replaced(resume, "--duration", "400ms"), out, "duration is 400ms here, 300ms there")
	refusedResume(t, with(resume, "--out", out), out, "takes the place of --out")
	// The flags override the file's axes, not its retry delay.
	config := writeTestFile(t, t.TempDir(), "other.yaml", "retry_delay: 1ms\nsweeps:\n  - strategies: [single]\n")
	refusedResume(t, with(resume, "--config", config), out, "retry_delay is 1ms here, 0s there")
	refusedOnOtherRedisServer(t, resumedRun, out)
	alone := []string{"run", "--resume", out}
	refusedResume(t, with(alone, "--seed", "4"), out, "seed is 4 here, 3 there")
	refusedResume(t, with(alone, "--clients", "1,4"), out, "sweeps[0].clients is [1 4] here, [1 2] there")
	refusedResume(t, with(alone, "--no-report=false"), out, "--no-report is false here, true there")
	refusedResume(t, with(alone, "--redis-image", "redis:7"), out, "--redis-image is redis:7 here, not given there")
	noConfig := copyFolder(t, out)
	os.Remove(filepath.Join(noConfig, resultsdir.ConfigFile))
	refusedResume(t, []string{"run", "--resume", noConfig}, noConfig, "no "+filepath.Join(noConfig, resultsdir.ConfigFile))
	beforeFlags := copyFolder(t, out)
	os.Remove(filepath.Join(beforeFlags, resultsdir.FlagsFile))

	var rout, rerr bytes.Buffer
	if c := run(alone, nil, &rout, &rerr); c != 0 {
		t.Fatalf("resume: exit %d: %s%s", c, rout.String(), rerr.String())
	}
	if want := fmt.Sprintf("resuming %s: %d of 4 cells finished", out, len(cut.Cells)); !strings.Contains(rout.String(), want) {
		t.Errorf("resume does not say %q:\n%s", want, rout.String())
	}
	done, err := resultsdir.ReadRun(out)
	if err != nil {
		t.Fatal(err)
	}
	if !done.Complete || len(done.Resumed) != 1 {
		t.Errorf("resumed run: complete %v, resumed %v", done.Complete, done.Resumed)
	}
	if _, err := os.Stat(filepath.Join(out, "report.md")); err == nil {
		t.Errorf("the resume wrote report.md: it dropped the recorded --no-report")
	}
	if !reflect.DeepEqual(done.Cells[:len(cut.Cells)], cut.Cells) {
		t.Errorf("the cells finished before the interrupt were measured again or changed")
	}
	var got, want []string
	for _, c := range done.Cells {
		got = append(got, fmt.Sprintf("%s#%d", c.Name, c.Repeat))
	}
	for _, c := range matrixOf(t, resumedRun) {
		want = append(want, fmt.Sprintf("%s#%d", c.Name(), c.Repeat))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cells after the resume:\n%v\nwant every cell of the matrix once, in its order:\n%v", got, want)
	}
	logs := map[string]bool{}
	for i, c := range done.Cells {
		for metric, rel := range c.Histograms {
			if logs[rel] {
				t.Errorf("cell %d: histogram %s written by two cells", i, rel)
			}
			logs[rel] = true
			if want := fmt.Sprintf("%03d-%s.hlog", i, metric); filepath.Base(rel) != want {
				t.Errorf("cell %d: histogram %s, want %s: the cell's own index", i, rel, want)
			}
			if _, err := resultsdir.ReadHistogram(out, rel); err != nil {
				t.Errorf("cell %d: %v", i, err)
			}
		}
	}

	before := folderBytes(t, out)
	rout.Reset()
	if c := run(alone, nil, &rout, &rerr); c != 0 || !strings.Contains(rout.String(), "nothing to resume") {
		t.Errorf("resume of a complete run: exit %d: %s", c, rout.String())
	}
	if !reflect.DeepEqual(before, folderBytes(t, out)) {
		t.Errorf("a resume of a complete run changed the folder")
	}

	// Without flags.json the --no-report is lost, and the rest still comes from the folder.
	rout.Reset()
	if c := run([]string{"run", "--resume", beforeFlags, "--no-report"}, nil, &rout, &rerr); c != 0 {
		t.Fatalf("resume of a folder from before flags.json: exit %d: %s%s", c, rout.String(), rerr.String())
	}
	if old, err := resultsdir.ReadRun(beforeFlags); err != nil || !old.Complete || len(old.Cells) != 4 {
		t.Errorf("folder from before flags.json, resumed: %v, want 4 cells, complete", err)
	}
}

// matrixOf is the cells the run command args would measure, in order.
func matrixOf(t *testing.T, args []string) []sweep.Cell {
	t.Helper()
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var f runFlags
	f.register(fs)
	if err := fs.Parse(args[1:]); err != nil {
		t.Fatal(err)
	}
	cfg, err := f.resolve(fs)
	if err != nil {
		t.Fatal(err)
	}
	cells, err := cfg.Cells()
	if err != nil {
		t.Fatal(err)
	}
	return cells
}
