package main

import (
	"io"

	"github.com/lockbench/lockbench/bench/benchtable"
)

func runBenchTable(args []string, stdin io.Reader, stdout, _ io.Writer) error {
	if len(args) != 0 {
		return usagef("benchtable takes no arguments (it reads stdin), got %q", args)
	}
	return benchtable.Write(stdout, stdin)
}
