package resultsdir

import "github.com/lockbench/lockbench/resultsdir/samerun"

// Software is the part of an Environment that decides what a run measures: a run
// resumed with other software would mix two measurements in one folder.
type Software struct {
	GoVersion   string            `json:"go_version"`
	RedisServer string            `json:"redis_server"`
	Libraries   map[string]string `json:"libraries"`
	Binary      string            `json:"binary"`
}

// Software is env's Go, redis-server and library versions and its binary.
func (env Environment) Software() Software {
	return Software{GoVersion: env.GoVersion, RedisServer: env.RedisServer, Libraries: env.Libraries, Binary: env.Binary}
}

// SoftwareDifference is the first version that differs between this program (here)
// and the one that wrote a folder (there); ok is false when they agree.
func SoftwareDifference(here, there Environment) (samerun.Difference, bool) {
	if there.Binary == "" { // a folder written before binaries were recorded: unknown, not different
		here.Binary = ""
	}
	return samerun.First(here.Software(), there.Software())
}
