package store

import (
	"context"
	"errors"
	"testing"
)

// A read memo loads a key once; without one every call loads; a failed
// load is not remembered.
func TestRememberedLoadsOncePerMemo(t *testing.T) {
	loads := 0
	load := func() (int, error) { loads++; return 42, nil }
	plain := context.Background()
	for range 2 {
		if v, err := Remembered(plain, "k", load); err != nil || v != 42 {
			t.Fatalf("without a memo: %v %v", v, err)
		}
	}
	if loads != 2 {
		t.Fatalf("without a memo every call loads: %d loads", loads)
	}
	memo := WithReadMemo(plain)
	loads = 0
	for range 3 {
		if v, err := Remembered(memo, "k", load); err != nil || v != 42 {
			t.Fatalf("with a memo: %v %v", v, err)
		}
	}
	if loads != 1 {
		t.Fatalf("with a memo the key loads once: %d loads", loads)
	}
	failing := func() (int, error) { loads++; return 0, errors.New("down") }
	if _, err := Remembered(memo, "other", failing); err == nil {
		t.Fatal("the load's error is returned")
	}
	if v, err := Remembered(memo, "other", load); err != nil || v != 42 || loads != 3 {
		t.Fatalf("a failed load is not remembered: %v %v (%d loads)", v, err, loads)
	}
}
