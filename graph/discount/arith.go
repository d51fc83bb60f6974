package discount

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
)

// mulSat returns a×b for a, b ≥ 0, saturated at math.MaxInt64, and whether it fit.
func mulSat(a, b int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return math.MaxInt64, false
	}
	return int64(lo), true
}

// mulCap returns min(a×b, limit) for a, b, limit ≥ 0 without overflowing.
func mulCap(a, b, limit int64) int64 {
	p, _ := mulSat(a, b)
	return min(p, limit)
}

// mulLess reports a×b < c×d for non-negative operands, using 128-bit products.
func mulLess(a, b, c, d int64) bool {
	h1, l1 := bits.Mul64(uint64(a), uint64(b))
	h2, l2 := bits.Mul64(uint64(c), uint64(d))
	return h1 < h2 || (h1 == h2 && l1 < l2)
}

// mulDivRound returns a×b/c rounded half-up, for a, b ≥ 0 and c > 0.
// The intermediate product may exceed int64; callers guarantee the quotient
// fits (in this package it never exceeds max(a, b)).
func mulDivRound(a, b, c int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	uc := uint64(c)
	if hi >= uc {
		panic("discount: mulDivRound quotient overflow")
	}
	q, r := bits.Div64(hi, lo, uc)
	if r >= uc-r { // 2r ≥ c: half-up
		q++
	}
	if q > math.MaxInt64 {
		panic("discount: mulDivRound quotient overflow")
	}
	return int64(q)
}

// percent is a percentage as an exact fraction of one (p/100).
type percent struct{ num, den *big.Int }

// newPercent converts p (0..100) to an exact fraction, reading the float64 as
// its shortest decimal representation (0.15 → 15/10000 after dividing by 100).
func newPercent(p float64) percent {
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(p, 'f', -1, 64))
	if !ok { // unreachable for finite p; Validate rejects the rest
		r = new(big.Rat)
	}
	r.Quo(r, big.NewRat(100, 1))
	return percent{num: new(big.Int).Set(r.Num()), den: new(big.Int).Set(r.Denom())}
}

// of returns x×p rounded half-up, for x ≥ 0. The result never exceeds x.
func (p percent) of(x int64) int64 {
	n := new(big.Int).Mul(big.NewInt(x), p.num)
	q, m := new(big.Int).QuoRem(n, p.den, new(big.Int))
	if m.Lsh(m, 1).Cmp(p.den) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	return min(q.Int64(), x)
}

// sum returns the sum of xs.
func sum(xs []int64) int64 {
	var s int64
	for _, x := range xs {
		s += x
	}
	return s
}
