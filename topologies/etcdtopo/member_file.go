package etcdtopo

import (
	"encoding/json"
	"os"
	"time"
)

// MemberEnv names the member file a program linking this package runs as one etcd
// member instead of its own main (see RunMemberIfAsked).
const MemberEnv = memberEnv

// MemberFile is one member's configuration, for a provider that runs members elsewhere
// (provider container runs this program again inside a container).
type MemberFile struct {
	Name, DataDir, LogPath                                   string
	ListenClient, AdvertiseClient, ListenPeer, AdvertisePeer string // host:port each
	InitialCluster, Token, State                             string // State: "new" or "existing"
	NoFsync                                                  bool
	Compaction                                               time.Duration
	ReadyPath                                                string // written with the member's raft ID once it serves
}

// WriteMemberFile writes f where RunMemberIfAsked reads it. No parent is watched
// (ParentPid 0: the first process of a pid namespace has parent 0), so whoever runs
// the member must stop it.
func WriteMemberFile(path string, f MemberFile) error {
	b, err := json.Marshal(childConfig{
		Member: memberConfig{Name: f.Name, DataDir: f.DataDir, LogPath: f.LogPath,
			ListenClient: f.ListenClient, AdvertiseClient: f.AdvertiseClient,
			ListenPeer: f.ListenPeer, AdvertisePeer: f.AdvertisePeer,
			InitialCluster: f.InitialCluster, Token: f.Token, State: f.State,
			NoFsync: f.NoFsync, Compaction: f.Compaction},
		ReadyPath: f.ReadyPath,
	})
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// ReadyMemberID is the raft ID in a member's ready file, an error until it is written.
func ReadyMemberID(readyPath string) (uint64, error) {
	r, err := readReady(readyPath)
	return r.ID, err
}
