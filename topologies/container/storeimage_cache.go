package container

import "sync"

var (
	storeImagesMu sync.Mutex
	storeImages   = map[string][]string{} // image repo -> tag, then its mounts: once per program
)

// OnceImage returns what resolve found for repo the first time it succeeded in this
// program: walking the host's install and running ldd on every file costs a second or
// more, and the safety lab starts a fresh topology per trial.
func OnceImage(repo string, resolve func() (string, []string, error)) (string, []string, error) {
	storeImagesMu.Lock()
	defer storeImagesMu.Unlock()
	if got, ok := storeImages[repo]; ok {
		return got[0], got[1:], nil
	}
	tag, mounts, err := resolve()
	if err != nil {
		return "", nil, err
	}
	storeImages[repo] = append([]string{tag}, mounts...)
	return tag, mounts, nil
}
