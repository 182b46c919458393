package container

import (
	"context"
	"errors"
	"os"
	"strconv"
	"sync"
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

// removeBudget bounds a topology's removal: on a busy 2-core machine the engine took over
// ten seconds a container (its storage driver unmounting, its network torn down).
const removeBudget = 3 * time.Minute

// removeAll removes containers (force: running or paused), side by side, and then the
// network; used by Close, by failed starts and by the SIGINT/SIGTERM reaper.
func removeAll(c Engine, containerIDs []string, networkID string) error {
	ctx, cancel := context.WithTimeout(context.Background(), removeBudget)
	defer cancel()
	errs := make([]error, len(containerIDs))
	var wg sync.WaitGroup
	for i, id := range containerIDs {
		wg.Go(func() { errs[i] = c.RemoveContainer(ctx, id) })
	}
	wg.Wait()
	err := errors.Join(errs...)
	if networkID != "" {
		if netErr := c.RemoveNetwork(ctx, networkID); err == nil {
			err = netErr
		}
	}
	return err
}
