package capacity

import (
	"bytes"
	"fmt"
	"os"

	"github.com/lockbench/lockbench/backend"
)

// LoadConfig is the defaults of stores with the config file at path laid over them;
// an empty file is refused, as it would silently search the defaults.
func LoadConfig(stores *backend.Catalog, path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return Config{}, fmt.Errorf("config %s: the file is empty", path)
	}
	file, err := ParseConfig(data)
	if err != nil {
		return Config{}, fmt.Errorf("config %s: %w", path, err)
	}
	return Over(DefaultConfig(stores), file), nil
}
