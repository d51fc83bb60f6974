package campaign

import (
	"crypto/rand"
	"fmt"

	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// voucherIDLength is the random part of a voucher ID (after "v_").
const voucherIDLength = 32

// idAlphabet is pulid's: IDs made here look like pulid.New's.
const idAlphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// newVoucherIDs returns n voucher IDs as pulid.New(pulid.PrefixVoucher,
// 32) makes them (62 symbols drawn without bias from crypto/rand), reading
// the randomness for all of them at once instead of once per ID.
func newVoucherIDs(n int) []string {
	ids := make([]string, n)
	buf := make([]byte, n*(voucherIDLength+voucherIDLength/8)+64)
	id := make([]byte, 0, len(pulid.PrefixVoucher)+voucherIDLength)
	for i := 0; i < n; {
		if _, err := rand.Read(buf); err != nil {
			panic(fmt.Errorf("voucher ids: reading random bytes: %w", err))
		}
		for _, c := range buf {
			if c >= 248 { // 4*62: keep the draw unbiased
				continue
			}
			if len(id) == 0 {
				id = append(id, pulid.PrefixVoucher...)
			}
			id = append(id, idAlphabet[int(c)%62])
			if len(id) == cap(id) {
				ids[i], id = string(id), id[:0]
				if i++; i == n {
					break
				}
			}
		}
	}
	return ids
}
