package container

import (
	"context"
	"errors"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/containerd/errdefs"
	"github.com/moby/moby/client"
)

// ownerLabels are the labels on every container and network this program creates.
func ownerLabels() map[string]string {
	return map[string]string{labelApp: "1", labelOwner: strconv.Itoa(os.Getpid())}
}

// ownerDead reports whether the pid in a label no longer runs (a SIGKILLed run).
func ownerDead(label string) bool {
	pid, err := strconv.Atoi(label)
	if err != nil || pid <= 0 {
		return false
	}
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// sweepOrphans removes the containers and networks whose owner died without cleaning
// up; images are kept: they are built on purpose, once per machine.
func sweepOrphans(ctx context.Context, c *client.Client) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	f := client.Filters{}.Add("label", labelApp+"=1")
	if list, err := c.ContainerList(ctx, client.ContainerListOptions{All: true, Filters: f}); err == nil {
		for _, it := range list.Items {
			if ownerDead(it.Labels[labelOwner]) {
				_, _ = c.ContainerRemove(ctx, it.ID, client.ContainerRemoveOptions{Force: true, RemoveVolumes: true})
			}
		}
	}
	if list, err := c.NetworkList(ctx, client.NetworkListOptions{Filters: f}); err == nil {
		for _, it := range list.Items {
			if ownerDead(it.Labels[labelOwner]) {
				_, _ = c.NetworkRemove(ctx, it.ID, client.NetworkRemoveOptions{})
			}
		}
	}
}

// removeAll removes containers (force: running or paused) and then the network; used by
// Close, by failed starts and by the SIGINT/SIGTERM reaper.
func removeAll(c *client.Client, containerIDs []string, networkID string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var first error
	for _, id := range containerIDs {
		if _,
			err := c.ContainerRemove(ctx, id, client.ContainerRemoveOptions{Force: true, RemoveVolumes: true}); err != nil &&
			first == nil && !isNotFound(err) {
			first = err
		}
	}
	if networkID != "" {
		if _, err := c.NetworkRemove(ctx, networkID, client.NetworkRemoveOptions{}); err != nil && first == nil &&
			!isNotFound(err) {
			first = err
		}
	}
	return first
}

func isNotFound(err error) bool { return errdefs.IsNotFound(err) }
