package memberfile

import (
	"path/filepath"
	"testing"
	"time"
)

// The starter writes the file and the member reads the same back; the ready file is an
// error until the member wrote it.
func TestFileReadsBackAsWrittenAndReadyWaitsForTheMember(t *testing.T) {
	dir := t.TempDir()
	f := File{Member: Member{Name: "member-1", DataDir: "/d", LogPath: "/l", ListenClient: "0.0.0.0:1",
		AdvertiseClient: "127.0.0.1:1", ListenPeer: "0.0.0.0:2", AdvertisePeer: "127.0.0.1:2",
		InitialCluster: "member-1=http://127.0.0.1:2", Token: "t", State: "new", NoFsync: true, Compaction: 3 * time.Second},
		ReadyPath: filepath.Join(dir, "ready.json"), ParentPid: 42}
	path := filepath.Join(dir, "member.json")
	if err := Write(path, f); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != f {
		t.Errorf("read back %+v, wrote %+v", got, f)
	}
	if _, err := ReadyID(f.ReadyPath); err == nil {
		t.Error("ReadyID answered before the member wrote its ready file")
	}
	if err := WriteReady(f.ReadyPath, 0xabc); err != nil {
		t.Fatal(err)
	}
	if id, err := ReadyID(f.ReadyPath); err != nil || id != 0xabc {
		t.Errorf("ReadyID = %x, %v; want abc", id, err)
	}
	if _, err := Read(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("Read of a missing file answered")
	}
}
