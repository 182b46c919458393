package preflight

import (
	"regexp"

	"github.com/lockbench/lockbench/internal/version"
)

// faketimeVersion reads faketime --version's output.
var faketimeVersion = version.Match(regexp.MustCompile(`Version (\S+)`))

// builtIn is a piece compiled into this program: its module's version, this program's path.
func builtIn(module string) func() (Found, error) {
	return func() (Found, error) {
		path, v, err := version.BuiltIn(module)
		return Found{Path: path, Version: v}, err
	}
}
