package zklock

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/go-zookeeper/zk"

	"github.com/lockbench/lockbench/locks"
)

// root holds one lock dir per key; a lock dir holds the contenders' nodes.
const (
	root       = "/lockbench-locks"
	nodePrefix = "lock-"
)

// openACL lets anyone do anything: the servers are the suite's own, on loopback.
var openACL = zk.WorldACL(zk.PermAll)

// lockDir is the key's lock dir. The key is escaped: a "/" in it must not make a
// deeper path, and "." or ".." are not node names ZooKeeper accepts.
func lockDir(key string) string {
	name := url.PathEscape(key)
	if name == "" || name == "." || name == ".." {
		name = strings.ReplaceAll("key"+name, ".", "%2E")
	}
	return root + "/" + name
}

// attempt is one try of ZooKeeper's lock recipe on s: create an ephemeral sequential
// node under the key's dir, and hold the lock if it is the lowest there; otherwise
// delete it again and report contention. It returns the node's path and its czxid, the
// zxid of the transaction that created it: raft-like, zxids only grow, across leader
// changes too (the epoch is their high half). Any error but ErrNotAcquired leaves the
// session in doubt (a create whose reply was lost still made a node): discard it.
func attempt(s *session, key string) (string, int64, error) {
	dir := lockDir(key)
	node, err := s.conn.Create(dir+"/"+nodePrefix, nil, zk.FlagEphemeralSequential, openACL)
	if errors.Is(err, zk.ErrNoNode) {
		if err = ensureDir(s, dir); err == nil {
			node, err = s.conn.Create(dir+"/"+nodePrefix, nil, zk.FlagEphemeralSequential, openACL)
		}
	}
	if err != nil {
		return "", 0, fmt.Errorf("create lock node under %s: %w", dir, err)
	}
	// A session reads its own writes, and any node numbered below ours was created
	// before it, so the listing cannot miss a lower contender.
	children, _, err := s.conn.Children(dir)
	if err != nil {
		return "", 0, fmt.Errorf("list %s: %w", dir, err)
	}
	if lowest(children) != path.Base(node) {
		if err := s.conn.Delete(node, -1); err != nil {
			return "", 0, fmt.Errorf("withdraw %s: %w", node, err)
		}
		return "", 0, locks.ErrNotAcquired
	}
	exists, stat, err := s.conn.Exists(node)
	if err != nil {
		return "", 0, fmt.Errorf("stat %s: %w", node, err)
	}
	if !exists || stat.EphemeralOwner != s.id {
		return "", 0, fmt.Errorf("lock node %s vanished at once: %w", node, errSessionLost)
	}
	return node, stat.Czxid, nil
}

// lowest is the first contender: the child with the lowest sequence number. Our own
// nodes are "lock-N"; go-zookeeper's recipe (AcquireWaiting) names its "_c_<guid>-lock-N",
// so names do not sort as numbers: the dir's one counter numbers both.
func lowest(children []string) string {
	first, firstSeq := "", int64(-1)
	for _, c := range children {
		if seq, ok := sequence(c); ok && (firstSeq < 0 || seq < firstSeq) {
			first, firstSeq = c, seq
		}
	}
	return first
}

// sequence is the number ZooKeeper appended to a contender's node name.
func sequence(node string) (int64, bool) {
	i := strings.LastIndex(node, nodePrefix)
	if i < 0 {
		return 0, false
	}
	seq, err := strconv.ParseInt(node[i+len(nodePrefix):], 10, 64)
	return seq, err == nil && seq >= 0
}

// ensureDir makes the root and the key's dir, persistent: other lockers may be making
// them too. Dirs stay after their last lock, so sequence numbers never restart.
func ensureDir(s *session, dir string) error {
	for _, p := range []string{root, dir} {
		if _, err := s.conn.Create(p, nil, 0, openACL); err != nil && !errors.Is(err, zk.ErrNodeExists) {
			return fmt.Errorf("create %s: %w", p, err)
		}
	}
	return nil
}

// ownedBy proves in a read that reflects every commit before it (sync, then exists)
// that node still exists and belongs to session s: the session is alive on the leader.
func ownedBy(s *session, node string) (bool, error) {
	if _, err := s.conn.Sync(node); err != nil {
		if errors.Is(err, zk.ErrNoNode) {
			return false, nil
		}
		return false, err
	}
	exists, stat, err := s.conn.Exists(node)
	if err != nil {
		return false, err
	}
	return exists && stat.EphemeralOwner == s.id, nil
}
