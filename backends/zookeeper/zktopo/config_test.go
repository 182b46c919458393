package zktopo

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backends/zookeeper"
	"github.com/lockbench/lockbench/topologies/testenv"
)

// One config serves a process and a container: they differ only in where the server
// listens, and both name every member at 127.0.0.1.
func TestServerConfigListensWhereItRuns(t *testing.T) {
	ensemble := []Ports{{Client: 1, Quorum: 2, Election: 3}, {Client: 4, Quorum: 5, Election: 6}, {Client: 7, Quorum: 8, Election: 9}}
	process := ServerConfig{ID: 2, Dir: "/s", Tick: 200 * time.Millisecond, Port: 4, Ensemble: ensemble}
	inContainer := process
	inContainer.AllInterfaces = true
	p, c := strings.Split(process.zooCfg(), "\n"), strings.Split(inContainer.zooCfg(), "\n")
	for _, want := range []string{"tickTime=200", "clientPort=4", "dataDir=/s/data", "forceSync=yes",
		"server.1=127.0.0.1:2:3", "server.2=127.0.0.1:5:6", "server.3=127.0.0.1:8:9"} {
		if !slices.Contains(p, want) || !slices.Contains(c, want) {
			t.Errorf("%q missing: process %v, container %v", want, p, c)
		}
	}
	if !slices.Contains(p, "clientPortAddress=127.0.0.1") || slices.Contains(p, "quorumListenOnAllIPs=true") {
		t.Errorf("a process listens on 127.0.0.1 only: %v", p)
	}
	if !slices.Contains(c, "clientPortAddress=0.0.0.0") || !slices.Contains(c, "quorumListenOnAllIPs=true") {
		t.Errorf("a container listens on its interfaces: %v", c)
	}
	lone := ServerConfig{ID: 1, Dir: "/s", Tick: time.Second, Port: 1, NoFsync: true}
	if cfg := lone.zooCfg(); strings.Contains(cfg, "server.") || !strings.Contains(cfg, "forceSync=no") {
		t.Errorf("a lone unsafe server: %s", cfg)
	}
}

// Write makes the files the JVM's arguments name.
func TestServerConfigWritesWhatTheJVMReads(t *testing.T) {
	c := ServerConfig{ID: 3, Dir: t.TempDir(), Tick: DefaultTickTime, Port: 9}
	if err := c.Write(); err != nil {
		t.Fatal(err)
	}
	myid, err := os.ReadFile(filepath.Join(c.DataDir(), "myid"))
	if err != nil || strings.TrimSpace(string(myid)) != "3" {
		t.Errorf("myid = %q, %v", myid, err)
	}
	args := c.JavaArgs(zookeeper.Install{Classpath: []string{"/a.jar", "/b.jar"}})
	if args[len(args)-1] != filepath.Join(c.Dir, "zoo.cfg") || !slices.Contains(args, "/a.jar:/b.jar") {
		t.Errorf("JVM arguments %v", args)
	}
	for _, f := range []string{"zoo.cfg", "log4j.properties"} {
		if _, err := os.Stat(filepath.Join(c.Dir, f)); err != nil {
			t.Error(err)
		}
	}
}

// The install's JVM options reach the JVM before the server's own, and the class name
// and config stay last.
func TestTheInstallsJVMOptionsComeFirst(t *testing.T) {
	t.Setenv(zookeeper.JVMOptionsEnv, " -XX:TieredStopAtLevel=1   -XX:+UseSerialGC ")
	install, err := zookeeper.Find()
	if err != nil {
		testenv.MissingTool(t, err)
	}
	c := ServerConfig{ID: 1, Dir: t.TempDir(), Tick: DefaultTickTime, Port: 9}
	args := c.JavaArgs(install)
	if !slices.Equal(args[:2], []string{"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"}) ||
		args[len(args)-1] != filepath.Join(c.Dir, "zoo.cfg") {
		t.Errorf("JVM arguments %v", args)
	}
	t.Setenv(zookeeper.JVMOptionsEnv, "")
	if install, _ = zookeeper.Find(); len(install.JVMOptions) != 0 {
		t.Errorf("no options set, got %q", install.JVMOptions)
	}
}
