package webhook

import (
	"testing"
	"time"
)

func TestWebhookBackoffDoublesWithJitterUpToTheCap(t *testing.T) {
	s := Settings{}
	s.defaults()
	for n, want := range map[int]time.Duration{1: 10 * time.Second, 2: 20 * time.Second, 3: 40 * time.Second,
		9: 2560 * time.Second, 10: time.Hour, 50: time.Hour, 500: time.Hour} {
		for range 50 {
			got := s.backoff(n)
			if got < want/2 || got > want {
				t.Fatalf("backoff(%d) = %s, want within [%s, %s]", n, got, want/2, want)
			}
		}
	}
	// The schedule keeps retrying for the whole window: the sum of the
	// longest pauses of 40 attempts passes 24 h.
	var total time.Duration
	for n := 1; n <= 40; n++ {
		total += min(s.RetryBase<<min(n-1, 20), s.RetryMaxStep)
	}
	if total < 24*time.Hour {
		t.Fatalf("40 attempts span %s", total)
	}
}

func TestSignWebhookIsHexHMACSHA256(t *testing.T) {
	// RFC 4231 test case 2.
	got := SignWebhook("Jefe", []byte("what do ya want for nothing?"))
	if want := "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"; got != want {
		t.Fatalf("SignWebhook = %s, want %s", got, want)
	}
}
