// Package stats is lockbench's statistics, a leaf every layer may import: exact tests
// and corrections for families of them. It knows nothing of servers, runs or files.
package stats
