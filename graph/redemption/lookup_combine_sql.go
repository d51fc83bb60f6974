package redemption

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lib/pq"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/webhook"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// The combined look-up statement: its text, its arguments and the
// scanning of its member-tagged rows (lookup_combine.go queues the members).

// runCombinedLookup reads members' look-ups as one statement and returns
// each member's result, in order.
func runCombinedLookup(ctx context.Context, c *ent.Client, members []*lookupMember) ([]lookupResult, error) {
	ms, projects, codes, custs, nows := []int64{}, []string{}, []string{}, []*string{}, []string{}
	for i, m := range members {
		var cust *string
		if m.cust != nil {
			cust = &m.cust.value
		}
		now := m.now.UTC().Format(time.RFC3339Nano)
		for _, code := range m.codes {
			ms, projects, codes = append(ms, int64(i)), append(projects, m.project), append(codes, code)
			custs, nows = append(custs, cust), append(nows, now)
		}
	}
	if beforeCombinedLookup != nil {
		beforeCombinedLookup(ctx, len(members))
	}
	release, err := store.AdmitRedemption(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	query := combinedLookupQuery()
	if forceLookupFailure {
		query = "SELECT 1 / 0 WHERE $1::bigint[] IS NOT NULL AND $2::text[] IS NOT NULL AND $3::text[] IS NOT NULL " +
			"AND $4::text[] IS NOT NULL AND $5::timestamptz[] IS NOT NULL"
	}
	rows, err := c.QueryContext(ctx, query, pq.Array(ms), pq.Array(projects), pq.Array(codes),
		pq.Array(custs), pq.Array(nows))
	if err != nil {
		return nil, fmt.Errorf("combined look-up: %w", err)
	}
	defer func() { _ = rows.Close() }()
	results := make([]lookupResult, len(members))
	// Every row has the customer's columns (NULL for a member without
	// one), decoded each time: a few columns of a few rows. When no member
	// names a customer they are all NULL, and every row drops them into
	// one set of targets.
	var sink []any
	if !slices.ContainsFunc(members, func(m *lookupMember) bool { return m.cust != nil }) {
		sink = discardTargets(len(customer.Columns))
	}
	for rows.Next() {
		var m int64
		found, cst, err := scanLookedUp(c, taggedRows{rows: rows, m: &m}, true, sink, true)
		if err != nil {
			return nil, err
		}
		if m < 0 || int(m) >= len(members) {
			return nil, errors.New("combined look-up: a row of no member")
		}
		res := &results[m]
		if members[m].cust == nil {
			found.customerVersion = ""
		} else if !res.customerRead {
			res.customerRead, res.customer, res.customerVersion = true, cst, found.customerVersion
		}
		res.vouchers = append(res.vouchers, found)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("combined look-up: %w", err)
	}
	combinedLookups.Add(1)
	combinedLookupMembers.Add(int64(len(members)))
	return results, nil
}

// taggedRows scans a combined look-up's row: its member first, then the
// plain look-up's columns (with the customer's).
type taggedRows struct {
	rows interface{ Scan(...any) error }
	m    *int64
}

func (t taggedRows) Scan(dest ...any) error {
	return t.rows.Scan(append([]any{t.m}, dest...)...)
}

var combinedLookupText struct {
	once  sync.Once
	query string
}

// combinedLookupQuery is the combined look-up's text (see above); its
// arguments are the arrays of members, projects, codes, customers'
// source_ids (NULL for none) and nows, one element per (member, code).
func combinedLookupQuery() string {
	combinedLookupText.once.Do(func() {
		cols := func(alias string, names []string) string {
			out := make([]string, len(names))
			for i, n := range names {
				out[i] = alias + `."` + n + `"`
			}
			return strings.Join(out, ", ")
		}
		before, after, _ := strings.Cut(heldSQL, "?")
		held := before + "r.now" + after
		// The customer is read by a LATERAL sub-query whose "r.cust IS NOT
		// NULL" is a one-time filter: a member without a customer reads no
		// customer row at all (a plain LEFT JOIN would probe the customers
		// of the project for every row); LIMIT 1 keeps it from being
		// pulled up into a join (source_id is unique per project anyway).
		//
		// Whether the voucher's project has an active webhook is one row of
		// wh per project with one, read once for the statement (hashed or
		// materialized), not a sub-select per voucher row.
		q := fmt.Sprintf(`SELECT r.m, %s, %s, NULL, wh.p IS NOT NULL, %s, `+
			`v.xmin::text, cu.cu_version, %s, %s `+
			`FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::timestamptz[]) AS r(m, project, code, cust, now) `+
			`JOIN %s v ON v.%s = r.project AND v.%s = r.code `+
			`LEFT JOIN %s c ON c.%s = v.%s AND c.%s = v.%s `+
			`LEFT JOIN (SELECT DISTINCT w.%s AS p FROM %s w WHERE w.%s AND w.%s = ANY($2::text[])) wh ON wh.p = v.%s `+
			`LEFT JOIN LATERAL (SELECT %s, cu.xmin::text AS cu_version FROM %s cu `+
			`WHERE r.cust IS NOT NULL AND cu.%s = r.cust AND cu.%s = r.project LIMIT 1) cu ON true `+
			`ORDER BY r.m, v.%s`,
			cols("v", voucher.Columns), cols("c", campaignCheckColumns),
			cols("cu", customer.Columns), held, rulesSQL,
			voucher.Table, voucher.FieldProjectID, voucher.FieldCode,
			campaign.Table, campaign.FieldID, voucher.FieldCampaignID, campaign.FieldProjectID, voucher.FieldProjectID,
			webhook.FieldProjectID, webhook.Table, webhook.FieldActive, webhook.FieldProjectID, voucher.FieldProjectID,
			cols("cu", customer.Columns), customer.Table, customer.FieldSourceID, customer.FieldProjectID,
			voucher.FieldID)
		combinedLookupText.query = q
	})
	return combinedLookupText.query
}

// distinct is codes without repeats, in their first order (the plain
// look-up's IN list gives a voucher once however often it is named).
func distinct(codes []string) []string {
	seen := make(map[string]struct{}, len(codes))
	out := make([]string, 0, len(codes))
	for _, c := range codes {
		if _, ok := seen[c]; !ok {
			seen[c] = struct{}{}
			out = append(out, c)
		}
	}
	return out
}
