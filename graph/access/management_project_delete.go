package access

import (
	"context"
	"errors"
	"fmt"

	entsql "entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/schema"

	"github.com/lib/pq"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/appkey"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/migrate"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// DeleteProject deletes a project and everything it owns, in one
// transaction: every row of every table with a project_id column (keys,
// OAuth tokens, campaigns, vouchers, customers, events, webhooks and their
// outbox, jobs, exports, idempotency records, …), its users' roles in it,
// then the project itself. Users stay (they may work on other projects).
// Nothing is kept as a tombstone: the project's keys, tokens and data are
// gone when the transaction commits, and this process forgets the keys at
// once (other server processes within AppKeyCacheTTL, as for a deleted key).
func DeleteProject(ctx context.Context, id string) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	if _, err := c.Project.Get(ctx, id); ent.IsNotFound(err) {
		return apperr.NotFound("project", id)
	} else if err != nil {
		return fmt.Errorf("looking up project: %w", err)
	}
	// Writers of the project that hold its lock finish first (PostgreSQL).
	if err := store.LockProject(ctx, c, id); err != nil {
		return err
	}
	keys, err := c.AppKey.Query().Where(appkey.ProjectID(id)).IDs(viewer.NewSystemContext(ctx))
	if err != nil {
		return fmt.Errorf("listing the project's keys: %w", err)
	}
	d := entdb.DialectFromContext(ctx)
	for _, t := range projectOwnedTables() {
		query, args := entsql.Dialect(d).Delete(t.Name).Where(entsql.EQ("project_id", id)).Query()
		if _, err := c.ExecContext(ctx, query, args...); err != nil {
			return fmt.Errorf("deleting the project's %s: %w", t.Name, err)
		}
	}
	if err := c.Project.DeleteOneID(id).Exec(ctx); err != nil {
		return fmt.Errorf("deleting project: %w", err)
	}
	for _, k := range keys {
		forgetAppKey(ctx, k)
	}
	return nil
}

// projectOwnedTables are the tables with a project_id column, each before
// the tables its foreign keys reference, so deleting in this order breaks
// no constraint (join tables without project_id cascade).
func projectOwnedTables() []*schema.Table {
	var owned []*schema.Table
	for _, t := range migrate.Tables {
		for _, col := range t.Columns {
			if col.Name == "project_id" {
				owned = append(owned, t)
				break
			}
		}
	}
	// Repeatedly take a table no remaining table references.
	var out []*schema.Table
	for len(owned) > 0 {
		next := -1
		for i, t := range owned {
			referenced := false
			for j, other := range owned {
				if i == j {
					continue
				}
				for _, fk := range other.ForeignKeys {
					if fk.RefTable == t {
						referenced = true
					}
				}
			}
			if !referenced {
				next = i
				break
			}
		}
		if next < 0 { // a cycle: the statements check at their end anyway
			next = 0
		}
		out = append(out, owned[next])
		owned = append(owned[:next], owned[next+1:]...)
	}
	return out
}

// DeleteManagementProject serves DELETE /management/v1/projects/{id}. A
// background job of the project (an export writing its file, a campaign
// job) that adds a row between the deletion of its table and of the table
// it references makes the deletion break a foreign key on PostgreSQL: the
// transaction is then run again (the job's later writes fail on the
// missing parent), up to deleteAttempts times.
func DeleteManagementProject(ctx context.Context, id string) (string, error) {
	if err := requireManagement(ctx); err != nil {
		return "", err
	}
	for attempt := 1; ; attempt++ {
		err := store.WithinTx(ctx, func(ctx context.Context) error { return DeleteProject(ctx, id) })
		if attempt < deleteAttempts && isForeignKeyViolation(err) {
			continue
		}
		return id, err
	}
}

// deleteAttempts bounds the runs of a project deletion.
const deleteAttempts = 3

// isForeignKeyViolation reports PostgreSQL's foreign_key_violation.
func isForeignKeyViolation(err error) bool {
	var pqErr *pq.Error
	return errors.As(err, &pqErr) && pqErr.Code == "23503"
}
