// Package redisadmin is the Redis admin commands every Redis provider, adapter, fault
// and scenario shares: replication and sentinel views, key reads, run ids, client
// pauses, readiness waits, and the server's finder and config lines. It sits below
// the stores' folders so that the safety lab and the container provider can use it.
package redisadmin

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// AdminClient is a one-connection client for inspecting and steering servers; it never
// retries, so a dead or paused server shows as an error, not a hang.
func AdminClient(addr string) *redis.Client {
	return redis.NewClient(&redis.Options{
		Addr:            addr,
		Protocol:        2,
		PoolSize:        1,
		MaxRetries:      -1,
		DialTimeout:     time.Second,
		ReadTimeout:     2 * time.Second,
		WriteTimeout:    time.Second,
		DisableIdentity: true,
	})
}

// AdminDo runs one command on addr and returns its error.
func AdminDo(ctx context.Context, addr string, args ...any) error {
	_, err := AdminQuery(ctx, addr, args...)
	return err
}

// AdminQuery runs one command on addr and returns its raw reply.
func AdminQuery(ctx context.Context, addr string, args ...any) (any, error) {
	c := AdminClient(addr)
	defer c.Close()
	return c.Do(ctx, args...).Result()
}

// infoFields runs INFO section on addr and returns its key:value lines.
func infoFields(ctx context.Context, addr, section string) (map[string]string, error) {
	c := AdminClient(addr)
	defer c.Close()
	return infoFieldsOn(ctx, c, section)
}

// infoFieldsOn runs INFO section on an open client and returns its key:value lines.
func infoFieldsOn(ctx context.Context, c *redis.Client, section string) (map[string]string, error) {
	text, err := c.Info(ctx, section).Result()
	if err != nil {
		return nil, err
	}
	fields := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if k, v, ok := strings.Cut(line, ":"); ok && !strings.HasPrefix(line, "#") {
			fields[k] = v
		}
	}
	return fields, nil
}

// ReplicaState is one replica as its master reports it in INFO replication.
type ReplicaState struct {
	Addr   string
	State  string // "online" once the first sync is done
	Offset int64
	Lag    int64 // seconds since the replica's last ack
}

// ReplicationInfo is the replication side of INFO on one server.
type ReplicationInfo struct {
	Role       string // "master" or "slave"
	MasterAddr string // for a replica
	LinkUp     bool   // for a replica: master_link_status:up
	Offset     int64  // master_repl_offset (or slave_repl_offset on a replica)
	Replicas   []ReplicaState
}

// Replication reads INFO replication from addr.
func Replication(ctx context.Context, addr string) (ReplicationInfo, error) {
	f, err := infoFields(ctx, addr, "replication")
	if err != nil {
		return ReplicationInfo{}, err
	}
	info := ReplicationInfo{Role: f["role"], LinkUp: f["master_link_status"] == "up"}
	if h, p := f["master_host"], f["master_port"]; h != "" {
		info.MasterAddr = h + ":" + p
	}
	if info.Role == "master" {
		fmt.Sscan(f["master_repl_offset"], &info.Offset)
	} else {
		fmt.Sscan(f["slave_repl_offset"], &info.Offset)
	}
	for i := 0; ; i++ {
		line, ok := f[fmt.Sprintf("slave%d", i)]
		if !ok {
			break
		}
		var r ReplicaState
		var ip, port string
		for _, kv := range strings.Split(line, ",") {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "ip":
				ip = v
			case "port":
				port = v
			case "state":
				r.State = v
			case "offset":
				fmt.Sscan(v, &r.Offset)
			case "lag":
				fmt.Sscan(v, &r.Lag)
			}
		}
		r.Addr = ip + ":" + port
		info.Replicas = append(info.Replicas, r)
	}
	return info, nil
}

// SentinelMasterAddr asks the sentinel at addr which server it believes is the master.
func SentinelMasterAddr(ctx context.Context, sentinelAddr, masterName string) (string, error) {
	reply, err := AdminQuery(ctx, sentinelAddr, "SENTINEL", "get-master-addr-by-name", masterName)
	if err != nil {
		return "", err
	}
	parts, ok := reply.([]any)
	if !ok || len(parts) != 2 {
		return "", fmt.Errorf("sentinel %s: unexpected get-master-addr-by-name reply %v", sentinelAddr, reply)
	}
	return fmt.Sprintf("%v:%v", parts[0], parts[1]), nil
}

// sentinelPeers counts what the sentinel at addr knows of a master: its replicas
// (not flagged down) and the other sentinels.
func sentinelPeers(ctx context.Context, sentinelAddr, masterName string) (replicas, sentinels int, err error) {
	reps, err := AdminQuery(ctx, sentinelAddr, "SENTINEL", "replicas", masterName)
	if err != nil {
		return 0, 0, err
	}
	for _, r := range asList(reps) {
		if !strings.Contains(fieldOf(r, "flags"), "down") {
			replicas++
		}
	}
	sens, err := AdminQuery(ctx, sentinelAddr, "SENTINEL", "sentinels", masterName)
	if err != nil {
		return 0, 0, err
	}
	return replicas, len(asList(sens)), nil
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// fieldOf reads a field from a RESP2 flat key/value list reply.
func fieldOf(entry any, key string) string {
	kv := asList(entry)
	for i := 0; i+1 < len(kv); i += 2 {
		if fmt.Sprint(kv[i]) == key {
			return fmt.Sprint(kv[i+1])
		}
	}
	return ""
}
