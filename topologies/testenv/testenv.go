// Package testenv starts real servers for tests and benchmarks, and refuses to skip
// silently in CI: with CI=true a missing server is a failure. It starts the stores its
// caller registered: a package whose tests start topologies imports backends/all in
// a test file (testenv sits below the stores and must not import them).
package testenv

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/clocks/faketime"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/external"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// ProviderEnv names the provider tests and benchmarks start topologies with: process,
// container, embedded, auto, external or a registered name; empty means each kind's default.
// The container provider is there in the tests that register the stores (their recipes
// link it); testenv does not link it for every test, as docker's client quadruples a
// test binary's link.
const ProviderEnv = "LOCKBENCH_PROVIDER"

// DeploymentEnv is the deployment file of LOCKBENCH_PROVIDER=external (docs/external.md).
const DeploymentEnv = "LOCKBENCH_DEPLOYMENT"

// RequireRedis returns the redis-server binary, or skips (fails under CI=true) without one.
func RequireRedis(tb testing.TB) string {
	tb.Helper()
	NeedsServers(tb)
	bin, err := redisadmin.FindRedisServer()
	if err != nil {
		MissingTool(tb, err)
	}
	return bin
}

// RequireValkey returns the valkey-server binary, or skips (fails under CI=true) without one.
func RequireValkey(tb testing.TB) string {
	tb.Helper()
	NeedsServers(tb)
	bin, err := redisadmin.FindValkeyServer()
	if err != nil {
		MissingTool(tb, err)
	}
	return bin
}

// flavourProvider is provider when it runs spec's server flavour, else the kind's
// process provider (the one that runs Valkey), once that flavour's binary is found here.
func flavourProvider(tb testing.TB, provider topologies.Provider, spec backend.Spec) topologies.Provider {
	tb.Helper()
	if _, err := redisadmin.FindServer(spec.Server); err != nil {
		MissingTool(tb, err)
	}
	if provider.Name() == "process" || topologies.InFamily("process", provider.Name()) {
		return provider
	}
	p, err := topologies.ProviderFor("process", spec.Kind)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Logf("provider %s runs Redis only: server %s runs with %s", provider.Name(), spec.Server, p.Name())
	return p
}

// RequireSkewedRedis skips (fails under CI=true) a test that runs redis-server under
// libfaketime when redis-server, libfaketime or the compiler of the allocator preload
// is missing; it returns any other error of building that preload.
func RequireSkewedRedis(tb testing.TB) error {
	tb.Helper()
	RequireRedis(tb)
	if _, err := faketime.Library(); err != nil {
		MissingTool(tb, err)
	}
	_, err := faketime.Preload()
	if errors.Is(err, faketime.ErrNoCompiler) {
		MissingTool(tb, err)
	}
	return err
}

// RequirePostgres returns where the PostgreSQL server is installed, or skips (fails
// under CI=true) without it.
func RequirePostgres(tb testing.TB) topologies.PostgresInstall {
	tb.Helper()
	NeedsServers(tb)
	install, err := topologies.FindPostgres("")
	if err != nil {
		MissingTool(tb, err)
	}
	return install
}

// RequireServer skips (fails under CI=true) unless the server of kind's store is found
// here, as its descriptor's requirement says: the test must have registered the store.
func RequireServer(tb testing.TB, kind backend.Kind) {
	tb.Helper()
	NeedsServers(tb)
	shape, err := linked.Catalog().Lookup(kind)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := shape.Server().Find(); err != nil {
		MissingTool(tb, err)
	}
}

// Provider returns the provider that serves kind in tests: $LOCKBENCH_PROVIDER's member
// for kind, or the kind's default. A provider whose engine does not answer skips (fails
// under CI=true); a kind the chosen provider does not serve falls back to its default.
func Provider(tb testing.TB, kind backend.Kind) topologies.Provider {
	tb.Helper()
	NeedsServers(tb)
	name := os.Getenv(ProviderEnv)
	if name == "" {
		p, err := topologies.DefaultProvider(kind)
		if err != nil {
			tb.Fatal(err)
		}
		return p
	}
	if name == external.Name {
		useDeployment(tb)
	}
	p, err := topologies.ProviderFor(name, kind)
	if err != nil {
		tb.Fatalf("%s=%s: %v", ProviderEnv, name, err)
	}
	if s, ok := p.(interface{ Serves(backend.Kind) bool }); ok && !s.Serves(kind) {
		d, err := topologies.DefaultProvider(kind)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Logf("%s=%s does not serve %s topologies: using %s", ProviderEnv, name, kind, d.Name())
		return d
	}
	if a, ok := p.(topologies.Available); ok {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := a.Available(ctx); err != nil {
			MissingTool(tb, err)
		}
	}
	return p
}

