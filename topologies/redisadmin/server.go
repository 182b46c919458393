package redisadmin

import (
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/lockbench/lockbench/backend"
)

// ErrNoRedisServer says redis-server was found neither through REDIS_SERVER nor on PATH.
var ErrNoRedisServer = errors.New(
	"redis-server not found: install it (Debian/Ubuntu: apt-get install redis-server) or set REDIS_SERVER to its path")

// ErrNoValkeyServer says valkey-server was found neither through VALKEY_SERVER nor on PATH.
var ErrNoValkeyServer = errors.New("valkey-server not found: install it (Debian 12: apt-get install -t " +
	"bookworm-backports valkey-server, as scripts/deps.sh does) or set VALKEY_SERVER to its path")

// FindRedisServer returns the redis-server binary: $REDIS_SERVER if set, else PATH.
func FindRedisServer() (string, error) {
	return findBinary("REDIS_SERVER", "redis-server", ErrNoRedisServer)
}

// FindValkeyServer returns the valkey-server binary: $VALKEY_SERVER if set, else PATH.
func FindValkeyServer() (string, error) {
	return findBinary("VALKEY_SERVER", "valkey-server", ErrNoValkeyServer)
}

// FindServer returns the server binary of flavour (empty: Redis); the same binary runs
// sentinels with --sentinel.
func FindServer(flavour string) (string, error) {
	switch flavour {
	case "", backend.ServerRedis:
		return FindRedisServer()
	case backend.ServerValkey:
		return FindValkeyServer()
	}
	_, err := backend.ParseServerFlavour(flavour)
	return "", err
}

func findBinary(envVar, name string, notFound error) (string, error) {
	if p := os.Getenv(envVar); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s=%s: %w", envVar, p, err)
		}
		return p, nil
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", notFound
	}
	return p, nil
}
