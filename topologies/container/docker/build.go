package docker

import (
	"encoding/json"
	"fmt"
	"io"
)

// buildError reads the build's JSON stream to its end and returns the error it reports.
func buildError(r io.Reader) error {
	dec := json.NewDecoder(r)
	for {
		var msg struct {
			Error string `json:"error"`
		}
		if err := dec.Decode(&msg); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		if msg.Error != "" {
			return fmt.Errorf("%s", msg.Error)
		}
	}
}
