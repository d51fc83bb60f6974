package campaign

import (
	stdsql "database/sql"
	"fmt"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	entcampaign "github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/category"
	"github.com/promoengine/promoengine/ent/voucher"
)

// A page's vouchers read in the page's own statement (the REST pages of
// publications and redemptions): LEFT JOINs of the voucher, its campaign's
// name and category_id, and its own category, on the owner's project, the
// columns appended to the page's select list, scanned with ent's own column
// decoding (ScanTargets / AssignScanned) into the entities
// WithJoinedVoucherCategories loads — without ent's generic scanning of
// joined columns (a map entry per column and row) or a statement per edge.
// CampaignCategories completes them as it does those.

// joinedVoucherColumns are the voucher columns a REST answer shows (rest's
// voucherJSON): every column but project_id.
var joinedVoucherColumns = voucher.Columns[:0:0]

// joinedCampaignColumns are the campaign's columns WithJoinedVoucherCategories reads.
var joinedCampaignColumns = []string{entcampaign.FieldID, entcampaign.FieldName, entcampaign.FieldCategoryID}

func init() {
	for _, c := range voucher.Columns {
		if c != voucher.FieldProjectID {
			joinedVoucherColumns = append(joinedVoucherColumns, c)
		}
	}
}

// JoinVouchers appends to s LEFT JOINs of the voucher whose ID is the
// column voucherID (qualified) in the project of the column projectID, of
// its campaign and of its category, and their columns to s's select list,
// in the order ScanJoinedVoucher reads them. prefix names the joined tables
// (prefix_v, prefix_c, prefix_k).
func JoinVouchers(s *sql.Selector, voucherID, projectID, prefix string) {
	b := sql.Dialect(s.Dialect())
	v := b.Table(voucher.Table).As(prefix + "_v")
	cmp := b.Table(entcampaign.Table).As(prefix + "_c")
	cat := b.Table(category.Table).As(prefix + "_k")
	s.LeftJoin(v).OnP(sql.And(sql.ColumnsEQ(v.C(voucher.FieldID), voucherID), sql.ColumnsEQ(v.C(voucher.FieldProjectID), projectID))).
		LeftJoin(cmp).OnP(sql.And(sql.ColumnsEQ(cmp.C(entcampaign.FieldID), v.C(voucher.FieldCampaignID)),
		sql.ColumnsEQ(cmp.C(entcampaign.FieldProjectID), projectID))).
		LeftJoin(cat).OnP(sql.And(sql.ColumnsEQ(cat.C(category.FieldID), v.C(voucher.FieldCategoryID)),
		sql.ColumnsEQ(cat.C(category.FieldProjectID), projectID)))
	s.AppendSelect(v.Columns(joinedVoucherColumns...)...).AppendSelect(cmp.Columns(joinedCampaignColumns...)...).
		AppendSelect(cat.Columns(category.Columns...)...)
}

// JoinedVoucher is the scan targets of the joined voucher columns
// (JoinVouchers), made once for a statement and scanned into on every row:
// database/sql overwrites every target on each Scan (and gives a *[]byte
// a copy of its own), and Voucher decodes them into new entities, so no
// row's entities share anything with the next row's targets.
type JoinedVoucher struct {
	v                       *ent.Voucher  // a pristine entity (the client's config) to copy
	cmp                     *ent.Campaign // the same
	cat                     *ent.Category // the same
	vID, cmpID, catID       stdsql.NullString
	vVals, cmpVals, catVals []any
}

// NewJoinedVoucher returns the targets for the joined voucher columns and
// appends them to targets.
func NewJoinedVoucher(c *ent.Client, targets []any) (*JoinedVoucher, []any, error) {
	j := &JoinedVoucher{}
	v, vVals, err := c.Voucher.ScanTargets(joinedVoucherColumns)
	if err != nil {
		return nil, nil, err
	}
	cmp, cmpVals, err := c.Campaign.ScanTargets(joinedCampaignColumns)
	if err != nil {
		return nil, nil, err
	}
	cat, catVals, err := c.Category.ScanTargets(category.Columns)
	if err != nil {
		return nil, nil, err
	}
	// An entry without a voucher, a voucher without a campaign or
	// category, joins NULLs: the IDs tell.
	vVals[0], cmpVals[0], catVals[0] = &j.vID, &j.cmpID, &j.catID
	j.v, j.cmp, j.cat, j.vVals, j.cmpVals, j.catVals = v, cmp, cat, vVals, cmpVals, catVals
	targets = append(append(append(targets, vVals...), cmpVals...), catVals...)
	return j, targets, nil
}

// Voucher decodes the scanned voucher with its campaign and category
// edges (nil when the row joined none).
func (j *JoinedVoucher) Voucher() (*ent.Voucher, error) {
	if !j.vID.Valid {
		return nil, nil
	}
	v := new(ent.Voucher)
	*v = *j.v // the client's config; j.v is never assigned to
	v.ID = j.vID.String
	if err := v.AssignScanned(joinedVoucherColumns[1:], j.vVals[1:]); err != nil {
		return nil, fmt.Errorf("decoding joined voucher: %w", err)
	}
	if j.cmpID.Valid {
		cmp := new(ent.Campaign)
		*cmp = *j.cmp
		cmp.ID = j.cmpID.String
		if err := cmp.AssignScanned(joinedCampaignColumns[1:], j.cmpVals[1:]); err != nil {
			return nil, fmt.Errorf("decoding joined campaign: %w", err)
		}
		v.Edges.Campaign = cmp
	}
	if j.catID.Valid {
		cat := new(ent.Category)
		*cat = *j.cat
		cat.ID = j.catID.String
		if err := cat.AssignScanned(category.Columns[1:], j.catVals[1:]); err != nil {
			return nil, fmt.Errorf("decoding joined category: %w", err)
		}
		v.Edges.AssignedCategory = cat
	}
	return v, nil
}
