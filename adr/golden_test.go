package adr

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/adr/adrtest"
	"github.com/lockbench/lockbench/internal/doclinks"
	"github.com/lockbench/lockbench/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden ADRs in testdata/")

// generate writes the ADR of a workload over the synthetic folders, returning it
// with the temp root replaced by ROOT so that the golden file is stable. The ADR sits
// beside its folders, as --measure writes it, so that its links to them are checked.
func generate(t *testing.T, file string) (string, string) {
	t.Helper()
	bench, safety := adrtest.Folders(t)
	out := filepath.Join(filepath.Dir(bench), "adr.md")
	if _, err := Generate(Request{Workload: file, Results: []string{bench, safety}, Out: out, Date: "2026-12-01",
		Command: "lockbench adr --workload " + file + " --results bench,safety --out adr.md"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), filepath.Dir(bench), "ROOT"), filepath.Dir(out)
}

func TestGoldenADRFromSyntheticResults(t *testing.T) {
	for _, name := range []string{"efficiency", "correctness"} {
		t.Run(name, func(t *testing.T) {
			got, dir := generate(t, "testdata/"+name+".yaml")
			if keep := os.Getenv("ADR_KEEP"); keep != "" { // for looking at the figures
				os.CopyFS(filepath.Join(keep, name), os.DirFS(dir))
			}
			golden.Check(t, filepath.Join("testdata", name+".golden.md"), got, *update, "adr")
			checkLinks(t, dir)
			for _, f := range []string{"adr-cost-vs-violations", "adr-heat-failover-loss", "adr-heat-redlock-clock-jump", "adr-model-quorum-redlock"} {
				for _, ext := range []string{".png", ".svg"} {
					if _, err := os.Stat(filepath.Join(dir, "figures", f+ext)); err != nil {
						t.Errorf("figure %s%s: %v", f, ext, err)
					}
				}
			}
		})
	}
}

// checkLinks fails on each relative link of the ADR written in dir that leads nowhere.
func checkLinks(t *testing.T, dir string) {
	t.Helper()
	broken, err := doclinks.Check(dir, []string{"adr.md"})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range broken {
		t.Error(b)
	}
}
