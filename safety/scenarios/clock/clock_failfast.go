package clock

import (
	"context"
	"fmt"
	"slices"

	"github.com/lockbench/lockbench/locks"
	"github.com/lockbench/lockbench/safety/lab"
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
var redlockClients = []clockClient{redlockClient, failFastClient}

func redlockClientsParam() lab.Param {
	names := lab.CatalogueNames(redlockClients, clockClient.Name)
	return lab.ChoicesParam("strategies", names, names,
		"the Redlock clients A and B use: redlock waits for every node's answer, redlock-failfast returns at a majority")
}

// chosenRedlockClients are the clients the strategies param names, in its order.
func chosenRedlockClients(p lab.Values) []clockClient {
	return lab.PickNamed(redlockClients, p.Strings("strategies"), clockClient.Name)
}

// lateSetNote says, over v's judged trials, how often a SET A's client still had in
// flight reached a restarted node, and how often B got in anyway.
func lateSetNote(v *results.Variant) string {
	landed, none := splitJudged(v, aLateSets, func(x float64) bool { return x > 0 })
	return fmt.Sprintf("a SET of A's landed on a restarted node after the grant in %d judged trials (two holders in "+
		"%d), in none in %d (two holders in %d)",
		landed.trials, landed.broke, none.trials, none.broke)
}

// judgedSplit counts one side of a split of judged trials: trials, and those with two holders.
type judgedSplit struct{ trials, broke int }

// splitJudged parts v's judged trials that recorded input by whether in(value) holds.
func splitJudged(v *results.Variant, input string, in func(float64) bool) (yes, no judgedSplit) {
	for _, t := range v.Trials {
		x, ok := t.Inputs[input]
		if !ok || t.Outcome != results.Judged {
			continue
		}
		side := &no
		if in(x) {
			side = &yes
		}
		side.trials++
		if t.Counts[results.Violations] > 0 {
			side.broke++
		}
	}
	return yes, no
}

// bPartialNodes is the trial input counting nodes that hold, at the end of A's
// validity, a token neither A's nor B's granted one: what B's refused attempts left.
const bPartialNodes = "b_partial_nodes"

// partialLocks counts the nodes holding a token other than A's and, if B was granted,
// B's: SETs of refused attempts that landed after their client gave up and released.
// freeOfA counts the nodes no longer holding A's token.
func partialLocks(ctx context.Context, nodes []topologies.Node, key string, a, b locks.Lease, bGranted bool) (
	partial, freeOfA int, err error) {
	notA, err := lab.ReadQuorumNodes(ctx, nodes, key, a.Token)
	if err != nil {
		return 0, 0, err
	}
	freeOfA = len(nodes) - len(notA.Holding)
	if !bGranted {
		return len(notA.Foreign), freeOfA, nil
	}
	ofB, err := lab.ReadQuorumNodes(ctx, nodes, key, b.Token)
	if err != nil {
		return 0, 0, err
	}
	for _, i := range notA.Foreign {
		if !slices.Contains(ofB.Holding, i) {
			partial++
		}
	}
	return partial, freeOfA, nil
}

// partialNote says, over v's judged trials, how often B's refused attempts left
// partial locks behind and how often B got in anyway.
func partialNote(v *results.Variant) string {
	left, clean := splitJudged(v, bPartialNodes, func(x float64) bool { return x > 0 })
	return fmt.Sprintf("B's refused attempts left partial locks on some node in %d judged trials (B got in in %d), none "+
		"in %d (B got in in %d)",
		left.trials, left.broke, clean.trials, clean.broke)
}

// quorumNote says, over v's judged trials, how often A's grant sat on exactly a
// majority of the n nodes and how often each kind of grant broke.
func quorumNote(v *results.Variant, n int) string {
	majority := n/2 + 1
	exact, beyond := splitJudged(v, aNodesHeld, func(x float64) bool { return int(x) <= majority })
	return fmt.Sprintf("A's grant held on exactly %d of %d nodes in %d judged trials (two holders in %d), on more in %d "+
		"(two holders in %d)",
		majority, n, exact.trials, exact.broke, beyond.trials, beyond.broke)
}

// eachRedlockClient runs run for each Redlock client the strategies param names, into
// one report of the scenario running.
func eachRedlockClient(env *lab.Env, p lab.Values,
	run func(rep *results.Report, client clockClient) error) (*results.Report, error) {
	rep := env.NewReport()
	for _, client := range chosenRedlockClients(p) {
		if err := run(rep, client); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// measuredAndModel are the series of one sweep, named name: the share of judged trials
// with two holders at each x, and beside it the 0 or 1 the model predicts there.
func measuredAndModel(name, xLabel string, xs []float64, variants []clockVariant) []results.Series {
	measured := results.Series{Name: name + " measured", X: xLabel, Y: "share of judged trials with two holders"}
	model := results.Series{Name: name + " model", X: xLabel, Y: "1 if the model allows two holders"}
	for i, v := range variants {
		if pt, ok := results.VariantPoint(xs[i], v.Result(), results.Violations); ok {
			measured.Points = append(measured.Points, pt)
		}
		model.Points = append(model.Points,
			results.ValuePoint(xs[i], lab.BoolFloat(v.race.predict(nominalAcquire, nominalAttempt).Violation())))
	}
	return []results.Series{measured, model}
}
