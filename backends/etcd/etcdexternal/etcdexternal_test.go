package etcdexternal_test

import (
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backends/etcd"
	_ "github.com/lockbench/lockbench/backends/etcd/etcdstore" // etcd's part of the deployment file
	"github.com/lockbench/lockbench/topologies/external"
)

// etcd is served from the file's key etcd, a group of members under endpoints and auth.
func TestEtcdIsServedFromItsMembersRole(t *testing.T) {
	d, err := external.Parse([]byte("etcd:\n  endpoints: [e:1, e:2, e:3]\n  auth:\n    username: u\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Check("etcd", backend.Spec{Kind: etcd.Kind}); err != nil {
		t.Error(err)
	}
	if m := external.RoleOf[*external.MembersRole](d, "etcd"); m == nil || len(m.Endpoints) != 3 || m.Auth.Username != "u" {
		t.Errorf("etcd's role parsed as %+v", m)
	}
	if d, err = external.Parse([]byte("etcd:\n  auth:\n    username: u\n")); err != nil {
		t.Fatal(err)
	}
	want := "deployment file: strategy etcd-3 needs role etcd.endpoints (the members' client endpoints), which the file lacks"
	if err := d.Check("etcd-3", backend.Spec{Kind: etcd.Kind}); err == nil || err.Error() != want {
		t.Errorf("no endpoints: %v, want %q", err, want)
	}
}
