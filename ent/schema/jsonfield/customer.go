package jsonfield

// CustomerAddress is a customer's postal address.
type CustomerAddress struct {
	City       *string `json:"city,omitempty"`
	Country    *string `json:"country,omitempty"`
	Line1      *string `json:"line_1,omitempty"`
	Line2      *string `json:"line_2,omitempty"`
	PostalCode *string `json:"postal_code,omitempty"`
	State      *string `json:"state,omitempty"`
}
