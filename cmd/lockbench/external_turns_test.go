package main

import (
	"io"
	"sync"
)

// The CLI installs one external deployment per process (topologies.SetExternalProvider),
// as a process runs one deployment. Tests that run it in-process on deployments of their
// own take turns: side by side, one test's run found another's file (a redlock or
// replicated role "which the file lacks", an etcd user with another's prefix).
var externalTurn sync.Mutex

// runOnDeployment is run, holding the process's external deployment while it runs.
func runOnDeployment(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	externalTurn.Lock()
	defer externalTurn.Unlock()
	return run(args, stdin, stdout, stderr)
}
