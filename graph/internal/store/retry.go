package store

import (
	"errors"

	"github.com/lib/pq"
)

// MaxBatchAttempts bounds the attempts of one batch or transaction run
// again after a transient failure (IsTransient).
const MaxBatchAttempts = 5

// IsTransient reports a PostgreSQL deadlock or serialization failure: the
// transaction was rolled back and may simply be run again.
func IsTransient(err error) bool {
	var pqErr *pq.Error
	return errors.As(err, &pqErr) && (pqErr.Code == "40P01" || pqErr.Code == "40001")
}
