// Package stats is lockbench's statistics, a leaf every layer above the results folder's
// schema may import: exact tests and corrections for families of them, and a results
// folder read the way plots, the report, compare, capacity and the ADR need it (cells
// grouped by name, repeats folded into medians, conditions, strategies in safety order,
// latency percentiles by name, rates). It knows nothing of servers; it computes, and
// neither draws nor formats a document.
package stats
