package redemption

import (
	"context"
	"fmt"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/schema"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// campaignCheckColumns are the campaign columns the checks and responses
// use (its voucher template and settings are large JSON columns).
var campaignCheckColumns = []string{campaign.FieldID, campaign.FieldName, campaign.FieldActive, campaign.FieldStartDate,
	campaign.FieldExpirationDate, campaign.FieldValidityTimeframe, campaign.FieldValidityDayOfWeek, campaign.FieldValidityHours,
	campaign.FieldCategoryID}

// lookedUpVoucher is a voucher named by a request, with its campaign and
// whether any validation rule is assigned to it or its campaign.
type lookedUpVoucher struct {
	voucher  *ent.Voucher
	hasRules bool
	// webhooks: the project has an active webhook.
	webhooks bool
	// version is the row version PostgreSQL gave the voucher row (its
	// xmin), read when the look-up was asked for it: a guarded write
	// changes the row only if it is still that version.
	version string
	// customerVersion is the version of the customer row read along
	// (statements that read versions and a customer).
	customerVersion string
	// With versions (the one-statement redemption) the look-up also reads
	// what the checks would read next, so they cost no round trip of
	// their own: held, what unexpired session locks hold on the voucher
	// (heldByOthers), and rules, its and its campaign's rule assignments
	// with their rules (loadRules; nil when hasRules is false).
	// readAlong: the look-up read rules (and held, when heldRead).
	readAlong bool
	heldRead  bool
	held      heldAmounts
	rules     []byte
}

// customerRef names the request's customer for lookupVouchers to read
// along: by ID, or else by source_id.
type customerRef struct {
	byID  bool
	value string
}

// lookupResult is what lookupVouchers found.
type lookupResult struct {
	vouchers []lookedUpVoucher
	// customerRead: the statement read the customer the request named
	// (it had at least one voucher row to carry it); customer is nil when
	// no such customer exists.
	customerRead bool
	customer     *ent.Customer
	// customerVersion is the customer row's version, read with the
	// vouchers' versions ("" when there is no such customer).
	customerVersion string
}

// lookupVouchers finds the vouchers with the given codes or IDs in the
// caller's project, their campaigns, whether rules are assigned to them,
// whether the project has an active webhook and, when cust is not nil,
// that customer, in one statement (it runs on every validation and
// redemption). lock adds FOR UPDATE of the voucher rows, taken in ID order
// (PostgreSQL only; SQLite runs one writer at a time). Hand-written SQL
// bypasses ent's tenancy interceptor, so the project filter is explicit
// here, on every table.
//
// version reads each voucher row's version too (PostgreSQL only; see
// lookedUpVoucher.version), and what session locks unexpired at now hold
// on it and its rules (lookedUpVoucher.held, .rules).
func lookupVouchers(ctx context.Context, codes []string, lock, version bool, cust *customerRef, now time.Time) (lookupResult, error) {
	var res lookupResult
	c, err := store.Client(ctx)
	if err != nil {
		return res, err
	}
	vw, ok := viewer.FromContext(ctx)
	if !ok {
		return res, schema.ErrNoViewer
	}
	d := store.Dialect(ctx)
	key := lookupQueryKey{dialect: d, codes: len(codes), lock: lock && d == dialect.Postgres, version: version && d == dialect.Postgres}
	args := make([]any, 0, 3+2*len(codes))
	if key.version { // the select list's argument comes first
		args = append(args, now)
	}
	if cust != nil {
		key.customer, key.customerByID = true, cust.byID
		args = append(args, cust.value)
	}
	args = append(args, vw.ProjectID)
	args = appendCodes(args, codes)
	// A redeemable names a voucher by code or by ID. Every voucher ID has
	// the voucher prefix (node(id:) resolves by it), so the codes are
	// matched against IDs too only when one of them has it: otherwise the
	// statement is one scan of the (project_id, code) index instead of two
	// scans OR-ed into a bitmap.
	for _, code := range codes {
		if strings.HasPrefix(code, pulid.PrefixVoucher) {
			key.byID = true
			args = appendCodes(args, codes)
			break
		}
	}
	query, err := lookupQuery(key)
	if err != nil {
		return res, err
	}
	alone := func() (lookupResult, error) { return runLookup(ctx, c, key, query, args, cust) }
	if combinable(key, cust) && ent.TxFromContext(ctx) == nil {
		// Combined with concurrent look-ups (lookup_combine.go).
		return lookupCombining(ctx, c, vw.ProjectID, codes, cust, now, alone)
	}
	return alone()
}

// runLookup runs one look-up statement of the form key.
func runLookup(ctx context.Context, c *ent.Client, key lookupQueryKey, query string, args []any, cust *customerRef) (lookupResult, error) {
	var res lookupResult
	if key.version {
		// The one-statement redemption's read, admitted for this statement
		// only when the admission admits redemptions (store.AdmitRedemption).
		release, err := store.AdmitRedemption(ctx)
		if err != nil {
			return res, err
		}
		defer release()
	}
	rows, err := c.QueryContext(ctx, query, args...)
	if err != nil {
		return res, fmt.Errorf("looking up vouchers: %w", err)
	}
	defer func() { _ = rows.Close() }()
	// Every row carries the same customer: only the first one's columns
	// are decoded, the others go to customerSink.
	var customerSink []any
	for rows.Next() {
		found, cst, err := scanLookedUp(c, rows, cust != nil, customerSink, key.version)
		if err != nil {
			return res, err
		}
		res.vouchers = append(res.vouchers, found)
		if cust != nil && customerSink == nil {
			res.customerRead, res.customer, res.customerVersion = true, cst, found.customerVersion
			customerSink = discardTargets(len(customer.Columns))
		}
	}
	if err := rows.Err(); err != nil {
		return res, fmt.Errorf("reading vouchers: %w", err)
	}
	return res, nil
}

// scanLookedUp decodes one row with ent's own column decoding, and its
// customer columns when withCustomer (nil when the customer does not exist)
// — unless customerSink is set: the customer columns are scanned into it
// and not decoded. With withVersion, the row's version is the last column.
func scanLookedUp(c *ent.Client, rows interface{ Scan(...any) error }, withCustomer bool, customerSink []any,
	withVersion bool) (lookedUpVoucher, *ent.Customer, error) {
	v, vValues, err := c.Voucher.ScanTargets(voucher.Columns)
	if err != nil {
		return lookedUpVoucher{}, nil, err
	}
	cmp, cValues, err := c.Campaign.ScanTargets(campaignCheckColumns)
	if err != nil {
		return lookedUpVoucher{}, nil, err
	}
	var campaignID, customerID sql.NullString
	cValues[0] = &campaignID // a voucher without a campaign joins NULLs
	var hasRules, webhooks sql.NullBool
	targets := make([]any, 0, len(vValues)+len(cValues)+len(customer.Columns)+6)
	targets = append(append(append(targets, vValues...), cValues...), &hasRules, &webhooks)
	var cust *ent.Customer
	var custValues []any
	switch {
	case withCustomer && customerSink != nil:
		targets = append(targets, customerSink...)
	case withCustomer:
		if cust, custValues, err = c.Customer.ScanTargets(customer.Columns); err != nil {
			return lookedUpVoucher{}, nil, err
		}
		custValues[0] = &customerID // an unknown customer joins NULLs
		targets = append(targets, custValues...)
	}
	var version, customerVersion, held, ruleDoc sql.NullString
	if withVersion {
		targets = append(targets, &version)
		if withCustomer {
			targets = append(targets, &customerVersion)
		}
		targets = append(targets, &held, &ruleDoc)
	}
	if err := rows.Scan(targets...); err != nil {
		return lookedUpVoucher{}, nil, fmt.Errorf("scanning voucher: %w", err)
	}
	if err := v.AssignScanned(voucher.Columns, vValues); err != nil {
		return lookedUpVoucher{}, nil, fmt.Errorf("decoding voucher: %w", err)
	}
	if customerID.Valid && customerSink == nil {
		cust.ID = customerID.String
		if err := cust.AssignScanned(customer.Columns[1:], custValues[1:]); err != nil {
			return lookedUpVoucher{}, nil, fmt.Errorf("decoding customer: %w", err)
		}
	} else {
		cust = nil
	}
	if campaignID.Valid {
		cmp.ID = campaignID.String
		if err := cmp.AssignScanned(campaignCheckColumns[1:], cValues[1:]); err != nil {
			return lookedUpVoucher{}, nil, fmt.Errorf("decoding campaign: %w", err)
		}
		v.Edges.Campaign = cmp
	}
	found := lookedUpVoucher{voucher: v, hasRules: hasRules.Valid && hasRules.Bool, webhooks: webhooks.Valid && webhooks.Bool,
		version: version.String, customerVersion: customerVersion.String}
	if withVersion {
		found.readAlong, found.hasRules = true, ruleDoc.Valid
		if ruleDoc.Valid {
			found.rules = []byte(ruleDoc.String)
		}
	}
	if held.Valid {
		if _, err := fmt.Sscan(held.String, &found.held.units, &found.held.credits, &found.held.points); err != nil {
			return lookedUpVoucher{}, nil, fmt.Errorf("decoding session locks: %w", err)
		}
		found.heldRead = true
	}
	return found, cust, nil
}

// discardTargets are n scan targets whose values are dropped.
func discardTargets(n int) []any {
	var sink any
	out := make([]any, n)
	for i := range out {
		out[i] = &sink
	}
	return out
}

// appendCodes appends codes to args.
func appendCodes(args []any, codes []string) []any {
	for _, code := range codes {
		args = append(args, code)
	}
	return args
}
