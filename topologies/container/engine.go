package container

import (
	"context"
	"errors"
	"io"
	"sync"
)

// Labels on everything a run creates, so that a later run can sweep what a killed one left.
const (
	labelApp   = "org.lockbench"       // "1" on every container and network
	labelOwner = "org.lockbench.owner" // pid of the program that made it
	labelImage = "org.lockbench.image" // on images built from the host's servers: their content hash
)

// Engine is what the provider asks of a container engine. The engine's client is a
// large program of its own: it is linked only where containers run (lockbench, and the
// tests that start them), by importing the package that registers it
// (topologies/container/docker), so that every other test binary stays small.
type Engine interface {
	// ImageLabels are a present image's labels; ok is false when the image is absent.
	ImageLabels(ctx context.Context, ref string) (labels map[string]string, ok bool, err error)
	PullImage(ctx context.Context, ref string) error
	// BuildImage builds tag from a tar build context holding its Dockerfile.
	BuildImage(ctx context.Context, tag string, labels map[string]string, buildContext io.Reader) error
	CreateNetwork(ctx context.Context, name string, labels map[string]string) (id string, err error)
	// Run creates and starts a container; its id is returned even when the start failed.
	Run(ctx context.Context, spec RunSpec) (id string, err error)
	Start(ctx context.Context, id string) error
	Pause(ctx context.Context, id string) error
	Unpause(ctx context.Context, id string) error
	Inspect(ctx context.Context, id, network string) (ContainerState, error)
	// Logs is the end of the container's output (tail lines), as the engine sends it.
	Logs(ctx context.Context, id string, tail int) (io.ReadCloser, error)
	// Labelled lists the containers and networks that carry label=value.
	Labelled(ctx context.Context, label, value string) (containers, networks []Labelled, err error)
	// RemoveContainer (running or paused) and RemoveNetwork: one already gone is no error.
	RemoveContainer(ctx context.Context, id string) error
	RemoveNetwork(ctx context.Context, id string) error
}

// RunSpec is one server's container: its command, on the run's network, its first port
// published on 127.0.0.1, its dir mounted read-write and Mounts read-only.
type RunSpec struct {
	Name, Image, Network, User, WorkDir string
	Command                             []string // entrypoint and arguments
	Env, Labels                         map[string]string
	Port                                int      // published at the same number on 127.0.0.1
	Binds                               []string // host:container[:ro]
	Sysctls                             map[string]string
}

// ContainerState is what the provider reads back from a container.
type ContainerState struct {
	Running bool
	Pid     int
	IP      string // on the network Inspect was asked about; "" when not attached
}

// Labelled is a container or network and its labels.
type Labelled struct {
	ID     string
	Labels map[string]string
}

var (
	engineMu   sync.Mutex
	openEngine func(ctx context.Context) (Engine, error)
	connected  Engine // kept once connected; a failure is retried by the next call
)

// RegisterEngine is called by the package that links an engine's client, at init.
func RegisterEngine(open func(ctx context.Context) (Engine, error)) {
	engineMu.Lock()
	defer engineMu.Unlock()
	openEngine = open
}

// errNoEngineLinked says which import a program (or test binary) that runs containers lacks.
var errNoEngineLinked = errors.New("provider container: this program links no container engine " +
	`(import _ "github.com/lockbench/lockbench/topologies/container/docker")`)

// engine returns the container engine, connected, or an error naming the provider and
// what to install or start.
func engine(ctx context.Context) (Engine, error) {
	engineMu.Lock()
	defer engineMu.Unlock()
	if connected != nil {
		return connected, nil
	}
	if openEngine == nil {
		return nil, errNoEngineLinked
	}
	e, err := openEngine(ctx)
	if err != nil {
		return nil, err
	}
	connected = e
	return e, nil
}
