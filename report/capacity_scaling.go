package report

import "strings"

// writeScaling is the section of p99 against Redlock nodes and WAIT replicas: the
// figures drawn for it, each captioned with what it shows; nothing when none was.
func writeScaling(b *strings.Builder, figs []Figure) {
	if len(figs) == 0 {
		return
	}
	b.WriteString("## Scaling: Redlock nodes and WAIT replicas\n\n")
	writeFigureList(b, figs)
}
