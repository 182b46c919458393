package container

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/moby/moby/client"
	"github.com/testcontainers/testcontainers-go"
	tclog "github.com/testcontainers/testcontainers-go/log"
)

// Labels on everything a run creates, so that a later run can sweep what a killed one left.
const (
	labelApp   = "org.lockbench"       // "1" on every container and network
	labelOwner = "org.lockbench.owner" // pid of the program that made it
	labelImage = "org.lockbench.image" // on images built from the host's servers: their content hash
)

var (
	engineMu  sync.Mutex
	engineCli *client.Client // kept once connected; a failure is retried by the next call
)

// configureTestcontainers sets the two settings testcontainers needs on these machines,
// unless the user set them: its reaper image cannot be pulled (we clean up ourselves),
// and inside a container it would dial the VM gateway instead of the published ports.
func configureTestcontainers() {
	if os.Getenv("TESTCONTAINERS_RYUK_DISABLED") == "" {
		os.Setenv("TESTCONTAINERS_RYUK_DISABLED", "true")
	}
	if os.Getenv("TESTCONTAINERS_HOST_OVERRIDE") == "" {
		os.Setenv("TESTCONTAINERS_HOST_OVERRIDE", "127.0.0.1")
	}
	tclog.SetDefault(tclog.NewNoopLogger()) // its banner and per-container lines would mix into lockbench's output
}

// engine returns the container engine's client, or an error naming the provider and
// what to install or start.
func engine(ctx context.Context) (*client.Client, error) {
	engineMu.Lock()
	defer engineMu.Unlock()
	if engineCli != nil {
		return engineCli, nil
	}
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
	engineCli = c.Client
	return engineCli, nil
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
