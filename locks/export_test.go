package locks

// CheckCommand is checkCommand, for the hook's benchmark.
var CheckCommand = checkCommand
