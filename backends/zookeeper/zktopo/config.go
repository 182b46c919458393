package zktopo

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lockbench/lockbench/backends/zookeeper"
)

// Ports are the three a server listens on.
type Ports struct {
	Client, Quorum, Election int
}

// ServerConfig is one server's files and command line: the process provider and the
// container recipe run the same, but for where it listens.
type ServerConfig struct {
	ID   int    // myid, 1-based
	Dir  string // zoo.cfg, log4j.properties, server.log; data/ below
	Tick time.Duration
	Port int // the client port
	// Ensemble is every member's ports in myid order; empty for a lone server, which then
	// runs standalone.
	Ensemble []Ports
	NoFsync  bool
	// AllInterfaces listens on every interface (in a container) while every address
	// still says 127.0.0.1, which the container's wire rules carry to the right server.
	AllInterfaces bool
}

// DataDir holds the server's snapshots, logs and myid.
func (c ServerConfig) DataDir() string { return filepath.Join(c.Dir, "data") }

// LogPath is the server's own log: warnings and worse.
func (c ServerConfig) LogPath() string { return filepath.Join(c.Dir, "server.log") }

func (c ServerConfig) cfgPath() string { return filepath.Join(c.Dir, "zoo.cfg") }

// zooCfg is the server's zoo.cfg: its own data dir and client port, every member's quorum
// and election ports (none for a lone server).
func (c ServerConfig) zooCfg() string {
	forceSync := "yes"
	if c.NoFsync {
		forceSync = "no" // unsafe: a write acknowledged before an OS crash can vanish
	}
	listen := "127.0.0.1"
	if c.AllInterfaces {
		listen = "0.0.0.0"
	}
	lines := []string{
		"# lockbench: this server's own dirs, no admin server",
		"tickTime=" + strconv.FormatInt(c.Tick.Milliseconds(), 10),
		// A follower's first sync with its leader may take 50 ticks (10 s): at 10 ticks a
		// loaded machine's JVMs timed out syncing and elected again and again. Failure
		// detection is syncLimit's, unchanged.
		"initLimit=50",
		"syncLimit=5",
		"dataDir=" + c.DataDir(),
		"clientPortAddress=" + listen,
		"clientPort=" + strconv.Itoa(c.Port),
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
	if c.AllInterfaces {
		lines = append(lines, "quorumListenOnAllIPs=true")
	}
	if len(c.Ensemble) > 1 {
		for i, m := range c.Ensemble {
			lines = append(lines, fmt.Sprintf("server.%d=127.0.0.1:%d:%d", i+1, m.Quorum, m.Election))
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// log4jProperties sends the server's log to server.log in its dir: warnings and worse,
// so that a long benchmark does not fill the disk, and a failed start says why.
func (c ServerConfig) log4jProperties() string {
	return strings.Join([]string{
		"log4j.rootLogger=WARN, FILE",
		"log4j.appender.FILE=org.apache.log4j.FileAppender",
		"log4j.appender.FILE.File=" + c.LogPath(),
		"log4j.appender.FILE.layout=org.apache.log4j.PatternLayout",
		"log4j.appender.FILE.layout.ConversionPattern=%d{ISO8601} %-5p [%t] %c{1}: %m%n",
	}, "\n") + "\n"
}

// Write writes zoo.cfg, log4j.properties and the myid file (data/myid).
func (c ServerConfig) Write() error {
	if err := os.MkdirAll(c.DataDir(), 0o755); err != nil {
		return err
	}
	files := map[string]string{
		c.cfgPath():                              c.zooCfg(),
		filepath.Join(c.Dir, "log4j.properties"): c.log4jProperties(),
		filepath.Join(c.DataDir(), "myid"):       strconv.Itoa(c.ID) + "\n",
	}
	for path, body := range files {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	return nil
}

// JavaArgs is the JVM's arguments: the install's classpath, this server's log4j config,
// no JMX port, a heap sized for a benchmark rather than a quarter of the RAM, the
// JVM's temp files in the server's dir (a container has no /tmp) and a bounded election
// backoff, after the install's own JVM options.
func (c ServerConfig) JavaArgs(install zookeeper.Install) []string {
	return append(slices.Clone(install.JVMOptions),
		"-Xms64m", "-Xmx512m", "-XX:-UsePerfData",
		"-Djava.io.tmpdir="+c.Dir,
		"-Djava.net.preferIPv4Stack=true",
		"-Dlog4j.configuration=file:"+filepath.Join(c.Dir, "log4j.properties"),
		"-Dzookeeper.log.dir="+c.Dir,
		"-Dzookeeper.jmx.log4j.disable=true",
		// A server that heard no peer doubles its wait between election notifications
		// up to 60 s by default: one that started long before the others (containers
		// under load) would sit out a minute after they came up. One second bounds it.
		"-Dzookeeper.fastleader.maxNotificationInterval=1000",
		"-cp", strings.Join(install.Classpath, ":"),
		"org.apache.zookeeper.server.quorum.QuorumPeerMain",
		c.cfgPath(),
	)
}

// DefaultTickTime is the registered provider's tick (zookeeper.TickTime says why).
const DefaultTickTime = zookeeper.TickTime

// MaxSessionTimeout is the longest session a server grants (maxSessionTimeout).
const MaxSessionTimeout = zookeeper.MaxSessionTimeout
