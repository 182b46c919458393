package topologies

import (
	"github.com/lockbench/lockbench/topologies/portlease"
	"github.com/lockbench/lockbench/topologies/supervise"
)

// HandleSignals turns the reaper's SIGINT/SIGTERM handler on or off. Programs that
// cancel their own work on a signal and then Close their topologies turn it off.
func HandleSignals(on bool) { supervise.HandleSignals(on) }

// OnReap has the reaper run cleanup on SIGINT/SIGTERM, as supervise.OnReap does.
func OnReap(cleanup func()) (forget func()) { return supervise.OnReap(cleanup) }

func trackDir(dir string)   { supervise.TrackDir(dir) }
func untrackDir(dir string) { supervise.UntrackDir(dir) }

// FreePort leases a free loopback port to this process (portlease: no other lockbench
// process nor outgoing connection takes it) until ReleasePort. A program outside
// lockbench may still bind it first: callers retry on supervise.ErrPortTaken.
func FreePort() (int, error) { return portlease.Take() }

// ReleasePort ends the lease FreePort took, once no server of ours will bind it again.
func ReleasePort(port int) { portlease.Release(port) }
