// Command readme-findings writes the README's headline and findings blocks from one
// complete `lockbench safety` folder: failover-loss's lost locks per guard and delay
// under the run's figure, and its claims table judged from that run's trials, under the
// command that made it, so that what a reader sees comes from one run, never a splice.
//
//	go run ./cmd/readme-findings [-readme README.md] DIR
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lockbench/lockbench/safety/results"
)

const (
	beginMarker = "<!-- findings: begin (scripts/readme-findings.sh writes this block) -->"
	endMarker   = "<!-- findings: end -->"
	claimsTitle = results.ClaimsTitle
)

// usageError is bad input: exit 2, nothing written.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func main() {
	readme := flag.String("readme", "README.md", "the file whose findings block is rewritten")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: readme-findings [-readme README.md] SAFETY_RESULTS_DIR")
		os.Exit(2)
	}
	if err := run(*readme, flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "readme-findings:", err)
		if errors.As(err, new(usageError)) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

func run(readmePath, dir string) error {
	res, err := readFolder(dir)
	if err != nil {
		return err
	}
	absReadme, err := filepath.Abs(readmePath)
	if err != nil {
		return err
	}
	headline, err := headlineBlock(res, dir, filepath.Dir(absReadme))
	if err != nil {
		return err
	}
	findings, err := findingsBlock(res, dir)
	if err != nil {
		return err
	}
	readme, err := os.ReadFile(readmePath)
	if err != nil {
		return usageError{fmt.Sprintf("%s: %v", readmePath, err)}
	}
	out, err := splice(string(readme), "findings", beginMarker, endMarker, findings)
	if err == nil {
		out, err = splice(out, "headline", headlineBegin, headlineEnd, headline)
	}
	if err != nil {
		return usageError{fmt.Sprintf("%s: %v", readmePath, err)}
	}
	tmp := readmePath + ".tmp"
	if err := os.WriteFile(tmp, []byte(out), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, readmePath) // whole or not at all
}

// readFolder reads dir's results.json, refusing a run that did not finish.
func readFolder(dir string) (results.Results, error) {
	res, err := results.Read(dir)
	if err != nil {
		return res, usageError{fmt.Sprintf("%s is not a safety results folder: %v", dir, err)}
	}
	if !res.Complete {
		return res, usageError{fmt.Sprintf("%s: the run did not finish (complete: false): resume it first", dir)}
	}
	return res, nil
}

// findingsBlock is the block for the README: the command, the folder and the claims
// table, judged by today's claims from the trials the run recorded in results.json (so a
// claim's wording or test rule changed since the run is applied to the same data).
func findingsBlock(res results.Results, dir string) (string, error) {
	table := results.ClaimsTable(res.Reports)
	if table == "" {
		return "", usageError{fmt.Sprintf("%s: no claim of the write-up was run in it", dir)}
	}
	var line []string
	if res.Environment != nil {
		line = res.Environment.CommandLine
	}
	cmd := append([]string{"lockbench"}, line[min(1, len(line)):]...)
	var b strings.Builder
	fmt.Fprintf(&b, "From one run, `%s` (folder `%s`), its trials judged by the claims in safety/results and written "+
		"into this block by `scripts/readme-findings.sh %s`.\n\n",
		strings.Join(cmd, " "), filepath.Base(dir), dir)
	b.WriteString(strings.TrimSpace(strings.TrimPrefix(table, claimsTitle)))
	b.WriteString("\n")
	return b.String(), nil
}

// splice puts block between the README's begin and end markers, in place of what was there.
func splice(readme, what, begin, end, block string) (string, error) {
	b := strings.Index(readme, begin)
	e := strings.Index(readme, end)
	if b < 0 || e < 0 || e < b {
		return "", fmt.Errorf("no %s block: want a line %q, then a line %q", what, begin, end)
	}
	return readme[:b+len(begin)] + "\n" + block + readme[e:], nil
}
