package clock

// clockClient is the lock client a clock race builds on its faked-clock nodes: one
// master's SET NX, or a Redlock client that waits for every node's answer or returns
// at a majority. Its name is the locks registry's strategy it stands for, as the
// strategies param and the variants' params spell it.
type clockClient struct {
	name     string
	quorum   bool // N independent masters; a majority grants
	failFast bool // returns at a majority, without waiting for the other answers
	bare     bool // its variants keep their names unprefixed (the first client measured)
}

var (
	oneMasterClient = clockClient{name: "single"}
	redlockClient   = clockClient{name: "redlock", quorum: true, bare: true}
	failFastClient  = clockClient{name: "redlock-failfast", quorum: true, failFast: true}
)

// Name is the registry strategy the client stands for.
func (c clockClient) Name() string { return c.name }

// prefix names the client's variants apart; redlock's keep their names.
func (c clockClient) prefix() string {
	if c.bare {
		return ""
	}
	return c.name + "/"
}
