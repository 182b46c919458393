package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/resultsdir"
	"github.com/lockbench/lockbench/stats"
)

// SplitUpdates parts a run into its lock cells (a run of their own, for the lock
// tables and figures) and its update cells.
func SplitUpdates(run *resultsdir.Run) (*resultsdir.Run, []resultsdir.Cell) {
	locks := *run
	locks.Cells = nil
	var updates []resultsdir.Cell
	for _, c := range run.Cells {
		if c.IsUpdate() {
			updates = append(updates, c)
		} else {
			locks.Cells = append(locks.Cells, c)
		}
	}
	return &locks, updates
}

// cellStrategies lists the strategies of every cell, in the ladder's order.
func cellStrategies(stores *backend.Catalog, run *resultsdir.Run) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range run.Cells {
		if !seen[c.Strategy] {
			seen[c.Strategy] = true
			out = append(out, c.Strategy)
		}
	}
	stats.SortStrategies(stores, out)
	return out
}

// updateLoad is what one cost table holds constant.
type updateLoad struct{ clients, rows int }

// writeUpdates is the cost of one correct update by every way, one table per load.
func writeUpdates(b *strings.Builder, cells []resultsdir.Cell) {
	b.WriteString("## The cost of one correct update\n\n")
	b.WriteString(
		"Each way updates an account row end to end: a lock strategy takes the row's lock, writes in its guard mode " +
			"and releases; a lock-free strategy lets the store judge the write (`cas-version`, `unique-key`, `atomic` on " +
			"PostgreSQL; " +
			"`lua-cas`, `watch-multi` on Redis). `retries/update` counts lock refusals or version conflicts per update; " +
			"`refused` " +
			"counts changes the store refused (stale fence, duplicate key); `lost` is the audit after the run: applied " +
			"changes " +
			"missing from the rows, which must be 0 without faults. Latency is one update, retries included.\n\n")
	var loads []updateLoad
	byLoad := map[updateLoad][]resultsdir.Cell{}
	for _, c := range cells {
		k := updateLoad{c.Clients, c.Keys}
		if _, ok := byLoad[k]; !ok {
			loads = append(loads, k)
		}
		byLoad[k] = append(byLoad[k], c)
	}
	sort.Slice(loads, func(i, j int) bool {
		if loads[i].clients != loads[j].clients {
			return loads[i].clients < loads[j].clients
		}
		return loads[i].rows < loads[j].rows
	})
	for _, k := range loads {
		rows := "one hot row"
		if k.rows == k.clients && k.clients > 1 {
			rows = "a row per client"
		} else if k.rows > 1 {
			rows = fmt.Sprintf("%d rows", k.rows)
		}
		fmt.Fprintf(b, "### %d client(s), %s\n\n", k.clients, rows)
		b.WriteString(
			"| strategy | guard | fence | updates/s | p50 | p99 | p99.9 | retries/update | refused | lost | errors |\n")
		b.WriteString("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, c := range byLoad[k] {
			u, lat := c.Update, c.Latency[resultsdir.MetricUpdate]
			if u == nil {
				continue
			}
			guard, fence := c.Guard, u.Fence
			if guard == "" {
				guard, fence = "lock-free", "-"
			}
			if fence == "" {
				fence = "-"
			}
			var errs int64
			for _, n := range c.Errors {
				errs += n
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %.2f | %d | %d | %d |\n", c.Strategy, guard, fence,
				stats.FormatRate(u.UpdatesPerSecond), stats.FormatDuration(lat.P50.D()), stats.FormatDuration(lat.P99.D()),
				stats.FormatDuration(lat.P999.D()), u.RetriesPerUpdate, u.Refused, u.LostUpdates, errs)
		}
		b.WriteString("\n")
	}
	for _, c := range cells {
		if c.Update != nil && (c.Update.LostUpdates != 0 || c.Update.Duplicates != 0) {
			fmt.Fprintf(b, "**Finding:** `%s` lost %d updates (%d applied twice) with no fault injected.\n\n", c.Name,
				c.Update.LostUpdates, c.Update.Duplicates)
		}
	}
}
