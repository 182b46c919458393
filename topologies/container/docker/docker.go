// Package docker is the container provider's engine: the Docker Engine API through
// moby's client and testcontainers-go. Import it for its effect in a program (or test
// binary) that runs containers; it registers itself with topologies/container.
package docker

import (
	"context"
	"fmt"
	"io"
	"net/netip"
	"os"
	"strconv"
	"time"

	"github.com/containerd/errdefs"
	mobycontainer "github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/moby/moby/client"
	"github.com/testcontainers/testcontainers-go"
	tclog "github.com/testcontainers/testcontainers-go/log"

	"github.com/lockbench/lockbench/topologies/container"
)

func init() { container.RegisterEngine(open) }

// engine is a connected Docker client.
type engine struct{ cli *client.Client }

// open connects to the engine, or says what to install or start.
func open(ctx context.Context) (container.Engine, error) {
	configureTestcontainers()
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	// testcontainers falls back to the default socket when DOCKER_HOST does not
	// answer; a host the user named must answer itself.
	if host := os.Getenv("DOCKER_HOST"); host != "" {
		if err := pingHost(dctx, host); err != nil {
			return nil, fmt.Errorf("provider container: the container engine at DOCKER_HOST=%s does not answer (%v): start "+
				"it, or unset DOCKER_HOST to use the default socket", host, err)
		}
	}
	c, err := testcontainers.NewDockerClientWithOpts(dctx)
	if err != nil {
		return nil, fmt.Errorf("provider container: no container engine answers (%v): install Docker (Debian/Ubuntu: "+
			"apt-get install docker.io) and start it, or set DOCKER_HOST", err)
	}
	if _, err := c.Ping(dctx, client.PingOptions{}); err != nil {
		c.Close()
		return nil, fmt.Errorf("provider container: the container engine does not answer a ping (%v): start it (systemctl "+
			"start docker, or dockerd), or set DOCKER_HOST", err)
	}
	return engine{cli: c.Client}, nil
}

// configureTestcontainers sets the two settings testcontainers needs on these machines,
// unless the user set them: its reaper image cannot be pulled (the provider cleans up
// itself), and inside a container it would dial the VM gateway instead of the published ports.
func configureTestcontainers() {
	if os.Getenv("TESTCONTAINERS_RYUK_DISABLED") == "" {
		os.Setenv("TESTCONTAINERS_RYUK_DISABLED", "true")
	}
	if os.Getenv("TESTCONTAINERS_HOST_OVERRIDE") == "" {
		os.Setenv("TESTCONTAINERS_HOST_OVERRIDE", "127.0.0.1")
	}
	tclog.SetDefault(tclog.NewNoopLogger()) // its banner and per-container lines would mix into lockbench's output
}

// pingHost pings the engine at host directly.
func pingHost(ctx context.Context, host string) error {
	c, err := client.New(client.WithHost(host), client.WithAPIVersionNegotiation())
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.Ping(ctx, client.PingOptions{})
	return err
}

func (e engine) ImageLabels(ctx context.Context, ref string) (map[string]string, bool, error) {
	info, err := e.cli.ImageInspect(ctx, ref)
	if errdefs.IsNotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if info.Config == nil {
		return nil, true, nil
	}
	return info.Config.Labels, true, nil
}

func (e engine) PullImage(ctx context.Context, ref string) error {
	resp, err := e.cli.ImagePull(ctx, ref, client.ImagePullOptions{})
	if err != nil {
		return err
	}
	defer resp.Close()
	return resp.Wait(ctx)
}

func (e engine) BuildImage(ctx context.Context, tag string, labels map[string]string, buildContext io.Reader) error {
	res, err := e.cli.ImageBuild(ctx, buildContext,
		client.ImageBuildOptions{Tags: []string{tag}, Labels: labels, Remove: true, ForceRemove: true})
	if err != nil {
		return err
	}
	defer res.Body.Close()
	return buildError(res.Body)
}

func (e engine) CreateNetwork(ctx context.Context, name string, labels map[string]string) (string, error) {
	res, err := e.cli.NetworkCreate(ctx, name, client.NetworkCreateOptions{Driver: "bridge", Labels: labels})
	return res.ID, err
}

