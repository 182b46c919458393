// Package preflight says, before anything starts, whether this machine has what a
// plan's topologies run on (server binaries, Java and the ZooKeeper jars, a container
// engine, libfaketime), and for lockbench doctor what each provider can serve here.
// It asks the finders the providers themselves use; it starts no server.
package preflight

// Piece is one thing outside this program's own code that a topology runs on.
type Piece struct {
	Name    string // shown to the user: "ZooKeeper (Java and zookeeper.jar)"
	Install string // the line that installs it here: "apt-get install zookeeper"
	find    func() (Found, error)
	// unserved marks the stand-in for a kind the provider does not serve at all.
	unserved bool
}

// Found is where a piece was found, and its version ("" when it cannot be read).
type Found struct {
	Path    string
	Version string
}

// Find resolves the piece with the finder its provider uses.
func (p Piece) Find() (Found, error) { return p.find() }
