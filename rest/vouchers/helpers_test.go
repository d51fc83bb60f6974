package vouchers_test

import (
	"io"
	"log/slog"
)

// quietLogger discards the logs of the test's own job workers.
var quietLogger = slog.New(slog.NewTextHandler(io.Discard, nil))

func num(v any) float64 { f, _ := v.(float64); return f }