// Start launches spec with Provider(tb, spec.Kind) and closes it when tb ends, pass or fail.
func Start(tb testing.TB, spec backend.Spec) topologies.Topology {
	tb.Helper()
	return startWith(tb, providerReadyFor(tb, spec), spec)
}

// providerReadyFor is Provider(tb, spec.Kind), once what it will run is found here and,
// for a deployment of the user's, once that deployment has spec's roles.
func providerReadyFor(tb testing.TB, spec backend.Spec) topologies.Provider {
	tb.Helper()
	provider := Provider(tb, spec.Kind)
	if spec.FlavourOf() != backend.ServerRedis {
		provider = flavourProvider(tb, provider, spec)
	}
	// The process provider runs this machine's redis-server; a store whose container
	// image copies this machine's install (PostgreSQL, ZooKeeper) needs it under every provider.
	shape, err := linked.Catalog().Lookup(spec.Kind)
	if err == nil && (provider.Name() == "process" || shape.ImageFromHost()) {
		if _, err := shape.Server().Find(); err != nil {
			MissingTool(tb, err)
		}
	}
	if provider.Name() == external.Name {
		skipRoleNotGiven(tb, spec)
	}
	return provider
}

// StartNamed launches spec with the provider registered as name, whatever
// $LOCKBENCH_PROVIDER says, and closes it when tb ends: for tests of one provider.
func StartNamed(tb testing.TB, name string, spec backend.Spec) topologies.Topology {
	tb.Helper()
	NeedsServers(tb)
	provider, err := topologies.ProviderNamed(name)
	if err != nil {
		tb.Fatal(err)
	}
	return startWith(tb, provider, spec)
}

// StartBound bounds a test deployment's start: it catches a start that hangs, never one
// that a loaded machine made slow (a container's initdb took over 2 minutes at load 20).
const StartBound = 5 * time.Minute

// startWith launches spec with provider, within StartBound, and closes it when tb ends.
func startWith(tb testing.TB, provider topologies.Provider, spec backend.Spec) topologies.Topology {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), StartBound)
	defer cancel()
	topo, err := provider.Start(ctx, spec)
	if err != nil {
		tb.Fatalf("start %s topology (provider %s): %v", spec.Kind, provider.Name(), err)
	}
	tb.Cleanup(func() {
		if err := topo.Close(); err != nil {
			tb.Errorf("close %s topology: %v", spec.Kind, err)
		}
	})
	return topo
}

// NeedsServers skips tb under -short, the inner loop that runs pure code only: every
// test that starts a server, a container or an embedded store says so through here.
func NeedsServers(tb testing.TB) {
	tb.Helper()
	if testing.Short() {
		tb.Skip("-short: this test starts servers")
	}
}

// MissingTool skips (fails under CI=true) when a tool a test needs is not installed.
func MissingTool(tb testing.TB, err error) {
	tb.Helper()
	if os.Getenv("CI") == "true" {
		tb.Fatalf("CI=true and %v", err)
	}
	tb.Skipf("%v", err)
}

// skipRoleNotGiven skips, also under CI, a test whose topology the user's deployment
// file does not give: a deployment need not have every role.
func skipRoleNotGiven(tb testing.TB, spec backend.Spec) {
	tb.Helper()
	d, err := external.Load(os.Getenv(DeploymentEnv))
	if err != nil {
		tb.Fatalf("%s: %v", DeploymentEnv, err)
	}
	if err := d.Check(string(spec.Kind), spec.WithDefaults(linked.Catalog())); err != nil {
		tb.Skipf("%s: %v", DeploymentEnv, err)
	}
}

// OwnServers skips a test or benchmark that breaks, proxies or bypasses the servers
// (a network profile, redis-benchmark, a fence counter) when they are not lockbench's.
func OwnServers(tb testing.TB, topo topologies.Topology, why string) {
	tb.Helper()
	if topo.Provider() == external.Name {
		tb.Skipf("provider external: %s, and lockbench does that only to servers it owns", why)
	}
}

// useDeployment installs $LOCKBENCH_DEPLOYMENT as provider external, under a random run id.
func useDeployment(tb testing.TB) {
	tb.Helper()
	path := os.Getenv(DeploymentEnv)
	if path == "" {
		tb.Fatalf("%s=external needs %s, the deployment file (docs/external.md)", ProviderEnv, DeploymentEnv)
	}
	d, err := external.Load(path)
	if err != nil {
		tb.Fatalf("%s: %v", DeploymentEnv, err)
	}
	external.Use(d, external.NewRunID())
}
