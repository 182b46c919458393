package runs

import (
	"github.com/lockbench/lockbench/internal/usage"
	"github.com/lockbench/lockbench/sweep"
	"github.com/lockbench/lockbench/topologies/external"
	"github.com/lockbench/lockbench/updates"
)

// SetupExternal reads the deployment of provider external, checks that every cell can
// run on it without breaking anything, and installs the provider under the run's id.
// It returns the run id ("" when neither external nor --run-id asks for one).
func SetupExternal(cfg *sweep.Config, cells []sweep.Cell, runID string) (string, error) {
	if runID != "" {
		if err := external.CheckRunID(runID); err != nil {
			return "", usage.Errorf("--run-id: %v", err)
		}
	}
	if cfg.Deployment != "" && cfg.Provider == "" {
		cfg.Provider = external.Name
	}
	if cfg.Provider != external.Name {
		if cfg.Deployment != "" {
			return "", usage.Errorf("--deployment %s is for --provider external, not %s", cfg.Deployment, cfg.Provider)
		}
		return runID, nil
	}
	if cfg.Deployment == "" {
		return "", usage.Errorf("--provider external: no deployment given: pass --deployment FILE (see docs/external.md)")
	}
	d, err := external.Load(cfg.Deployment)
	if err != nil {
		return "", usage.Of(err)
	}
	if err := d.CheckSecrets(); err != nil {
		return "", usage.Errorf("deployment file %s: %v", cfg.Deployment, err)
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
		return usage.Errorf("--network %s on provider external: a network profile puts proxies and faults between "+
			"lockbench and the servers, and lockbench only breaks servers it owns; use --network none", c.Network)
	}
	if c.Workload == sweep.WorkloadUpdate {
		return usage.Errorf("--workload update on provider external: the update workload writes rows to a PostgreSQL it " +
			"starts and a fence counter outside the lock commands; only the lock workload runs on external servers")
	}
	spec, err := updates.TopologyFor(c.Strategy)
	if err != nil {
		return usage.Of(err)
	}
	if err := external.Refuses(spec); err != nil {
		return usage.Errorf("strategy %s: %v", c.Strategy, err)
	}
	if err := d.Check(c.Strategy, spec); err != nil {
		return usage.Of(err)
	}
	return nil
}
