package loyaltyv1

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/pointsbucket"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/points"
	"github.com/promoengine/promoengine/graph/webhook"
)

// Points added to a member's card (POST …/members/{memberId}/balance with
// positive points) are, on PostgreSQL and in the common case, one
// statement: an UPDATE of the card that adds the points and moves its next
// expiry, with the points bucket and the POINTS_ADDITION transaction
// inserted by data-modifying CTEs from the updated row. The card's row is
// locked only while that statement runs — on one busy card every moment a
// move holds the lock is a moment every other move waits — instead of
// across the six statements of the general path (book, ledger.go).
// Concurrent additions to one card share the statement (credit_batch.go),
// and the card is read once per process (credit_cards.go).
//
// The common case is what book would do with nothing else to do: a credit
// on a held card whose tier cannot change — its program has no tiers, or
// places cards by balance (not POINTS_IN_PERIOD) and the move crosses no
// tier's range bound, so the card is in the same tiers before and after
// and no tier event or tier-event rule fires —, of a program with no
// auto-redeem reward (auto_redeem.go runs after a credit), in a project with no active
// webhook subscribed to voucher.loyalty_card.points_added, within the
// points bound. The statement re-checks each of these (and the program's
// expiration rules it dated the points by) on the row it updates, so a
// tier, webhook or rule change that races it only sends the request to
// the general path; when it updates nothing, the general path answers and
// knows every error.
//
// The card's next expiry is moved incrementally (the earlier of the stored
// one and the new bucket's day, summing points on the same day) rather
// than recomputed from the buckets as refreshCard does: the statement's
// snapshot predates moves it waited for, while the locked row it updates
// is always the latest. Every bucket change keeps the stored next expiry
// equal to the buckets' (ledger.go refreshCard, the expiry job), which
// credit_statement_test.go checks against a recomputation.

// creditStatementSQL adds the points of one or more moves (a batch of
// concurrent requests on the same card: credit_batch.go) to one card.
// Parameters: $1 card id, $2 project, $3 each move's points, $4 the
// buckets' last day ('YYYY-MM-DD', NULL: never expires), $5 each move's
// time, $6 the points bound, $7 each move's bucket id, $8 the last day as a
// timestamp, $9 each move's transaction id, $10 source_ids, $11 reasons,
// $12 the transactions' sources (channels), $13 their details without the
// balance, $14 whether the program's rules dated the points, $15 those
// rules as read (NULL: none), $16 the program id or name the request named
// (NULL: any). The guards see the batch's total, as if its moves were one;
// each transaction records the balance after its own move, in the order
// of the arrays. Answers one row per move: its ordinal, the card id, and
// the card's points and balance after that move.
const creditStatementSQL = `WITH req AS (
	SELECT r.n, r.points, r.at, r.bucket_id, r.tx_id, r.source_id, r.reason, r.source, r.details,
		sum(r.points) OVER (ORDER BY r.n)::bigint AS upto
	FROM unnest($3::bigint[], $5::timestamptz[], $7::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[])
		WITH ORDINALITY AS r(points, at, bucket_id, tx_id, source_id, reason, source, details, n)
), total AS (
	SELECT sum(points)::bigint AS points, max(at) AS at FROM req
), upd AS (
	UPDATE vouchers v SET updated_at = total.at, loyalty_card = v.loyalty_card
		|| jsonb_build_object('points', coalesce((v.loyalty_card->>'points')::bigint, 0) + total.points,
			'balance', coalesce((v.loyalty_card->>'balance')::bigint, 0) + total.points)
		|| CASE
			WHEN $4::text IS NULL THEN '{}'::jsonb
			WHEN v.loyalty_card->>'next_expiration_date' IS NULL OR $4::text < v.loyalty_card->>'next_expiration_date'
				THEN jsonb_build_object('next_expiration_date', $4::text, 'next_expiration_points', total.points)
			WHEN $4::text = v.loyalty_card->>'next_expiration_date'
				THEN jsonb_build_object('next_expiration_points', coalesce((v.loyalty_card->>'next_expiration_points')::bigint, 0) + total.points)
			ELSE '{}'::jsonb END
	FROM total
	WHERE v.id = $1 AND v.project_id = $2 AND v.holder_id IS NOT NULL AND jsonb_typeof(v.loyalty_card) = 'object'
		AND coalesce((v.loyalty_card->>'balance')::bigint, 0) + total.points <= $6
		AND coalesce((v.loyalty_card->>'points')::bigint, 0) + total.points <= $6
		AND ($16::text IS NULL OR EXISTS (SELECT 1 FROM campaigns c WHERE c.id = v.campaign_id AND (c.id = $16 OR c.name = $16)))
		AND NOT EXISTS (SELECT 1 FROM loyalty_tiers t WHERE t.campaign_id = v.campaign_id AND (
			(coalesce(t.points_from <= (v.loyalty_card->>'balance')::bigint, true) AND coalesce(t.points_to >= (v.loyalty_card->>'balance')::bigint, true))
			IS DISTINCT FROM
			(coalesce(t.points_from <= (v.loyalty_card->>'balance')::bigint + total.points, true)
				AND coalesce(t.points_to >= (v.loyalty_card->>'balance')::bigint + total.points, true))
			OR (SELECT c.loyalty_tiers_expiration->>'qualification_type' FROM campaigns c WHERE c.id = v.campaign_id) = 'POINTS_IN_PERIOD'))
		AND NOT EXISTS (SELECT 1 FROM v1_reward_assignments a WHERE a.campaign_id = v.campaign_id AND a.auto_redeem)
		AND NOT EXISTS (SELECT 1 FROM webhooks h WHERE h.project_id = $2 AND h.active AND h.events ? '` + webhook.EventVoucherLoyaltyCardPointsAdded + `')
		AND (NOT $14 OR (SELECT c.voucher->'loyalty_card'->'expiration_rules' FROM campaigns c WHERE c.id = v.campaign_id) IS NOT DISTINCT FROM $15::jsonb)
	RETURNING v.id, v.campaign_id, v.holder_id, (v.loyalty_card->>'points')::bigint - total.points AS points_before,
		(v.loyalty_card->>'balance')::bigint - total.points AS balance_before
), bucket AS (
	INSERT INTO points_buckets (id, project_id, created_at, voucher_id, campaign_id, customer_id, points, status, expires_at, source, details)
	SELECT r.bucket_id, $2, r.at, upd.id, upd.campaign_id, upd.holder_id, r.points, '` + string(pointsbucket.StatusACTIVE) + `', $8, '` + string(vouchertransaction.TypePOINTS_ADDITION) + `', '{}'
	FROM upd, req r
), tx AS (
	INSERT INTO voucher_transactions (id, project_id, created_at, voucher_id, campaign_id, type, source_id, reason, source, amount, balance, details)
	SELECT r.tx_id, $2, r.at, upd.id, upd.campaign_id, '` + string(vouchertransaction.TypePOINTS_ADDITION) + `', r.source_id, r.reason, r.source, r.points,
		upd.balance_before + r.upto,
		r.details::jsonb || jsonb_build_object('balance', jsonb_build_object('type', 'loyalty_card', 'total', upd.points_before + r.upto,
			'object', 'balance', 'points', r.points, 'balance', upd.balance_before + r.upto, 'operation_type', 'MANUAL',
			'related_object', jsonb_build_object('id', upd.id, 'type', 'voucher')))
	FROM upd, req r
)
SELECT r.n, upd.id, upd.points_before + r.upto, upd.balance_before + r.upto FROM upd, req r ORDER BY r.n`

