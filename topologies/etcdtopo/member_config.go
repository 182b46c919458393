package etcdtopo

import (
	"net/url"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
)

// memberConfig is everything one etcd member needs to start, in this process or in a
// child process (which reads it as JSON from its dir).
type memberConfig struct {
	Name            string
	DataDir         string
	LogPath         string
	ListenClient    string // host:port to listen on; port 0 lets the kernel pick
	AdvertiseClient string // host:port clients are told
	ListenPeer      string
	AdvertisePeer   string
	InitialCluster  string
	Token           string
	State           string // "new" or "existing"
	NoFsync         bool
	// Compaction is the auto-compaction window (0: never compact).
	Compaction time.Duration
}

// embed is the member's embed configuration: loopback only, errors-only logging to its
// own file so that benchmark output stays parseable.
func (mc memberConfig) embed() *embed.Config {
	cfg := embed.NewConfig()
	cfg.Name = mc.Name
	cfg.Dir = mc.DataDir
	cfg.ListenClientUrls = []url.URL{{Scheme: "http", Host: mc.ListenClient}}
	cfg.AdvertiseClientUrls = []url.URL{{Scheme: "http", Host: mc.AdvertiseClient}}
	cfg.ListenPeerUrls = []url.URL{{Scheme: "http", Host: mc.ListenPeer}}
	cfg.AdvertisePeerUrls = []url.URL{{Scheme: "http", Host: mc.AdvertisePeer}}
	cfg.InitialCluster = mc.InitialCluster
	cfg.InitialClusterToken = mc.Token
	cfg.ClusterState = mc.State
	cfg.UnsafeNoFsync = mc.NoFsync
	cfg.EnableGRPCGateway = false
	if mc.Compaction > 0 {
		cfg.AutoCompactionMode = "periodic"
		cfg.AutoCompactionRetention = mc.Compaction.String()
	}
	cfg.LogLevel = "error"
	cfg.LogOutputs = []string{mc.LogPath}
	return cfg
}
