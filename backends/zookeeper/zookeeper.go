// Package zookeeper describes ZooKeeper's deployment: an ensemble of Members servers
// (Zab), on true time. zkstore registers it with the rest of the store.
package zookeeper

import (
	"archive/zip"
	"bufio"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/internal/version"
)

// Kind is the ZooKeeper ensemble.
const Kind backend.Kind = "zookeeper"

// TickTime is every provider's tick: ZooKeeper's minimum session timeout is 2 ticks
// (400 ms here, against 4 s with the stock 2 s tick), and a follower notices a lost
// leader after syncLimit (5) ticks, 1 s, as etcd's default election.
const TickTime = 200 * time.Millisecond

// MaxSessionTimeout is the longest session a server grants (maxSessionTimeout).
const MaxSessionTimeout = time.Minute

// Descriptor is ZooKeeper's: an ensemble of 1, 3 or 5 servers (its strategies are zklock's).
var Descriptor = backend.Descriptor{Store: "zookeeper", ImageFromHost: true,
	Server: backend.Requirement{Name: "ZooKeeper (Java and zookeeper.jar)", Install: "apt-get install zookeeper",
		Find: findServer, Version: serverVersion},
	Shapes: []backend.Shape{{
		Kind: Kind, Rank: 70,
		Can:       backend.ConsensusGroup{Fence: "the lock node's czxid (ZAB-ordered zxid)"},
		Defaults:  backend.OneMember,
		Validate:  validate,
		NoNetwork: "cannot run under a network profile yet (the profile measures its delay with Redis PINGs)",
		// A session timeout is whole milliseconds, between 2 ticks and the servers' maximum.
		Lease: backend.Lease{Step: time.Millisecond, Min: 2 * TickTime, Max: MaxSessionTimeout},
	}}}

func validate(s backend.Spec) error {
	if s.Members != 1 && s.Members != 3 && s.Members != 5 {
		return fmt.Errorf("zookeeper ensemble size (members) = %d: must be odd, 1, 3 or 5 (an even ensemble tolerates no "+
			"more failures than the odd one below it)", s.Members)
	}
	if s.Replicas != 0 || len(s.Clocks) > 0 {
		return fmt.Errorf("replicas = %d, clocks = %d: a zookeeper ensemble has members only and runs on true time",
			s.Replicas, len(s.Clocks))
	}
	if err := backend.CheckAlwaysPersists(s); err != nil {
		return err
	}
	return backend.CheckOneMaster(s)
}

var javaVersion = version.Match(regexp.MustCompile(`version "([^"]+)"`))

// findServer finds Java and the jars the way the process provider does.
func findServer() (string, error) {
	install, err := Find()
	if err != nil {
		return "", err
	}
	return install.Classpath[0] + " (java: " + install.Java + ")", nil
}

// serverVersion is the jar's version and Java's (which it starts a JVM to read).
func serverVersion() string {
	install, err := Find()
	if err != nil {
		return ""
	}
	v := jarVersion(install.Classpath[0])
	if java := version.Of(install.Java, "-version", javaVersion); java != "" {
		v += ", Java " + java
	}
	return strings.TrimPrefix(v, ", ")
}

// jarVersion reads version= from the Maven pom.properties inside ZooKeeper's jar
// (its manifest carries none in Debian's build).
func jarVersion(jar string) string {
	z, err := zip.OpenReader(jar)
	if err != nil {
		return ""
	}
	defer z.Close()
	f, err := z.Open("META-INF/maven/org.apache.zookeeper/zookeeper/pom.properties")
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(strings.TrimSpace(s.Text()), "version="); ok {
			return v
		}
	}
	return ""
}
