package report

import (
	"fmt"
	"strings"
)

// Figure is a figure drawn into the results folder before the report is written, as
// the report names it: its files relative to the folder (PNG first, then SVG) and its
// caption.
type Figure struct {
	Name    string
	Files   []string
	Caption string
}

// Figures are the report's figures by the section that shows them. The report draws
// none: whoever writes it draws them first, from the same Input.
type Figures struct {
	Run        []Figure // the run's cells: the section "Figures"
	Knees      []Figure // the searched capacity, one per condition
	USL        []Figure // throughput against clients with its fit, one per hold and TTL
	Scaling    []Figure // p99 against Redlock nodes and WAIT replicas
	CostVsLoss *Figure  // the section "what keeps the data correct"; nil without one
}

// All lists every figure in the order `lockbench report` prints them.
func (f Figures) All() []Figure {
	var all []Figure
	for _, section := range [][]Figure{f.Run, f.Knees, f.USL, f.Scaling} {
		all = append(all, section...)
	}
	if f.CostVsLoss != nil {
		all = append(all, *f.CostVsLoss)
	}
	return all
}

// writeFigureList embeds figures one after another, each followed by its caption.
func writeFigureList(b *strings.Builder, figs []Figure) {
	for _, f := range figs {
		fmt.Fprintf(b, "![%s](%s)\n\n%s\n\n", f.Name, f.Files[0], f.Caption)
	}
}
