package container

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/zktopo/srvr"
)

// zkEnsemble is a ZooKeeper ensemble, one server per container, with the methods of
// zktopo's Ensemble that the strategies and the safety lab ask for.
type zkEnsemble struct {
	*topology
	install topologies.ZooKeeperInstall
	tick    time.Duration
}

// Servers are the client addresses, the connect string's parts.
func (e *zkEnsemble) Servers() []string { return topologies.Addrs(e.Nodes()) }

// Dir holds every server's dir (<Dir>/<server>/data is its data dir, as with zktopo).
func (e *zkEnsemble) Dir() string                      { return e.dir }
func (e *zkEnsemble) TickTime() time.Duration          { return e.tick }
func (e *zkEnsemble) MinSessionTimeout() time.Duration { return 2 * e.tick }
func (e *zkEnsemble) MaxSessionTimeout() time.Duration { return zkMaxSessionTimeout }

func zkDataDir(n *node) string { return filepath.Join(n.dir, "data") }

// startZooKeeper starts every server's container together and returns once each
// answers srvr with a mode and one leads: zktopo's checks.
func (t *topology) startZooKeeper(ctx context.Context) (topologies.Topology, error) {
	install, err := topologies.FindZooKeeper()
	if err != nil {
		return nil, err
	}
	image, mounts, err := onceImage("zookeeper", func() (string, []string, error) { return zookeeperImage(ctx, t.cli, install) })
	if err != nil {
		return nil, err
	}
	// /usr/bin/java is a chain of symlinks outside the mounts: run the real one.
	if install.Java, err = filepath.EvalSymlinks(install.Java); err != nil {
		return nil, err
	}
	e := &zkEnsemble{topology: t, install: install, tick: zkTickTime}
	ports, err := t.distinctPorts(3 * t.spec.Members)
	if err != nil {
		return nil, err
	}
	for i := 0; i < t.spec.Members; i++ {
		n := t.newNode(fmt.Sprintf("server-%d", i), topologies.RoleMember)
		n.port, n.peerPorts = ports[3*i], []int{ports[3*i+1], ports[3*i+2]}
		t.masters = append(t.masters, n)
	}
	for i, n := range t.masters {
		id := i + 1
		n.svc = &service{
			image:    image,
			command:  e.javaArgs,
			user:     fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid()),
			readOnly: mounts,
			ready:    func(ctx context.Context, n *node) error { return waitServing(ctx, n) },
			prepare: func(ctx context.Context, n *node, _ topologies.RestartMode, _ bool) error {
				return e.writeConfig(n, id)
			},
			forget: func(n *node) error { return os.RemoveAll(zkDataDir(n)) },
		}
	}
	if err := t.createNetwork(ctx); err != nil {
		return nil, err
	}
	if err := t.startServices(ctx, t.masters); err != nil {
		return nil, err
	}
	wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if _, err := e.WaitLeader(wctx); err != nil {
		return nil, err
	}
	return e, nil
}

