package campaign

import (
	stdsql "database/sql"
	"encoding/binary"
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
// row's entities share anything with the next row's targets. A voucher
// that several rows of the statement join (a code redeemed or published
// again on the same page) is decoded once: those rows share its entity.
// The voucher's JSON documents (discount, validity, metadata, …; the same
// for the codes of a campaign, often) are decoded once per distinct
// texts (documentsOf): vouchers with the same texts share the decoded
// values, which nothing on a REST page's way modifies.
type JoinedVoucher struct {
	seen        map[string]*ent.Voucher // decoded so far, by ID
	documents   []string                // the voucher's JSON columns (scanned as bytes)
	docVals     []any
	plain       []string // its other columns but the ID
	plainVals   []any
	key         []byte                  // the documents' texts of the row (documentsOf)
	byDocuments map[string]*ent.Voucher // entities with only the documents decoded, by key

	v                       *ent.Voucher  // a pristine entity (the client's config) to copy
	cmp                     *ent.Campaign // the same
	cat                     *ent.Category // the same
	vID, cmpID, catID       stdsql.NullString
	vVals, cmpVals, catVals []any
}

// NewJoinedVoucher returns the targets for the joined voucher columns and
// appends them to targets.
func NewJoinedVoucher(c *ent.Client, targets []any) (*JoinedVoucher, []any, error) {
	j := &JoinedVoucher{seen: map[string]*ent.Voucher{}}
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
	j.byDocuments = map[string]*ent.Voucher{}
	for i, col := range joinedVoucherColumns[1:] {
		if _, ok := vVals[i+1].(*[]byte); ok { // ent scans a JSON column as its bytes
			j.documents, j.docVals = append(j.documents, col), append(j.docVals, vVals[i+1])
		} else {
			j.plain, j.plainVals = append(j.plain, col), append(j.plainVals, vVals[i+1])
		}
	}
	targets = append(append(append(targets, vVals...), cmpVals...), catVals...)
	return j, targets, nil
}

// Voucher decodes the scanned voucher with its campaign and category
// edges (nil when the row joined none); the entity of an earlier row when
// it joined the same voucher.
func (j *JoinedVoucher) Voucher() (*ent.Voucher, error) {
	if !j.vID.Valid {
		return nil, nil
	}
	if v, ok := j.seen[j.vID.String]; ok {
		return v, nil
	}
	documents, err := j.documentsOf()
	if err != nil {
		return nil, err
	}
	v := new(ent.Voucher)
	*v = *documents // the client's config and the documents; never assigned to
	v.ID = j.vID.String
	if err := v.AssignScanned(j.plain, j.plainVals); err != nil {
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
	j.seen[v.ID] = v
	return v, nil
}

// documentsOf returns an entity with the client's config and the row's
// JSON documents decoded by ent (every other field unset), the one made
// for an earlier row with the same texts if any.
func (j *JoinedVoucher) documentsOf() (*ent.Voucher, error) {
	j.key = j.key[:0]
	for _, val := range j.docVals {
		text := *val.(*[]byte)
		j.key = append(binary.AppendUvarint(j.key, uint64(len(text))), text...)
	}
	if e, ok := j.byDocuments[string(j.key)]; ok {
		return e, nil
	}
	e := new(ent.Voucher)
	*e = *j.v
	if err := e.AssignScanned(j.documents, j.docVals); err != nil {
		return nil, fmt.Errorf("decoding joined voucher: %w", err)
	}
	j.byDocuments[string(j.key)] = e
	return e, nil
}
