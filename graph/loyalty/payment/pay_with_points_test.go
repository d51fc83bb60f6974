package payment

import "testing"

// TestPaymentSplit: the amount is the points at the ratio, capped by the
// limit and by what the order owes; the points are what that amount costs.
func TestPaymentSplit(t *testing.T) {
	typ := func(s string) *string { return &s }
	pointsMax := &OrderPaymentLimit{Type: typ(limitPoints), PointsLimit: &OrderPaymentMax{Max: 150}}
	amountMax := &OrderPaymentLimit{Type: typ(limitAmount), AmountLimit: &OrderPaymentMax{Max: 70}}
	for _, c := range []struct {
		name                  string
		available, owed       int64
		ratio                 float64
		limit                 *OrderPaymentLimit
		wantAmount, wantPoint int64
	}{
		{"balance caps", 500, 1000, 1, nil, 500, 500},
		{"order caps", 500, 300, 1, nil, 300, 300},
		{"points limit", 500, 1000, 1, pointsMax, 150, 150},
		{"amount limit", 500, 1000, 1, amountMax, 70, 70},
		{"ratio 2", 40, 1000, 2, nil, 80, 40},
		{"ratio 2 odd owed", 40, 15, 2, nil, 15, 8},
		{"ratio 0.5", 5, 1000, 0.5, nil, 2, 4},
		{"paid order", 500, 0, 1, nil, 0, 0},
		{"too few points", 1, 1000, 0.5, nil, 0, 0},
	} {
		a, p := paymentSplit(c.available, c.owed, c.ratio, c.limit)
		if a != c.wantAmount || p != c.wantPoint || p > c.available {
			t.Errorf("%s: amount %d points %d, want %d %d", c.name, a, p, c.wantAmount, c.wantPoint)
		}
	}
}
