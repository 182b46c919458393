package redisadmin

import "fmt"

// LoopbackListens is how every Redis server and sentinel run as a process starts its
// config: loopback only, in the foreground, its log and data in its own folder.
func LoopbackListens(port int) []string {
	return []string{"bind 127.0.0.1", fmt.Sprintf("port %d", port), "daemonize no", "logfile server.log", "dir ."}
}

// RedisDataConfig is what every Redis server lockbench starts keeps: nothing on disk
// unless appendFsync asks for an append-only file, replication that streams at once.
func RedisDataConfig(appendFsync string) []string {
	lines := []string{`save ""`, "appendonly no", "repl-diskless-sync yes", "repl-diskless-sync-delay 0"}
	if appendFsync != "" {
		lines = append(lines, "appendonly yes", "appendfsync "+appendFsync)
	}
	return lines
}
