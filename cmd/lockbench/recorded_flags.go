package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"
)

// setFlagsNotGiven sets each recorded flag the command line did not give, so that
// `--resume DIR` alone runs the recorded command; it returns them as typed, for the
// message that says what was carried on.
func setFlagsNotGiven(fs *flag.FlagSet, dir string, recorded map[string][]string) ([]string, error) {
	var typed []string
	for _, name := range sortedKeys(recorded) {
		if flagSet(fs, name) {
			continue
		}
		for _, v := range recorded[name] {
			if err := fs.Set(name, v); err != nil {
				return nil, usagef("--resume %s: the recorded --%s %q: %v", dir, name, v, err)
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// joinFlags is the flags carried on, for one line of output.
func joinFlags(typed []string) string { return strings.Join(typed, " ") }
