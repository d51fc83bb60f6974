package lifecycle

import "testing"

func TestAllowed(t *testing.T) {
	for _, c := range []struct {
		resource, from, to string
		ok                 bool
	}{
		{EarningRule, "ACTIVE", "INACTIVE", true},
		{EarningRule, "DRAFT", "INACTIVE", false},
		{EarningRule, "INACTIVE", "INACTIVE", false},
		{EarningRule, "DELETED", "ACTIVE", false},
		{EarningRule, "INACTIVE", "ACTIVE", true},
		{Incentive, "DRAFT", "ACTIVE", true},
		{Incentive, "ACTIVE", "DELETED", true},
		{Incentive, "DELETED", "ACTIVE", false},
		{TierStructure, "DRAFT", "INACTIVE", false},
		{Member, "ACTIVE", "INACTIVE", true},
		{"unknown", "A", "B", false},
	} {
		if got := Allowed(c.resource, c.from, c.to); got != c.ok {
			t.Errorf("%s %s→%s: %v, want %v", c.resource, c.from, c.to, got, c.ok)
		}
	}
	e := &TransitionError{Resource: EarningRule, From: "DRAFT", To: "INACTIVE"}
	if e.Error() != "Cannot deactivate earning rule from current state: 'DRAFT'" {
		t.Errorf("message %q", e.Error())
	}
}
