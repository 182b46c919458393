package main

import (
	"flag"
	"strings"

	"github.com/lockbench/lockbench/sweep"
	"github.com/lockbench/lockbench/topologies/external"
	"github.com/lockbench/lockbench/updates"
)

// registerExternal adds --deployment and --run-id to a command that measures.
func registerExternal(fs *flag.FlagSet, deployment, runID *string) {
	fs.StringVar(deployment, "deployment", "", "YAML file naming servers lockbench does not own (implies --provider external; see docs/external.md)")
	fs.StringVar(runID, "run-id", "", "the run's id in every key's prefix lockbench:<run-id>: (default: random on --provider external; give the same one on hosts sharing a run)")
}

// refusePasswordFlags refuses a password on the command line before the flags are
// parsed: it would be visible to every user in ps and kept in shell history.
func refusePasswordFlags(args []string) error {
	for _, a := range args {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && strings.Contains(strings.ToLower(name), "password") {
			return usagef("%s: lockbench never takes a password from a flag (visible in ps); give password_file or password_env in the --deployment file", a)
		}
	}
	return nil
}

// setupExternal reads the deployment of provider external, checks that every cell can
// run on it without breaking anything, and installs the provider under the run's id.
// It returns the run id ("" when neither external nor --run-id asks for one).
func setupExternal(cfg *sweep.Config, cells []sweep.Cell, runID string) (string, error) {
	if runID != "" {
		if err := external.CheckRunID(runID); err != nil {
			return "", usagef("--run-id: %v", err)
		}
	}
	if cfg.Deployment != "" && cfg.Provider == "" {
		cfg.Provider = external.Name
	}
	if cfg.Provider != external.Name {
		if cfg.Deployment != "" {
			return "", usagef("--deployment %s is for --provider external, not %s", cfg.Deployment, cfg.Provider)
		}
		return runID, nil
	}
	if cfg.Deployment == "" {
		return "", usagef("--provider external: no deployment given: pass --deployment FILE (see docs/external.md)")
	}
	d, err := external.Load(cfg.Deployment)
	if err != nil {
		return "", usageError{err.Error()}
	}
	if err := d.CheckSecrets(); err != nil {
		return "", usagef("deployment file %s: %v", cfg.Deployment, err)
	}
	for _, c := range cells {
		if err := refuseOnExternal(d, c); err != nil {
			return "", err
		}
	}
	if runID == "" {
		runID = external.NewRunID()
	}
	external.Use(d, runID)
	return runID, nil
}

// refuseOnExternal says why cell cannot run on servers lockbench does not own, or nil.
func refuseOnExternal(d *external.Deployment, c sweep.Cell) error {
	if c.Network.Name != "none" {
		return usagef("--network %s on provider external: a network profile puts proxies and faults between lockbench and the servers, and lockbench only breaks servers it owns; use --network none", c.Network)
	}
	if c.Workload == sweep.WorkloadUpdate {
		return usagef("--workload update on provider external: the update workload writes rows to a PostgreSQL it starts and a fence counter outside the lock commands; only the lock workload runs on external servers")
	}
	spec, err := updates.TopologyFor(c.Strategy)
	if err != nil {
		return usageError{err.Error()}
	}
	if err := external.Refuses(spec); err != nil {
		return usagef("strategy %s: %v", c.Strategy, err)
	}
	if err := d.Check(c.Strategy, spec); err != nil {
		return usageError{err.Error()}
	}
	return nil
}

// refuseExternalFaults refuses provider external for a command that breaks servers.
func refuseExternalFaults(command, provider string) error {
	if provider == external.Name {
		return usagef("--provider external: %s kills, pauses, partitions and skews the servers it tests, and lockbench only breaks servers it owns; run it on process, container or embedded servers", command)
	}
	return nil
}
