package redisadmin

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

// ErrNoRedisServer says redis-server was found neither through REDIS_SERVER nor on PATH.
var ErrNoRedisServer = errors.New(
	"redis-server not found: install it (Debian/Ubuntu: apt-get install redis-server) or set REDIS_SERVER to its path")

// FindRedisServer returns the redis-server binary: $REDIS_SERVER if set, else PATH.
func FindRedisServer() (string, error) {
	if p := os.Getenv("REDIS_SERVER"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("REDIS_SERVER=%s: %w", p, err)
		}
		return p, nil
	}
	p, err := exec.LookPath("redis-server")
	if err != nil {
		return "", ErrNoRedisServer
	}
	return p, nil
}
