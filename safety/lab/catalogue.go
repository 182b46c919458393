package lab

// A catalogue is a scenario's fixed list of named choices (guards, objections), which a
// param of names selects from.

// CatalogueNames lists the entries' names in catalogue order: the choices a param offers.
func CatalogueNames[T any](catalogue []T, name func(T) string) []string {
	names := make([]string, len(catalogue))
	for i, entry := range catalogue {
		names[i] = name(entry)
	}
	return names
}

// PickNamed returns the entries the names select, in the order the names give them.
func PickNamed[T any](catalogue []T, names []string, name func(T) string) []T {
	var picked []T
	for _, want := range names {
		for _, entry := range catalogue {
			if name(entry) == want {
				picked = append(picked, entry)
			}
		}
	}
	return picked
}
