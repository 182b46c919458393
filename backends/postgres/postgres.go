// Package postgres describes PostgreSQL's deployment: one server, whose rows and
// advisory locks the strategies use. pgstore registers it with the rest of the store.
package postgres

import (
	"fmt"
	"regexp"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/internal/version"
	"github.com/lockbench/lockbench/topologies"
)

// The superuser and database every provider's server gets.
const (
	User     = "lockbench"
	Database = "lockbench"
)

// Descriptor is PostgreSQL's: one server (its strategies are pglock's).
var Descriptor = backend.Descriptor{Store: "postgres", ImageFromHost: true,
	Server: backend.Requirement{Name: "PostgreSQL server (initdb, postgres)", Install: "apt-get install postgresql",
		Find: findServer, Version: serverVersion},
	Shapes: []backend.Shape{{
		Kind: topologies.Postgres, Rank: 60,
		Can:       sequenced{},
		Validate:  validate,
		NoNetwork: "cannot run under a network profile yet (the profile measures its delay with Redis PINGs)",
	}}}

// sequenced is the one server, whose sequence numbers every grant.
type sequenced struct{}

func (sequenced) OwnFence() string { return "nextval of the lockbench_fence sequence" }

func validate(s backend.Spec) error {
	if s.Members != 0 || s.Replicas != 0 {
		return fmt.Errorf("members = %d, replicas = %d: a postgres topology is one server", s.Members, s.Replicas)
	}
	if len(s.Clocks) > 0 {
		return fmt.Errorf("clocks: a postgres server cannot run under a clock model")
	}
	if err := backend.CheckAlwaysPersists(s); err != nil {
		return err
	}
	return backend.CheckOneMaster(s)
}

var versionLine = version.Match(regexp.MustCompile(`\(PostgreSQL\) (\S+)`))

// findServer finds the postgres binary the way the process provider does.
func findServer() (string, error) {
	install, err := topologies.FindPostgres("")
	if err != nil {
		return "", err
	}
	return install.Postgres(), nil
}

func serverVersion() string {
	bin, err := findServer()
	if err != nil {
		return ""
	}
	return version.Of(bin, "--version", versionLine)
}
