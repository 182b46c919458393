package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/lockbench/lockbench/internal/flagrecord"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/results"
	"github.com/lockbench/lockbench/safety/suite"
)

// paramFlags collects repeated --param name=value.
type paramFlags lab.Params

func (p paramFlags) String() string { return fmt.Sprint(map[string]string(p)) }
func (p paramFlags) Set(v string) error {
	name, value, ok := strings.Cut(v, "=")
	if !ok || name == "" {
		return fmt.Errorf("want name=value, got %q", v)
	}
	if _, twice := p[name]; twice { // the last would silently win
		return fmt.Errorf("%s given twice", name)
	}
	p[name] = value
	return nil
}

// completeSafetyFlags sets the recorded flags not given beside --resume (--all stands
// for --scenario); the given ones are checked against the record afterwards.
func completeSafetyFlags(fs *flag.FlagSet, dir string, cmd results.Command) ([]string, error) {
	recorded := suite.FlagsOf(cmd)
	if flagrecord.Given(fs, "all") {
		delete(recorded, "scenario")
	}
	return flagrecord.SetNotGiven(fs, dir, recorded)
}

// safetyWorker reads --worker I/N as run's does (I from 0); "" is the whole campaign.
// Stopping by width is refused: each worker would stop on its own share's data, and
// neither their union nor its interval would be the campaign's.
func safetyWorker(v string, trials int, width float64) (*results.Worker, error) {
	if v == "" {
		return nil, nil
	}
	index, of, err := parseWorker(v)
	if err != nil {
		return nil, err
	}
	if width > 0 {
		return nil, usagef("--worker %s with --until-width: stopping by width cannot be split over workers (each would "+
			"stop on its own share's data, and the union's interval would not hold); give a fixed --trials", v)
	}
	if trials < of {
		return nil,
			usagef("--worker %s with --trials %d: fewer trials per variant than workers leaves a worker none", v, trials)
	}
	return &results.Worker{Index: index, Of: of}, nil
}
