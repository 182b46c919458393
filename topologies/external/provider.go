package external

import (
	"context"
	"fmt"

	"github.com/lockbench/lockbench/backend"
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
func (p Provider) Serves(kind backend.Kind) bool {
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
func (p Provider) Start(ctx context.Context, spec backend.Spec) (topologies.Topology, error) {
	if err := Refuses(spec); err != nil {
		return nil, err
	}
	if err := topologies.RefuseOtherFlavour("external", spec); err != nil {
		return nil, err
	}
	if p.Prefix == "" || p.Prefix == KeyPrefix("") {
		return nil, fmt.Errorf("provider external: no run id, so no key prefix of its own to write under")
	}
	store, l, err := p.Deployment.layout(string(spec.Kind), spec)
	if err != nil {
		return nil, err
	}
	t := &topology{prefix: p.Prefix, store: store}
	if t.servers, err = p.Deployment.servers(l, spec.Kind); err != nil {
		return nil, err
	}
	if t.versions, err = t.probe(ctx); err != nil {
		return nil, err
	}
	return t, nil
}

// servers are l's servers, of kind, with their users' passwords read and TLS built.
func (d *Deployment) servers(l Layout, kind backend.Kind) (Servers, error) {
	s := Servers{Spec: l.Spec, Masters: l.Masters, Replicas: l.Replicas, Sentinels: l.Sentinels}
	s.Spec.Kind = kind
	var err error
	if len(l.Sentinels) > 0 {
		if s.SentinelAccess, err = d.access(l.SentinelAuth); err != nil {
			return s, fmt.Errorf("sentinel auth: %w", err)
		}
	}
	s.Access, err = d.access(l.Auth)
	return s, err
}

// Refuses is why spec cannot run on servers lockbench does not own, or nil: clock
// faults and fsync settings act on the servers themselves.
func Refuses(spec backend.Spec) error {
	if len(spec.Clocks) > 0 {
		return fmt.Errorf(
			"provider external: clock faults skew the servers' clocks, and lockbench only breaks servers it owns")
	}
	if spec.UnsafeNoFsync {
		return fmt.Errorf(
			"provider external: unsafe-no-fsync is a setting of the servers, which lockbench does not own: use strategy etcd")
	}
	if !(Provider{}).Serves(spec.Kind) {
		return fmt.Errorf("provider external does not serve %s topologies: it serves %s", spec.Kind, kindNames())
	}
	return nil
}
