// Package check holds the safety lab's checkers: pure functions of a history, each
// tested on hand-written histories that must pass and histories that must fail. It
// imports the history and porcupine only: a checker cannot start a server.
package check

import (
	"time"

	"github.com/lockbench/lockbench/safety/history"
)

// Verdict is every checker's reading of one trial's history.
type Verdict struct {
	Mutex      MutexReport
	Fence      FenceReport
	Tokens     TokenReport
	Lost       LostReport
	Orphan     OrphanReport
	Linear     LinearReport
	Writes     WriteReport
	Grants     GrantReport
	SplitBrain SplitBrainReport
}

// Judge runs every checker on one trial's history; porcupine gets at most
// linearTimeout (0: no limit).
func Judge(h history.History, linearTimeout time.Duration) Verdict {
	return Verdict{
		Mutex:      MutualExclusion(h),
		Fence:      Fencing(h),
		Tokens:     Tokens(h),
		Lost:       LostLocks(h),
		Orphan:     Orphans(h),
		Linear:     Linearizable(h, linearTimeout),
		Writes:     Writes(h),
		Grants:     Grants(h),
		SplitBrain: SplitBrain(h),
	}
}
