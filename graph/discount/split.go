package discount

// Split distributes total over lines in proportion to weights so that the
// shares sum exactly to total, no share is negative and share i never exceeds
// caps[i]. A total above Σ caps is reduced to Σ caps; a non-positive total
// gives all zeros. weights and caps must have the same length and hold
// non-negative values, and Σ weights must fit in an int64.
//
// Lines whose proportional share would exceed their cap get the cap and the
// rest is split again among the others (water-filling). The remaining lines
// get their share rounded half-up, except the last line with a positive
// weight, which absorbs the remainder. If that would leave it above its cap or
// below zero, the difference is moved cent by cent to the other lines, from
// the last backwards, within their caps.
func Split(total int64, weights, caps []int64) []int64 {
	if len(weights) != len(caps) {
		panic("discount: Split: weights and caps differ in length")
	}
	n := len(weights)
	out := make([]int64, n)
	total = min(total, sum(caps))
	if total <= 0 {
		return out
	}
	capped := make([]bool, n)
	rest := total
	var active []int
	for {
		active = active[:0]
		var w int64
		for i := range n {
			if !capped[i] && weights[i] > 0 && caps[i] > 0 {
				active = append(active, i)
				w += weights[i]
			}
		}
		if w == 0 {
			break
		}
		changed, r0 := false, rest
		for _, i := range active {
			// r0 × w_i / w > cap_i: the line cannot take its share.
			if mulLess(caps[i], w, r0, weights[i]) {
				out[i], capped[i] = caps[i], true
				rest -= caps[i]
				changed = true
			}
		}
		if !changed {
			given := int64(0)
			for _, i := range active[:len(active)-1] {
				out[i] = mulDivRound(rest, weights[i], w)
				given += out[i]
			}
			last := active[len(active)-1]
			out[last] = min(max(rest-given, 0), caps[last])
			break
		}
	}
	settle(out, weights, caps, total-sum(out))
	return out
}

// settle moves delta (positive: to add, negative: to take) across the lines,
// from the last backwards, within [0, caps[i]]; lines with a positive weight
// are used before the others.
func settle(out, weights, caps []int64, delta int64) {
	for pass := 0; pass < 2 && delta != 0; pass++ {
		for i := len(out) - 1; i >= 0 && delta != 0; i-- {
			if pass == 0 && weights[i] == 0 {
				continue
			}
			if delta > 0 {
				d := min(caps[i]-out[i], delta)
				out[i] += d
				delta -= d
			} else {
				d := min(out[i], -delta)
				out[i] -= d
				delta += d
			}
		}
	}
}
