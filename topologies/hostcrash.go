package topologies

import "fmt"

// HostCrash is what a node's disk threw away at its last RestartAfterHostCrash.
type HostCrash struct {
	Lost         bool   // anything at all: a file's content, an entry
	BytesDropped int64  // bytes that changed back
	Summary      string // one line naming each file and entry, for a trial's proof
	Count        int    // this node's host crashes so far, this one included
}

// HostCrashed is a node on a forgetful disk (Spec.ForgetfulDisk).
type HostCrashed interface {
	// LastHostCrash is what its last host crash dropped; false before the first.
	LastHostCrash() (HostCrash, bool)
	// WriteBack makes all it wrote so far durable, as the kernel's write-back would
	// for a node up a while: what a crash can take is then the trial's own writes.
	WriteBack() error
}

// WriteBack makes all that n wrote so far survive its host's crash, or says why not.
func WriteBack(n Node) error {
	hc, ok := n.(HostCrashed)
	if !ok {
		return fmt.Errorf("%s: not on a forgetful disk (Spec.ForgetfulDisk)", n.Name())
	}
	return hc.WriteBack()
}

// LastHostCrash is what n's disk dropped at its last host crash, or an error saying
// why there is none.
func LastHostCrash(n Node) (HostCrash, error) {
	hc, ok := n.(HostCrashed)
	if !ok {
		return HostCrash{}, fmt.Errorf("%s: not on a forgetful disk (Spec.ForgetfulDisk)", n.Name())
	}
	c, ok := hc.LastHostCrash()
	if !ok {
		return HostCrash{}, fmt.Errorf("%s: no host crash yet", n.Name())
	}
	return c, nil
}

// RefuseHostCrash is the restart check of a node with no forgetful disk: a host crash
// it cannot make must fail, not pass for a restart from disk.
func RefuseHostCrash(name string, mode RestartMode) error {
	if mode == RestartAfterHostCrash {
		return fmt.Errorf("%s: a restart after a host crash needs a forgetful disk "+
			"(Spec.ForgetfulDisk: Redis, Valkey, etcd, PostgreSQL and ZooKeeper on their process providers)", name)
	}
	return nil
}
