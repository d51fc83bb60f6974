package redemption

import (
	stdsql "database/sql"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/redemption"
	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
	customerpkg "github.com/promoengine/promoengine/graph/customer"
)

// restScanner decodes the rows of restPage's statement. Its targets are
// made once per statement and scanned into on every row (database/sql
// overwrites every target on each Scan, see campaign.JoinedVoucher); the
// entities are new for each row, copied from pristine ones for the
// client's config.
//
// The order document is scanned as its bytes, not by ent: ent decodes a
// json.RawMessage column by validating and copying it, and the page writes
// it as PostgreSQL prints it (rest's redemptionListBody compacts it); the
// entity gets the same bytes as ent's decoding (nil for NULL or empty).
//
// The entry's metadata and channel are decoded by ent once per distinct
// text on the page (documentMemo): a page's entries mostly share their
// channel (the key or user that redeemed) and often their metadata.
type restScanner struct {
	red        *ent.Redemption
	redColumns []string // restPageColumns but the order, metadata and channel
	redValues  []any
	order      []byte
	metadata   documentMemo
	channel    documentMemo
	customer   *customerpkg.JoinedCustomer
	voucher    *campaignpkg.JoinedVoucher
	targets    []any
}

// restScannedApart are the entry's columns restScanner scans itself.
var restScannedApart = []string{redemption.FieldOrder, redemption.FieldMetadata, redemption.FieldChannel}

func newRestScanner(c *ent.Client) (*restScanner, error) {
	sc := &restScanner{metadata: newDocumentMemo(redemption.FieldMetadata), channel: newDocumentMemo(redemption.FieldChannel)}
	sc.redColumns = slices.DeleteFunc(slices.Clone(restPageColumns), func(c string) bool { return slices.Contains(restScannedApart, c) })
	var err error
	if sc.red, sc.redValues, err = c.Redemption.ScanTargets(sc.redColumns); err != nil {
		return nil, err
	}
	targets := make([]any, 0, len(restPageColumns)+len(restPageCustomerColumns)+48)
	values := sc.redValues
	for _, col := range restPageColumns { // in the statement's order
		switch col {
		case redemption.FieldOrder:
			targets = append(targets, &sc.order)
		case redemption.FieldMetadata:
			targets = append(targets, &sc.metadata.text)
		case redemption.FieldChannel:
			targets = append(targets, &sc.channel.text)
		default:
			targets, values = append(targets, values[0]), values[1:]
		}
	}
	if sc.customer, targets, err = customerpkg.NewJoinedCustomer(c, restPageCustomerColumns, targets); err != nil {
		return nil, err
	}
	if sc.voucher, sc.targets, err = campaignpkg.NewJoinedVoucher(c, targets); err != nil {
		return nil, err
	}
	return sc, nil
}

// scan decodes one row: the entry with its customer and voucher.
func (sc *restScanner) scan(rows interface{ Scan(...any) error }) (*ent.Redemption, error) {
	if err := rows.Scan(sc.targets...); err != nil {
		return nil, fmt.Errorf("scanning the page: %w", err)
	}
	red := new(ent.Redemption)
	*red = *sc.red
	if err := red.AssignScanned(sc.redColumns, sc.redValues); err != nil {
		return nil, fmt.Errorf("decoding redemption: %w", err)
	}
	if len(sc.order) > 0 { // database/sql made it a copy of its own
		red.Order = json.RawMessage(sc.order)
	}
	var err error
	if red.Metadata, err = sc.metadata.decode(); err != nil {
		return nil, err
	}
	if red.Channel, err = sc.channel.decode(); err != nil {
		return nil, err
	}
	if red.Edges.Customer, err = sc.customer.Customer(); err != nil {
		return nil, err
	}
	if red.Edges.Voucher, err = sc.voucher.Voucher(); err != nil {
		return nil, err
	}
	return red, nil
}

// documentMemo decodes a JSON column of maps (metadata, channel) of a
// page's rows once per distinct text: the rows with the same text share
// the decoded map, which nothing on the REST page's way modifies. The
// text is scanned as sql.RawBytes (valid until the next row; a map's key
// is a copy).
type documentMemo struct {
	column string
	text   stdsql.RawBytes
	maps   map[string]map[string]any
}

func newDocumentMemo(column string) documentMemo {
	return documentMemo{column: column, maps: map[string]map[string]any{}}
}

// decode returns the map of the row's text: the one decoded for the
// same text before, else the one ent's decoding assigns to an entity (nil
// for NULL or empty text, as ent leaves it).
func (m *documentMemo) decode() (map[string]any, error) {
	if v, ok := m.maps[string(m.text)]; ok {
		return v, nil
	}
	var fresh ent.Redemption
	if err := fresh.AssignScanned([]string{m.column}, []any{(*[]byte)(&m.text)}); err != nil {
		return nil, fmt.Errorf("decoding redemption %s: %w", m.column, err)
	}
	v := fresh.Metadata
	if m.column == redemption.FieldChannel {
		v = fresh.Channel
	}
	m.maps[string(m.text)] = v
	return v, nil
}
