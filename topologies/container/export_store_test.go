package container

import "github.com/lockbench/lockbench/topologies/etcdtopo"

// StoreConstants are the provider's copies of the process providers' settings.
func StoreConstants() map[string]any {
	return map[string]any{
		"pgUser": pgUser, "pgDatabase": pgDatabase,
		"zkTickTime": zkTickTime, "zkMaxSessionTimeout": zkMaxSessionTimeout,
		"etcdMemberEnv": etcdMemberEnv, "etcdCompaction": etcdCompaction,
	}
}

// WriteEtcdMember writes f the way the provider writes a member's file.
func WriteEtcdMember(path string, f etcdtopo.MemberFile) error {
	var m etcdMember
	m.Member.Name, m.Member.DataDir, m.Member.LogPath = f.Name, f.DataDir, f.LogPath
	m.Member.ListenClient, m.Member.AdvertiseClient = f.ListenClient, f.AdvertiseClient
	m.Member.ListenPeer, m.Member.AdvertisePeer = f.ListenPeer, f.AdvertisePeer
	m.Member.InitialCluster, m.Member.Token, m.Member.State = f.InitialCluster, f.Token, f.State
	m.Member.NoFsync, m.Member.Compaction, m.ReadyPath = f.NoFsync, f.Compaction, f.ReadyPath
	return writeEtcdMember(path, m)
}
