package customer

import (
	stdsql "database/sql"
	"errors"
	"fmt"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	entcustomer "github.com/promoengine/promoengine/ent/customer"
)

// A page's customers read in the page's own statement (the REST pages of
// publications and redemptions): a LEFT JOIN of each row's customer on
// the row's project, the columns appended to the page's select list and
// scanned with ent's own column decoding (ScanTargets / AssignScanned)
// into the entities WithCustomer loads, as campaign.JoinVouchers does for
// the rows' codes.

// JoinCustomers appends to s a LEFT JOIN of the customer whose ID is the
// column customerID (qualified) in the project of the column projectID,
// aliased prefix+"_cu", and selects its columns (the ID first).
func JoinCustomers(s *sql.Selector, customerID, projectID, prefix string, columns []string) {
	cu := sql.Dialect(s.Dialect()).Table(entcustomer.Table).As(prefix + "_cu")
	s.LeftJoin(cu).OnP(sql.And(sql.ColumnsEQ(cu.C(entcustomer.FieldID), customerID),
		sql.ColumnsEQ(cu.C(entcustomer.FieldProjectID), projectID)))
	s.AppendSelect(cu.Columns(columns...)...)
}

// JoinedCustomer is the scan targets of a joined customer's columns
// (JoinCustomers), made once for a statement and scanned into on every
// row: database/sql overwrites every target on each Scan, and Customer
// decodes them into a new entity, so no row's customer shares anything
// with the next row's targets.
type JoinedCustomer struct {
	pristine *ent.Customer // the client's config, copied into each row's entity
	id       stdsql.NullString
	columns  []string // the joined columns but the ID
	values   []any    // their scan targets, the ID's first
}

// NewJoinedCustomer makes the scan targets of columns (the ID first, as
// JoinCustomers selects them) and returns them appended to targets.
func NewJoinedCustomer(c *ent.Client, columns []string, targets []any) (*JoinedCustomer, []any, error) {
	if len(columns) == 0 || columns[0] != entcustomer.FieldID {
		return nil, nil, errors.New("joined customer: the columns must start with the ID")
	}
	j := &JoinedCustomer{columns: columns[1:]}
	var err error
	if j.pristine, j.values, err = c.Customer.ScanTargets(columns); err != nil {
		return nil, nil, fmt.Errorf("joined customer: %w", err)
	}
	j.values[0] = &j.id // a row without a customer (or whose customer is gone) joins NULLs
	return j, append(targets, j.values...), nil
}

// Customer decodes the row's customer; nil when the row joined none.
func (j *JoinedCustomer) Customer() (*ent.Customer, error) {
	if !j.id.Valid {
		return nil, nil
	}
	cust := new(ent.Customer)
	*cust = *j.pristine
	cust.ID = j.id.String
	if err := cust.AssignScanned(j.columns, j.values[1:]); err != nil {
		return nil, fmt.Errorf("decoding customer: %w", err)
	}
	return cust, nil
}
