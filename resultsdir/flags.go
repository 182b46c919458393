package resultsdir

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// FlagsFile holds the flags of a `lockbench run` that config.yaml does not (no report,
// Redis image, worker share), so that `--resume DIR` alone carries the same command on.
const FlagsFile = "flags.json"

// WriteFlags records flags (name without dashes -> value as given) in dir.
func WriteFlags(dir string, flags map[string]string) error {
	b, err := json.MarshalIndent(flags, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(dir, FlagsFile), append(b, '\n'))
}

// ReadFlags reads the flags recorded in dir; found is false in a folder written before
// they were recorded.
func ReadFlags(dir string) (flags map[string]string, found bool, err error) {
	path := filepath.Join(dir, FlagsFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if err := json.Unmarshal(b, &flags); err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	if flags == nil {
		flags = map[string]string{}
	}
	return flags, true, nil
}
