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

// Folder is what a results folder's results.json says of the run that made it.
type Folder struct {
	// State is "complete", "partial" (not complete: a run to carry on with --resume) or
	// "absent" (not begun).
	State string
	// Params are a safety run's --param values; nil when the folder records none.
	Params map[string]string
}

// Inspect reads dir's results.json once; a folder of other files is an error.
func Inspect(dir string) (Folder, error) {
	b, err := os.ReadFile(filepath.Join(dir, JSONFile))
	if errors.Is(err, os.ErrNotExist) {
		entries, err := os.ReadDir(dir)
		if err == nil && len(entries) > 0 {
			return Folder{}, fmt.Errorf("%s holds files but no %s: move it away to measure it again", dir, JSONFile)
		}
		return Folder{State: "absent"}, nil
	}
	if err != nil {
		return Folder{}, err
	}
	var head struct {
		Complete bool `json:"complete"`
		Command  *struct {
			Params map[string]string `json:"params"`
		} `json:"command"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return Folder{}, fmt.Errorf("%s: %w", filepath.Join(dir, JSONFile), err)
	}
	f := Folder{State: "partial"}
	if head.Complete {
		f.State = "complete"
	}
	if head.Command != nil {
		f.Params = head.Command.Params
		if f.Params == nil {
			f.Params = map[string]string{}
		}
	}
	return f, nil
}

// OtherParams says, for a safety folder, the --param values it was made with when they
// are not those of args: a folder an earlier plan made (fewer modes, say) is not kept
// as if it answered this one. "" when they agree, or the folder records none.
func (f Folder) OtherParams(args []string) string {
	if f.Params == nil {
		return ""
	}
	want := map[string]string{}
	for i := 0; i+1 < len(args); i++ {
		if args[i] == "--param" {
			k, v, _ := strings.Cut(args[i+1], "=")
			want[k] = v
		}
	}
	if maps.Equal(want, f.Params) {
		return ""
	}
	var was []string
	for _, k := range slices.Sorted(maps.Keys(f.Params)) {
		was = append(was, "--param "+k+"="+f.Params[k])
	}
	if len(was) == 0 {
		return "no --param"
	}
	return strings.Join(was, " ")
}
