package vouchercode

// ReservedPathWords are the literal path segments that follow /v1/vouchers/
// in the real service's API (its OpenAPI documents: POST /v1/vouchers/bulk/async,
// /import, /importCSV, /metadata/async, /qualification). A voucher with
// such a code could not be reached by /v1/vouchers/{code} without
// ambiguity, and a request for those operations must never create one, so
// these exact codes (case-sensitive, as codes are) are refused.
var ReservedPathWords = []string{"bulk", "import", "importCSV", "metadata", "qualification"}

// Reserved reports whether code is one of ReservedPathWords.
func Reserved(code string) bool {
	for _, w := range ReservedPathWords {
		if code == w {
			return true
		}
	}
	return false
}
