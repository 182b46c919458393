package adr

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/lockbench/lockbench/backend"
)

// count formats a count per year with three significant digits: 0.0412, 1.2, 118.
func count(x float64) string {
	switch {
	case x == 0:
		return "0"
	case math.IsInf(x, 1):
		return "no bound"
	}
	digits := max(0, 2-int(math.Floor(math.Log10(math.Abs(x)))))
	return strconv.FormatFloat(x, 'f', digits, 64)
}

// percent formats a probability as a percentage, as the safety tables do (0-16%),
// with one decimal below 10%.
func percent(p float64) string {
	v := 100 * p
	if v > 0 && v < 10 {
		return strings.TrimSuffix(strconv.FormatFloat(v, 'f', 1, 64), ".0") + "%"
	}
	return strconv.FormatFloat(math.Round(v), 'f', 0, 64) + "%"
}

// percentSpan is an interval in percent, "2.8-30%".
func percentSpan(lo, hi float64) string {
	return strings.TrimSuffix(percent(lo), "%") + "-" + percent(hi)
}

// perFault says a measured probability: "0 of 40 judged (below 7.2% per fault)" or
// "2 of 20 judged (2.8-30%)".
func perFault(m *Measured) string {
	if m.P.K == 0 {
		return fmt.Sprintf("0 of %d judged (below %s per fault)", m.P.N, percent(m.P.Hi))
	}
	return fmt.Sprintf("%d of %d judged (%s)", m.P.K, m.P.N, percentSpan(m.P.Lo, m.P.Hi))
}

// yearly says the expected count a year, never a bare zero: a central value with its
// interval, or "at most" the upper end when nothing was seen.
func yearly(e Expected, seen bool) string {
	if e.Lo == e.Hi { // a mechanism's count (or a sum of them): no interval to give
		return count(e.Hi) + " a year"
	}
	if !seen {
		return "at most " + count(e.Hi) + " a year"
	}
	return fmt.Sprintf("%s (%s-%s) a year", count(e.Central), count(e.Lo), count(e.Hi))
}

// measuredText is a probability and what it makes a year, in one phrase.
func measuredText(m *Measured) string {
	if m == nil {
		return "not measured"
	}
	if m.Uncounted != "" {
		return notSizedText(m)
	}
	if m.Modelled {
		lab := perFault(m)
		if m.Demo != NotDemo {
			lab = fmt.Sprintf("%d of %d judged, a forced interleaving,", m.P.K, m.P.N)
		}
		return fmt.Sprintf("%s (%s) of held locks, by the %s model (the lab's %s shows the mechanism): %s",
			percent(m.ModelP.Central), percentSpan(m.ModelP.Lo, m.ModelP.Hi), m.ModelName, lab, yearly(m.Year, true))
	}
	if m.Demo != NotDemo {
		return demoText(m)
	}
	sized := ""
	if m.SizedBy != "" && m.Share < 1 {
		sized = fmt.Sprintf(" x %s of the counted faults large enough to break a hold (%s)", percent(m.Share), m.SizedBy)
	}
	if m.P.K == 0 {
		return fmt.Sprintf("%s%s, so %s", perFault(m), sized, yearly(m.Year, false))
	}
	return fmt.Sprintf("%s%s: %s", perFault(m), sized, yearly(m.Year, true))
}

// totalText is an option's total on one side, or why there is none.
func totalText(e Expected, missing []backend.Fault, anySeen bool) string {
	s := yearly(e, anySeen)
	if len(missing) > 0 {
		names := make([]string, len(missing))
		for i, k := range missing {
			names[i] = string(k)
		}
		return s + " + not measured: " + strings.Join(names, ", ")
	}
	return s
}

// Plain formats a number the team wrote, as written: 4, 0.5, 12.
func Plain(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// plural is "1 client", "8 clients".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
