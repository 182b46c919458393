package external

import (
	"context"
	"fmt"

	"github.com/lockbench/lockbench/topologies"
)

// Name is the provider's name on the command line.
const Name = "external"

// Provider serves the kinds of Deployment from the servers it names. Prefix is the
// run's own key prefix (lockbench:<run-id>:), deleted when a topology closes.
type Provider struct {
	Deployment *Deployment
	Prefix     string
}

func (p Provider) Name() string { return Name }

// Serves reports whether the external provider can lock on kind at all.
func (p Provider) Serves(kind topologies.Kind) bool {
	for _, k := range Serves() {
		if k == kind {
			return true
		}
	}
	return false
}

// Use registers the deployment as provider external for this process, with the run's
// key prefix: until then --provider external has nothing to point at.
func Use(d *Deployment, runID string) {
	topologies.SetExternalProvider(Provider{Deployment: d, Prefix: KeyPrefix(runID)})
}

// KeyPrefix is the run's key prefix: lockbench:<run-id>:.
func KeyPrefix(runID string) string { return "lockbench:" + runID + ":" }

// Start checks the deployment serves spec and reads its servers' versions; nothing is
// started and nothing on the servers is changed.
func (p Provider) Start(ctx context.Context, spec topologies.Spec) (topologies.Topology, error) {
	if err := Refuses(spec); err != nil {
		return nil, err
	}
	if p.Prefix == "" || p.Prefix == KeyPrefix("") {
		return nil, fmt.Errorf("provider external: no run id, so no key prefix of its own to write under")
	}
	d := p.Deployment
	if err := d.Check(string(spec.Kind), spec); err != nil {
		return nil, err
	}
	t := &topology{prefix: p.Prefix, spec: topologies.Spec{Kind: spec.Kind}}
	var err error
	auth := d.Auth
	switch spec.Kind {
	case topologies.Single:
		t.masters = nodes(topologies.RoleMaster, "master", []string{d.Single.Master})
	case topologies.Replicated:
		t.masters = nodes(topologies.RoleMaster, "master", []string{d.Replicated.Master})
		t.replicas = nodes(topologies.RoleReplica, "replica", d.Replicated.Replicas)
		t.spec.Replicas = len(t.replicas)
	case topologies.Sentinel:
		t.sentinels = nodes(topologies.RoleSentinel, "sentinel", d.Sentinel.Sentinels)
		t.spec.Sentinels, t.spec.MasterName = len(t.sentinels), d.Sentinel.MasterName
		if t.sentinelAccess, err = d.access(d.Sentinel.Auth); err != nil {
			return nil, fmt.Errorf("sentinel auth: %w", err)
		}
	case topologies.Redlock:
		t.masters = nodes(topologies.RoleMaster, "master", d.Redlock.Masters)
		t.spec.Masters = len(t.masters)
	default: // a registered store's members (Check found its role)
		s, _ := storeFor(spec.Kind)
		t.store = &s
		t.masters = nodes(topologies.RoleMember, "member", d.Members[s.Key].Endpoints)
		t.spec.Members = len(t.masters)
		auth = d.Members[s.Key].Auth
	}
	if t.access, err = d.access(auth); err != nil {
		return nil, err
	}
	if t.servers, err = t.probe(ctx); err != nil {
		return nil, err
	}
	return t, nil
}

// Refuses is why spec cannot run on servers lockbench does not own, or nil: clock
// faults and fsync settings act on the servers themselves.
func Refuses(spec topologies.Spec) error {
	if len(spec.Clocks) > 0 {
		return fmt.Errorf("provider external: clock faults skew the servers' clocks, and lockbench only breaks servers it owns")
	}
	if spec.UnsafeNoFsync {
		return fmt.Errorf("provider external: unsafe-no-fsync is a setting of the servers, which lockbench does not own: use strategy etcd")
	}
	if !(Provider{}).Serves(spec.Kind) {
		return fmt.Errorf("provider external does not serve %s topologies: it serves %s", spec.Kind, kindNames())
	}
	return nil
}
