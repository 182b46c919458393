package redisconn

// CheckCommand is the hook's check of one command, for its benchmark.
func CheckCommand(purpose string, args []any) error { return newAllowHook(purpose, "").check(args) }
