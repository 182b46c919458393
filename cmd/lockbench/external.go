package main

import (
	"flag"
	"strings"

	"github.com/lockbench/lockbench/topologies/external"
)

// registerExternal adds --deployment and --run-id to a command that measures.
func registerExternal(fs *flag.FlagSet, deployment, runID *string) {
	fs.StringVar(deployment, "deployment", "",
		"YAML file naming servers lockbench does not own (implies --provider external; see docs/external.md)")
	fs.StringVar(runID, "run-id", "", "the run's id in every key's prefix lockbench:<run-id>: (default: random on "+
		"--provider external; give the same one on hosts sharing a run)")
}

// refusePasswordFlags refuses a password on the command line before the flags are
// parsed: it would be visible to every user in ps and kept in shell history.
func refusePasswordFlags(args []string) error {
	for _, a := range args {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && strings.Contains(strings.ToLower(name), "password") {
			return usagef("%s: lockbench never takes a password from a flag (visible in ps); give password_file or "+
				"password_env in the --deployment file", a)
		}
	}
	return nil
}

// parseMeasureFlags parses the flags of a command that measures: no password on the
// command line, no argument beside the flags.
func parseMeasureFlags(fs *flag.FlagSet, args []string) error {
	if err := refusePasswordFlags(args); err != nil {
		return err
	}
	if err := fs.Parse(args); err != nil {
		return usagef("%v", err)
	}
	if fs.NArg() > 0 {
		return usagef("unexpected arguments %q", fs.Args())
	}
	return nil
}

// refuseExternalFaults refuses provider external for a command that breaks servers.
func refuseExternalFaults(command, provider string) error {
	if provider == external.Name {
		return usagef("--provider external: %s kills, pauses, partitions and skews the servers it tests, and lockbench "+
			"only breaks servers it owns; run it on process, container or embedded servers", command)
	}
	return nil
}
