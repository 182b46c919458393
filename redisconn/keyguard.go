package redisconn

import (
	"fmt"
	"strconv"
	"strings"
)

// On servers lockbench does not own, every key a client names must start with the
// run's prefix (lockbench:<run-id>:): checked here, next to the allow-list, for the
// commands the lists allow. A command the lists allow and this file does not know the
// keys of names none (PING, WAIT, SCRIPT LOAD, INFO SERVER, TIME).

// keysOf returns the keys args name, and for SCAN the MATCH pattern.
func keysOf(name string, args []any) []string {
	switch name {
	case "set", "get", "incr", "pexpire":
		return argStrings(args, 1, 2)
	case "del", "unlink":
		return argStrings(args, 1, len(args))
	case "eval", "evalsha":
		if len(args) < 3 {
			return nil
		}
		n, err := strconv.Atoi(argString(args[2]))
		if err != nil || n < 0 {
			return []string{"<numkeys " + argString(args[2]) + ">"} // never a prefix: refused
		}
		return argStrings(args, 3, 3+n)
	case "scan":
		for i := 2; i+1 < len(args); i++ {
			if strings.EqualFold(argString(args[i]), "match") {
				return []string{argString(args[i+1])}
			}
		}
		return []string{"<scan without MATCH>"} // would walk every key: refused
	}
	return nil
}

func argStrings(args []any, from, to int) []string {
	if to > len(args) {
		to = len(args)
	}
	var out []string
	for i := from; i < to; i++ {
		out = append(out, argString(args[i]))
	}
	return out
}

// checkKeys is nil when every key the command name (as lookupName reads it) with args
// names starts with prefix ("" checks nothing).
func checkKeys(purpose, prefix, name string, args []any) error {
	if prefix == "" {
		return nil
	}
	for _, k := range keysOf(name, args) {
		if !strings.HasPrefix(k, prefix) {
			return &RefusedError{Purpose: purpose, Command: CommandName(args), Detail: fmt.Sprintf(
				"key %q is outside the run's prefix %s", k, prefix)}
		}
	}
	return nil
}
