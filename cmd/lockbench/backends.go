package main

// Every store's descriptor registers on import (backends/all): the topology kinds this
// binary specifies, validates and starts are the ones registered.
import _ "github.com/lockbench/lockbench/backends/all"
