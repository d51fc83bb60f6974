package publication

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"time"

	"entgo.io/contrib/entgql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/publication"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/observe"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Publication limits of the interface.
const (
	MaxPublishCount = 20
	DefaultChannel  = "API"
)

// Publish hands suitable vouchers to a customer and records the
// publication, all in one transaction (the caller's, if ctx has one): a
// failure publishes nothing. joinOnce: the customer always gets the same
// code from the campaign. A repeated source_id returns the original
// publication. The common case is a single statement on PostgreSQL
// (publish_statement.go), admitted a few at a time (admission.go).
func Publish(ctx context.Context, in PublishInput, joinOnce bool) (_ *ent.Publication, err error) {
	defer observe.Publish(ctx, &err) // metrics: counted once committed (metrics_hooks.go)
	count, err := validatePublish(in)
	if err != nil {
		return nil, err
	}
	if inOneStatement(ctx, in, joinOnce) {
		if pub, done, err := publishAdmitted(ctx, in, count); err != nil || done {
			return pub, err
		}
	}
	var pub *ent.Publication
	err = store.WithinTx(ctx, func(ctx context.Context) error {
		pub, err = publishInTx(ctx, in, joinOnce, count)
		return err
	})
	return pub, err
}

// publishInTx is the general path of publish, inside a transaction.
func publishInTx(ctx context.Context, in PublishInput, joinOnce bool, count int) (*ent.Publication, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	v, _ := viewer.FromContext(ctx)
	if in.SourceID != nil {
		if err := store.LockKey(ctx, "publication:"+v.ProjectID+":"+*in.SourceID); err != nil {
			return nil, err
		}
	}
	// The source first: an unknown campaign or voucher is a 404 before
	// anything is written.
	var cmp *ent.Campaign
	var specific *ent.Voucher
	if in.Campaign != nil {
		if cmp, err = campaign.ByIDOrName(ctx, in.Campaign.Name); err != nil {
			return nil, err
		}
	} else if specific, err = VoucherByCode(ctx, *in.Voucher); err != nil {
		return nil, err
	}
	cust, err := customer.ResolveCustomer(ctx, in.Customer)
	if err != nil {
		return nil, err
	}
	if customer.HasProfile(in.Customer) { // the profile may have changed
		if err := customer.RefreshSegments(ctx, cust); err != nil {
			return nil, err
		}
	}
	if in.SourceID != nil {
		if prior, err := c.Publication.Query().Where(publication.SourceID(*in.SourceID)).Only(ctx); err == nil {
			return replay(ctx, prior, cust, cmp, in)
		} else if !ent.IsNotFound(err) {
			return nil, fmt.Errorf("looking up publication: %w", err)
		}
	}
	var vouchers []*ent.Voucher
	if cmp != nil && (joinOnce || cmp.JoinOnce) {
		// One code per customer and campaign: requests for this customer
		// wait here for each other, so the check below sees them all.
		if err := store.LockKey(ctx, "join:"+v.ProjectID+":"+cust.ID+":"+cmp.ID); err != nil {
			return nil, err
		}
		if prior, err := joinedPublication(ctx, cust, cmp); err != nil {
			return nil, err
		} else if prior != nil {
			if joinOnce {
				return loadPublication(ctx, prior.ID)
			}
			if cmp.JoinOnce {
				return nil, apperr.New(http.StatusBadRequest, "voucher_cannot_be_published", "Voucher cannot be published",
					"Voucher cannot be published. Customer already joined program.")
			}
		}
	}
	if cmp != nil {
		if vouchers, err = pickFromCampaign(ctx, cmp, count); err != nil {
			return nil, err
		}
	} else {
		if err := checkSuitable(specific, time.Now()); err != nil {
			return nil, err
		}
		vouchers = []*ent.Voucher{specific}
	}
	ids := make([]string, len(vouchers))
	for i, vch := range vouchers {
		ids[i] = vch.ID
	}
	// One clock reading for the stored updated_at and the returned (and
	// webhook-snapshotted) vouchers, so both render the same time.
	now := clock.Now()
	if err := markPublished(ctx, ids, cust.ID, now); err != nil {
		return nil, err
	}
	for _, vch := range vouchers {
		vch.PublishCount++
		vch.HolderID, vch.UpdatedAt = &cust.ID, &now
		if cmp != nil {
			vch.Edges.Campaign = cmp
		}
	}
	create := c.Publication.Create().
		SetCustomerID(cust.ID).SetNillableTrackingID(cust.SourceID).SetMetadata(metadataOf(in)).SetChannel(channelOf(in)).
		SetNillableSourceID(in.SourceID).SetNillableRequestedCode(in.Voucher).
		SetCountForm(in.Campaign != nil && in.Campaign.Count != nil).
		SetVoucherIds(ids).AddVoucherIDs(ids...)
	if cmp != nil {
		create.SetCampaignID(cmp.ID)
	}
	pub, err := create.Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, duplicateSourceID(*in.SourceID)
	}
	if err != nil {
		return nil, fmt.Errorf("recording publication: %w", err)
	}
	// Everything the response shows is at hand: no need to read it back.
	pub.Edges.Customer, pub.Edges.Vouchers = cust, vouchers
	if err := emitPublication(ctx, pub, cmp); err != nil {
		return nil, err
	}
	return pub, nil
}

