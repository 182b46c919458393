package container

import (
	"context"
	"fmt"
	"time"
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
func ensureImage(ctx context.Context, c Engine, ref string) error {
	if _, ok, err := c.ImageLabels(ctx, ref); err != nil || ok {
		return err
	}
	pctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	if err := c.PullImage(pctx, ref); err != nil {
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
	labels, _, _ := c.ImageLabels(ctx, image)
	return labels[key]
}