// Run creates and starts the container through testcontainers.
func (e engine) Run(ctx context.Context, s container.RunSpec) (string, error) {
	port := network.MustParsePort(strconv.Itoa(s.Port) + "/tcp")
	req := testcontainers.GenericContainerRequest{
		Started: true,
		Logger:  tclog.NewNoopLogger(),
		ContainerRequest: testcontainers.ContainerRequest{
			Image:        s.Image,
			Name:         s.Name,
			Entrypoint:   s.Command[:1],
			Cmd:          s.Command[1:],
			Env:          s.Env,
			Labels:       s.Labels,
			ExposedPorts: []string{port.String()},
			Networks:     []string{s.Network},
			ConfigModifier: func(c *mobycontainer.Config) {
				c.User = s.User
				c.WorkingDir = s.WorkDir
			},
			HostConfigModifier: func(hc *mobycontainer.HostConfig) {
				hc.PortBindings = network.PortMap{port: {{HostIP: netip.MustParseAddr("127.0.0.1"),
					HostPort: strconv.Itoa(s.Port)}}}
				hc.Binds = append(hc.Binds, s.Binds...)
				hc.Sysctls = s.Sysctls
			},
		},
	}
	c, err := testcontainers.GenericContainer(ctx, req)
	if c == nil {
		return "", err
	}
	return c.GetContainerID(), err
}

func (e engine) Start(ctx context.Context, id string) error {
	_, err := e.cli.ContainerStart(ctx, id, client.ContainerStartOptions{})
	return err
}

func (e engine) Pause(ctx context.Context, id string) error {
	_, err := e.cli.ContainerPause(ctx, id, client.ContainerPauseOptions{})
	return err
}

func (e engine) Unpause(ctx context.Context, id string) error {
	_, err := e.cli.ContainerUnpause(ctx, id, client.ContainerUnpauseOptions{})
	return err
}

func (e engine) Inspect(ctx context.Context, id, networkName string) (container.ContainerState, error) {
	info, err := e.cli.ContainerInspect(ctx, id, client.ContainerInspectOptions{})
	if err != nil {
		return container.ContainerState{}, err
	}
	var st container.ContainerState
	if s := info.Container.State; s != nil {
		st.Running, st.Pid = s.Running, s.Pid
	}
	if ns := info.Container.NetworkSettings; ns != nil {
		if ep := ns.Networks[networkName]; ep != nil && ep.IPAddress.IsValid() {
			st.IP = ep.IPAddress.String()
		}
	}
	return st, nil
}

func (e engine) Logs(ctx context.Context, id string, tail int) (io.ReadCloser, error) {
	return e.cli.ContainerLogs(ctx, id,
		client.ContainerLogsOptions{ShowStdout: true, ShowStderr: true, Tail: strconv.Itoa(tail)})
}

func (e engine) Labelled(ctx context.Context, label, value string) (
	containers, networks []container.Labelled, err error,
) {
	f := client.Filters{}.Add("label", label+"="+value)
	cl, err := e.cli.ContainerList(ctx, client.ContainerListOptions{All: true, Filters: f})
	if err != nil {
		return nil, nil, err
	}
	for _, it := range cl.Items {
		containers = append(containers, container.Labelled{ID: it.ID, Labels: it.Labels})
	}
	nl, err := e.cli.NetworkList(ctx, client.NetworkListOptions{Filters: f})
	if err != nil {
		return containers, nil, err
	}
	for _, it := range nl.Items {
		networks = append(networks, container.Labelled{ID: it.ID, Labels: it.Labels})
	}
	return containers, networks, nil
}

func (e engine) RemoveContainer(ctx context.Context, id string) error {
	_, err := e.cli.ContainerRemove(ctx, id, client.ContainerRemoveOptions{Force: true, RemoveVolumes: true})
	if errdefs.IsNotFound(err) {
		return nil
	}
	return err
}

func (e engine) RemoveNetwork(ctx context.Context, id string) error {
	_, err := e.cli.NetworkRemove(ctx, id, client.NetworkRemoveOptions{})
	if errdefs.IsNotFound(err) {
		return nil
	}
	return err
}
