// Package discount calculates what vouchers and promotions take off an order,
// the way the Voucherify API does: one discount at a time (Order.Apply) or a
// whole stacked request (Stack). It is pure computation over integers — no
// storage, no HTTP — and imports only the standard library.
//
// # Money and quantities
//
// Every amount is an int64 in the smallest currency unit (cents). No value may
// exceed MaxAmount (10^13); every multiplication is overflow-checked and
// products that cannot fit are saturated or reported as errors.
//
// # Order state
//
// An Order follows the response fields of Voucherify's calculated order:
// Amount (before discounts, after UNIT effects added units), InitialAmount
// (before any effect), DiscountAmount (order-level discounts) and per line
// DiscountAmount; the Applied* fields hold only what this calculation added.
// NewOrder keeps the lines' DiscountAmount and DiscountQuantity as given (an
// existing order's earlier discounts) and resets AppliedDiscountAmount and
// Added; SetPreviousDiscount records an earlier order-level discount.
//
// A line with Quantity 0 keeps Quantity 0; its Amount is taken as given (or is
// Price×Quantity = 0 when only a price was sent). Per-unit calculations
// (APPLY_TO_ITEMS_BY_QUANTITY, APPLY_TO_ITEMS_PROPORTIONALLY_BY_QUANTITY and
// FIXED/APPLY_TO_ITEMS) count such a line as one unit.
//
// The order amount may be given independently of its lines and may be smaller
// than their sum (Voucherify's own examples contain such orders). Item-level
// discounts are therefore also capped, as a whole, by the order's remaining
// amount, so TotalAmount never becomes negative.
//
// # Base of every calculation
//
// A discount works on what is left after the discounts applied before it in
// the same calculation: the order's remaining amount R = Amount −
// TotalDiscountAmount, and for line i r_i = Amount_i − DiscountAmount_i. No
// discount ever takes more than what it applies to.
//
// # Rounding
//
// Results are rounded half-up to the cent, computed exactly with integers
// (12.5 % of 333 = 41.625 → 42). A percentage is taken as the shortest decimal
// that represents the float64 (0.15 is 15/100, not the binary approximation).
//
// Proportional splits (APPLY_TO_ITEMS_PROPORTIONALLY, …_BY_QUANTITY, and any
// scaling down to amount_limit, aggregated_amount_limit or the order's
// remaining amount) sum exactly to the amount being split: lines whose
// proportional share would exceed their cap get the cap and the rest is split
// again among the others; every other share is rounded half-up and the last
// line (in cart order) that is not capped and has a positive weight absorbs
// the remainder. If that
// remainder would leave a line above its cap or below zero, the difference is
// moved cent by cent to the other lines, from the last line backwards, within
// their caps. Examples: 1000 over Pen 2000 / Mug 1000 → 667 / 333; 300 over
// 3300 / 3400 → 148 / 152.
//
// # Effects
//
//	AMOUNT  APPLY_TO_ORDER                 min(amount_off, R)
//	AMOUNT  APPLY_TO_ITEMS                 each eligible line min(amount_off, r_i)
//	AMOUNT  APPLY_TO_ITEMS_BY_QUANTITY     each eligible line min(amount_off × units, r_i)
//	AMOUNT  APPLY_TO_ITEMS_PROPORTIONALLY  D = min(amount_off, Σ r_i) split by r_i
//	AMOUNT  …_PROPORTIONALLY_BY_QUANTITY   D = min(amount_off, Σ r_i) split by units, capped at r_i
//	PERCENT APPLY_TO_ORDER                 min(round(R × p / 100), amount_limit)
//	PERCENT APPLY_TO_ITEMS                 each eligible line min(round(r_i × p / 100), amount_limit)
//	                                       (amount_limit per line, reference §7.4)
//	FIXED   APPLY_TO_ORDER                 max(0, R − fixed_amount): the new total is fixed_amount
//	FIXED   APPLY_TO_ITEMS                 each eligible line max(0, r_i − price × units), price = the
//	                                       target's price, else fixed_amount (a new unit price)
//	UNIT    ADD_MISSING_ITEMS              make unit_off units free, adding the missing ones
//	UNIT    ADD_NEW_ITEMS                  add unit_off units, all free
//	UNIT    ADD_MANY_ITEMS                 each units[i] in order
//
// # Targets (applicable_to entries)
//
// An item effect may carry Targets (targets.go): a line belongs to the
// first target matching it (and accepted by Eligible). Per target the
// resources — lines (ITEM) or units counted across lines (UNIT) — are
// taken in request order (APPLY_TO_EVERY) or sorted by unit price
// (CHEAPEST/FROM_CHEAPEST ascending, MOST_EXPENSIVE/FROM_MOST_EXPENSIVE
// descending, ties in request order); APPLY_TO_CHEAPEST/MOST_EXPENSIVE
// take the first resource only, the others skip skip_initially resources
// and then take every repeat-th. quantity_limit (per line) and
// aggregated_quantity_limit (over the target, in application order) cap
// the units. A line whose u of q units are taken is discounted on
// u/q of its remaining amount (rounded half-up). The effect's formula runs
// on those bases; then the target's amount_limit (per line) and
// aggregated_amount_limit (exact split) and the discount's
// aggregated_amount_limit apply: the smallest cap wins. Units are counted
// arithmetically (O(lines)); unit numbers are listed only up to
// MaxListedUnits units in the order. Without targets every eligible line
// is taken whole.
//
// An empty effect means the type's default: APPLY_TO_ORDER, or
// ADD_MISSING_ITEMS for UNIT. Item effects touch only lines accepted by the
// Eligible function (nil accepts all) and go to the lines' discount amounts;
// APPLY_TO_ORDER goes to the order's DiscountAmount only.
//
// # UNIT effects
//
// The target line is the first whose ProductID or SKUID equals unit_type;
// eligibility is not consulted. Without one, a line {ProductID: unit_type,
// Added: true} is appended with InitialQuantity and InitialAmount 0. Added units
// raise the line's Quantity and Amount and the order's Amount (InitialQuantity
// and InitialAmount stay). The unit price is the line's Price, else the
// discount's UnitPrice (the catalog price, optional), else Amount/Quantity
// rounded half-up; unknown means 0, so the units are free but worth nothing
// (free shipping). ADD_MISSING_ITEMS counts only units not already given free:
// it adds max(0, unit_off − (Quantity − DiscountQuantity)) units. Both effects
// then add unit_off to DiscountQuantity and take min(unit_off × price, r_i).
//
// # Aggregated amount limit
//
// aggregated_amount_limit (> 0) caps the total one Apply gives. The order-level
// part is reduced first, then the line shares are scaled down by an exact
// proportional split of the limit (weights and caps = the shares).
//
// # Stacking
//
// Stack applies a request's redeemables in the order of the stacking rules
// (request order, or CATEGORY_HIERARCHY: ascending hierarchy, no category
// last, ties in request order) and reports a status per redeemable; see Stack
// for the keys used. The category rules (categories.go) limit how many
// redeemables of one category, and of exclusive categories, are applied,
// exclude the others when an exclusive one applies (joint categories
// excepted) and override the no-effect rule per category. A known failure is reported as INAPPLICABLE even after
// the applicable limit is reached; a failing Apply is INAPPLICABLE
// "invalid_order"; with the SKIP no-effect rule a discount that gave nothing
// and added no units is SKIPPED "no_effect" and undone. When the request is
// not valid (ALL: any INAPPLICABLE; PARTIAL: none APPLICABLE) the order is
// restored: nothing is applied.
package discount
