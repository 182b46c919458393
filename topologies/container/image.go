package container

import (
	"context"
	"fmt"
	"time"

	"github.com/containerd/errdefs"
	"github.com/moby/moby/client"
)

// PullImage returns nil when ref is present, pulling it first when it is not.
func PullImage(ctx context.Context, ref string) error {
	c, err := engine(ctx)
	if err != nil {
		return err
	}
	return ensureImage(ctx, c, ref)
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

// ImageLabel is the value of image's label key: "" when the image has no such label
// or the engine does not know it.
func ImageLabel(ctx context.Context, image, key string) string {
	c, err := engine(ctx)
	if err != nil {
		return ""
	}
	info, err := c.ImageInspect(ctx, image)
	if err != nil || info.Config == nil {
		return ""
	}
	return info.Config.Labels[key]
}
