package redisconn

import (
	"fmt"
	"sort"
	"strings"
)

// The one allow-list of Redis commands lockbench's clients may send, by purpose.
// A command with subcommands is listed as "NAME SUBCOMMAND" (SCRIPT LOAD, INFO SERVER):
// SCRIPT LOAD is allowed where SCRIPT FLUSH is not. The hook in allowhook.go refuses
// everything else before it leaves the process, on owned and external servers alike.

// Purposes other than the strategies' names (each store's strategies give theirs with
// Allow, from the init that registers them).
const (
	PurposeCleanup    = "cleanup"    // deletes the run's own keys at its end
	PurposeWarm       = "warm"       // opens and proves connections before a measurement
	PurposeRendezvous = "rendezvous" // the worker barrier: several hosts meet on one counter
	PurposeProbe      = "probe"      // reads a server's version for results.json
)

// connectionSetup is what go-redis sends on every new connection (HELLO, or AUTH when
// HELLO is refused) and what a warm-up proves a connection with.
var connectionSetup = []string{"HELLO", "AUTH", "PING"}

var allowed = map[string][]string{
	PurposeCleanup:    {"SCAN", "UNLINK"},
	PurposeWarm:       nil, // PING, in connectionSetup
	PurposeRendezvous: {"INCR", "GET", "SET", "TIME"},
	PurposeProbe:      {"INFO SERVER", "SENTINEL GET-MASTER-ADDR-BY-NAME"},
}

// SentinelCommands are what go-redis's failover client sends to the sentinels
// themselves. Those connections are made inside go-redis, out of the hook's reach: the
// list says what a sentinel ACL user needs, and the ACL test proves it is enough.
var SentinelCommands = []string{"SENTINEL GET-MASTER-ADDR-BY-NAME", "SENTINEL SENTINELS", "SENTINEL REPLICAS",
	"SUBSCRIBE", "PSUBSCRIBE", "UNSUBSCRIBE", "PUNSUBSCRIBE"}

// ScriptCalls are the commands the lockers' Lua scripts (redsync's and bsm/redislock's
// too) call inside the server. No client sends them, so the hook never sees them; an ACL
// user needs them. GETRANGE is bsm/redislock's, comparing a held key's token on obtain.
var ScriptCalls = []string{"GET", "DEL", "PEXPIRE", "SET", "GETRANGE"}

// withSubcommands are the commands whose first argument picks what they do (lower
// case: go-redis sends names so, and the hook's lookup then allocates nothing).
var withSubcommands = map[string]bool{
	"script": true, "client": true, "config": true, "sentinel": true, "acl": true,
	"function": true, "command": true, "memory": true, "object": true, "cluster": true,
	"debug": true, "module": true, "slowlog": true, "latency": true, "pubsub": true,
	"xinfo": true, "xgroup": true, "info": true,
}

// allowSets are the lists as sets of lower-case names, built once.
var allowSets = func() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for purpose, cmds := range allowed {
		out[purpose] = commandSet(cmds)
	}
	return out
}()

// Allow adds the allow-list of a purpose a store's own package names (its strategies),
// from that package's init; a purpose listed twice is a programming error and panics.
func Allow(purpose string, commands []string) {
	if _, dup := allowed[purpose]; dup {
		panic("redisconn: allow-list of purpose " + purpose + " given twice")
	}
	allowed[purpose] = commands
	allowSets[purpose] = commandSet(commands)
}

// commandSet is cmds and the connection set-up as a set of lower-case names.
func commandSet(cmds []string) map[string]bool {
	set := map[string]bool{}
	for _, c := range append(append([]string{}, connectionSetup...), cmds...) {
		set[strings.ToLower(c)] = true
	}
	return set
}

// Purposes lists the purposes with an allow-list, sorted.
func Purposes() []string {
	out := make([]string, 0, len(allowed))
	for p := range allowed {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Allowed returns purpose's commands (connection set-up included), sorted; nil for a
// purpose with no list.
func Allowed(purpose string) []string {
	set, ok := allowSets[purpose]
	if !ok {
		return nil
	}
	out := make([]string, 0, len(set))
	for c := range set {
		out = append(out, strings.ToUpper(c))
	}
	sort.Strings(out)
	return out
}

// CommandName is how the allow-list names the command args send: "SET", "SCRIPT LOAD".
func CommandName(args []any) string { return strings.ToUpper(lookupName(args)) }

// lookupName is CommandName in lower case; for a lower-case name without subcommand
// (every lock command) it allocates nothing.
func lookupName(args []any) string {
	if len(args) == 0 {
		return ""
	}
	name := strings.ToLower(argString(args[0]))
	if withSubcommands[name] && len(args) > 1 {
		return name + " " + strings.ToLower(argString(args[1]))
	}
	return name
}

func argString(a any) string {
	if s, ok := a.(string); ok {
		return s
	}
	return fmt.Sprint(a)
}

// RefusedError is a command the allow-list keeps from a server; it was never sent.
type RefusedError struct {
	Purpose string
	Command string
	Detail  string // why, when the command is allowed but its key is not
}

func (e *RefusedError) Error() string {
	if e.Detail != "" {
		return fmt.Sprintf("lockbench refused to send %s for purpose %q: %s; it was not sent", e.Command, e.Purpose, e.Detail)
	}
	return fmt.Sprintf(
		"lockbench refused to send %s: not on the allow-list of purpose %q (redisconn/allowlist.go); it was not sent",
		e.Command, e.Purpose)
}
