package container

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/topologies"
)

// Recipe is how a store's servers run in containers, written in the store's backend
// folder: it declares its servers on d with AddServer, starts them with d.Start, and
// returns the store's topology (a type embedding d, with the store's own methods).
// The provider makes the network, the ports, the containers, Kill, Pause, Restart and
// cuts, and removes everything at Close or on a signal.
type Recipe func(ctx context.Context, d *Topology) (topologies.Topology, error)

// registered is a kind's recipe, and whether it runs the spec's clock models.
type registered struct {
	recipe  Recipe
	clocked bool
}

var (
	recipesMu sync.Mutex
	recipes   = map[backend.Kind]registered{}
)

// RegisterRecipe makes the container provider serve kind with r, from the init of the
// store's container package; its servers keep true time. A kind registered twice is a
// programming error.
func RegisterRecipe(kind backend.Kind, r Recipe) { register(kind, registered{recipe: r}) }

// RegisterClockedRecipe is RegisterRecipe for a recipe that runs the spec's clock
// models on its servers (Service.Clock).
func RegisterClockedRecipe(kind backend.Kind, r Recipe) {
	register(kind, registered{recipe: r, clocked: true})
}

func register(kind backend.Kind, r registered) {
	recipesMu.Lock()
	defer recipesMu.Unlock()
	if _, dup := recipes[kind]; dup {
		panic(fmt.Sprintf("container: recipe for %s registered twice", kind))
	}
	recipes[kind] = r
}

func recipeFor(kind backend.Kind) (registered, bool) {
	recipesMu.Lock()
	defer recipesMu.Unlock()
	r, ok := recipes[kind]
	return r, ok
}

// Topology is one store topology in containers while its recipe builds it, then the
// base of the topology the recipe returns (Spec, Nodes, Close, Cut, Heal, ...).
type Topology struct{ *topology }

// Deploy runs recipe for spec: one container per server on a network made for it,
// labelled, removed at Close or on a signal, and swept at a later start when its owner
// died. The provider calls it for the kinds with a registered recipe; a store with a
// provider of its own (a cluster) calls it directly.
func Deploy(ctx context.Context, spec backend.Spec, recipe Recipe) (topologies.Topology, error) {
	eng, err := engine(ctx)
	if err != nil {
		return nil, err
	}
	sweepOrphans(ctx, eng)
	dir, err := topologies.NewTempDir("container-" + string(spec.Kind))
	if err != nil {
		return nil, err
	}
	t := &topology{spec: spec, eng: eng, dir: dir, cuts: map[[2]string]bool{}, hooked: map[*Server]bool{}}
	t.netName = fmt.Sprintf("lockbench-%d-%d", os.Getpid(), runSeq.Add(1))
	t.forget = topologies.OnReap(func() { _ = removeAll(eng, t.trackedIDs(), t.networkID()) })
	topo, err := recipe(ctx, &Topology{t})
	if err == nil && len(t.all()) == 0 {
		err = fmt.Errorf("its recipe started no server")
	}
	if err != nil {
		t.Close()
		return nil, fmt.Errorf("provider container: %s: %w", spec.Kind, err)
	}
	t.image = t.all()[0].svc.Image
	return topo, nil
}

// Dir holds every server's dir (<Dir>/<server name>), mounted at the same path inside.
func (d *Topology) Dir() string { return d.dir }

// Ports leases k distinct host ports for the deployment's servers, released at Close.
func (d *Topology) Ports(k int) ([]int, error) { return d.distinctPorts(k) }

// AddServer declares a server that runs svc, answering clients on port (published on
// 127.0.0.1) and its peers on peerPorts (carried by the wire rules, never published).
// Its role places it among the topology's masters, replicas or sentinels.
func (d *Topology) AddServer(name string, role topologies.Role, port int, peerPorts []int, svc Service) *Server {
	n := &Server{topo: d.topology, name: name, role: role, dir: filepath.Join(d.dir, name), skew: svc.Clock}
	n.port, n.peerPorts, n.svc = port, peerPorts, &svc
	switch role {
	case topologies.RoleReplica:
		d.replicas = append(d.replicas, n)
	case topologies.RoleSentinel:
		d.sentinels = append(d.sentinels, n)
	default:
		d.masters = append(d.masters, n)
	}
	return n
}

// Servers are the servers declared: masters (or members), replicas, sentinels.
func (d *Topology) Servers() []*Server { return d.all() }

// Start makes the deployment's network at its first call, and starts together the
// containers of every server declared since (members of a cluster serve only once a
// quorum runs); a port another program took between the lease and the publish is
// replaced. A recipe that starts in steps (data servers, then the sentinels watching
// them) calls it once a step.
func (d *Topology) Start(ctx context.Context) error {
	if d.networkID() == "" {
		if err := d.createNetwork(ctx); err != nil {
			return err
		}
	}
	var fresh []*Server
	for _, n := range d.all() {
		if n.id == "" {
			fresh = append(fresh, n)
		}
	}
	return d.startServices(ctx, fresh)
}

// Own returns x as a server of this deployment, or an error naming it.
func (d *Topology) Own(x topologies.Node) (*Server, error) { return d.own(x) }

// Dir is the server's host dir, mounted at the same path inside its container.
func (n *Server) Dir() string { return n.dir }

// Port is the client port, published on 127.0.0.1 (it changes when another program
// took it before the first start).
func (n *Server) Port() int { return n.port }

// PeerPorts are the ports only the server's peers dial.
func (n *Server) PeerPorts() []int { return append([]int(nil), n.peerPorts...) }

// Paused reports whether the server's container is frozen.
func (n *Server) Paused() bool { return n.isPaused() }

// Exited reports whether the server's process is gone (it never started, or it died).
func (n *Server) Exited() bool { return !n.topo.procOf(n).running() }

// Log is the end of the container's own output, for an error message.
func (n *Server) Log() string { return containerLog(n) }

// FileLog is the end of a file the server writes in its dir (its own log), for an
// error message.
func (n *Server) FileLog(name string) string {
	b, _ := os.ReadFile(filepath.Join(n.dir, name))
	if len(b) > 800 {
		b = b[len(b)-800:]
	}
	return strings.TrimSpace(string(b))
}
