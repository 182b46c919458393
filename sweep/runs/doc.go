// Package runs carries a sweep's matrix into a results folder, as `lockbench run`
// does: a fresh folder with the config and the flags it was run with, or the resume
// of an interrupted one checked against what it recorded; progress as the cells
// finish, and their summary at the end. It writes no report: the command does.
package runs
