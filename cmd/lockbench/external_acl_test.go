package main

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/redisconn"
	"github.com/lockbench/lockbench/topologies"
)

// The ACL user the external runs log in as: allowed exactly the allow-list's commands
// (and what the lockers' scripts call) on keys under lockbench:, nothing else.
const (
	aclUser     = "lockbench-ext"
	aclPassword = "s3cret-Pa55word-that-must-never-be-written"
)

// redisPurposes are the purposes a Redis run uses: the strategies, cleanup, probe.
var redisPurposes = []string{"single", "wait", "sentinel", "redlock", "redlock-failfast", redisconn.PurposeCleanup, redisconn.PurposeWarm, redisconn.PurposeProbe}

// aclRule turns an allow-list entry into an ACL command rule: SCRIPT LOAD is
// +script|load; INFO has no subcommands to ACL, so INFO SERVER is +info.
func aclRule(cmd string) string {
	name, sub, ok := strings.Cut(strings.ToLower(cmd), " ")
	if !ok || name == "info" {
		return "+" + name
	}
	return "+" + name + "|" + sub
}

// dataServerRules are the ACL rules of aclUser on a master or replica.
func dataServerRules() []string {
	set := map[string]bool{}
	for _, p := range redisPurposes {
		for _, c := range redisconn.Allowed(p) {
			if !strings.HasPrefix(c, "SENTINEL ") { // sent to sentinels only
				set[aclRule(c)] = true
			}
		}
	}
	for _, c := range redisconn.ScriptCalls {
		set[aclRule(c)] = true
	}
	rules := []string{"reset", "on", ">" + aclPassword, "~lockbench:*", "resetchannels", "-@all"}
	for r := range set {
		rules = append(rules, r)
	}
	sort.Strings(rules[6:])
	return rules
}

// sentinelRules are the ACL rules of aclUser on a sentinel.
func sentinelRules() []string {
	rules := []string{"reset", "on", ">" + aclPassword, "&*", "-@all", "+hello", "+auth", "+ping"}
	for _, c := range append(append([]string{}, redisconn.SentinelCommands...), "SENTINEL GET-MASTER-ADDR-BY-NAME", "INFO SERVER") {
		rules = append(rules, aclRule(c))
	}
	return rules
}

// adminClient is the test's own client, as the default user: it sets ACLs and reads logs.
func adminClient(t *testing.T, addr string) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: addr, Protocol: 2, DisableIdentity: true, MaxRetries: -1})
	t.Cleanup(func() { c.Close() })
	return c
}

// restrictUser creates aclUser on every server of topo.
func restrictUser(t *testing.T, topo topologies.Topology) {
	t.Helper()
	ctx := context.Background()
	for _, n := range topo.Nodes() {
		rules := dataServerRules()
		if n.Role() == topologies.RoleSentinel {
			rules = sentinelRules()
		}
		args := []any{"ACL", "SETUSER", aclUser}
		for _, r := range rules {
			args = append(args, r)
		}
		admin := adminClient(t, n.Addr())
		if err := admin.Do(ctx, args...).Err(); err != nil {
			t.Fatalf("%s: ACL SETUSER %v: %v", n.Name(), rules, err)
		}
		if err := admin.Do(ctx, "ACL", "LOG", "RESET").Err(); err != nil {
			t.Fatalf("%s: ACL LOG RESET: %v", n.Name(), err)
		}
	}
}

// deniedFor lists the ACL LOG entries of user on addr: every command, key or channel
// the server refused it.
func deniedFor(t *testing.T, addr, user string) []string {
	t.Helper()
	entries, err := adminClient(t, addr).Do(context.Background(), "ACL", "LOG").Slice()
	if err != nil {
		t.Fatalf("ACL LOG on %s: %v", addr, err)
	}
	var out []string
	for _, e := range entries {
		fields, _ := e.([]any)
		m := map[string]any{}
		for i := 0; i+1 < len(fields); i += 2 {
			m[fields[i].(string)] = fields[i+1]
		}
		if m["username"] == user {
			out = append(out, strings.TrimSpace(strings.Join([]string{toString(m["reason"]), toString(m["object"]), toString(m["context"])}, " ")))
		}
	}
	return out
}

func toString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return ""
}

// allKeys scans addr's whole keyspace as the admin.
func allKeys(t *testing.T, addr string) []string {
	t.Helper()
	c := adminClient(t, addr)
	var out []string
	iter := c.Scan(context.Background(), 0, "*", 1000).Iterator()
	for iter.Next(context.Background()) {
		out = append(out, iter.Val())
	}
	if err := iter.Err(); err != nil {
		t.Fatalf("SCAN %s: %v", addr, err)
	}
	return out
}

// writeSecretFile writes the password where the deployment file points, readable by us only.
func writeSecretFile(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "redis.password")
	if err := os.WriteFile(path, []byte(aclPassword+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// assertSecretNowhere fails if the password is in any file under dir or in outputs.
func assertSecretNowhere(t *testing.T, dir string, outputs ...string) {
	t.Helper()
	for i, o := range outputs {
		if strings.Contains(o, aclPassword) {
			t.Errorf("output %d holds the password", i)
		}
	}
	seen := 0
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		seen++
		b, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(b), aclPassword) {
			t.Errorf("%s holds the password", path)
		}
		return err
	})
	if err != nil || seen == 0 {
		t.Fatalf("walk %s: %v (%d files): nothing to check", dir, err, seen)
	}
}
