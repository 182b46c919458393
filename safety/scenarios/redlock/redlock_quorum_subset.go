package redlock

import (
	"github.com/lockbench/lockbench/safety/lab"
)

// quorumSubset conditions a restart trial on where the winner's key was: the break is
// certain on exactly a quorum, impossible on more nodes, so each is its own variant.
type quorumSubset string

const (
	anyQuorum    quorumSubset = ""              // every grant: the natural break rate
	exactQuorum  quorumSubset = "exact-quorum"  // on a quorum at the grant; one short after the restart, the rest free
	beyondQuorum quorumSubset = "beyond-quorum" // on more than a quorum: still a quorum after one restart
)

// admits says whether the nodes read at the grant and after the restart put the trial
// in the subset; a trial outside it is fault_not_produced, with what was read.
func (q quorumSubset) admits(atGrant, after lab.QuorumNodes, nodes int) error {
	quorum := quorumOf(nodes)
	switch q {
	case exactQuorum:
		free := nodes - len(after.Holding) - len(after.Foreign)
		if len(atGrant.Holding) != quorum || len(after.Holding) != quorum-1 || free < quorum {
			return lab.NoFault(
				"not an exact-quorum grant: held on %v at the grant, %v after the restart, %d nodes free (want %d, %d, >= %d)",
				atGrant.Holding, after.Holding, free, quorum, quorum-1, quorum)
		}
	case beyondQuorum:
		if len(atGrant.Holding) <= quorum || len(after.Holding) < quorum {
			return lab.NoFault("not a beyond-quorum grant: held on %v at the grant, %v after the restart (want > %d, >= %d)",
				atGrant.Holding, after.Holding, quorum, quorum)
		}
	}
	return nil
}
