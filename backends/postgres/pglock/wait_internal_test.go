package pglock

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestQueryCanceledIsOnlyTheServersCancel: only a statement the server cancelled may
// leave its connection for reuse; pgx's own ctx error means a closed socket.
func TestQueryCanceledIsOnlyTheServersCancel(t *testing.T) {
	for err, want := range map[error]bool{
		fmt.Errorf("lock: %w", &pgconn.PgError{Code: "57014"}): true,
		&pgconn.PgError{Code: lockNotAvailable}:                false,
		context.Canceled:                                       false,
		errors.New("57014"):                                    false,
	} {
		if got := queryCanceled(err); got != want {
			t.Errorf("queryCanceled(%v) = %v, want %v", err, got, want)
		}
	}
}
