package discount

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSplitExamples(t *testing.T) {
	tests := []struct {
		name                string
		total               int64
		weights, caps, want []int64
	}{
		{"pen and mug", 1000, []int64{2000, 1000}, []int64{2000, 1000}, []int64{667, 333}},
		{"discount coupon", 300, []int64{3300, 3400}, []int64{3300, 3400}, []int64{148, 152}},
		{"by quantity", 1000, []int64{1, 6}, []int64{2000, 6000}, []int64{143, 857}},
		{"thirds: last absorbs", 100, []int64{1, 1, 1}, []int64{100, 100, 100}, []int64{33, 33, 34}},
		{"half-up overshoot settles backwards", 2, []int64{1, 1, 1, 1}, []int64{9, 9, 9, 9}, []int64{1, 1, 0, 0}},
		{"cap redistributes", 150, []int64{1, 1, 1}, []int64{10, 100, 100}, []int64{10, 70, 70}},
		{"cascading caps", 100, []int64{1, 1, 1, 1}, []int64{5, 10, 30, 100}, []int64{5, 10, 30, 55}},
		{"zero cap line", 5, []int64{1, 1}, []int64{0, 10}, []int64{0, 5}},
		{"zero weight line gets nothing", 10, []int64{0, 1, 1}, []int64{50, 50, 50}, []int64{0, 5, 5}},
		{"all weights zero: filled from the end", 5, []int64{0, 0}, []int64{3, 3}, []int64{2, 3}},
		{"total above caps", 100, []int64{1, 1}, []int64{10, 20}, []int64{10, 20}},
		{"zero total", 0, []int64{1, 1}, []int64{10, 20}, []int64{0, 0}},
		{"negative total", -5, []int64{1}, []int64{10}, []int64{0}},
		{"empty", 10, nil, nil, []int64{}},
		{"huge products", MaxAmount, []int64{MaxAmount, MaxAmount}, []int64{MaxAmount, MaxAmount}, []int64{MaxAmount / 2, MaxAmount / 2}},
	}
	for _, tc := range tests {
		got := Split(tc.total, tc.weights, tc.caps)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: Split(%d, %v, %v) = %v, want %v", tc.name, tc.total, tc.weights, tc.caps, got, tc.want)
		}
	}
}

// idealSplit is the exact (rational) water-filled split Split rounds.
func idealSplit(total int64, w, caps []int64) []*big.Rat {
	n := len(w)
	out := make([]*big.Rat, n)
	capped := make([]bool, n)
	rest := big.NewRat(total, 1)
	for i := range out {
		out[i] = new(big.Rat)
	}
	for {
		W := new(big.Rat)
		for i := range n {
			if !capped[i] && w[i] > 0 && caps[i] > 0 {
				W.Add(W, big.NewRat(w[i], 1))
			}
		}
		if W.Sign() == 0 {
			return out
		}
		changed := false
		r0 := new(big.Rat).Set(rest)
		for i := range n {
			if capped[i] || w[i] == 0 || caps[i] == 0 {
				continue
			}
			share := new(big.Rat).Mul(r0, big.NewRat(w[i], 1))
			share.Quo(share, W)
			if share.Cmp(big.NewRat(caps[i], 1)) > 0 {
				capped[i], changed = true, true
				out[i].SetInt64(caps[i])
				rest.Sub(rest, out[i])
			}
		}
		if !changed {
			for i := range n {
				if !capped[i] && w[i] > 0 && caps[i] > 0 {
					out[i].Mul(r0, big.NewRat(w[i], 1))
					out[i].Quo(out[i], W)
				}
			}
			return out
		}
	}
}

func TestSplitProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := range 20000 {
		n := rng.IntN(8)
		w, caps := make([]int64, n), make([]int64, n)
		for i := range n {
			switch rng.IntN(4) {
			case 0:
				w[i] = 0
			case 1:
				w[i] = rng.Int64N(10) + 1
			default:
				w[i] = rng.Int64N(100000)
			}
			if rng.IntN(5) == 0 {
				caps[i] = rng.Int64N(5)
			} else {
				caps[i] = rng.Int64N(100000)
			}
		}
		total := rng.Int64N(sum(caps) + 10)
		got := Split(total, w, caps)
		want := min(total, sum(caps))
		if sum(got) != want {
			t.Fatalf("#%d Split(%d, %v, %v) = %v sums to %d, want %d", iter, total, w, caps, got, sum(got), want)
		}
		var capW int64 // what the lines with a weight can take
		for i := range n {
			if got[i] < 0 || got[i] > caps[i] {
				t.Fatalf("#%d Split(%d, %v, %v) = %v: line %d outside [0, %d]", iter, total, w, caps, got, i, caps[i])
			}
			if w[i] > 0 {
				capW += caps[i]
			}
		}
		ideal := idealSplit(want, w, caps)
		for i := range n {
			if w[i] == 0 && want <= capW && got[i] != 0 {
				t.Fatalf("#%d Split(%d, %v, %v) = %v: zero-weight line %d got %d", iter, total, w, caps, got, i, got[i])
			}
			if want > capW {
				continue
			}
			diff := new(big.Rat).Sub(big.NewRat(got[i], 1), ideal[i])
			if diff.Abs(diff).Cmp(big.NewRat(int64(n), 1)) > 0 {
				t.Fatalf("#%d Split(%d, %v, %v) = %v: line %d is %s away from its ideal %s",
					iter, total, w, caps, got, i, diff.FloatString(2), ideal[i].FloatString(2))
			}
		}
	}
}
