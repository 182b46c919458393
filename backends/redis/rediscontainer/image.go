package rediscontainer

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/lockbench/lockbench/clocks/faketime"
	"github.com/lockbench/lockbench/topologies/container"
	"github.com/lockbench/lockbench/topologies/redisadmin"
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

// labelFaketime marks a host image that carries libfaketime and the allocator shim.
const labelFaketime = "org.lockbench.faketime"

// hostImageRepo is the repository of images built from the host's redis-server.
const hostImageRepo = "lockbench/redis-host"

// hostImageVersion changes when the image's layout does, so that an old one is not reused.
const hostImageVersion = "1"

var (
	imageMu      sync.Mutex
	imageChoice  string                // set by SetImage; empty: $LOCKBENCH_REDIS_IMAGE or the default
	imageResolve = map[string]string{} // asked name -> image to run, once per program
)

// SetImage chooses the Redis image for every later start (the CLI's --redis-image).
func SetImage(name string) {
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
func CheckImage(ctx context.Context) (string, error) { return Image(ctx, false) }

// Image is the image to run: an explicit name must be present or pullable; the default
// is the official image where it can be pulled, else the image built from the host's
// redis-server. Clock faults need libfaketime, so they take the host image unless a
// name was given.
func Image(ctx context.Context, clocked bool) (string, error) {
	asked := askedImage()
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
		got, err = hostImage(ctx)
	case "":
		if perr := container.PullImage(ctx, OfficialImage); perr == nil {
			got = OfficialImage
		} else if got, err = hostImage(ctx); err != nil {
			err = fmt.Errorf(
				"no Redis image: the official %s is not here and cannot be pulled (%v), and none can be built from the host: "+
					"%w", OfficialImage, perr, err)
		}
	default:
		if err = container.PullImage(ctx, key); err == nil {
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

// hasFaketime reports whether image was built from the host with libfaketime inside.
func hasFaketime(ctx context.Context, image string) bool {
	return container.ImageLabel(ctx, image, labelFaketime) == "1"
}

// hostImage returns the tag of an image holding this machine's redis-server, the
// libraries ldd lists and the loader (and libfaketime with the allocator shim, when
// present, at the paths the clock layer preloads them from). It is built once per
// machine: its tag is the hash of its files, and a present tag is reused.
func hostImage(ctx context.Context) (string, error) {
	bin, err := redisadmin.FindRedisServer()
	if err != nil {
		return "", err
	}
	files := container.Files{}
	if err := files.AddProgram("/usr/bin/redis-server", bin); err != nil {
		return "", err
	}
	withClock := false
	if lib, err := faketime.Library(); err == nil {
		if shim, err := faketime.Preload(); err == nil {
			withClock = files.AddProgram(lib, lib) == nil && files.AddProgram(shim, shim) == nil
		}
	}
	im := container.ScratchImage{
		Repo: hostImageRepo, Files: files, Dockerfile: "FROM scratch\nCOPY . /\nENV PATH=/usr/bin\n",
		Version: hostImageVersion, Source: "the host's redis-server",
	}
	if withClock {
		im.Labels = map[string]string{labelFaketime: "1"}
	}
	return im.Build(ctx)
}
