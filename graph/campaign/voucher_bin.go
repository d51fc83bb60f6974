package campaign

import (
	"context"

	"github.com/promoengine/promoengine/graph/bin"
)

// withoutBinned drops the codes a voucher in the trash bin still holds: a
// binned voucher's code stays reserved for every way of making vouchers
// (generation, imports, publication's new codes), which then count it as
// an existing code (docs/trash-bin.md).
func withoutBinned(ctx context.Context, codes []string) ([]string, error) {
	held, err := bin.ReservedAmong(ctx, bin.TypeVoucher, codes)
	if err != nil || len(held) == 0 {
		return codes, err
	}
	out := make([]string, 0, len(codes))
	for _, code := range codes {
		if !held[code] {
			out = append(out, code)
		}
	}
	return out, nil
}
