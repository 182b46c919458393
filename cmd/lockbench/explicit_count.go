package main

import "fmt"

// parseExplicitCount reads --intervals or --repeat: 0 in a config means "unset", so a 0
// typed on the command line would silently mean the default; refuse it, naming the flag.
func parseExplicitCount(name, v string) (int, error) {
	n, err := parseCount(v)
	if err == nil && n == 0 {
		return 0,
			fmt.Errorf("%s = 0: want a count of at least %d, or leave the flag out for the default", name,
				map[string]int{"intervals": 2, "repeat": 1}[name])
	}
	return n, err
}
