package preflight

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/topologies"
)

// families are the --provider values doctor reports, as the user types them.
var families = []string{"process", "container", "embedded"}

// Doctor prints what each provider can serve on this machine, what --provider auto
// would pick, what is missing and how to install it, and whether quick (the needs of
// `run --quick`) can run; it returns that last answer. It starts no server.
func Doctor(w io.Writer, quick []Need) bool {
	missing := map[string]Piece{}
	for _, fam := range families {
		fmt.Fprintf(w, "provider %s\n", fam)
		for _, k := range linked.Catalog().Kinds() { // in rank order: the Redis kinds first
			prov, err := resolve(fam, k)
			if err != nil {
				fmt.Fprintf(w, "  %-10s -  %v\n", k, err)
				continue
			}
			for i, p := range piecesFor(prov, k, false) {
				label := ""
				if i == 0 {
					label = string(k)
				}
				fmt.Fprintf(w, "  %-10s %s\n", label, pieceLine(p, prov, missing))
			}
		}
	}
	fmt.Fprintf(w,
		"provider external\n  %-10s servers named by a --deployment file, not run here (see docs/external.md)\n",
		"every kind")
	fmt.Fprintf(w, "clock faults (processes)\n")
	for _, p := range []Piece{Libfaketime, Compiler} {
		fmt.Fprintf(w, "  %-10s %s\n", "", pieceLine(p, "process", missing))
	}

	fmt.Fprintf(w, "\n--provider auto would pick\n")
	for _, k := range linked.Catalog().Kinds() {
		pick, reason, err := topologies.AutoChoice(k)
		if err != nil {
			fmt.Fprintf(w, "  %-10s nothing: %v\n", k, err)
			continue
		}
		fmt.Fprintf(w, "  %-10s %s (%s)\n", k, pick, reason)
	}

	fmt.Fprintf(w, "\nmissing\n")
	if len(missing) == 0 {
		fmt.Fprintf(w, "  nothing\n")
	}
	for _, p := range sortedPieces(missing) {
		fmt.Fprintf(w, "  %-40s install: %s\n", p.Name, p.Install)
	}

	gaps := Check("", quick)
	if len(gaps) == 0 {
		fmt.Fprintf(w, "\nrun --quick: can run here\n")
		return true
	}
	fmt.Fprintf(w, "\nrun --quick: cannot run here, it lacks:\n")
	for _, m := range gaps {
		fmt.Fprint(w, m.describe())
	}
	fmt.Fprintf(w, "  %s\n", strategiesHint(quick, gaps))
	return false
}

// pieceLine is one piece's name, version and path, or why it is missing (noted in missing).
func pieceLine(p Piece, prov string, missing map[string]Piece) string {
	f, err := p.Find()
	if err != nil && p.unserved {
		return "not served: " + strings.TrimPrefix(err.Error(), "provider "+prov+": ")
	}
	if err != nil {
		if p.Install != "" {
			missing[p.Name] = p
		}
		return fmt.Sprintf("%-40s MISSING (%s): %v", p.Name, prov, err)
	}
	v := f.Version
	if v == "" {
		v = "version unknown"
	}
	return fmt.Sprintf("%-40s %-24s %s", p.Name, v, f.Path)
}

func sortedPieces(m map[string]Piece) []Piece {
	var names []string
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]Piece, len(names))
	for i, n := range names {
		out[i] = m[n]
	}
	return out
}
