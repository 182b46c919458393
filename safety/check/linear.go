package safety

import (
	"fmt"
	"sort"
	"time"

	"github.com/anishathalye/porcupine"
)

// mutexInput is one operation on the mutex model.
type mutexInput struct {
	Acquire bool // false: release
	Client  int
}

const free = -1

// mutexModel is a lock as a sequential object: acquire succeeds only when free,
// release succeeds only for the holder; a refused attempt changes nothing.
var mutexModel = porcupine.Model{
	Init: func() any { return free },
	Step: func(state, input, output any) (bool, any) {
		holder, in, ok := state.(int), input.(mutexInput), output.(bool)
		switch {
		case !ok:
			return true, holder
		case in.Acquire:
			return holder == free, in.Client
		default:
			return holder == in.Client, free
		}
	},
	DescribeOperation: func(input, output any) string {
		in := input.(mutexInput)
		verb := "release"
		if in.Acquire {
			verb = "acquire"
		}
		return fmt.Sprintf("%s -> %v", verb, output)
	},
	DescribeState: func(state any) string {
		if state.(int) == free {
			return "free"
		}
		return fmt.Sprintf("held by client %d", state.(int))
	},
}

// LinearReport is the verdict of CheckLinearizable.
type LinearReport struct {
	Result     string `json:"result"` // Ok, Illegal or Unknown (timed out)
	Operations int    `json:"operations"`
	// Visualization is the HTML page porcupine drew for an Illegal history.
	Visualization string `json:"visualization,omitempty"`
}

// MutexOperations turns a history of one lock into porcupine operations: each stay inside the critical section is an acquire (from the attempt's
// start to entering) and a release (from leaving to the release's return); refused
// attempts are acquires that returned false. A stay that never left never releases.
func MutexOperations(h History) []porcupine.Operation {
	if len(h) == 0 {
		return nil
	}
	origin := h[0].Time
	at := func(t time.Time) int64 { return int64(t.Sub(origin)) }
	ids := map[string]int{}
	id := func(c string) int {
		if _, ok := ids[c]; !ok {
			ids[c] = len(ids)
		}
		return ids[c]
	}
	var ops []porcupine.Operation
	invoked := map[string]time.Time{} // client -> its attempt's start
	leftAt := map[string]time.Time{}  // client -> when it left, until its release returns
	for _, e := range h {
		switch e.Kind {
		case AcquireInvoked:
			invoked[e.Client] = e.Time
		case AcquireRefused:
			if start, ok := invoked[e.Client]; ok {
				ops = append(ops, porcupine.Operation{ClientId: id(e.Client), Input: mutexInput{Acquire: true, Client: id(e.Client)}, Output: false, Call: at(start), Return: at(e.Time)})
				delete(invoked, e.Client)
			}
		case Entered:
			start, ok := invoked[e.Client]
			if !ok {
				start = e.Time
			}
			ops = append(ops, porcupine.Operation{ClientId: id(e.Client), Input: mutexInput{Acquire: true, Client: id(e.Client)}, Output: true, Call: at(start), Return: at(e.Time)})
			delete(invoked, e.Client)
		case Left:
			leftAt[e.Client] = e.Time
		case Released, Crashed:
			if left, ok := leftAt[e.Client]; ok {
				ops = append(ops, porcupine.Operation{ClientId: id(e.Client), Input: mutexInput{Client: id(e.Client)}, Output: true, Call: at(left), Return: at(e.Time)})
				delete(leftAt, e.Client)
			}
		}
	}
	// Left without a recorded release: the release happened at the latest at the end.
	end := at(h.end())
	clients := make([]string, 0, len(leftAt))
	for c := range leftAt {
		clients = append(clients, c)
	}
	sort.Strings(clients)
	for _, c := range clients {
		ops = append(ops, porcupine.Operation{ClientId: id(c), Input: mutexInput{Client: id(c)}, Output: true, Call: at(leftAt[c]), Return: end})
	}
	return ops
}

// CheckLinearizable checks the history against the mutex model with porcupine. When
// the history is not linearizable and visualizationPath is not empty, porcupine's
// HTML page of the failed search is written there.
func CheckLinearizable(h History, timeout time.Duration, visualizationPath string) (LinearReport, error) {
	ops := MutexOperations(h)
	result, info := porcupine.CheckOperationsVerbose(mutexModel, ops, timeout)
	r := LinearReport{Result: string(result), Operations: len(ops)}
	if result == porcupine.Illegal && visualizationPath != "" {
		if err := porcupine.VisualizePath(mutexModel, info, visualizationPath); err != nil {
			return r, fmt.Errorf("porcupine visualization: %w", err)
		}
		r.Visualization = visualizationPath
	}
	return r, nil
}
