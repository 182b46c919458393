package etcdtopo

import (
	"errors"

	"github.com/lockbench/lockbench/backends/etcd/etcdtopo/memberfile"
)

// Server is an etcd server running in this program, as the embedded provider's members
// drive it. Package etcdrun starts it: etcd's server is linked only into programs that
// import etcdrun (lockbench itself, and the tests that start members in process), which
// keeps it out of every other test binary's link.
type Server interface {
	ID() uint64
	ClientAddr() string // where it listens for clients
	PeerAddr() string   // where it listens for its peers
	Ready() <-chan struct{}
	Stopped() <-chan struct{}
	Err() <-chan error
	Leader() uint64 // the raft leader it knows of (0: none)
	PauseSending()
	ResumeSending()
	// Kill stops raft without handing over leadership, then closes every listener.
	Kill()
}

// startServer starts a server from a member's configuration; nil until a program links
// etcdrun.
var startServer func(memberfile.Member) (Server, error)

// LinkServer is how etcdrun gives this package its server; one call, from its init.
func LinkServer(start func(memberfile.Member) (Server, error)) { startServer = start }

// errNoServer says why a member cannot run in this program.
var errNoServer = errors.New("this program does not link etcd's server (it imports no etcdrun): run lockbench, " +
	"or the etcd-process provider")
