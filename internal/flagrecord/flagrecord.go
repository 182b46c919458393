// Package flagrecord completes a command line from the one a results folder recorded,
// so that `--resume DIR` alone runs the recorded command again.
package flagrecord

import (
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/lockbench/lockbench/internal/usage"
)

// Given reports whether the command line set the flag name.
func Given(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// SetNotGiven sets each recorded flag the command line did not give; it returns them
// as typed, for the message that says what was carried on.
func SetNotGiven(fs *flag.FlagSet, dir string, recorded map[string][]string) ([]string, error) {
	var typed []string
	for _, name := range slices.Sorted(maps.Keys(recorded)) {
		if Given(fs, name) {
			continue
		}
		for _, v := range recorded[name] {
			if err := fs.Set(name, v); err != nil {
				return nil, usage.Errorf("--resume %s: the recorded --%s %q: %v", dir, name, v, err)
			}
			typed = append(typed, typedFlag(fs, name, v))
		}
	}
	return typed, nil
}

// typedFlag is a flag as a user would type it: a true boolean without its value.
func typedFlag(fs *flag.FlagSet, name, value string) string {
	if b, ok := fs.Lookup(name).Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() && value == "true" {
		return "--" + name
	}
	return fmt.Sprintf("--%s %s", name, value)
}

// Join is the flags carried on, for one line of output.
func Join(typed []string) string { return strings.Join(typed, " ") }
