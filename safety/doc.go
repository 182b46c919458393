// Package safety reproduces the ways a lock breaks, on real servers, and judges what
// happened. It is built Jepsen style: a shared lab, and each family of scenarios a small
// package over it.
//
//   - safety/lab: what every scenario shares. Env and Run, the scenario registry,
//     params, the trial runner (trial.go; progress.go keeps the report under way, handed
//     out after every trial so that an interrupt loses none, and replays the trials of a
//     resumed run instead of running them again), Client (a recorded lock user whose
//     pause gate is a GC stop), Resource (the protected resource, fenced or not), and
//     the Store adapters (store_*.go: which node is primary, how to await a promotion,
//     where the fence comes from, how to read the key). safety/lab/sentinelrig is the
//     Sentinel failover several scenarios share; safety/lab/labtest runs a scenario in
//     tests and asserts its claims.
//   - safety/scenarios/<family>: the scenarios, one package per family, each
//     registering its own in an init; safety/scenarios/all imports them all.
//   - safety/history: plain-data events of one trial (acquire invoked / granted /
//     refused, critical section entered / left, writes with their fence and answer,
//     releases, extends, observations of a key, probe writes, nemesis acts).
//   - safety/check: pure checkers of a history (mutual exclusion, fencing order,
//     reissued tokens, lost and orphaned locks, honest writes refused and stores
//     diverged, second grants, split-brain windows, porcupine linearizability with
//     Unknown kept apart). It imports history and porcupine only.
//   - safety/nemesis: the faults, one file each behind the Fault interface, registered
//     by name, and a schedule.
//   - safety/results: the outcome of each trial (a closed set: judged,
//     fault_not_produced, error by kind, not_granted), tallies with 95% Wilson
//     intervals, the results.md tables and results.json. plots reads it directly.
//   - this package: this overview and the test of the one-way flow; callers (the CLI,
//     preflight, the suite runner) name the lab's own types and functions.
//
// The one-way flow: check and results never import topologies, locks or nemesis.
//
// The rule of a verdict: a trial is judged only after it proved its fault happened
// (Trial.Prove, recorded in the trial's results): the key read on the promoted master,
// the clock step read back from the node, the cut write missing on the replica, the
// old master seen accepting a write, the pause measured at the resource longer than
// the lease. A trial function that returns nil without a proof is an error of kind
// "unproven"; NoFault makes it fault_not_produced; FirstGrant turns only a WAIT or
// min-replicas refusal into not_granted; every other failure is an error of its kind.
// A scenario never counts violations itself: every measure comes from a checker, or
// from the audit of a resource that judges itself (Trial.Count: lost-updates reads
// the account rows back and compares them with every change intended on them).
//
// Adding a scenario: write <name>.go in its family's package under safety/scenarios
// (or a new family, imported by scenarios/all) with a type implementing lab.Runner, and
// add its line to the family's scenarios.go: lab.Register(yours{}, lab.About{Name,
// Starts, Summary, Params}), where Starts says what it starts beside its strategies
// param's topologies (preflight checks them). Declare its params once with the typed
// constructors of lab/params.go; give it a variant struct that embeds lab.Variant and
// names its behaviour in fields; give each variant the Claims the write-up makes (the
// tests assert every claim on judged trials, through labtest.RunScenario); run trials
// with lab.RunTrials; take the store and its lock clients from a Store adapter
// (lab.StoresParam lets the user pick any strategy of the locks registry whose store
// fits); cause a failover with lab.KillPrimary.
//
// Adding a store: its registration (backends/store) gives lab its adapter, a type
// implementing lab.Store (and Failover, KeyReader, or the capabilities a scenario asks
// for) made for its topology kind. Adding a fault: one file in safety/nemesis.
package safety
