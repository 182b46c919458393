package container

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/containerd/errdefs"
	"github.com/moby/moby/client"
)

const (
	// ImageEnv names the Redis image to run (--redis-image sets it too); "host" means the
	// image built from this machine's own redis-server.
	ImageEnv = "LOCKBENCH_REDIS_IMAGE"
	// OfficialImage is the default where a registry is reachable.
	OfficialImage = "redis:7.0"
	// HostImage asks for the image built from the host's servers.
	HostImage = "host"
)

var (
	imageMu      sync.Mutex
	imageChoice  string                // set by SetRedisImage; empty: $LOCKBENCH_REDIS_IMAGE or the default
	imageResolve = map[string]string{} // asked name -> image to run, once per program
)

// SetRedisImage chooses the Redis image for every later Start (the CLI's --redis-image).
func SetRedisImage(name string) {
	imageMu.Lock()
	defer imageMu.Unlock()
	imageChoice = name
}

func askedImage() string {
	imageMu.Lock()
	defer imageMu.Unlock()
	if imageChoice != "" {
		return imageChoice
	}
	return os.Getenv(ImageEnv)
}

// CheckImage resolves the configured image now (pulling or building it), so that a
// name that cannot be found fails before anything runs.
func CheckImage(ctx context.Context) (string, error) {
	c, err := engine(ctx)
	if err != nil {
		return "", err
	}
	return redisImage(ctx, c, askedImage(), false)
}

// redisImage returns the image to run for asked: an explicit name must be present or
// pullable; the default is the official image where it can be pulled, else the image
// built from the host's redis-server. Clock faults need libfaketime, so they take the
// host image unless a name was given.
func redisImage(ctx context.Context, c *client.Client, asked string, clocked bool) (string, error) {
	key := asked
	if asked == "" && clocked {
		key = HostImage
	}
	imageMu.Lock()
	defer imageMu.Unlock()
	if got, ok := imageResolve[key]; ok {
		return got, nil
	}
	var got string
	var err error
	switch key {
	case HostImage:
		got, err = hostImage(ctx, c)
	case "":
		if perr := ensureImage(ctx, c, OfficialImage); perr == nil {
			got = OfficialImage
		} else if got, err = hostImage(ctx, c); err != nil {
			err = fmt.Errorf("no Redis image: the official %s is not here and cannot be pulled (%v), and none can be built from the host: %w", OfficialImage, perr, err)
		}
	default:
		if err = ensureImage(ctx, c, key); err == nil {
			got = key
		} else {
			err = fmt.Errorf("redis image %q (%s or --redis-image): %w", key, ImageEnv, err)
		}
	}
	if err != nil {
		return "", err
	}
	imageResolve[key] = got
	return got, nil
}

// ensureImage returns nil when ref is present, pulling it first when it is not.
func ensureImage(ctx context.Context, c *client.Client, ref string) error {
	if _, err := c.ImageInspect(ctx, ref); err == nil {
		return nil
	} else if !errdefs.IsNotFound(err) {
		return err
	}
	pctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	resp, err := c.ImagePull(pctx, ref, client.ImagePullOptions{})
	if err != nil {
		return fmt.Errorf("not present, and the pull failed: %w", err)
	}
	defer resp.Close()
	if err := resp.Wait(pctx); err != nil {
		return fmt.Errorf("not present, and the pull failed: %w", err)
	}
	return nil
}

// hasFaketime reports whether image was built from the host with libfaketime inside.
func hasFaketime(ctx context.Context, c *client.Client, image string) bool {
	info, err := c.ImageInspect(ctx, image)
	if err != nil || info.Config == nil {
		return false
	}
	return info.Config.Labels[labelFaketime] == "1"
}