// metadataOf is the publication's metadata: the request's, or an empty object.
func metadataOf(in PublishInput) map[string]any {
	if in.Metadata == nil {
		return map[string]any{}
	}
	return in.Metadata
}

// channelOf is the publication's channel: the request's, or API.
func channelOf(in PublishInput) string {
	if in.Channel != nil && *in.Channel != "" {
		return *in.Channel
	}
	return DefaultChannel
}

// validatePublish checks the request's shape and returns how many vouchers it asks for.
func validatePublish(in PublishInput) (int, error) {
	if in.Customer == nil {
		return 0, apperr.InvalidPayload("Payload must have required property 'customer'")
	}
	switch {
	case in.Voucher == nil && in.Campaign == nil:
		return 0, apperr.New(http.StatusBadRequest, "missing_vouchers", "Missing vouchers", "Either Campaign or Voucher is required")
	case in.Voucher != nil && in.Campaign != nil:
		return 0, apperr.InvalidPayload("Exactly one source is allowed: either 'voucher' or 'campaign', not both")
	case in.Voucher != nil && *in.Voucher == "":
		return 0, apperr.InvalidPayload("Property .voucher must be a voucher code")
	case in.Campaign != nil && in.Campaign.Name == "":
		return 0, apperr.InvalidPayload("Property .campaign.name must be a campaign name or ID")
	}
	count := 1
	if in.Campaign != nil && in.Campaign.Count != nil {
		count = *in.Campaign.Count
		if count < 1 || count > MaxPublishCount {
			return 0, apperr.InvalidPayload("Property .campaign.count must be between 1 and %d, got %d", MaxPublishCount, count)
		}
	}
	if in.SourceID != nil && count > 1 {
		return 0, apperr.New(http.StatusBadRequest, "too_many_vouchers_requested", "Too many vouchers requested",
			"Only up to 1 can be published when source_id is given")
	}
	return count, nil
}

// replay answers a repeated source_id: the original publication when it was
// for the same customer and source, duplicate_source_id otherwise.
func replay(ctx context.Context, prior *ent.Publication, cust *ent.Customer, cmp *ent.Campaign, in PublishInput) (*ent.Publication, error) {
	same := prior.CustomerID == cust.ID
	switch {
	case cmp != nil:
		same = same && prior.CampaignID != nil && *prior.CampaignID == cmp.ID
	default:
		same = same && prior.RequestedCode != nil && *prior.RequestedCode == *in.Voucher
	}
	if !same {
		return nil, duplicateSourceID(*in.SourceID)
	}
	return loadPublication(ctx, prior.ID)
}

func duplicateSourceID(sourceID string) error {
	return apperr.New(http.StatusBadRequest, "duplicate_source_id", "Duplicate source_id",
		fmt.Sprintf("Publication with source_id: '%s' already exists", sourceID))
}

// joinedPublication returns the customer's first publication from cmp, if
// any. The caller holds the customer's lock (resolveCustomer).
func joinedPublication(ctx context.Context, cust *ent.Customer, cmp *ent.Campaign) (*ent.Publication, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	prior, err := c.Publication.Query().
		Where(publication.CustomerID(cust.ID), publication.CampaignID(cmp.ID)).
		Order(publication.ByCreatedAt()).First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("looking up customer's publications: %w", err)
	}
	return prior, nil
}

// loadPublication reads a publication with its customer and its vouchers
// (each with its campaign), vouchers in publication order.
func loadPublication(ctx context.Context, id string) (*ent.Publication, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	pub, err := c.Publication.Query().Where(publication.ID(id)).
		WithCustomer().
		WithVouchers(func(q *ent.VoucherQuery) { campaign.WithVoucherCategories(q) }).
		Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("publication", id)
	}
	if err != nil {
		return nil, fmt.Errorf("loading publication: %w", err)
	}
	order := pub.VoucherIds
	slices.SortFunc(pub.Edges.Vouchers, func(a, b *ent.Voucher) int {
		return slices.Index(order, a.ID) - slices.Index(order, b.ID)
	})
	return pub, nil
}

// Connection lists the caller's publications as a Relay connection.
func Connection(ctx context.Context, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.PublicationOrder, where *ent.PublicationWhereInput) (*ent.PublicationConnection, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if first, err = page.Bound(first, last); err != nil {
		return nil, err
	}
	q := c.Publication.Query()
	opts := []ent.PublicationPaginateOption{ent.WithPublicationOrder(orderBy), ent.WithPublicationFilter(where.Filter)}
	if where == nil {
		// The project's publications: totalCount off (project_id,
		// created_at, id), an index-only walk, as GET /v1/publications
		// counts, and not again while at the cap (page.ProjectTotal).
		all := q.Clone()
		opts = append(opts, ent.WithPublicationTotalCount(func(ctx context.Context) (int, error) {
			return page.ProjectTotal(ctx, publication.Table, ent.TotalCountCap, func(ctx context.Context) (int, error) {
				return all.Clone().Where(page.CountInIndexOrder(true, publication.FieldCreatedAt, publication.FieldID)).
					CountAtMost(ctx, ent.TotalCountCap)
			})
		}))
	}
	return q.Paginate(ctx, after, first, before, last, opts...)
}
