package suite

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/safety/results"
)

func TestKeptReportDiffersNamesWhatDiffers(t *testing.T) {
	cmd := results.Command{Scenarios: []string{"setnx-expire", "unsafe-release"}, Trials: 20, Seed: 1, Params: map[string]string{"ttl": "1s"}}
	good := results.Report{Scenario: "setnx-expire", Seed: 1, TrialsPerVariant: 20, Params: map[string]string{"ttl": "1s"}, Binary: "sha256:aa"}
	if err := keptReportDiffers(&good, cmd, "sha256:aa"); err != nil {
		t.Fatalf("the command's own report refused: %v", err)
	}
	for _, c := range []struct {
		name   string
		change func(r *results.Report)
		folder string
		says   string
	}{
		{"scenario", func(r *results.Report) { r.Scenario = "redlock-restart" }, "sha256:aa", "redlock-restart"},
		{"seed", func(r *results.Report) { r.Seed = 2 }, "sha256:aa", "seed 2 there, 1"},
		{"trials", func(r *results.Report) { r.TrialsPerVariant = 5 }, "sha256:aa", "5 trials per variant there, 20"},
		{"params", func(r *results.Report) { r.Params = map[string]string{"ttl": "2s"} }, "sha256:aa", "ttl:2s"},
		{"no params", func(r *results.Report) { r.Params = nil }, "sha256:aa", "params map[] there"},
		{"binary", func(r *results.Report) { r.Binary = "sha256:bb" }, "sha256:aa", "sha256:bb"},
		{"unstamped", func(r *results.Report) { r.Binary = "" }, "sha256:aa", "no binary stamp"},
	} {
		r := good
		c.change(&r)
		err := keptReportDiffers(&r, cmd, c.folder)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want an error naming %q", c.name, err, c.says)
		}
	}
	// A folder from before the stamps: its unstamped reports are checked for the rest only.
	old := good
	old.Binary = ""
	if err := keptReportDiffers(&old, cmd, ""); err != nil {
		t.Errorf("an unstamped report of an unstamped folder refused: %v", err)
	}
}
