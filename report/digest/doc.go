// Package digest reads a results folder the way plots, the report and compare need it:
// cells grouped by name (repeats folded into medians), conditions, strategies in
// safety order, latency percentiles by name. It computes; it neither draws nor formats.
package digest
