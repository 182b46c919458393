package zktopo

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ports are the three a server listens on, all on 127.0.0.1.
type ports struct {
	client, quorum, election int
}

// zooCfg is a server's zoo.cfg: its own data dir and client port, every member's quorum
// and election ports (none for a lone server, which then runs standalone).
func zooCfg(e *Ensemble, s *server) string {
	forceSync := "yes"
	if e.spec.UnsafeNoFsync {
		forceSync = "no" // unsafe: a write acknowledged before an OS crash can vanish
	}
	lines := []string{
		"# lockbench: loopback only, this server's own dirs, no admin server",
		"tickTime=" + strconv.FormatInt(e.tick.Milliseconds(), 10),
		"initLimit=10",
		"syncLimit=5",
		"dataDir=" + s.dataDir(),
		"clientPortAddress=127.0.0.1",
		"clientPort=" + strconv.Itoa(s.ports.client),
		// Every client of a benchmark connects from 127.0.0.1: the default of 60
		// connections per address would refuse the 61st.
		"maxClientCnxns=0",
		// A lease may ask up to a minute; the default ceiling (20 ticks) would cut it.
		"maxSessionTimeout=" + strconv.FormatInt(MaxSessionTimeout.Milliseconds(), 10),
		"admin.enableServer=false",
		"4lw.commands.whitelist=srvr,ruok,mntr",
		"forceSync=" + forceSync,
		// 4 MB log segments instead of 64 MB: a topology's disk use stays small.
		"preAllocSize=4096",
		// Election connections to a paused server give up after a second, not five.
		"cnxTimeout=1000",
	}
	if len(e.servers) > 1 {
		for _, m := range e.servers {
			lines = append(lines, fmt.Sprintf("server.%d=127.0.0.1:%d:%d", m.id, m.ports.quorum, m.ports.election))
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// log4jProperties sends the server's log to server.log in its dir: warnings and worse,
// so that a long benchmark does not fill the disk, and a failed start says why.
func log4jProperties(s *server) string {
	return strings.Join([]string{
		"log4j.rootLogger=WARN, FILE",
		"log4j.appender.FILE=org.apache.log4j.FileAppender",
		"log4j.appender.FILE.File=" + s.logPath(),
		"log4j.appender.FILE.layout=org.apache.log4j.PatternLayout",
		"log4j.appender.FILE.layout.ConversionPattern=%d{ISO8601} %-5p [%t] %c{1}: %m%n",
	}, "\n") + "\n"
}

// writeConfig writes zoo.cfg, log4j.properties and the myid file (dataDir/myid).
func writeConfig(e *Ensemble, s *server) error {
	if err := os.MkdirAll(s.dataDir(), 0o755); err != nil {
		return err
	}
	files := map[string]string{
		s.cfgPath():                              zooCfg(e, s),
		filepath.Join(s.dir, "log4j.properties"): log4jProperties(s),
		filepath.Join(s.dataDir(), "myid"):       strconv.Itoa(s.id) + "\n",
	}
	for path, body := range files {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			return fmt.Errorf("%s: write %s: %w", s.name, path, err)
		}
	}
	return nil
}

// javaArgs is the JVM command line: the package's classpath, this server's log4j
// config, no JMX port, a heap sized for a benchmark rather than a quarter of the RAM.
func javaArgs(e *Ensemble, s *server) []string {
	return []string{
		"-Xms64m", "-Xmx512m",
		"-Djava.net.preferIPv4Stack=true",
		"-Dlog4j.configuration=file:" + filepath.Join(s.dir, "log4j.properties"),
		"-Dzookeeper.log.dir=" + s.dir,
		"-Dzookeeper.jmx.log4j.disable=true",
		"-cp", strings.Join(e.install.Classpath, ":"),
		"org.apache.zookeeper.server.quorum.QuorumPeerMain",
		s.cfgPath(),
	}
}

// DefaultTickTime is the registered provider's tick: ZooKeeper's minimum session
// timeout is 2 ticks (400 ms here, against 4 s with the stock 2 s tick), and a follower
// notices a lost leader after syncLimit (5) ticks, 1 s, as etcd's default election.
const DefaultTickTime = 200 * time.Millisecond

// MaxSessionTimeout is the longest session a server grants (maxSessionTimeout).
const MaxSessionTimeout = time.Minute
