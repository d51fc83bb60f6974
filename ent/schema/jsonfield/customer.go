package jsonfield

// CustomerAddress is a customer's postal address.
type CustomerAddress struct {
	City       *string `json:"city"`
	Country    *string `json:"country"`
	Line1      *string `json:"line_1"`
	Line2      *string `json:"line_2"`
	PostalCode *string `json:"postal_code"`
	State      *string `json:"state"`
}
