package postgres

import "github.com/lockbench/lockbench/backend"

// strategies are PostgreSQL's: the two locks backends/postgres/pglock builds, which only the update
// workload measures, and the three lock-free ways updates builds on the account rows.
// None is ranked on the safety order: they sort after the ranked, by name.
var strategies = []backend.Strategy{
	{Name: "pg-advisory", Position: 16, Presets: []backend.Preset{backend.UpdateMatrix}},
	{Name: "pg-for-update", Position: 17, Presets: []backend.Preset{backend.UpdateMatrix}},
	{Name: "cas-version", Position: 18},
	{Name: "unique-key", Position: 19},
	{Name: "atomic", Position: 20},
}
