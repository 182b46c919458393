package redislock

import (
	"github.com/redis/rueidis/rueidislock"

	"github.com/lockbench/lockbench/locks"
)

// RueidisLibrary is the library's locker behind a rueidislock strategy's locker, or nil
// for any other locker.
func RueidisLibrary(l locks.Locker) rueidislock.Locker {
	if r, ok := l.(*rueidisLocker); ok {
		return r.library
	}
	return nil
}
