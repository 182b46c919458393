package container

import (
	"context"
	"os"
	"path/filepath"
)

// workerImageRepo holds this program as a load worker, for Compose or Kubernetes.
const workerImageRepo = "lockbench/worker"

// WorkerImage builds (once per build of this program: the tag is its files' hash) an
// image that runs this program, with the libraries ldd lists for it, as
// /usr/bin/lockbench, and returns its tag. Unlike the etcd image the program is copied
// in: a worker runs where this machine's files are not mounted. Each of servers (host
// paths) goes in too, at /usr/bin/<its name>, so that a safety worker starts its own
// servers as processes (`lockbench safety --provider process --worker I/N`).
func WorkerImage(ctx context.Context, servers ...string) (string, error) {
	c, err := engine(ctx)
	if err != nil {
		return "", err
	}
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		return "", err
	}
	files := Files{"/usr/bin/lockbench": exe}
	if err := files.AddLibraries(exe, nil); err != nil {
		return "", err
	}
	for _, server := range servers {
		files["/usr/bin/"+filepath.Base(server)] = server
		if err := files.AddLibraries(server, nil); err != nil {
			return "", err
		}
	}
	return filesImage(ctx, c, workerImageRepo, files)
}
