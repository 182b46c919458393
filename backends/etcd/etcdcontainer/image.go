package etcdcontainer

import (
	"context"
	"path/filepath"

	"github.com/lockbench/lockbench/backends/etcd/etcdtopo/memberfile"
	"github.com/lockbench/lockbench/internal/reexec"
	"github.com/lockbench/lockbench/topologies/container"
)

// buildImage holds what this program needs to run inside a container: the libraries ldd
// lists for it and the loader (nothing when it is static). The program itself is
// mounted read-only, not copied: a member is that program (reexec.ExecutableFor)
// re-executed (etcdrun's RunMemberIfAsked), so the image stays the same across rebuilds
// of lockbench.
func buildImage(ctx context.Context, d *container.Topology) (image, exe string, err error) {
	exe, err = reexec.ExecutableFor(memberfile.Role)
	if err != nil {
		return "", "", err
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		return "", "", err
	}
	files := container.Files{}
	if err := files.AddLibraries(exe, nil); err != nil {
		return "", "", err
	}
	image, err = d.BuildImage(ctx, "lockbench/etcd-host", files)
	return image, exe, err
}
