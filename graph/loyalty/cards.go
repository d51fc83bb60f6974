package loyalty

import (
	"context"
	"fmt"
	"net/http"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	"github.com/promoengine/promoengine/graph/vouchercode"
	"github.com/promoengine/promoengine/graph/webhook"
)

// codeAttempts bounds the draws for a card code not yet used in the project.
const codeAttempts = 5

// issueCard creates a card of a program (of the given card definition, or
// the default code configuration when defID is ""), generating its code.
// It records vl.card.created and vl.card.code_generation.succeeded (or
// .failed, and the card keeps a null code), plus vl.card.assigned when the
// card goes to a member.
func issueCard(ctx context.Context, programID, defID string, memberID *string, group string) (*ent.Card, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	n := defaultCardCodeLength
	cs := campaign.CharsetAlphanumeric
	cc := &jsonfield.CodeConfig{Length: &n, Charset: &cs}
	create := c.Card.Create().SetProgramID(programID)
	if defID != "" {
		def, err := loyaltybase.CardDefinition(ctx, defID)
		if err != nil {
			return nil, err
		}
		cc = def.CodeConfig
		create.SetCardDefinitionID(def.ID)
	}
	cc, err = campaign.NormalizeCodeConfig(".code_config", cc)
	if err != nil {
		return nil, err
	}
	code, genErr := generateCardCode(ctx, c, cc)
	if genErr != nil && !isCodeFailure(genErr) {
		return nil, genErr
	}
	if code != "" {
		create.SetCode(code)
	}
	crd, err := create.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("creating card: %w", err)
	}
	types := []string{"vl.card.created"}
	if genErr != nil {
		types = append(types, "vl.card.code_generation.failed")
	} else {
		types = append(types, "vl.card.code_generation.succeeded")
	}
	for _, t := range types {
		data := map[string]any{"card": webhook.CardSnapshot(crd)}
		if t == "vl.card.code_generation.failed" {
			data["error"] = map[string]any{"message": genErr.Error()}
		}
		if err := RecordCardActivity(ctx, crd.ID, t, data, group); err != nil {
			return nil, err
		}
	}
	if memberID != nil {
		return assign(ctx, crd, *memberID, group)
	}
	return crd, nil
}

// codeFailure marks a code that could not be generated (not a database error).
type codeFailure struct{ msg string }

func (e codeFailure) Error() string { return e.msg }

func isCodeFailure(err error) bool {
	_, ok := err.(codeFailure)
	return ok
}

// smallCodeSpace is the size up to which a code space is searched in full
// when random draws keep hitting used codes.
const smallCodeSpace = 256

// generateCardCode draws a code that no card of the project has yet: a few
// random draws, then (for small spaces) every code in turn.
func generateCardCode(ctx context.Context, c *ent.Client, cc *jsonfield.CodeConfig) (string, error) {
	gen, err := vouchercode.New(campaign.Deref(cc.Charset), campaign.Deref(cc.Pattern), campaign.Deref(cc.Prefix), campaign.Deref(cc.Postfix))
	if err != nil {
		return "", codeFailure{err.Error()}
	}
	free := func(code string) (bool, error) {
		taken, err := c.Card.Query().Where(card.Code(code)).Exist(ctx)
		if err != nil {
			return false, fmt.Errorf("checking card code: %w", err)
		}
		return !taken, nil
	}
	src := vouchercode.NewSource()
	for range codeAttempts {
		code := gen.Random(src)
		if ok, err := free(code); err != nil || ok {
			return code, err
		}
	}
	if space := gen.Space(); space <= smallCodeSpace {
		for i := range space {
			code := gen.At(i)
			if ok, err := free(code); err != nil || ok {
				return code, err
			}
		}
		return "", codeFailure{fmt.Sprintf("all %d codes of the card definition's code configuration are in use", space)}
	}
	return "", codeFailure{fmt.Sprintf("no unused code found in %d attempts; the code configuration is nearly exhausted", codeAttempts)}
}

func RecordCardActivity(ctx context.Context, cardID, typ string, data map[string]any, group string) error {
	c, src, err := loyaltybase.ActivityWriter(ctx)
	if err != nil {
		return err
	}
	_, err = c.CardActivity.Create().SetCardID(cardID).SetType(typ).SetData(data).
		SetGroupID(group).SetSource(src).Save(ctx)
	if err != nil {
		return fmt.Errorf("recording card activity: %w", err)
	}
	return nil
}

// AssignCard gives an unassigned card of the program to the member.
func AssignCard(ctx context.Context, programID, memberID, cardID string) (*ent.Card, error) {
	if _, err := loyaltybase.Member(ctx, programID, memberID); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	crd, err := c.Card.Query().Where(card.ID(cardID), card.ProgramID(programID)).Only(ctx)
	if err := loyaltybase.NotFound(err, "card", cardID); err != nil {
		return nil, err
	}
	if crd.MemberID != nil {
		if *crd.MemberID == memberID {
			return crd, nil
		}
		return nil, apperr.New(http.StatusConflict, "card_already_assigned", "Card already assigned",
			fmt.Sprintf("Card %s is assigned to another member; unassign it first", cardID))
	}
	return assign(ctx, crd, memberID, loyaltybase.NewGroupID())
}

func assign(ctx context.Context, crd *ent.Card, memberID, group string) (*ent.Card, error) {
	// The guard (member_id IS NULL) makes a concurrent assignment lose cleanly.
	n, err := crd.Update().Where(card.MemberIDIsNil()).SetMemberID(memberID).Save(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.New(http.StatusConflict, "card_already_assigned", "Card already assigned",
			fmt.Sprintf("Card %s was assigned meanwhile", crd.ID))
	}
	if err != nil {
		return nil, fmt.Errorf("assigning card: %w", err)
	}
	data := map[string]any{"card": webhook.CardSnapshot(n), "member_id": memberID}
	if err := RecordCardActivity(ctx, n.ID, "vl.card.assigned", data, group); err != nil {
		return nil, err
	}
	return n, nil
}

// UnassignCard takes a card from its member; it stays in the program.
func UnassignCard(ctx context.Context, programID, memberID, cardID string) (*ent.Card, error) {
	crd, err := loyaltybase.MemberCard(ctx, programID, memberID, cardID)
	if err != nil {
		return nil, err
	}
	n, err := crd.Update().Where(card.MemberID(memberID)).ClearMemberID().Save(ctx)
	if err := loyaltybase.NotFound(err, "card", cardID); err != nil {
		return nil, err
	}
	data := map[string]any{"card": webhook.CardSnapshot(n), "member_id": memberID}
	if err := RecordCardActivity(ctx, n.ID, "vl.card.unassigned", data, loyaltybase.NewGroupID()); err != nil {
		return nil, err
	}
	return n, nil
}
