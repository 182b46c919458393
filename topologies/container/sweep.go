package container

import (
	"context"
	"errors"
	"os"
	"strconv"
	"syscall"
	"time"
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
func sweepOrphans(ctx context.Context, c Engine) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	containers, networks, _ := c.Labelled(ctx, labelApp, "1")
	for _, it := range containers {
		if ownerDead(it.Labels[labelOwner]) {
			_ = c.RemoveContainer(ctx, it.ID)
		}
	}
	for _, it := range networks {
		if ownerDead(it.Labels[labelOwner]) {
			_ = c.RemoveNetwork(ctx, it.ID)
		}
	}
}

// removeAll removes containers (force: running or paused) and then the network; used by
// Close, by failed starts and by the SIGINT/SIGTERM reaper.
func removeAll(c Engine, containerIDs []string, networkID string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var first error
	for _, id := range containerIDs {
		if err := c.RemoveContainer(ctx, id); err != nil && first == nil {
			first = err
		}
	}
	if networkID != "" {
		if err := c.RemoveNetwork(ctx, networkID); err != nil && first == nil {
			first = err
		}
	}
	return first
}
