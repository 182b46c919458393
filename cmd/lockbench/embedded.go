package main

// The embedded provider (in-process miniredis nodes driven by clock models) registers
// itself; `lockbench safety --provider embedded` selects it.
import _ "github.com/lockbench/lockbench/topologies/embedded"
