package resultsdir

import "github.com/lockbench/lockbench/internal/samerun"

// Software is the part of an Environment that decides what a run measures: a run
// resumed with other software would mix two measurements in one folder.
type Software struct {
	GoVersion   string            `json:"go_version"`
	RedisServer string            `json:"redis_server"`
	Libraries   map[string]string `json:"libraries"`
}

// Software is env's Go, redis-server and library versions.
func (env Environment) Software() Software {
	return Software{GoVersion: env.GoVersion, RedisServer: env.RedisServer, Libraries: env.Libraries}
}

// SoftwareDifference is the first version that differs between this program (here)
// and the one that wrote a folder (there); ok is false when they agree.
func SoftwareDifference(here, there Environment) (samerun.Difference, bool) {
	return samerun.First(here.Software(), there.Software())
}
