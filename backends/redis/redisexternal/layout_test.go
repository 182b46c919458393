package redisexternal

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/topologies"
	"github.com/lockbench/lockbench/topologies/external"
)

const wholeFile = `single:
  master: a:1
replicated:
  master: a:1
  replicas: [b:1, c:1]
sentinel:
  sentinels: [s:1, s:2, s:3]
  master_name: mymaster
  auth:
    username: sentinel-user
redlock:
  masters: [r:1, r:2, r:3]
auth:
  username: u
`

func TestLayoutGivesEachKindItsServersAndUsers(t *testing.T) {
	d, err := external.Parse([]byte(wholeFile))
	if err != nil {
		t.Fatal(err)
	}
	for kind, want := range map[backend.Kind]string{
		topologies.Single:     "masters [a:1] replicas [] sentinels [] spec {0 0  0 0}",
		topologies.Replicated: "masters [a:1] replicas [b:1 c:1] sentinels [] spec {2 0  0 0}",
		topologies.Sentinel:   "masters [] replicas [] sentinels [s:1 s:2 s:3] spec {0 3 mymaster 0 0}",
		topologies.Redlock:    "masters [r:1 r:2 r:3] replicas [] sentinels [] spec {0 0  3 0}",
	} {
		l, err := layout(d, string(kind), backend.Spec{Kind: kind})
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if got := describe(l); got != want {
			t.Errorf("%s: %s, want %s", kind, got, want)
		}
		if l.Auth == nil || l.Auth.Username != "u" {
			t.Errorf("%s: the servers' user is %+v, want the top-level auth", kind, l.Auth)
		}
		if kind == topologies.Sentinel && (l.SentinelAuth == nil || l.SentinelAuth.Username != "sentinel-user") {
			t.Errorf("the sentinels' user is %+v", l.SentinelAuth)
		}
	}
}

// describe is l's addresses and the spec fields the file fixes.
func describe(l external.Layout) string {
	s := l.Spec
	return fmt.Sprintf("masters %v replicas %v sentinels %v spec {%d %d %s %d %d}", topologies.Addrs(l.Masters),
		topologies.Addrs(l.Replicas), topologies.Addrs(l.Sentinels), s.Replicas, s.Sentinels, s.MasterName, s.Masters, s.Members)
}

// The strategy's size must be the file's: replicas enough, Redlock's masters as many and odd.
func TestLayoutRefusesAFileOfTheWrongSize(t *testing.T) {
	for _, tc := range []struct {
		file string
		spec backend.Spec
		want string
	}{
		{"replicated:\n  master: a:1\n", backend.Spec{Kind: topologies.Replicated}, "needs role replicated.replicas (the replicas WAIT counts)"},
		{"replicated:\n  master: a:1\n  replicas: [b:1]\n", backend.Spec{Kind: topologies.Replicated, Replicas: 2}, "deployment file: strategy x needs 2 replicas, replicated.replicas lists 1"},
		{"sentinel:\n  sentinels: [s:1]\n", backend.Spec{Kind: topologies.Sentinel}, "needs role sentinel.master_name (the name the sentinels monitor)"},
		{"redlock:\n  masters: [a:1, b:1, c:1]\n", backend.Spec{Kind: topologies.Redlock, Masters: 5}, "deployment file: strategy x runs on 5 masters, redlock.masters lists 3"},
		{"redlock:\n  masters: [a:1, b:1]\n", backend.Spec{Kind: topologies.Redlock}, "deployment file: strategy x: redlock.masters has 2 addresses; want an odd number, so that a majority is unique"},
		{"single:\n  master: a:1\n", backend.Spec{Kind: topologies.Redlock}, "deployment file: strategy x needs role redlock.masters (the N independent masters), which the file lacks"},
	} {
		d, err := external.Parse([]byte(tc.file))
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Check("x", tc.spec); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q on %+v: %v, want %q", tc.file, tc.spec, err, tc.want)
		}
	}
}
