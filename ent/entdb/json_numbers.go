package entdb

import (
	"context"
	"fmt"
	"strings"

	atlasmigrate "ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"
	"entgo.io/ent/schema/field"

	"github.com/promoengine/promoengine/ent/migrate"
	"github.com/promoengine/promoengine/ent/schema/jsonnum"
)

// jsonNumbersVersion is the version of the migration files
// (<version>_repair_json_numbers.sql, one per dialect) that mark the data
// step repairJSONNumbers: when Up applies that file, the step runs in the
// same transaction, after the files. Adopting an unversioned database
// runs it too (its rows may be as old as any).
const jsonNumbersVersion = "20261126100000"

// appliesJSONNumbers reports whether the migration files named are the
// ones that include the repair's marker.
func appliesJSONNumbers(names []string) bool {
	for _, n := range names {
		if strings.HasPrefix(n, jsonNumbersVersion+"_") {
			return true
		}
	}
	return false
}

// maxFloatDigits: PostgreSQL's jsonb prints a number in full digits, and a
// number beyond float64's range (1.8e308) has at least 309 of them.
const maxFloatDigits = 309

// repairJSONNumbers rewrites, in every JSON column of every table, the
// numbers that are not finite float64 — stored before every transport
// refused them (issue 34: a metadata value of 1e400 made every list of the
// resource answer 500) — to the nearest finite value,
// ±1.7976931348623157e308 (jsonnum.Repair; every other byte of the
// document is kept). The columns are the JSON columns of ent's schema
// (migrate.Tables) that the database has, so a new JSON column is covered
// without a change here. It returns the number of values rewritten.
func (d *DB) repairJSONNumbers(ctx context.Context, q execQuerier) (int, error) {
	repaired := 0
	for _, t := range migrate.Tables {
		for _, c := range t.Columns {
			if c.Type != field.TypeJSON {
				continue
			}
			ok, err := d.columnExists(ctx, q, t.Name, c.Name)
			if err != nil {
				return repaired, err
			}
			if !ok {
				continue
			}
			n, err := d.repairColumn(ctx, q, t.Name, c.Name)
			repaired += n
			if err != nil {
				return repaired, fmt.Errorf("repairing numbers in %s.%s: %w", t.Name, c.Name, err)
			}
		}
	}
	return repaired, nil
}

// repairColumn repairs one JSON column: it finds the candidate rows
// cheaply in SQL, repairs their documents in Go and writes back those that
// changed. Rows are named by their physical address (ctid, rowid), which
// every table has and which stays put inside the migration's transaction.
func (d *DB) repairColumn(ctx context.Context, q execQuerier, table, column string) (int, error) {
	t, c := quoteIdent(table), quoteIdent(column)
	// PostgreSQL bounds a regular expression's repetition count at 255.
	find := fmt.Sprintf(`SELECT ctid::text, %s::text FROM %s WHERE %s::text ~ '[0-9]{255}[0-9]{%d}'`, c, t, c, maxFloatDigits-255)
	update := fmt.Sprintf(`UPDATE %s SET %s = $1::jsonb WHERE ctid = $2::tid`, t, c)
	if d.Dialect == dialect.SQLite {
		// SQLite keeps the text as sent and reads 1e400 as an infinite real.
		find = fmt.Sprintf(`SELECT CAST(rowid AS TEXT), %s FROM %s WHERE json_valid(%s) AND EXISTS (
			SELECT 1 FROM json_tree(%s.%s) WHERE type = 'real' AND abs(atom) > 1.7976931348623157e308)`, c, t, c, t, c)
		update = fmt.Sprintf(`UPDATE %s SET %s = ? WHERE rowid = CAST(? AS INTEGER)`, t, c)
	}
	type row struct{ addr, doc string }
	var rows []row
	rs, err := q.QueryContext(ctx, find)
	if err != nil {
		return 0, err
	}
	for rs.Next() {
		var r row
		if err := rs.Scan(&r.addr, &r.doc); err != nil {
			rs.Close()
			return 0, err
		}
		rows = append(rows, r)
	}
	rs.Close()
	if err := rs.Err(); err != nil {
		return 0, err
	}
	n := 0
	for _, r := range rows {
		fixed, changed := jsonnum.Repair([]byte(r.doc))
		if !changed {
			continue
		}
		if _, err := q.ExecContext(ctx, update, string(fixed), r.addr); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// columnExists reports whether table has column (a partial UpN may stop
// before a later file adds it).
func (d *DB) columnExists(ctx context.Context, q execQuerier, table, column string) (bool, error) {
	query := `SELECT count(*) FROM pragma_table_info(?) WHERE name = ?`
	if d.Dialect == dialect.Postgres {
		query = `SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name = $2`
	}
	rows, err := q.QueryContext(ctx, query, table, column)
	if err != nil {
		return false, fmt.Errorf("looking for column %s.%s: %w", table, column, err)
	}
	defer rows.Close()
	var n int
	for rows.Next() {
		if err := rows.Scan(&n); err != nil {
			return false, fmt.Errorf("looking for column %s.%s: %w", table, column, err)
		}
	}
	return n > 0, rows.Err()
}

// quoteIdent quotes an SQL identifier (both dialects accept double quotes).
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// RepairJSONNumbers runs the data step of the repair_json_numbers
// migration on its own, in one transaction under the migration lock, and
// returns the number of values rewritten (`promoengine migrate
// repair-numbers`). Up runs it once; during a rolling upgrade the old
// replicas still store such numbers until they are replaced, so run this
// once after the last of them is gone.
func (d *DB) RepairJSONNumbers(ctx context.Context) (int, error) {
	n := 0
	err := d.WithAdvisoryLock(ctx, migrationLockKey, func() error {
		return d.inMigrationTx(ctx, func(q execQuerier, _ atlasmigrate.Driver) error {
			var err error
			n, err = d.repairJSONNumbers(ctx, q)
			return err
		})
	})
	return n, err
}
