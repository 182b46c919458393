package lab

import (
	"sync"

	"github.com/lockbench/lockbench/internal/registry"
)

var (
	scenarios = registry.New[Scenario]("scenario")
	starts    = registry.New[Starts]("scenario's starts")
)

// families register their scenarios when first asked: their params' defaults and help
// name the strategies registered, so they wait until every store's init has run.
var (
	familiesMu sync.Mutex
	families   []func()
	ranUpTo    int // families[:ranUpTo] have registered their scenarios
)

// RegisterFamily keeps register, which calls Register for each of a family's
// scenarios, to run before the next Lookup, StartsOf or Names.
func RegisterFamily(register func()) {
	familiesMu.Lock()
	defer familiesMu.Unlock()
	families = append(families, register)
}

func registerFamilies() {
	familiesMu.Lock()
	defer familiesMu.Unlock()
	for ; ranUpTo < len(families); ranUpTo++ {
		families[ranUpTo]()
	}
}

// Register adds r under about.Name with what it starts beside its strategies param's
// topologies (preflight checks them before a trial runs); a duplicate name is a
// programming error.
func Register(r Runner, about About) {
	scenarios.Add(about.Name, registered{about, r})
	starts.Add(about.Name, about.Starts)
}

// registered is a Runner told what it is.
type registered struct {
	about About
	Runner
}

func (r registered) Name() string    { return r.about.Name }
func (r registered) Summary() string { return r.about.Summary }
func (r registered) Params() []Param { return r.about.Params }

// Lookup returns the scenario registered as name.
func Lookup(name string) (Scenario, error) {
	registerFamilies()
	return scenarios.Get(name)
}

// StartsOf is what the scenario registered as name starts.
func StartsOf(name string) (Starts, error) {
	registerFamilies()
	return starts.Get(name)
}

// Names lists the registered scenarios, sorted.
func Names() []string {
	registerFamilies()
	return scenarios.Names()
}
