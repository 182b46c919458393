package sweep

// repeated lays out n passes over the ordered cells, each cell tagged with its pass:
// A B C A B C, not A A B B C C, so that a drift of the machine (another tenant, a
// warming CPU) falls on every cell alike instead of on whichever ran last. Within a
// pass the cells stay grouped by strategy, so a strategy's servers start once per
// pass rather than once per cell; the price is one restart per strategy and pass,
// and with a single strategy none at all.
func repeated(cells []Cell, n int) []Cell {
	if n <= 1 {
		return cells
	}
	out := make([]Cell, 0, n*len(cells))
	for pass := 1; pass <= n; pass++ {
		for _, c := range cells {
			c.Repeat = pass
			out = append(out, c)
		}
	}
	return out
}
