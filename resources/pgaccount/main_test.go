package pgaccount_test

import (
	"os"
	"testing"

	"github.com/lockbench/lockbench/topologies/testenv"
)

// TestMain closes the server the package's tests shared (testenv.Shared).
func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }
