package adr

import (
	"testing"

	"github.com/lockbench/lockbench/adr/workload"
)

// loadWorkload reads the workload file at path; a test cannot go on without it.
func loadWorkload(t *testing.T, path string) *workload.Workload {
	t.Helper()
	w, err := workload.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// withViolationBudget sets w's budget of violations a year to budget and returns w,
// for the tests that judge an option against a tighter budget than the file's.
func withViolationBudget(w *workload.Workload, budget float64) *workload.Workload {
	w.ViolationBudget = &budget
	return w
}
