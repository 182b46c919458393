// Package rueidislayout is where rueidislock keeps a lock as lockbench's adapter runs it
// (the library's defaults): its keys, and how far ahead each grant and watchdog push
// puts their end. The adapter (backends/redis/redislock) builds on it; the scenarios
// that watch those keys read it without linking the library or the store.
package rueidislayout

import (
	"fmt"
	"time"
)

// KeyValidity is the library's default KeyValidity, which the adapter keeps: how far
// ahead of the client's clock each SET PXAT and each watchdog push puts the key's end.
const KeyValidity = 5 * time.Second

// ClusterMajority is the library's default KeyMajority: on a cluster a lock is 2 of 3 keys.
const ClusterMajority = 2

// Key is the server key the adapter's lock on name lives in on one server: the
// library's default prefix, key 0 of KeyMajority*2-1 = 1.
func Key(name string) string { return KeyOf(name, 0) }

// KeyOf is key i of the KeyMajority*2-1 keys of the lock on name.
func KeyOf(name string, i int) string { return fmt.Sprintf("rueidislock:%d:%s", i, name) }
