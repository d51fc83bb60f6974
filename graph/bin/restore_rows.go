package bin

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/asyncaction"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/product"
	"github.com/promoengine/promoengine/ent/validationrule"
)

// jobCampaignDelete is the async action type of a campaign deletion
// (graph/campaign JobCampaignDelete; bin sits below campaign).
const jobCampaignDelete = "CAMPAIGN.DELETE"

// restoreVoucher re-creates a voucher in its campaign (which must still
// exist and not be under deletion), links it to its publications again
// (relinkPublications), counts it there again, and restores its rule
// assignments whose rule still exists.
func restoreVoucher(ctx context.Context, c *ent.Client, snap *Snapshot) error {
	v := snap.Voucher
	if v.CampaignID != nil {
		if err := checkCampaignLive(ctx, c, *v.CampaignID); err != nil {
			return err
		}
	}
	create := c.Voucher.Create().SetID(v.ID)
	if err := fillMutation(create.Mutation(), v); err != nil {
		return err
	}
	if err := create.Exec(ctx); err != nil {
		return restoreConflict(TypeVoucher, err)
	}
	if err := relinkPublications(ctx, c, []*ent.Voucher{v}); err != nil {
		return err
	}
	if v.CampaignID != nil {
		if err := c.Campaign.Update().Where(campaign.ID(*v.CampaignID)).AddVouchersCount(1).Exec(ctx); err != nil {
			return fmt.Errorf("counting the restored voucher in its campaign: %w", err)
		}
	}
	for _, a := range snap.Assignments {
		live, err := c.ValidationRule.Query().Where(validationrule.ID(a.RuleID)).Exist(ctx)
		if err != nil {
			return fmt.Errorf("reading the restored voucher's rule: %w", err)
		}
		if !live {
			continue // the rule was deleted meanwhile
		}
		create := c.ValidationRuleAssignment.Create().SetID(a.ID)
		if err := fillMutation(create.Mutation(), a); err != nil {
			return err
		}
		if err := create.Exec(ctx); err != nil {
			return restoreConflict("validation_rules_assignment", err)
		}
	}
	return nil
}

// checkCampaignLive refuses a restore into a campaign that is gone or
// whose deletion job is pending (it would delete the voucher again).
func checkCampaignLive(ctx context.Context, c *ent.Client, id string) error {
	exists, err := c.Campaign.Query().Where(campaign.ID(id)).Exist(ctx)
	if err != nil {
		return fmt.Errorf("reading the voucher's campaign: %w", err)
	}
	deleting, err := c.AsyncAction.Query().Where(asyncaction.CampaignID(id), asyncaction.Type(jobCampaignDelete),
		asyncaction.StatusIn(asyncaction.StatusENQUEUED, asyncaction.StatusIN_PROGRESS)).Exist(ctx)
	if err != nil {
		return fmt.Errorf("reading the voucher's campaign deletion: %w", err)
	}
	if !exists || deleting {
		return notRestorable("", fmt.Sprintf("The voucher's campaign %s has been deleted", id))
	}
	return nil
}

// restoreProduct re-creates a product and the SKUs deleted with it.
func restoreProduct(ctx context.Context, c *ent.Client, snap *Snapshot) error {
	p := snap.Product
	create := c.Product.Create().SetID(p.ID)
	if err := fillMutation(create.Mutation(), p); err != nil {
		return err
	}
	if err := create.Exec(ctx); err != nil {
		return restoreConflict(TypeProduct, err)
	}
	for _, s := range snap.Skus {
		if err := createSku(ctx, c, s); err != nil {
			return err
		}
	}
	return nil
}

// restoreSku re-creates a SKU under its product, which must exist (a
// product binned after the SKU is restored first).
func restoreSku(ctx context.Context, c *ent.Client, s *ent.Sku) error {
	exists, err := c.Product.Query().Where(product.ID(s.ProductID)).Exist(ctx)
	if err != nil {
		return fmt.Errorf("reading the SKU's product: %w", err)
	}
	if !exists {
		return notRestorable("", fmt.Sprintf("The SKU's product %s has been deleted; restore the product first", s.ProductID))
	}
	return createSku(ctx, c, s)
}

// createSku inserts a SKU row of a snapshot.
func createSku(ctx context.Context, c *ent.Client, s *ent.Sku) error {
	create := c.Sku.Create().SetID(s.ID)
	if err := fillMutation(create.Mutation(), s); err != nil {
		return err
	}
	if err := create.Exec(ctx); err != nil {
		return restoreConflict(TypeSku, err)
	}
	return nil
}
