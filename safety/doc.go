// Package safety reproduces the ways a Redis lock breaks, on real servers, and judges
// what happened. It is built Jepsen style: clients and a nemesis act, every step is
// recorded as a plain-data Event, and checkers are pure functions of that history.
//
// The rooms:
//   - history.go: Event, History, Recorder.
//   - resource.go: the protected resource, fenced or not, counting holders itself.
//   - client.go: a lock user that records its steps; its pause gate is the GC stop.
//   - check_*.go: CheckMutualExclusion, CheckFencing, CheckTokens, CheckLostLocks,
//     CheckOrphans, CheckLinearizable (porcupine, HTML page for violations); Judge
//     runs them all.
//   - nemesis.go + fault_*.go: Fault, one file per fault, RegisterFault by name;
//     schedule.go runs faults at offsets.
//   - scenario.go + scenario_*.go: Scenario, one file per scenario, Register by name.
//   - report.go, results.go: Variant counts, Report tables, results.json.
//
// Adding a scenario (clock faults, etcd variants): write scenario_<name>.go with a
// type implementing Scenario and `func init() { Register(yours{}) }`. In Run, parse
// env.Params first (return *ParamError on bad input), start servers with env.start or
// env.Start and close them on every path, record each trial with a fresh Recorder and
// Clients over any locks.Locker (a lease with HasFence carries its token to the
// resource), put a timeout on every wait, call v.skip(trial, inputs,
// "fault-not-produced", why) when the fault could not be caused, and env.judgeTrial
// otherwise. Give each Variant an Expect and a Measure: the tests assert them.
//
// Adding a fault: write fault_<name>.go with a type implementing Fault and
// `func init() { RegisterFault(yours{}) }`; act through topologies.Node handles or
// admin commands on node addresses, note the act with t.note, return a Heal.
package safety
