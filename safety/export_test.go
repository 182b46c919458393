package safety

// RunScenario is runScenario for the tests of package safety_test (lost_updates_test.go),
// which import safety/pgresource, a package that imports this one.
var RunScenario = runScenario
