package main

import (
	"errors"
	"os"
)

// checkResumeDir refuses a --resume folder that is not there before anything reads
// or writes: a typo must not start a run somewhere else.
func checkResumeDir(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return usagef("--resume %s: no such folder", dir)
	case err != nil:
		return usagef("--resume %s: %v", dir, err)
	case !st.IsDir():
		return usagef("--resume %s: not a folder", dir)
	}
	return nil
}
