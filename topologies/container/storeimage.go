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
)

// storeImageVersion changes when the stores' image layout does, so an old one is not reused.
const storeImageVersion = "1"

// filesImage returns repo:<hash of the files>, building it FROM scratch from files (in
// image -> on host) when no image of that tag is present: once per machine.
func filesImage(ctx context.Context, c Engine, repo string, files map[string]string) (string, error) {
	return ScratchImage{
		Repo: repo, Files: files, Dockerfile: "FROM scratch\nCOPY . /\n",
		Version: storeImageVersion, Source: "the host's files",
	}.build(ctx, c)
}

// ScratchImage is an image of host files on an empty base, tagged by their hash, so
// that one built before from the same files is reused.
type ScratchImage struct {
	Repo       string
	Files      Files // in image -> on host
	Dockerfile string
	Version    string            // changes when the layout does, so an old image is not reused
	Labels     map[string]string // besides the content hash, which the build sets
	Source     string            // what the files are, for errors
}

// Build returns the image's tag, building it unless an image of that tag is present.
func (im ScratchImage) Build(ctx context.Context) (string, error) {
	c, err := engine(ctx)
	if err != nil {
		return "", err
	}
	return im.build(ctx, c)
}

func (im ScratchImage) build(ctx context.Context, c Engine) (string, error) {
	sum, err := hashFiles(im.Files, im.Dockerfile+im.Version)
	if err != nil {
		return "", err
	}
	tag := im.Repo + ":" + sum[:16]
	if _, ok, err := c.ImageLabels(ctx, tag); err == nil && ok {
		return tag, nil
	}
	labels := map[string]string{labelImage: sum}
	maps.Copy(labels, im.Labels)
	buildCtx, err := tarContext(im.Files, im.Dockerfile)
	if err != nil {
		return "", err
	}
	if err := c.BuildImage(ctx, tag, labels, buildCtx); err != nil {
		return "", fmt.Errorf("build %s from %s: %w", tag, im.Source, err)
	}
	return tag, nil
}

// AddProgram adds host file src at dst in the image, and every library ldd lists for
// it at the path ldd names (the loader included).
func (files Files) AddProgram(dst, src string) error { return addWithLibraries(files, dst, src) }

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
// no image of that tag is present: once per machine.
func (d *Topology) BuildImage(ctx context.Context, repo string, files Files) (string, error) {
	return filesImage(ctx, d.eng, repo, files)
}
