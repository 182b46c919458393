package sweep

import (
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/topologies/redisadmin"
)

// libraries whose versions decide what a run measured.
var libraries = []string{
	"github.com/redis/go-redis/v9",
	"github.com/go-redsync/redsync/v4",
	"github.com/bsm/redislock",
	"github.com/redis/rueidis",
	"github.com/HdrHistogram/hdrhistogram-go",
	"github.com/Shopify/toxiproxy/v2",
	"go.etcd.io/etcd/client/v3",
	"go.etcd.io/etcd/server/v3",
	"github.com/go-zookeeper/zk",
}

// Environment describes the machine and software a run measures.
func Environment(cfg Config, commandLine []string) resultsdir.Environment {
	env := resultsdir.Environment{
		GoVersion:   runtime.Version(),
		Libraries:   map[string]string{},
		Provider:    cfg.Provider,
		Topologies:  map[string]string{},
		Waiting:     map[string]string{},
		Cores:       runtime.NumCPU(),
		GOMAXPROCS:  runtime.GOMAXPROCS(0),
		OS:          runtime.GOOS,
		Arch:        runtime.GOARCH,
		Seed:        int64(cfg.Seed),
		CommandLine: commandLine,
		Binary:      ThisBinary(),
	}
	env.Hostname, _ = os.Hostname()
	if env.Provider == "" {
		env.Provider = "default per topology kind"
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			for _, lib := range libraries {
				if dep.Path == lib {
					env.Libraries[lib] = dep.Version
				}
			}
		}
	}
	// The binary of the run's flavour; each topology's record names what answered.
	if bin, err := redisadmin.FindServer(cfg.Server); err == nil {
		if out, err := exec.Command(bin, "--version").Output(); err == nil {
			env.RedisServer = strings.TrimSpace(string(out))
		}
	}
	return env
}