// writeConfig writes zoo.cfg, log4j.properties and myid: zktopo's settings, but listening
// on the container's interfaces (quorumListenOnAllIPs) while every address says
// 127.0.0.1, which the wire rules carry to the right container.
func (e *zkEnsemble) writeConfig(n *node, id int) error {
	if err := os.MkdirAll(zkDataDir(n), 0o755); err != nil {
		return err
	}
	forceSync := "yes"
	if e.spec.UnsafeNoFsync {
		forceSync = "no"
	}
	lines := []string{
		"tickTime=" + strconv.FormatInt(e.tick.Milliseconds(), 10),
		"initLimit=10", "syncLimit=5",
		"dataDir=" + zkDataDir(n),
		"clientPortAddress=0.0.0.0",
		"clientPort=" + strconv.Itoa(n.port),
		"maxClientCnxns=0",
		"maxSessionTimeout=" + strconv.FormatInt(zkMaxSessionTimeout.Milliseconds(), 10),
		"admin.enableServer=false",
		"4lw.commands.whitelist=srvr,ruok,mntr",
		"forceSync=" + forceSync,
		"preAllocSize=4096",
		"cnxTimeout=1000",
		"quorumListenOnAllIPs=true",
	}
	if len(e.masters) > 1 {
		for i, m := range e.masters {
			lines = append(lines, fmt.Sprintf("server.%d=127.0.0.1:%d:%d", i+1, m.peerPorts[0], m.peerPorts[1]))
		}
	}
	log4j := strings.Join([]string{
		"log4j.rootLogger=WARN, FILE",
		"log4j.appender.FILE=org.apache.log4j.FileAppender",
		"log4j.appender.FILE.File=" + filepath.Join(n.dir, "server.log"),
		"log4j.appender.FILE.layout=org.apache.log4j.PatternLayout",
		"log4j.appender.FILE.layout.ConversionPattern=%d{ISO8601} %-5p [%t] %c{1}: %m%n",
	}, "\n")
	for path, body := range map[string]string{
		filepath.Join(n.dir, "zoo.cfg"):          strings.Join(lines, "\n"),
		filepath.Join(n.dir, "log4j.properties"): log4j,
		filepath.Join(zkDataDir(n), "myid"):      strconv.Itoa(id),
	} {
		if err := os.WriteFile(path, []byte(body+"\n"), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// javaArgs is zktopo's JVM command line, with the temp dir and perf data kept in the
// node's dir (the image has no /tmp).
func (e *zkEnsemble) javaArgs(n *node) []string {
	return []string{
		e.install.Java,
		"-Xms64m", "-Xmx512m", "-XX:-UsePerfData",
		"-Djava.io.tmpdir=" + n.dir,
		"-Djava.net.preferIPv4Stack=true",
		"-Dlog4j.configuration=file:" + filepath.Join(n.dir, "log4j.properties"),
		"-Dzookeeper.log.dir=" + n.dir,
		"-Dzookeeper.jmx.log4j.disable=true",
		"-cp", strings.Join(e.install.Classpath, ":"),
		"org.apache.zookeeper.server.quorum.QuorumPeerMain",
		filepath.Join(n.dir, "zoo.cfg"),
	}
}

// waitServing polls srvr on the published client port until the server reports a mode.
func waitServing(ctx context.Context, n *node) error {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	for {
		_, err := srvr.Mode(ctx, n.Addr())
		if err == nil {
			return nil
		}
		if !alive(n.topo.pidOf(n)) {
			return fmt.Errorf("%s exited; log: %s %s", n.name, containerLog(n), fileTail(filepath.Join(n.dir, "server.log")))
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s on %s not serving: %v; log: %s", n.name, n.Addr(), err, fileTail(filepath.Join(n.dir, "server.log")))
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Leader is the one running, unpaused server that reports leader or standalone.
func (e *zkEnsemble) Leader(ctx context.Context) (topologies.Node, error) {
	var leader *node
	for _, n := range e.masters {
		if !n.Running() || n.isPaused() {
			continue
		}
		m, err := srvr.Mode(ctx, n.Addr())
		if err != nil || !srvr.Leads(m) {
			continue
		}
		if leader != nil {
			return nil, fmt.Errorf("both %s and %s report leading", leader.name, n.name)
		}
		leader = n
	}
	if leader == nil {
		return nil, errors.New("no running server leads")
	}
	return leader, nil
}

// WaitLeader polls Leader until one server leads or ctx ends.
func (e *zkEnsemble) WaitLeader(ctx context.Context) (topologies.Node, error) {
	return topologies.PollLeader(ctx, e.Leader)
}

func fileTail(path string) string {
	b, _ := os.ReadFile(path)
	if len(b) > 800 {
		b = b[len(b)-800:]
	}
	return strings.TrimSpace(string(b))
}
