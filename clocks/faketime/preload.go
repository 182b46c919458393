// Package faketime applies a clock model to a redis-server process with libfaketime:
// the rate through FAKETIME's speed factor, offsets, jumps and strobes through a
// timestamp file that a driver rewrites when the model says the clock steps.
package faketime

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// preloadSource routes malloc and friends to glibc; see preload/glibcmalloc.c for why.
//
//go:embed preload/glibcmalloc.c
var preloadSource []byte

// ErrNoLibfaketime says libfaketimeMT.so.1 was found neither through LIBFAKETIME nor
// in the usual library directories.
var ErrNoLibfaketime = errors.New(
	"libfaketimeMT.so.1 not found: install it (Debian/Ubuntu: apt-get install faketime) or set LIBFAKETIME to its path")

// ErrNoCompiler says gcc (or $CC) is missing, so the allocator preload cannot be built.
var ErrNoCompiler = errors.New("gcc not found: install it (Debian/Ubuntu: apt-get install gcc) or set CC; it builds " +
	"the small allocator preload that libfaketime needs with redis-server")

var libraryDirs = []string{
	"/usr/lib/x86_64-linux-gnu/faketime",
	"/usr/lib/aarch64-linux-gnu/faketime",
	"/usr/lib/faketime",
	"/usr/local/lib/faketime",
	"/usr/lib64/faketime",
}

// Library returns the multi-threaded libfaketime: $LIBFAKETIME if set, else the first
// found in the usual directories.
func Library() (string, error) {
	if p := os.Getenv("LIBFAKETIME"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("LIBFAKETIME=%s: %w", p, err)
		}
		return p, nil
	}
	for _, dir := range libraryDirs {
		p := filepath.Join(dir, "libfaketimeMT.so.1")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", ErrNoLibfaketime
}

// Preload returns the allocator preload, building it with gcc into the user's cache
// dir the first time (named by the source's hash, so an edit rebuilds it).
func Preload() (string, error) {
	dir, out := preloadPath()
	if _, err := os.Stat(out); err == nil {
		return out, nil
	}
	cc, err := compiler()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	work, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)
	src := filepath.Join(work, "glibcmalloc.c")
	if err := os.WriteFile(src, preloadSource, 0o644); err != nil {
		return "", err
	}
	tmp := filepath.Join(work, "glibcmalloc.so")
	if b, err := exec.Command(cc, "-shared", "-fPIC", "-O2", "-o", tmp, src, "-ldl").CombinedOutput(); err != nil {
		return "", fmt.Errorf("build allocator preload with %s: %w: %s", cc, err, b)
	}
	// Rename, so that a concurrent builder never sees half a library.
	if err := os.Rename(tmp, out); err != nil {
		return "", err
	}
	return out, nil
}

// PreloadReady says, without building anything, whether Preload can return the
// allocator preload: the built one (its path) or the compiler that would build it.
func PreloadReady() (built, cc string, err error) {
	if _, out := preloadPath(); fileExists(out) {
		return out, "", nil
	}
	cc, err = compiler()
	return "", cc, err
}

// preloadPath is the cache folder and the file the preload of this source is built as.
func preloadPath() (dir, out string) {
	sum := sha256.Sum256(preloadSource)
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir = filepath.Join(cache, "lockbench")
	return dir, filepath.Join(dir, "glibcmalloc-"+hex.EncodeToString(sum[:8])+".so")
}

// compiler is the path of $CC (default gcc), or ErrNoCompiler.
func compiler() (string, error) {
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "gcc"
	}
	p, err := exec.LookPath(cc)
	if err != nil {
		return "", ErrNoCompiler
	}
	return p, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
