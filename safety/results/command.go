package results

import (
	"fmt"
	"strings"
)

// Command is what a `lockbench safety` run was asked, everything that decides which
// trials it runs and what they draw: a --resume must ask the same.
type Command struct {
	Scenarios []string          `json:"scenarios"`
	Trials    int               `json:"trials"`
	Seed      int64             `json:"seed"`
	Params    map[string]string `json:"params,omitempty"`
	Provider  string            `json:"provider,omitempty"`
	// Server is --server, the flavour Redis's kinds ran on (empty: Redis).
	Server string `json:"server,omitempty"`
	// RedisImage is --redis-image, the image the container provider ran Redis from.
	RedisImage string `json:"redis_image,omitempty"`
	// UntilWidth is --until-width as a share (0: every variant ran Trials trials).
	UntilWidth float64 `json:"until_width,omitempty"`
	// Worker is --worker I/N: this folder holds share Index (from 0) of Of of the
	// campaign's trials (lockbench merge adds the shares up); nil for a whole run.
	Worker *Worker `json:"worker,omitempty"`
}

// Worker is one worker's share of a safety campaign: trial n of every variant is
// worker n % Of's.
type Worker struct {
	Index int `json:"index"`
	Of    int `json:"of"`
}

// unfinished is results.md's warning on a run still going or cut short.
func (res Results) unfinished() string {
	var cut []string
	for _, r := range res.Reports {
		if !r.Complete {
			n := 0
			for _, v := range r.Variants {
				n += v.Tally.Trials
			}
			cut = append(cut, fmt.Sprintf("%s stopped after %s", r.Scenario, plural(n, "trial")))
		}
	}
	msg := "**Unfinished run** (still going, or interrupted): these are the trials that finished"
	if len(cut) > 0 {
		msg += "; " + strings.Join(cut, ", ")
	}
	return msg + ". `lockbench safety --resume DIR` carries it on (the flags it recorded under `command`).\n\n"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
