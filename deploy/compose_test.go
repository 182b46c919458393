// Package deploy_test runs the shipped Compose file for real: three worker containers
// against a Redis container, then the merge step, and checks the merged folder.
package deploy_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/reexec"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies/testenv"
)

func TestComposeWorkersMergeExactly(t *testing.T) {
	// Each script runs a Compose project of its own, named after its pid.
	t.Parallel()
	testenv.RequireRedis(t) // the Redis image is built from the host's redis-server
	bin := buildForCompose(t)
	out := filepath.Join(t.TempDir(), "out")
	runCompose(t, "compose/run.sh", out, "LOCKBENCH="+bin, "LOCKBENCH_CLIENTS=6", "LOCKBENCH_KEYS=1,per-client",
		"LOCKBENCH_DURATION=1s", "LOCKBENCH_WARMUP=200ms")
	merged, err := resultsdir.ReadRun(filepath.Join(out, "merged"))
	if err != nil {
		t.Fatal(err)
	}
	var workers []*resultsdir.Run
	for i := range 3 {
		w, err := resultsdir.ReadRun(filepath.Join(out, "worker-"+string(rune('0'+i))))
		if err != nil {
			t.Fatal(err)
		}
		workers = append(workers, w)
	}
	if len(merged.Cells) != 2 {
		t.Fatalf("merged %d cells, want 2 (keys 1 and per-client)", len(merged.Cells))
	}
	for _, c := range merged.Cells {
		var granted int64
		counts := map[string]int64{}
		for i, w := range workers {
			wc := cellNamed(w, c.Name)
			if wc == nil {
				t.Fatalf("worker %d has no cell %s", i, c.Name)
			}
			if wc.Worker == nil || wc.Worker.Index != i || wc.Worker.Of != 3 {
				t.Errorf("worker %d cell %s tagged %+v", i, c.Name, wc.Worker)
			}
			granted += wc.Granted
			for metric, rel := range wc.Histograms {
				counts[metric] += logCount(t, filepath.Join(out, "worker-"+string(rune('0'+i))), rel)
			}
		}
		if c.Granted != granted || granted == 0 {
			t.Errorf("cell %s: merged %d grants, the workers %d", c.Name, c.Granted, granted)
		}
		for metric, want := range counts {
			if got := logCount(t, filepath.Join(out, "merged"), c.Histograms[metric]); got != want {
				t.Errorf("cell %s %s: merged histogram holds %d values, the workers' %d", c.Name, metric, got, want)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(out, "merged", "report.md")); err != nil {
		t.Errorf("no report of the merged folder: %v", err)
	}
}

func cellNamed(r *resultsdir.Run, name string) *resultsdir.Cell {
	for i := range r.Cells {
		if r.Cells[i].Name == name {
			return &r.Cells[i]
		}
	}
	return nil
}

// logCount is the number of values in every interval of a histogram log.
func logCount(t *testing.T, dir, rel string) int64 {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	parts, err := resultsdir.DecodeHistogramLog(rel, f)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, h := range parts {
		n += h.TotalCount()
	}
	return n
}

// buildForCompose needs docker-compose and an engine that answers, and builds lockbench.
func buildForCompose(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("docker-compose"); err != nil {
		testenv.MissingTool(t, err)
	}
	if err := exec.Command("docker", "info").Run(); err != nil {
		testenv.MissingTool(t, err)
	}
	// make test's build of this tree: linking lockbench again costs each test seconds of CPU.
	if os.Getenv(reexec.Env) != "" {
		exe, err := reexec.Executable() // checks that it names an executable
		if err != nil {
			t.Fatal(err)
		}
		return exe
	}
	bin := filepath.Join(t.TempDir(), "lockbench")
	build := exec.Command("go", "build", "-o", bin, "./cmd/lockbench")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// runCompose runs one of the shipped Compose scripts into out, checks it printed the
// merged folder and left no container of its project behind.
func runCompose(t *testing.T, script, out string, env ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	run := exec.CommandContext(ctx, "bash", script, out)
	run.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	run.Stderr = &stderr
	stdout, err := run.Output()
	project := regexp.MustCompile(`compose: project (\S+)`).FindStringSubmatch(stderr.String())
	if project != nil {
		defer assertNoContainers(t, project[1])
	}
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, lastLines(stderr.String(), 40))
	}
	if project == nil {
		t.Fatalf("%s did not name its project:\n%s", script, lastLines(stderr.String(), 20))
	}
	if got := strings.TrimSpace(string(stdout)); got != filepath.Join(out, "merged") {
		t.Errorf("%s printed %q, want the merged folder", script, got)
	}
}

func assertNoContainers(t *testing.T, project string) {
	out, err := exec.Command("docker", "ps", "-aq", "--filter", "label=com.docker.compose.project="+project).Output()
	if err != nil {
		t.Errorf("docker ps: %v", err)
	} else if len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("containers of project %s left: %s", project, out)
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
