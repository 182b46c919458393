package main

import (
	"flag"
	"io"
	"strings"

	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/capacity"
)

// capacityCLI is the command line of `lockbench capacity`.
type capacityCLI struct {
	fs                *flag.FlagSet
	configFile, out   *string
	noReport          *bool
	deployment, runID string
}

func newCapacityCLI(stderr io.Writer) *capacityCLI {
	fs := commandFlags("capacity", stderr)
	c := capacityCLI{fs: fs}
	c.configFile = fs.String("config", "", "YAML file with the fields below (flags override it)")
	c.out = fs.String("out", "", "results folder (default results/<timestamp>; must not exist or be empty)")
	c.noReport = fs.Bool("no-report", false, "do not write report.md and figures at the end")
	def := capacity.DefaultConfig(linked.Catalog())
	fs.String("strategies", strings.Join(def.Strategies, ","), "comma-separated strategies to search")
	fs.String("slo", def.SLO,
		"latency budget: PERCENTILE=DURATION (p50, p90, p99, p99.9), optionally attempt: to budget one attempt")
	fs.String("precision", def.Precision, "how close the highest kept and lowest broken rate must be: 5% or 0.05")
	fs.String("clients", "64", "comma-separated client counts (one search each)")
	fs.String("keys", "per-client", "comma-separated key counts: 1 .. per-client")
	fs.String("hold", def.Hold, "time held inside the lock")
	fs.String("ttl", def.TTL, "lock TTL")
	fs.String("arrival", def.Arrival, "constant or poisson")
	fs.String("start", "1000", "first offered rate per second")
	fs.String("max", "1000000", "highest offered rate per second ever tried")
	fs.String("warmup", def.Warmup, "discarded time before each probe's measured part")
	fs.String("min-duration", def.MinDuration,
		"shortest measured part of a probe (it is longer when the percentile needs more samples)")
	fs.String("seed", "1", "seed for arrivals and key prefixes")
	registerExternal(fs, &c.deployment, &c.runID)
	return &c
}
