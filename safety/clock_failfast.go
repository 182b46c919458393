package safety

import (
	"context"
	"fmt"
	"slices"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/topologies"
)

// aNodesHeld is the trial input counting the Redlock nodes holding A's token right
// after its grant: a fail-fast client returns at a majority, so its lock may sit on
// no more nodes than that.
const aNodesHeld = "a_nodes_held"

// aLateSets is the trial input counting the nodes, down while A locked and restarted
// empty after its grant, that hold A's token by the end of A's validity: SETs A's client
// still had in flight when it returned.
const aLateSets = "a_late_sets"

// redlockClients are the Redlock clients the clock scenarios race: the one that waits
// for every node and the fail-fast one.
var redlockClients = []string{"redlock", "redlock-failfast"}

func redlockClientsParam() Param {
	return ChoicesParam("strategies", redlockClients, redlockClients, "the Redlock clients A and B use: redlock waits for every node's answer, redlock-failfast returns at a majority")
}

// clientPrefix names a fail-fast variant apart; redlock's variants keep their names.
func clientPrefix(strategy string) string {
	if strategy == "redlock" {
		return ""
	}
	return strategy + "/"
}

// lateSetNote says, over v's judged trials, how often a SET A's client still had in
// flight reached a restarted node, and how often B got in anyway.
func lateSetNote(v *results.Variant) string {
	var landed, landedBroke, none, noneBroke int
	for _, t := range v.Trials {
		late, ok := t.Inputs[aLateSets]
		if !ok || t.Outcome != results.Judged {
			continue
		}
		broke := t.Counts[results.Violations] > 0
		if late > 0 {
			landed++
			if broke {
				landedBroke++
			}
		} else {
			none++
			if broke {
				noneBroke++
			}
		}
	}
	return fmt.Sprintf("a SET of A's landed on a restarted node after the grant in %d judged trials (two holders in %d), in none in %d (two holders in %d)",
		landed, landedBroke, none, noneBroke)
}

// bPartialNodes is the trial input counting nodes that hold, at the end of A's
// validity, a token neither A's nor B's granted one: what B's refused attempts left.
const bPartialNodes = "b_partial_nodes"

// partialLocks counts the nodes holding a token other than A's and, if B was granted,
// B's: SETs of refused attempts that landed after their client gave up and released.
func partialLocks(ctx context.Context, nodes []topologies.Node, key string, a, b locks.Lease, bGranted bool) (int, error) {
	notA, err := readQuorumNodes(ctx, nodes, key, a.Token)
	if err != nil {
		return 0, err
	}
	if !bGranted {
		return len(notA.foreign), nil
	}
	ofB, err := readQuorumNodes(ctx, nodes, key, b.Token)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, i := range notA.foreign {
		if !slices.Contains(ofB.holding, i) {
			n++
		}
	}
	return n, nil
}

// partialNote says, over v's judged trials, how often B's refused attempts left
// partial locks behind and how often B got in anyway.
func partialNote(v *results.Variant) string {
	var left, leftBroke, clean, cleanBroke int
	for _, t := range v.Trials {
		n, ok := t.Inputs[bPartialNodes]
		if !ok || t.Outcome != results.Judged {
			continue
		}
		broke := t.Counts[results.Violations] > 0
		if n > 0 {
			left++
			if broke {
				leftBroke++
			}
		} else {
			clean++
			if broke {
				cleanBroke++
			}
		}
	}
	return fmt.Sprintf("B's refused attempts left partial locks on some node in %d judged trials (B got in in %d), none in %d (B got in in %d)",
		left, leftBroke, clean, cleanBroke)
}

// quorumNote says, over v's judged trials, how often A's grant sat on exactly a
// majority of the n nodes and how often each kind of grant broke.
func quorumNote(v *results.Variant, n int) string {
	majority := n/2 + 1
	var exact, beyond, exactBroke, beyondBroke int
	for _, t := range v.Trials {
		held, ok := t.Inputs[aNodesHeld]
		if !ok || t.Outcome != results.Judged {
			continue
		}
		broke := t.Counts[results.Violations] > 0
		if int(held) <= majority {
			exact++
			if broke {
				exactBroke++
			}
		} else {
			beyond++
			if broke {
				beyondBroke++
			}
		}
	}
	return fmt.Sprintf("A's grant held on exactly %d of %d nodes in %d judged trials (two holders in %d), on more in %d (two holders in %d)",
		majority, n, exact, exactBroke, beyond, beyondBroke)
}
