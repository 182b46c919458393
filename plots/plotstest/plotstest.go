// Package plotstest holds what the tests of every figure family check alike: a crowd
// of strategies, that no two legend entries look the same, and rendering in memory.
package plotstest

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"testing"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/plots"
)

// Crowd is more strategies than the palette has colours: every one a store of stores
// declared and names no store knows.
func Crowd(stores *backend.Catalog) []string {
	var names []string
	for _, st := range stores.Strategies() {
		names = append(names, st.Name)
	}
	for i := 0; i < 12; i++ {
		names = append(names, fmt.Sprintf("custom-%d", i))
	}
	return names
}

// AssertOwnLooks fails a figure with a legend entry whose look another entry shares,
// or with an entry that has no look.
func AssertOwnLooks(t testing.TB, f plots.Figure) {
	t.Helper()
	if len(f.Looks) != len(f.Series) {
		t.Errorf("%s: %d looks for %d legend entries %v", f.Name, len(f.Looks), len(f.Series), f.Series)
		return
	}
	seen := map[plots.Look]string{}
	for i, l := range f.Looks {
		if other, ok := seen[l]; ok {
			t.Errorf("%s: %q and %q are drawn alike (%+v)", f.Name, other, f.Series[i], l)
		}
		seen[l] = f.Series[i]
	}
}

// Names lists the figures' names, in order.
func Names(figs []plots.Figure) []string {
	var out []string
	for _, f := range figs {
		out = append(out, f.Name)
	}
	return out
}

// Rendered renders what a family's build drew, as its Write would before writing.
func Rendered(ds []plots.Drawn, err error) ([]plots.Figure, []plots.File, error) {
	if err != nil {
		return nil, nil, err
	}
	return plots.Render(ds)
}

// AssertSameBytes renders what build draws twice and fails unless both renderings
// give files, the same ones, byte for byte: a figure must not depend on map order or time.
func AssertSameBytes(t testing.TB, build func() ([]plots.Drawn, error)) {
	t.Helper()
	figs, first, err := Rendered(build())
	if err != nil {
		t.Fatal(err)
	}
	_, second, err := Rendered(build())
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) == 0 || len(first) == 0 || len(first) != len(second) {
		t.Fatalf("rendered %d then %d files", len(first), len(second))
	}
	for i := range first {
		if first[i].Path != second[i].Path || !bytes.Equal(first[i].Data, second[i].Data) {
			t.Errorf("%s differs between two renderings of the same input", first[i].Path)
		}
	}
}

// SVGTexts parses an SVG and returns the content of its <text> elements.
func SVGTexts(t testing.TB, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(b))
	var texts []string
	inText := false
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() == "EOF" {
				break
			}
			t.Fatalf("%s is not valid XML: %v", path, err)
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			inText = tk.Name.Local == "text"
		case xml.CharData:
			if inText {
				texts = append(texts, string(tk))
			}
		case xml.EndElement:
			inText = false
		}
	}
	return texts
}
