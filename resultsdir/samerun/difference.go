// Package samerun names the first difference between what a command asks now and what
// a results folder recorded, so that a --resume of another run is refused by name.
package samerun

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Difference is the first value that differs: where, and what it is on each side.
type Difference struct {
	Path        string // "seed", "sweeps[0].clients", "libraries[github.com/redis/go-redis/v9]"
	Here, There string
}

func (d Difference) String() string {
	return fmt.Sprintf("%s is %s here, %s there", d.Path, d.Here, d.There)
}

// First walks here and there (structs field by field, slices by index, maps by sorted
// key) and returns the first value that differs; ok is false when they are the same.
// A nil slice or map equals an empty one: a file read back holds no empty lists.
func First(here, there any) (d Difference, ok bool) {
	return first("", reflect.ValueOf(here), reflect.ValueOf(there))
}

func first(path string, a, b reflect.Value) (Difference, bool) {
	if a.Kind() != b.Kind() || a.Type() != b.Type() {
		return differ(path, a, b), true
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return differ(path, a, b), true
			}
			return Difference{}, false
		}
		return first(path, a.Elem(), b.Elem())
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			f := a.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			if d, ok := first(join(path, fieldName(f)), a.Field(i), b.Field(i)); ok {
				return d, true
			}
		}
		return Difference{}, false
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			if elem := a.Type().Elem().Kind(); elem == reflect.Struct || elem == reflect.Pointer {
				return Difference{path, entries(a.Len()), entries(b.Len())}, true
			}
			return differ(path, a, b), true
		}
		for i := 0; i < a.Len(); i++ {
			if d, ok := first(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i)); ok {
				if scalar(a.Type().Elem().Kind()) { // a list of numbers reads better whole
					return differ(path, a, b), true
				}
				return d, true
			}
		}
		return Difference{}, false
	case reflect.Map:
		keys := map[string]reflect.Value{}
		for _, k := range append(a.MapKeys(), b.MapKeys()...) {
			keys[fmt.Sprint(k.Interface())] = k
		}
		names := make([]string, 0, len(keys))
		for name := range keys {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			x, y := a.MapIndex(keys[name]), b.MapIndex(keys[name])
			p := fmt.Sprintf("%s[%s]", path, name)
			if !x.IsValid() || !y.IsValid() {
				return Difference{p, shown(x), shown(y)}, true
			}
			if d, ok := first(p, x, y); ok {
				return d, true
			}
		}
		return Difference{}, false
	}
	if !reflect.DeepEqual(a.Interface(), b.Interface()) {
		return differ(path, a, b), true
	}
	return Difference{}, false
}

func differ(path string, a, b reflect.Value) Difference {
	return Difference{path, shown(a), shown(b)}
}

// shown prints a value as a user typed it; a missing one as "absent".
func shown(v reflect.Value) string {
	if !v.IsValid() {
		return "absent"
	}
	if v.Kind() == reflect.String {
		return fmt.Sprintf("%q", v.String())
	}
	if (v.Kind() == reflect.Slice || v.Kind() == reflect.Map) && v.Len() == 0 {
		return "none"
	}
	return fmt.Sprint(v.Interface())
}

func entries(n int) string {
	if n == 1 {
		return "1 entry"
	}
	return fmt.Sprintf("%d entries", n)
}

func scalar(k reflect.Kind) bool {
	return k != reflect.Struct && k != reflect.Pointer && k != reflect.Slice && k != reflect.Map && k != reflect.Array
}

// fieldName is the name a file spells the field by: its yaml tag, else its json tag.
func fieldName(f reflect.StructField) string {
	for _, tag := range []string{"yaml", "json"} {
		if name, _, _ := strings.Cut(f.Tag.Get(tag), ","); name != "" && name != "-" {
			return name
		}
	}
	return strings.ToLower(f.Name)
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