// cardForCreditSQL reads what the statement needs to know before it runs
// (credit_cards.go remembers it):
// the held card with this code (of the program, when one is named) and its
// program's expiration rules. $1 project, $2 code, $3 program id or name
// (NULL: any).
const cardForCreditSQL = `SELECT v.id, c.voucher->'loyalty_card'->'expiration_rules'
FROM vouchers v LEFT JOIN campaigns c ON c.id = v.campaign_id
WHERE v.project_id = $1 AND v.code = $2 AND v.type = 'LOYALTY_CARD' AND v.holder_id IS NOT NULL
	AND ($3::text IS NULL OR c.id = $3 OR c.name = $3)`

// CreditInOneStatement runs the statement; it is a variable so tests can
// observe or bypass it.
var CreditInOneStatement = creditInOneStatement

// creditInOneStatement adds in's points to the card in one statement when
// the request is the common case (see above). done is false when it wrote
// nothing and the general path must answer.
func creditInOneStatement(ctx context.Context, programIDOrName *string, code string, in BalanceInput) (out *CardBalance, done bool, err error) {
	if entdb.DialectFromContext(ctx) != dialect.Postgres || in.Points == nil || *in.Points <= 0 {
		return nil, false, nil
	}
	vw, ok := viewer.FromContext(ctx)
	if !ok {
		return nil, false, nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, false, err
	}
	var program any
	if programIDOrName != nil && *programIDOrName != "" {
		program = *programIDOrName
	}
	card, found, err := cardForCredit(ctx, c, vw.ProjectID, code, program)
	if err != nil || !found {
		return nil, false, err
	}
	cardID, rules := card.id, card.rules
	now := time.Now().UTC().Truncate(time.Millisecond) // as ent stamps created_at
	byRules := in.ExpirationType == nil || *in.ExpirationType == "PROGRAM_RULES"
	exp := points.Expiry{}
	if e := in.expiry(); e != nil {
		exp = *e
	} else if byRules && rules.Valid {
		if err := json.Unmarshal([]byte(rules.String), &exp.Rules); err != nil {
			return nil, false, nil // not an object of rules: the general path decides
		}
	}
	last, err := exp.LastDay(clock.At(ctx)) // as book dates a bucket
	if err != nil {
		return nil, false, nil // rules the general path refuses with its own error
	}
	details, err := json.Marshal(in.details())
	if err != nil {
		return nil, false, fmt.Errorf("encoding transaction details: %w", err)
	}
	key := creditKey{project: vw.ProjectID, card: cardID, byRules: byRules, rules: rules.String, hasRules: rules.Valid}
	if program != nil {
		key.program, key.hasProgram = program.(string), true
	}
	if last != nil {
		key.lastDay = last.Format(time.DateOnly)
	}
	m := &creditMove{ctx: ctx, points: *in.Points, at: now, lastDay: last, bucketID: pointsbucket.DefaultID(),
		txID: vouchertransaction.DefaultID(), sourceID: in.SourceID, reason: in.Reason, source: viewer.TransactionSourceOf(ctx),
		details: string(details)}
	var r creditResult
	if ent.TxFromContext(ctx) != nil {
		r = runCredits(ctx, c, key, []*creditMove{m})[0] // the mutation's transaction: alone
	} else {
		r = addCredit(ctx, c, key, m)
	}
	if r.err != nil || !r.written {
		forgetCreditCard(vw.ProjectID, code, program)
		return nil, false, r.err
	}
	id, total, balance := r.card, r.points, r.balance
	return &CardBalance{Points: *in.Points, Total: total, Balance: balance, Type: "loyalty_card", Object: "balance",
		RelatedObject: RelatedObject{Type: "voucher", ID: id}, OperationType: "MANUAL"}, true, nil
}
