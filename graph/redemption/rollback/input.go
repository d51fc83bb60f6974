package rollback

import (
	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/redemption"
)

// RollbackInput is the optional body (and query) of a rollback.
type RollbackInput struct {
	Reason     *string                 `json:"reason"`
	TrackingID *string                 `json:"tracking_id"`
	Customer   *customer.CustomerInput `json:"customer"`
	Order      *redemption.OrderInput  `json:"order"`
	Metadata   map[string]any          `json:"metadata"`
}

// RollbackResult is the outcome of a rollback: the rollback of the named
// redemption and, for a stacked one, the rollbacks of its children.
type RollbackResult struct {
	Rollbacks []*ent.Redemption `json:"-"`
	Rollback  *ent.Redemption   `json:"-"`
	Order     any               `json:"-"`
}
