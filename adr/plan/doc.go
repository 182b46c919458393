// Package plan lists what the ADR of a workload still needs that the given results
// lack: the lockbench commands `adr --plan` prints and `adr --measure` runs, each
// with its estimated time. It sits above package adr (the workload, options, probes
// and size models it reads); nothing in adr reads a plan.
package plan
