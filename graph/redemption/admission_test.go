package redemption

import (
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// TestValidationsShareTheAdmission: on PostgreSQL a validation without a
// session waits while every slot of the admission is taken and goes on
// when one is given back; a validation with a session runs in a
// transaction and never waits.
func TestValidationsShareTheAdmission(t *testing.T) {
	if !entdbtest.IsPostgres() {
		t.Skip("validations are admitted on PostgreSQL only")
	}
	_, ctx := graphtest.ProjectContext(t)
	campaigntest.WithCodes(t, ctx, "admitted", "VAL-1", "VAL-2")
	ctx = store.WithAdmission(ctx, store.NewAdmission(1))
	hold, err := store.Admit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan *ValidationResult, 1)
	go func() {
		res, err := ValidateStacked(ctx, redeemCode("VAL-1"))
		if err != nil {
			t.Errorf("validation: %v", err)
		}
		done <- res
	}()
	select {
	case res := <-done:
		t.Fatalf("a validation ran while the admission's only slot was taken: %+v", res)
	case <-time.After(200 * time.Millisecond):
	}
	hold()
	select {
	case res := <-done:
		if res == nil || !res.Valid {
			t.Errorf("validation after the slot was given back: %+v", res)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the validation still waits after the slot was given back")
	}

	hold, err = store.Admit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer hold()
	in := redeemCode("VAL-2")
	in.Session = &SessionInput{Type: graphtest.Ptr("LOCK")}
	if res, err := ValidateStacked(ctx, in); err != nil || !res.Valid || res.Session == nil {
		t.Errorf("a validation with a session while every slot is taken: %+v, %v", res, err)
	}
}
