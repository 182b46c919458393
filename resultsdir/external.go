package resultsdir

// ExternalServer is one server of a deployment lockbench does not own, as results.json
// records it: where it is and what it runs, never how to log in.
type ExternalServer struct {
	Role    string `json:"role"`
	Name    string `json:"name"`
	Addr    string `json:"addr"`
	Version string `json:"version"`
}
