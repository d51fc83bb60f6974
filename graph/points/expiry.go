package points

import (
	"encoding/json"
	"fmt"
	"time"
)

// Expiry says how the points of a credit expire: Never, on a given last
// day (On), or by expiration rules (Rules: period_type MONTH with
// period_value and an optional rounding, or FIXED_DAY_OF_YEAR with
// fixed_month and fixed_day; reference §3.5). The zero Expiry never expires.
type Expiry struct {
	Never bool
	On    *time.Time
	Rules map[string]any
}

// LastDay is the last day (midnight UTC) on which points credited at
// earned can be used, or nil when they never expire.
func (e Expiry) LastDay(earned time.Time) (*time.Time, error) {
	switch {
	case e.Never:
		return nil, nil
	case e.On != nil:
		d := day(*e.On)
		return &d, nil
	case len(e.Rules) == 0:
		return nil, nil
	}
	d, err := LastDayByRules(e.Rules, earned)
	if err != nil {
		return nil, err
	}
	return &d, nil
}

// LastDayByRules applies expiration rules to the day points were earned.
// MONTH n: through day D of month M+n (the month's last day when it is
// shorter), then rounded out to the end of the month, quarter, half year,
// year or the next particular month (rounding_value 1–12). n = 0 keeps
// the points through the day they were earned. FIXED_DAY_OF_YEAR: the
// next fixed_month/fixed_day on or after the day earned.
func LastDayByRules(rules map[string]any, earned time.Time) (time.Time, error) {
	d := day(earned)
	switch rules["period_type"] {
	case "MONTH":
		n, ok := intOf(rules["period_value"])
		if !ok || n < 0 {
			return time.Time{}, fmt.Errorf("expiration rules: period_value must be a non-negative integer")
		}
		last := addMonthsClamped(d, n)
		return rounded(last, rules)
	case "DAY":
		n, ok := intOf(rules["period_value"])
		if !ok || n < 0 {
			return time.Time{}, fmt.Errorf("expiration rules: period_value must be a non-negative integer")
		}
		return rounded(d.AddDate(0, 0, n), rules)
	case "FIXED_DAY_OF_YEAR":
		m, okM := intOf(rules["fixed_month"])
		dd, okD := intOf(rules["fixed_day"])
		if !okM || !okD || m < 1 || m > 12 || dd < 1 || dd > 31 {
			return time.Time{}, fmt.Errorf("expiration rules: fixed_month 1-12 and fixed_day 1-31 are required")
		}
		for y := d.Year(); ; y++ {
			c := dateClamped(y, time.Month(m), dd)
			if !c.Before(d) {
				return c, nil
			}
		}
	default:
		return time.Time{}, fmt.Errorf("expiration rules: period_type must be MONTH, DAY or FIXED_DAY_OF_YEAR")
	}
}

// rounded pushes last out to the end of its month, quarter, half year,
// year, or of the next particular month.
func rounded(last time.Time, rules map[string]any) (time.Time, error) {
	endOf := func(months int) time.Time {
		m := int(last.Month())
		target := ((m-1)/months+1)*months + 1 // first month after the block
		return time.Date(last.Year(), time.Month(target), 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, -1)
	}
	switch rules["rounding_type"] {
	case nil, "":
		return last, nil
	case "END_OF_MONTH":
		return endOf(1), nil
	case "END_OF_QUARTER":
		return endOf(3), nil
	case "END_OF_HALF_YEAR":
		return endOf(6), nil
	case "END_OF_YEAR":
		return endOf(12), nil
	case "PARTICULAR_MONTH":
		m, ok := intOf(rules["rounding_value"])
		if !ok || m < 1 || m > 12 {
			return time.Time{}, fmt.Errorf("expiration rules: rounding_value must be a month 1-12")
		}
		y := last.Year()
		if int(last.Month()) > m {
			y++
		}
		return time.Date(y, time.Month(m)+1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, -1), nil
	default:
		return time.Time{}, fmt.Errorf("expiration rules: unknown rounding_type %v", rules["rounding_type"])
	}
}

// day is t's calendar day at midnight UTC.
func day(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// addMonthsClamped is d moved n months on, on the same day of the month
// or the target month's last day when it has fewer days.
func addMonthsClamped(d time.Time, n int) time.Time {
	first := time.Date(d.Year(), d.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, n, 0)
	return dateClamped(first.Year(), first.Month(), d.Day())
}

func dateClamped(y int, m time.Month, dd int) time.Time {
	last := time.Date(y, m+1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, -1).Day()
	if dd > last {
		dd = last
	}
	return time.Date(y, m, dd, 0, 0, 0, 0, time.UTC)
}

// intOf reads a JSON number (or Go int) that is a whole number.
func intOf(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case int64:
		return int(n), true
	case float64:
		if n != float64(int(n)) {
			return 0, false
		}
		return int(n), true
	case json.Number:
		i, err := n.Int64()
		return int(i), err == nil
	}
	return 0, false
}

// WholeNumber reads a JSON number that is a whole number.
func WholeNumber(v any) (int, bool) { return intOf(v) }
