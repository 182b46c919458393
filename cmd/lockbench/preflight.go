package main

import (
	"github.com/lockbench/lockbench/preflight"
	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/sweep"
)

// preflightCells stops run before its first cell, and before its results folder is
// made, when this machine lacks what a cell's topology runs on.
func preflightCells(provider string, cells []sweep.Cell) error {
	needs, err := preflight.ForCells(cells)
	if err != nil {
		return usageError{err.Error()}
	}
	return asUsage(preflight.CheckStrategies(provider, needs))
}

// preflightStrategies is preflightCells for capacity's strategies.
func preflightStrategies(provider string, strategies []string) error {
	needs, err := preflight.ForStrategies(strategies)
	if err != nil {
		return usageError{err.Error()}
	}
	return asUsage(preflight.CheckStrategies(provider, needs))
}

// preflightScenarios stops safety before its first trial, and before its folder exists.
func preflightScenarios(provider string, chosen []lab.Scenario, params lab.Params) error {
	needs, err := preflight.ForScenarios(chosen, params)
	if err != nil {
		return usageError{err.Error()}
	}
	return asUsage(preflight.CheckScenarios(provider, chosen, needs))
}

// asUsage makes a missing piece exit 2: the user's machine or flags must change.
func asUsage(err error) error {
	if err == nil {
		return nil
	}
	return usageError{err.Error()}
}
