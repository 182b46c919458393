package resultsdir

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// State says whether a results folder is "complete", "partial" (its results.json says
// not complete: a run to carry on with --resume) or "absent" (not begun); a folder of
// other files is an error.
func State(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, JSONFile))
	if errors.Is(err, os.ErrNotExist) {
		entries, err := os.ReadDir(dir)
		if err == nil && len(entries) > 0 {
			return "", fmt.Errorf("%s holds files but no %s: move it away to measure it again", dir, JSONFile)
		}
		return "absent", nil
	}
	if err != nil {
		return "", err
	}
	var head struct {
		Complete bool `json:"complete"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return "", fmt.Errorf("%s: %w", filepath.Join(dir, JSONFile), err)
	}
	if head.Complete {
		return "complete", nil
	}
	return "partial", nil
}

// OtherParams says, for a safety folder, the --param values it was made with when they
// are not the step's: a folder an earlier plan made (fewer modes, say) is not kept as
// if it answered this one. "" when they agree, or the folder records none.
func OtherParams(dir string, args []string) string {
	b, err := os.ReadFile(filepath.Join(dir, JSONFile))
	if err != nil {
		return ""
	}
	var head struct {
		Command *struct {
			Params map[string]string `json:"params"`
		} `json:"command"`
	}
	if json.Unmarshal(b, &head) != nil || head.Command == nil {
		return ""
	}
	want := map[string]string{}
	for i := 0; i+1 < len(args); i++ {
		if args[i] == "--param" {
			k, v, _ := strings.Cut(args[i+1], "=")
			want[k] = v
		}
	}
	if maps.Equal(want, head.Command.Params) {
		return ""
	}
	var was []string
	for _, k := range slices.Sorted(maps.Keys(head.Command.Params)) {
		was = append(was, "--param "+k+"="+head.Command.Params[k])
	}
	if len(was) == 0 {
		return "no --param"
	}
	return strings.Join(was, " ")
}
