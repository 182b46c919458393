// Command lockbench measures what each way of taking a lock on Redis costs and what it
// fails to guarantee.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/internal/interrupt"
	"github.com/lockbench/lockbench/internal/usage"
)

// exitUsage is the exit code for bad input: a wrong flag, value or file;
// exitInterrupted the conventional one for a run stopped by SIGINT (SIGTERM: 143).
const (
	exitUsage       = 2
	exitInterrupted = 130
)

// usageError is bad input from the user; it exits with exitUsage.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// isUsage reports bad input said here or by the packages the commands call.
func isUsage(err error) bool {
	switch err.(type) {
	case usageError, usage.Error:
		return true
	}
	return false
}

// command is one subcommand: its one-line help and what it runs.
type command struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) error
}

// commandFlags is a subcommand's flag set: a bad flag is an error returned, its message
// and usage on stderr.
func commandFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

var commands = map[string]command{
	"benchtable": {"read `go test -bench` output on stdin and print a summary table", runBenchTable},
	"adr": {"write a draft architecture decision record from a workload file and results folders: lockbench adr " +
		"--workload w.yaml --results DIR[,DIR...] --out adr.md; --plan prints what it still needs, --measure " +
		"[--time-budget D] --out DIR runs that and writes DIR/adr.md", runADR},
	"capacity": {"search the highest open-loop rate each strategy serves within a latency budget: lockbench capacity " +
		"--slo p99=5ms [--precision 5%]", runCapacity},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		printUsage(stderr)
		if len(args) == 0 {
			return exitUsage
		}
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "lockbench: unknown command %q\n", args[0])
		printUsage(stderr)
		return exitUsage
	}
	if err := cmd.run(args[1:], stdin, stdout, stderr); err != nil {
		var by interrupt.BySignal
		if errors.As(err, &by) {
			return by.ExitCode()
		}
		if errors.Is(err, interrupt.ErrInterrupted) {
			return exitInterrupted
		}
		fmt.Fprintf(stderr, "lockbench %s: %v\n", args[0], err)
		if isUsage(err) {
			return exitUsage
		}
		return 1
	}
	return 0
}

func printUsage(w io.Writer) {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("usage: lockbench <command> [flags]\n\ncommands:\n")
	for _, n := range names {
		fmt.Fprintf(&b, "  %-12s %s\n", n, commands[n].summary)
	}
	fmt.Fprint(w, b.String())
}
