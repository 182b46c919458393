package clustercontainer_test

import (
	"bytes"
	"github.com/lockbench/lockbench/topologies/testenv"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backends/rediscluster"
	"github.com/lockbench/lockbench/preflight"
)

// Under --provider container a cluster needs the container engine, as the other kinds
// do: doctor's container section names it on the cluster's line (before, the provider's
// own name matched no family, and the line was empty), and a run's preflight checks it.
func TestDoctorAndPreflightAskAContainerClusterForTheEngine(t *testing.T) {
	testenv.NeedsServers(t)
	var out bytes.Buffer
	preflight.Doctor(&out, nil)
	section := out.String()
	section = section[strings.Index(section, "provider container\n"):]
	section = section[:strings.Index(section, "provider embedded\n")]
	var line string
	for _, l := range strings.Split(section, "\n") {
		if f := strings.Fields(l); len(f) > 0 && f[0] == string(rediscluster.Kind) {
			line = l
		}
	}
	if !strings.Contains(line, preflight.Docker.Name) {
		t.Fatalf("doctor's container section, cluster line %q; want the container engine:\n%s", line, section)
	}
	need := []preflight.Need{{Strategy: rediscluster.StrategyCluster, Kind: rediscluster.Kind}}
	if missing := preflight.Check("container", need); strings.Contains(line, "MISSING") != (len(missing) == 1) {
		t.Fatalf("the engine per doctor: %q; per the preflight, missing %+v", line, missing)
	}
}
