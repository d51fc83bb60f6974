package loyaltyv2

import (
	"strings"
	"testing"
	"time"
)

func TestCursorSealing(t *testing.T) {
	secret := []byte("0123456789abcdef0123456789abcdef")
	now := time.Now()
	p := cursorPayload{After: "pos", Expires: now.Add(time.Hour).UnixMilli(), Fingerprint: "fp"}
	tok, err := sealCursor(secret, "lcrsacrd_", p)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := unsealCursor(secret, "lcrsacrd_", tok, "fp", now); err != nil || got != p {
		t.Fatalf("round trip: %v %v", got, err)
	}
	body, sig, _ := strings.Cut(strings.TrimPrefix(tok, "lcrsacrd_"), ".")
	flip := func(s string) string {
		b := []byte(s)
		if b[len(b)/2] == 'A' {
			b[len(b)/2] = 'B'
		} else {
			b[len(b)/2] = 'A'
		}
		return string(b)
	}
	expired, _ := sealCursor(secret, "lcrsacrd_", cursorPayload{After: "pos", Expires: now.Add(-time.Second).UnixMilli(), Fingerprint: "fp"})
	for name, c := range map[string]struct{ tok, fp string }{
		"tampered payload":   {"lcrsacrd_" + flip(body) + "." + sig, "fp"},
		"tampered signature": {"lcrsacrd_" + body + "." + flip(sig), "fp"},
		"other list":         {tok, "other"},
		"other prefix":       {strings.Replace(tok, "lcrsacrd_", "lcrsarew_", 1), "fp"},
		"no signature":       {"lcrsacrd_" + body, "fp"},
		"expired":            {expired, "fp"},
		"garbage":            {"lcrsacrd_%%%.%%%", "fp"},
	} {
		if _, err := unsealCursor(secret, "lcrsacrd_", c.tok, c.fp, now); err == nil {
			t.Errorf("%s: accepted", name)
		} else if e := invalidCursor(); err.Error() != e.Error() {
			t.Errorf("%s: error %v", name, err)
		}
	}
	if _, err := unsealCursor([]byte("another key of thirty-two bytes!"), "lcrsacrd_", tok, "fp", now); err == nil {
		t.Error("cursor signed with another key accepted")
	}
}
