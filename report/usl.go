package report

import (
	"fmt"
	"strings"

	"github.com/lockbench/lockbench/capacity"
	"github.com/lockbench/lockbench/stats"
)

// writeUSL is the section "scaling with clients": the fit's parameters, the peak it
// predicts, or why it does not predict; then its figures.
func writeUSL(b *strings.Builder, fits []capacity.StrategyFit, figs []Figure) {
	var rows []string
	for _, f := range fits {
		if f.Err != nil {
			rows = append(rows,
				fmt.Sprintf("| `%s` | %s | %d | – | – | – | – | no fit: %v |", f.Strategy, f.Hold, len(f.Points), f.Err))
			continue
		}
		u := f.Fit
		verdict := ""
		switch n, x, ok := u.Peak(); {
		case u.Poor():
			verdict = fmt.Sprintf("poor fit (residual %.1f%% > %.0f%%): no prediction", 100*u.Residual, 100*capacity.PoorFit)
		case ok:
			verdict = fmt.Sprintf("peak at %.0f clients, %s/s predicted (residual %.1f%%)", n, stats.FormatRate(x),
				100*u.Residual)
		default:
			verdict = fmt.Sprintf("no peak (κ = 0): levels off toward %s/s (residual %.1f%%)",
				stats.FormatRate(u.Lambda/max(u.Sigma, 1e-12)), 100*u.Residual)
		}
		if len(f.Marked) > 0 {
			verdict += "; left out for errors or drops: " + strings.Join(f.Marked, ", ")
		}
		rows = append(rows, fmt.Sprintf("| `%s` | %s | %d | %s | %.4f | %.6f | %s |", f.Strategy, f.Hold, len(f.Points),
			stats.FormatRate(u.Lambda), u.Sigma, u.Kappa, verdict))
	}
	if !writeTable(b, "## Scaling with clients: the Universal Scalability Law\n\n",
		"X(N) = λN / (1 + σ(N−1) + κN(N−1)) fitted by least squares (relative errors, σ and κ kept ≥ 0) to "+
			"closed-loop throughput against clients, a key per client, no injected latency. σ is the serialized share "+
			"(contention), κ the crosstalk that makes throughput fall past the peak at √((1−σ)/κ) clients. The "+
			"residual is the root mean square relative error of the fit over its points.\n\n",
		"| strategy | hold | points | λ (1 client, /s) | σ | κ | peak |\n|---|---|---:|---:|---:|---:|---|\n", rows) {
		return
	}
	writeFigureList(b, figs)
}
