package container

import (
	"encoding/json"
	"os"
	"time"
)

// etcdMember is one member's config in the layout etcdtopo's RunMemberIfAsked reads
// (etcdtopo.WriteMemberFile writes the same: TestContainerEtcdMemberFileMatchesEtcdtopo).
type etcdMember struct {
	Member struct {
		Name, DataDir, LogPath                                   string
		ListenClient, AdvertiseClient, ListenPeer, AdvertisePeer string
		InitialCluster, Token, State                             string
		NoFsync                                                  bool
		Compaction                                               time.Duration
	}
	ReadyPath string
	ParentPid int // 0: the first process of a pid namespace has parent 0, so none is watched
}

func writeEtcdMember(path string, m etcdMember) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// readyEtcdID is the raft ID in the ready file a member writes once it serves.
func readyEtcdID(path string) (uint64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	var r struct{ ID uint64 }
	return r.ID, json.Unmarshal(b, &r)
}
