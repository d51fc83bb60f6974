package entdb

import (
	"context"
	stdsql "database/sql"
	"reflect"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
)

// textArgs wraps the PostgreSQL ent driver so that []byte arguments travel
// as text. The connection uses lib/pq's binary_parameters mode, which sends
// parse, bind and execute in one network round trip instead of two — but in
// that mode []byte arguments are sent in binary format, which jsonb columns
// reject (ent passes JSON values as []byte). The schema has no bytea
// columns, so every []byte argument is text.
type textArgs struct{ *entsql.Driver }

var _ dialect.Driver = textArgs{}

// Exec implements dialect.Driver.
func (d textArgs) Exec(ctx context.Context, query string, args, v any) error {
	return d.Driver.Exec(ctx, query, asText(args), v)
}

// Query implements dialect.Driver.
func (d textArgs) Query(ctx context.Context, query string, args, v any) error {
	return d.Driver.Query(ctx, query, asText(args), v)
}

// ExecContext serves the generated client's ExecContext.
func (d textArgs) ExecContext(ctx context.Context, query string, args ...any) (stdsql.Result, error) {
	return d.Driver.ExecContext(ctx, query, asText(args).([]any)...)
}

// QueryContext serves the generated client's QueryContext.
func (d textArgs) QueryContext(ctx context.Context, query string, args ...any) (*stdsql.Rows, error) {
	return d.Driver.QueryContext(ctx, query, asText(args).([]any)...)
}

// Tx implements dialect.Driver.
func (d textArgs) Tx(ctx context.Context) (dialect.Tx, error) {
	tx, err := d.Driver.Tx(ctx)
	if err != nil {
		return nil, err
	}
	return textArgsTx{tx}, nil
}

// BeginTx serves the generated client's BeginTx.
func (d textArgs) BeginTx(ctx context.Context, opts *entsql.TxOptions) (dialect.Tx, error) {
	tx, err := d.Driver.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return textArgsTx{tx}, nil
}

type textArgsTx struct{ dialect.Tx }

// Exec implements dialect.Tx.
func (t textArgsTx) Exec(ctx context.Context, query string, args, v any) error {
	return t.Tx.Exec(ctx, query, asText(args), v)
}

// Query implements dialect.Tx.
func (t textArgsTx) Query(ctx context.Context, query string, args, v any) error {
	return t.Tx.Query(ctx, query, asText(args), v)
}

// ExecContext serves raw statements inside a transaction.
func (t textArgsTx) ExecContext(ctx context.Context, query string, args ...any) (stdsql.Result, error) {
	ex, ok := t.Tx.(interface {
		ExecContext(context.Context, string, ...any) (stdsql.Result, error)
	})
	if !ok {
		return nil, stdsql.ErrConnDone
	}
	return ex.ExecContext(ctx, query, asText(args).([]any)...)
}

// QueryContext serves raw queries inside a transaction.
func (t textArgsTx) QueryContext(ctx context.Context, query string, args ...any) (*stdsql.Rows, error) {
	q, ok := t.Tx.(interface {
		QueryContext(context.Context, string, ...any) (*stdsql.Rows, error)
	})
	if !ok {
		return nil, stdsql.ErrConnDone
	}
	return q.QueryContext(ctx, query, asText(args).([]any)...)
}

// asText returns args with every byte slice ([]byte, json.RawMessage, …)
// turned into a string (args is the []any ent passes; anything else is
// returned as is).
func asText(args any) any {
	list, ok := args.([]any)
	if !ok {
		return args
	}
	var out []any
	for i, a := range list {
		v := reflect.ValueOf(a)
		if !v.IsValid() || v.Kind() != reflect.Slice || v.Type().Elem().Kind() != reflect.Uint8 {
			continue
		}
		if out == nil {
			out = append([]any(nil), list...)
		}
		if v.IsNil() {
			out[i] = nil
		} else {
			out[i] = string(v.Bytes())
		}
	}
	if out == nil {
		return list
	}
	return out
}
