// Command readme-findings writes the README's findings block from one complete
// `lockbench safety` folder: its claims table, verbatim, under the command that made it,
// so that the table a reader sees is the one that run wrote, never a splice.
//
//	go run ./cmd/readme-findings [-readme README.md] DIR
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

const (
	beginMarker = "<!-- findings: begin (scripts/readme-findings.sh writes this block) -->"
	endMarker   = "<!-- findings: end -->"
	claimsTitle = "## The write-up's claims, tested"
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
	block, err := findingsBlock(dir)
	if err != nil {
		return err
	}
	readme, err := os.ReadFile(readmePath)
	if err != nil {
		return usageError{fmt.Sprintf("%s: %v", readmePath, err)}
	}
	out, err := splice(string(readme), block)
	if err != nil {
		return usageError{fmt.Sprintf("%s: %v", readmePath, err)}
	}
	tmp := readmePath + ".tmp"
	if err := os.WriteFile(tmp, []byte(out), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, readmePath) // whole or not at all
}

// recorded is what findingsBlock reads of results.json.
type recorded struct {
	Complete    bool `json:"complete"`
	Environment struct {
		CommandLine []string `json:"command_line"`
	} `json:"environment"`
}

// findingsBlock is the block for the README: the command, the folder and the claims
// table of dir's results.md. It refuses a run that did not finish.
func findingsBlock(dir string) (string, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		return "", usageError{fmt.Sprintf("%s is not a safety results folder: %v", dir, err)}
	}
	var rec recorded
	if err := json.Unmarshal(raw, &rec); err != nil {
		return "", usageError{fmt.Sprintf("%s/results.json: %v", dir, err)}
	}
	if !rec.Complete {
		return "", usageError{fmt.Sprintf("%s: the run did not finish (complete: false): resume it first", dir)}
	}
	md, err := os.ReadFile(filepath.Join(dir, "results.md"))
	if err != nil {
		return "", usageError{fmt.Sprintf("%s: %v", dir, err)}
	}
	table, ok := section(string(md), claimsTitle)
	if !ok {
		return "", usageError{fmt.Sprintf("%s/results.md has no %q section", dir, claimsTitle)}
	}
	cmd := append([]string{"lockbench"}, rec.Environment.CommandLine[min(1, len(rec.Environment.CommandLine)):]...)
	var b strings.Builder
	fmt.Fprintf(&b, "From one run, `%s` (folder `%s`), written into this block by `scripts/readme-findings.sh %s`.\n\n",
		strings.Join(cmd, " "), filepath.Base(dir), filepath.Base(dir))
	b.WriteString(strings.TrimSpace(strings.TrimPrefix(table, claimsTitle)))
	b.WriteString("\n")
	return b.String(), nil
}

// section is the part of md from the line title to the next "## " heading.
func section(md, title string) (string, bool) {
	i := strings.Index(md, title+"\n")
	if i < 0 {
		return "", false
	}
	rest := md[i:]
	if j := strings.Index(rest[len(title):], "\n## "); j >= 0 {
		rest = rest[:len(title)+j+1]
	}
	return rest, true
}

// splice puts block between the README's markers, in place of what was there.
func splice(readme, block string) (string, error) {
	b := strings.Index(readme, beginMarker)
	e := strings.Index(readme, endMarker)
	if b < 0 || e < 0 || e < b {
		return "", fmt.Errorf("no findings block: want a line %q, then a line %q", beginMarker, endMarker)
	}
	return readme[:b+len(beginMarker)] + "\n" + block + readme[e:], nil
}
