package results

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// declaredMeasures reads the package's source: every constant declared of type
// Measure (name to value), and the names in Measures' literal, in their order.
func declaredMeasures(t *testing.T) (constants map[string]Measure, listed []string) {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	constants = map[string]Measure{}
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			spec, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			collectConstants(spec, constants)
			if len(spec.Names) == 1 && spec.Names[0].Name == "Measures" {
				listed = literalNames(t, spec)
			}
			return true
		})
	}
	return constants, listed
}

// collectConstants adds spec's names when it declares measures (type Measure, value a
// string literal).
func collectConstants(spec *ast.ValueSpec, into map[string]Measure) {
	if typ, ok := spec.Type.(*ast.Ident); !ok || typ.Name != "Measure" {
		return
	}
	for i, name := range spec.Names {
		if i >= len(spec.Values) {
			continue
		}
		if lit, ok := spec.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if v, err := strconv.Unquote(lit.Value); err == nil {
				into[name.Name] = Measure(v)
			}
		}
	}
}

// literalNames is the identifiers of Measures' composite literal, in order.
func literalNames(t *testing.T, spec *ast.ValueSpec) []string {
	t.Helper()
	lit, ok := spec.Values[0].(*ast.CompositeLit)
	if !ok {
		t.Fatalf("Measures is not declared as one literal list")
	}
	var names []string
	for _, e := range lit.Elts {
		id, ok := e.(*ast.Ident)
		if !ok {
			t.Fatalf("Measures holds %T, want the name of a measure", e)
		}
		names = append(names, id.Name)
	}
	return names
}

// The table order is Measures' literal as written, whatever the file names: nothing
// appends to it or reorders it after its declaration.
func TestMeasuresAreInTheirDeclaredOrder(t *testing.T) {
	constants, listed := declaredMeasures(t)
	if len(listed) == 0 {
		t.Fatal("no literal declaration of Measures found")
	}
	var want []Measure
	for _, name := range listed {
		m, ok := constants[name]
		if !ok {
			t.Fatalf("Measures lists %s, which is no measure constant of this package", name)
		}
		want = append(want, m)
	}
	if !slices.Equal(Measures, want) {
		t.Errorf("Measures at run time:\n%v\nwant its declaration:\n%v", Measures, want)
	}
}

func TestEveryMeasureIsListedOnce(t *testing.T) {
	constants, _ := declaredMeasures(t)
	seen := map[Measure]int{}
	for _, m := range Measures {
		seen[m]++
	}
	for name, m := range constants {
		if seen[m] != 1 {
			t.Errorf("%s (%q) is in Measures %d times, want once", name, m, seen[m])
		}
	}
	if len(Measures) != len(constants) {
		t.Errorf("Measures has %d entries for %d declared measures", len(Measures), len(constants))
	}
}
