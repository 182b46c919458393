// Package suite runs a list of safety scenarios into one results folder, as
// `lockbench safety` does: the folder is rewritten after every finished trial, an
// interrupted run is resumed only when it is the same command on the same software,
// and the scenarios that cut links move to a provider that can when the default
// cannot. It uses the safety package's exported API and draws no figures itself.
package suite
