package report

import "strings"

// capacitySections are the report's sections on capacity and scaling, each present
// only when the folder has its data: the searched capacity (a `lockbench capacity`
// folder's capacity.json), the USL fit of throughput against clients, and p99
// against Redlock nodes and WAIT replicas, each with the figures drawn for it.
func capacitySections(in *Input, figs Figures) string {
	var b strings.Builder
	if in.Searched != nil && len(in.Searched.Searches) > 0 {
		writeSearchedCapacity(&b, *in.Searched, figs.Knees)
	}
	if len(in.Fits) > 0 {
		writeUSL(&b, in.Fits, figs.USL)
	}
	writeScaling(&b, figs.Scaling)
	return b.String()
}
