package container

import (
	"context"
	"debug/elf"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/moby/moby/client"
)

// storeImageVersion changes when the stores' image layout does, so an old one is not reused.
const storeImageVersion = "1"

// filesImage returns repo:<hash of the files>, building it FROM scratch from files (in
// image -> on host) when no image of that tag is present: once per machine, as the
// Redis host image.
func filesImage(ctx context.Context, c *client.Client, repo string, files map[string]string) (string, error) {
	return scratchImage{
		repo: repo, files: files, dockerfile: "FROM scratch\nCOPY . /\n",
		version: storeImageVersion, source: "the host's files",
	}.build(ctx, c)
}

// scratchImage is an image of host files on an empty base, tagged by their hash, so
// that one built before from the same files is reused.
type scratchImage struct {
	repo       string
	files      map[string]string // in image -> on host
	dockerfile string
	version    string            // changes when the layout does, so an old image is not reused
	labels     map[string]string // besides labelImage, which the build sets
	source     string            // what the files are, for errors
}

// build returns the image's tag, building it unless an image of that tag is present.
func (im scratchImage) build(ctx context.Context, c *client.Client) (string, error) {
	sum, err := hashFiles(im.files, im.dockerfile+im.version)
	if err != nil {
		return "", err
	}
	tag := im.repo + ":" + sum[:16]
	if _, err := c.ImageInspect(ctx, tag); err == nil {
		return tag, nil
	}
	labels := map[string]string{labelImage: sum}
	maps.Copy(labels, im.labels)
	buildCtx, err := tarContext(im.files, im.dockerfile)
	if err != nil {
		return "", err
	}
	res, err := c.ImageBuild(ctx, buildCtx, client.ImageBuildOptions{Tags: []string{tag}, Labels: labels, Remove: true, ForceRemove: true})
	if err != nil {
		return "", fmt.Errorf("build %s from %s: %w", tag, im.source, err)
	}
	defer res.Body.Close()
	if err := buildError(res.Body); err != nil {
		return "", fmt.Errorf("build %s from %s: %w", tag, im.source, err)
	}
	return tag, nil
}

// Files is what a store's image holds, image path -> host path, for BuildImage.
type Files map[string]string

// AddTree adds every regular file under dir (symlinks followed) at its own path, and the
// libraries ldd lists for each ELF file among them; skip (may be nil) leaves paths out.
func (files Files) AddTree(dir string, skip func(string) bool) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if skip != nil && skip(p) {
			return nil
		}
		fi, err := os.Stat(p) // follows a symlink; a dangling one is skipped
		if err != nil || fi.IsDir() {
			return nil
		}
		files[p] = p
		if isELF(p) {
			return files.AddLibraries(p, nil)
		}
		return nil
	})
}

// AddLibraries adds the libraries ldd lists for src at their paths, except those under
// a dir that is mounted into the container rather than copied (mounted).
func (files Files) AddLibraries(src string, mounted []string) error {
	libs := map[string]string{}
	if err := addWithLibraries(libs, src, src); err != nil {
		if !dynamic(src) {
			return nil // a static program needs no library
		}
		return err
	}
	delete(libs, src)
	for lib := range libs {
		if !Under(lib, mounted) {
			files[lib] = lib
		}
	}
	return nil
}

// Under reports whether p is one of dirs or lies below one.
func Under(p string, dirs []string) bool {
	for _, d := range dirs {
		if p == d || strings.HasPrefix(p, strings.TrimSuffix(d, "/")+"/") {
			return true
		}
	}
	return false
}

func isELF(p string) bool {
	f, err := elf.Open(p)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// dynamic reports whether an ELF file names a loader (ldd refuses a static one).
func dynamic(p string) bool {
	f, err := elf.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	for _, prog := range f.Progs {
		if prog.Type == elf.PT_INTERP || prog.Type == elf.PT_DYNAMIC {
			return true
		}
	}
	return false
}

// BuildImage returns repo:<hash of the files>, building it FROM scratch from files when
// no image of that tag is present: once per machine, as the Redis host image.
func (d *Deployment) BuildImage(ctx context.Context, repo string, files Files) (string, error) {
	return filesImage(ctx, d.cli, repo, files)
}
