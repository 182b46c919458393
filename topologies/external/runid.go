package external

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"regexp"
)

// runIDPattern keeps a run id free of glob characters: the stores' cleanups match
// the run's keys with a pattern made of it.
var runIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// NewRunID is a random run id, so that two runs never share a key prefix by chance.
func NewRunID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// CheckRunID says whether id can name a run (--run-id).
func CheckRunID(id string) error {
	if !runIDPattern.MatchString(id) {
		return fmt.Errorf("run id %q: want 1 to 64 letters, digits, - or _ (it goes into a key pattern)", id)
	}
	return nil
}
