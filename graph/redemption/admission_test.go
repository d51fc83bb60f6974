package redemption

import (
	"context"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
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

// TestRedemptionsAdmittedOnlyWhenAsked: the one-statement redemption runs
// while every slot is taken, unless the admission admits redemptions
// (PROMO_ADMIT_REDEMPTIONS): then it waits for a slot, and goes on (in one
// statement) when one is given back.
func TestRedemptionsAdmittedOnlyWhenAsked(t *testing.T) {
	served := 0
	redemptionPaths(t, false, &served, nil)
	RunRedemptionBatch = func(ctx context.Context, b *entdb.WriteBatch, c *ent.Client) error {
		err := runAdmitted(ctx, b, c)
		if err == nil {
			served++
		}
		return err
	}
	_, ctx := graphtest.ProjectContext(t)
	campaigntest.WithCodes(t, ctx, "admitted", "RED-1", "RED-2")
	for _, admit := range []bool{false, true} {
		ctx := store.WithAdmission(ctx, store.NewAdmission(1).AdmittingRedemptions(admit))
		hold, err := store.Admit(ctx)
		if err != nil {
			t.Fatal(err)
		}
		code := "RED-1"
		if admit {
			code = "RED-2"
		}
		done := make(chan *StackedRedemptionResult, 1)
		go func() {
			res, err := RedeemStacked(ctx, redeemCode(code))
			if err != nil {
				t.Errorf("redemption: %v", err)
			}
			done <- res
		}()
		select {
		case res := <-done:
			if admit {
				t.Fatalf("a redemption ran while the admission's only slot was taken: %+v", res)
			}
		case <-time.After(300 * time.Millisecond):
			if !admit {
				t.Fatal("a redemption waited for the admission without PROMO_ADMIT_REDEMPTIONS")
			}
			hold()
			hold = func() {}
			if res := <-done; res == nil || res.Failure != nil {
				t.Fatalf("redemption after the slot was given back: %+v", res)
			}
		}
		hold()
	}
	if served != 2 {
		t.Errorf("%d redemptions in one statement, want 2", served)
	}
}
