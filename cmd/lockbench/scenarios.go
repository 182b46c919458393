package main

import _ "github.com/lockbench/lockbench/safety/scenarios/all" // every scenario, for safety and preflight
