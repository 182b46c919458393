package container_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/lockbench/lockbench/topologies/container"
	"github.com/lockbench/lockbench/topologies/etcdtopo" // also makes this test program able to run etcd members
	"github.com/lockbench/lockbench/topologies/pgtopo"
	"github.com/lockbench/lockbench/topologies/zktopo"
)

// The provider keeps its own copies of the process providers' settings (importing them
// would be a cycle through topologies/testenv): they must agree.
func TestContainerStoreConstantsMatchProcessProviders(t *testing.T) {
	got := container.StoreConstants()
	want := map[string]any{
		"pgUser": pgtopo.User, "pgDatabase": pgtopo.Database,
		"zkTickTime": zktopo.DefaultTickTime, "zkMaxSessionTimeout": zktopo.MaxSessionTimeout,
		"etcdMemberEnv": etcdtopo.MemberEnv, "etcdCompaction": etcdtopo.DefaultCompactionRetention,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("container's copies %v; the process providers' %v", got, want)
	}
}

// The member file the provider writes is the one etcdtopo's member entry reads.
func TestContainerEtcdMemberFileMatchesEtcdtopo(t *testing.T) {
	dir := t.TempDir()
	f := etcdtopo.MemberFile{Name: "member-1", DataDir: "/d", LogPath: "/l", ListenClient: "0.0.0.0:1",
		AdvertiseClient: "127.0.0.1:1", ListenPeer: "0.0.0.0:2", AdvertisePeer: "127.0.0.1:2",
		InitialCluster: "member-1=http://127.0.0.1:2", Token: "t", State: "existing", NoFsync: true,
		Compaction: time.Second, ReadyPath: "/r"}
	mine, theirs := filepath.Join(dir, "mine.json"), filepath.Join(dir, "theirs.json")
	if err := container.WriteEtcdMember(mine, f); err != nil {
		t.Fatal(err)
	}
	if err := etcdtopo.WriteMemberFile(theirs, f); err != nil {
		t.Fatal(err)
	}
	var a, b any
	for path, v := range map[string]*any{mine: &a, theirs: &b} {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, v); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("container writes %v; etcdtopo writes %v", a, b)
	}
}
