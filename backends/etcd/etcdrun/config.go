package etcdrun

import (
	"net/url"

	"go.etcd.io/etcd/server/v3/embed"

	"github.com/lockbench/lockbench/backends/etcd/etcdtopo/memberfile"
)

// embedConfig is a member's embed configuration: loopback only, errors-only logging to
// its own file so that benchmark output stays parseable.
func embedConfig(mc memberfile.Member) *embed.Config {
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
