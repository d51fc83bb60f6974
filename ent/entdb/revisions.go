package entdb

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"
)

// RevisionsTable records which versioned migrations a database has
// applied (one row per migration file, as Atlas's executor writes them).
const RevisionsTable = "schema_revisions"

// execQuerier is what the revision store runs on: the migration's
// transaction.
type execQuerier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// revisions stores Atlas revisions in RevisionsTable. It implements
// migrate.RevisionReadWriter over plain SQL, the same on both dialects.
type revisions struct {
	db      execQuerier
	dialect string
}

var _ migrate.RevisionReadWriter = (*revisions)(nil)

// createRevisionsTable makes RevisionsTable if it is missing.
func createRevisionsTable(ctx context.Context, db execQuerier) error {
	_, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS `+RevisionsTable+` (
		version varchar(64) NOT NULL PRIMARY KEY,
		description text NOT NULL,
		type integer NOT NULL,
		applied integer NOT NULL,
		total integer NOT NULL,
		executed_at varchar(40) NOT NULL,
		execution_time bigint NOT NULL,
		error text NOT NULL,
		error_stmt text NOT NULL,
		hash text NOT NULL,
		partial_hashes text NOT NULL,
		operator_version text NOT NULL
	)`)
	if err != nil {
		return fmt.Errorf("creating %s: %w", RevisionsTable, err)
	}
	return nil
}

// Ident names the revisions table, so Atlas does not count it as content.
func (r *revisions) Ident() *migrate.TableIdent {
	return &migrate.TableIdent{Name: RevisionsTable}
}

// placeholders rewrites ? into $n on PostgreSQL.
func (r *revisions) placeholders(q string) string {
	if r.dialect != dialect.Postgres {
		return q
	}
	var b strings.Builder
	n := 0
	for _, c := range q {
		if c == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

const revisionColumns = `version, description, type, applied, total, executed_at, execution_time,
	error, error_stmt, hash, partial_hashes, operator_version`

// ReadRevisions returns every applied revision, oldest version first.
func (r *revisions) ReadRevisions(ctx context.Context) ([]*migrate.Revision, error) {
	return r.query(ctx, `SELECT `+revisionColumns+` FROM `+RevisionsTable+` ORDER BY version`)
}

// ReadRevision returns the revision of one version, or
// migrate.ErrRevisionNotExist.
func (r *revisions) ReadRevision(ctx context.Context, version string) (*migrate.Revision, error) {
	revs, err := r.query(ctx, `SELECT `+revisionColumns+` FROM `+RevisionsTable+` WHERE version = ?`, version)
	if err != nil {
		return nil, err
	}
	if len(revs) == 0 {
		return nil, migrate.ErrRevisionNotExist
	}
	return revs[0], nil
}

// WriteRevision inserts or replaces the revision of rev.Version.
func (r *revisions) WriteRevision(ctx context.Context, rev *migrate.Revision) error {
	partial, err := json.Marshal(rev.PartialHashes)
	if err != nil {
		return fmt.Errorf("encoding partial hashes: %w", err)
	}
	if err := r.DeleteRevision(ctx, rev.Version); err != nil {
		return err
	}
	_, err = r.db.ExecContext(ctx, r.placeholders(`INSERT INTO `+RevisionsTable+` (`+revisionColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		rev.Version, rev.Description, int64(rev.Type), rev.Applied, rev.Total,
		rev.ExecutedAt.UTC().Format(time.RFC3339Nano), int64(rev.ExecutionTime),
		rev.Error, rev.ErrorStmt, rev.Hash, string(partial), rev.OperatorVersion)
	if err != nil {
		return fmt.Errorf("writing revision %s: %w", rev.Version, err)
	}
	return nil
}

// DeleteRevision removes the revision of one version.
func (r *revisions) DeleteRevision(ctx context.Context, version string) error {
	if _, err := r.db.ExecContext(ctx, r.placeholders(`DELETE FROM `+RevisionsTable+` WHERE version = ?`), version); err != nil {
		return fmt.Errorf("deleting revision %s: %w", version, err)
	}
	return nil
}

func (r *revisions) query(ctx context.Context, q string, args ...any) ([]*migrate.Revision, error) {
	rows, err := r.db.QueryContext(ctx, r.placeholders(q), args...)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", RevisionsTable, err)
	}
	defer rows.Close()
	var revs []*migrate.Revision
	for rows.Next() {
		var (
			rev              migrate.Revision
			typ, elapsed     int64
			executed, hashes string
		)
		if err := rows.Scan(&rev.Version, &rev.Description, &typ, &rev.Applied, &rev.Total, &executed, &elapsed,
			&rev.Error, &rev.ErrorStmt, &rev.Hash, &hashes, &rev.OperatorVersion); err != nil {
			return nil, fmt.Errorf("reading %s: %w", RevisionsTable, err)
		}
		rev.Type = migrate.RevisionType(typ)
		rev.ExecutionTime = time.Duration(elapsed)
		if rev.ExecutedAt, err = time.Parse(time.RFC3339Nano, executed); err != nil {
			return nil, fmt.Errorf("reading %s: executed_at of %s: %w", RevisionsTable, rev.Version, err)
		}
		if err := json.Unmarshal([]byte(hashes), &rev.PartialHashes); err != nil {
			return nil, fmt.Errorf("reading %s: partial hashes of %s: %w", RevisionsTable, rev.Version, err)
		}
		revs = append(revs, &rev)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", RevisionsTable, err)
	}
	return revs, nil
}

// errNoRevisionsTable is returned when the database has no RevisionsTable.
var errNoRevisionsTable = errors.New("no " + RevisionsTable + " table")
