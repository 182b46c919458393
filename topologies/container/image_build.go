package container

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

var lddPath = regexp.MustCompile(`(?:=>\s*)?(/\S+)\s+\(0x`)

// addWithLibraries adds host file src at dst, and every library ldd lists for it at
// the path ldd names (the loader included).
func addWithLibraries(files map[string]string, dst, src string) error {
	files[dst] = src
	out, err := exec.Command("ldd", src).Output()
	if err != nil {
		return fmt.Errorf("ldd %s: %w (is ldd installed?)", src, err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if m := lddPath.FindStringSubmatch(line); m != nil {
			files[m[1]] = m[1]
		}
	}
	return nil
}

// hashFiles hashes every file's image path and content, and extra.
func hashFiles(files map[string]string, extra string) (string, error) {
	h := sha256.New()
	for _, dst := range sortedKeys(files) {
		b, err := os.ReadFile(files[dst])
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", dst, len(b))
		h.Write(b)
	}
	io.WriteString(h, extra)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// tarContext is the build context: the files at their image paths and the Dockerfile.
func tarContext(files map[string]string, dockerfile string) (io.Reader, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	add := func(name string, mode int64, b []byte) error {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: mode, Size: int64(len(b)),
			Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		_, err := tw.Write(b)
		return err
	}
	for _, dst := range sortedKeys(files) {
		b, err := os.ReadFile(files[dst]) // follows symlinks: the image holds real files
		if err != nil {
			return nil, err
		}
		if err := add(strings.TrimPrefix(filepath.Clean(dst), "/"), 0o755, b); err != nil {
			return nil, err
		}
	}
	if err := add("Dockerfile", 0o644, []byte(dockerfile)); err != nil {
		return nil, err
	}
	return &buf, tw.Close()
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
