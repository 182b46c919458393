package check

import (
	"fmt"
	"sort"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/lockbench/lockbench/safety/history"
)

// mutexInput is one operation on the mutex model.
type mutexInput struct {
	Acquire bool // false: release
	Client  int
}

const free = -1

// MutexModel is a lock as a sequential object: acquire succeeds only when free,
// release succeeds only for the holder; a refused attempt changes nothing.
var MutexModel = porcupine.Model{
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

// LinearReport is the verdict of Linearizable.
type LinearReport struct {
	// Result is Ok, Illegal, or Unknown: the search ran out of time, which proves
	// nothing either way and is counted on its own, never read as Ok.
	Result     string `json:"result"`
	Operations int    `json:"operations"`
	// Info is porcupine's record of the search: the caller may draw it as an HTML page
	// (porcupine.VisualizePath with MutexModel) for an Illegal history.
	Info porcupine.LinearizationInfo `json:"-"`
}

// Linearizable, Illegal and Unknown are the values of LinearReport.Result.
const (
	Linear        = string(porcupine.Ok)
	NotLinear     = string(porcupine.Illegal)
	LinearUnknown = string(porcupine.Unknown)
)

// MutexOperations turns a history of one lock into porcupine operations: each stay
// inside the critical section is an acquire (from the attempt's start to entering) and
// a release (from leaving to the release's return); refused attempts are acquires that
// returned false. A stay that never left never releases.
func MutexOperations(h history.History) []porcupine.Operation {
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
		case history.AcquireInvoked:
			invoked[e.Client] = e.Time
		case history.AcquireRefused:
			if start, ok := invoked[e.Client]; ok {
				ops = append(ops,
					porcupine.Operation{ClientId: id(e.Client), Input: mutexInput{Acquire: true, Client: id(e.Client)}, Output: false,
						Call: at(start), Return: at(e.Time)})
				delete(invoked, e.Client)
			}
		case history.Entered:
			start, ok := invoked[e.Client]
			if !ok {
				start = e.Time
			}
			ops = append(ops,
				porcupine.Operation{ClientId: id(e.Client), Input: mutexInput{Acquire: true, Client: id(e.Client)}, Output: true,
					Call: at(start), Return: at(e.Time)})
			delete(invoked, e.Client)
		case history.Left:
			leftAt[e.Client] = e.Time
		case history.Released, history.Crashed:
			if left, ok := leftAt[e.Client]; ok {
				ops = append(ops,
					porcupine.Operation{ClientId: id(e.Client), Input: mutexInput{Client: id(e.Client)}, Output: true, Call: at(left),
						Return: at(e.Time)})
				delete(leftAt, e.Client)
			}
		}
	}
	// history.Left without a recorded release: the release happened at the latest at the end.
	end := at(h.End())
	clients := make([]string, 0, len(leftAt))
	for c := range leftAt {
		clients = append(clients, c)
	}
	sort.Strings(clients)
	for _, c := range clients {
		ops = append(ops,
			porcupine.Operation{ClientId: id(c), Input: mutexInput{Client: id(c)}, Output: true, Call: at(leftAt[c]),
				Return: end})
	}
	return ops
}

// Linearizable checks the history against the mutex model with porcupine, for at most
// timeout (0: no limit).
func Linearizable(h history.History, timeout time.Duration) LinearReport {
	ops := MutexOperations(h)
	result, info := porcupine.CheckOperationsVerbose(MutexModel, ops, timeout)
	return LinearReport{Result: string(result), Operations: len(ops), Info: info}
}
