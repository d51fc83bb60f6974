package webhook

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/project"
	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// The project's webhook signing secret.

// NewWebhookToken returns a new random webhook signing secret.
func NewWebhookToken() string { return pulid.Hex(32) }

// EnsureWebhookToken gives p a webhook token if it has none (projects made
// before webhooks existed) and returns it. Two callers racing agree on one
// token: only a row still without one is updated, then it is read back.
func EnsureWebhookToken(ctx context.Context, c *ent.Client, p *ent.Project) (string, error) {
	if p.WebhookToken != "" {
		return p.WebhookToken, nil
	}
	token := NewWebhookToken()
	err := c.Project.Update().Where(project.ID(p.ID), project.Or(project.WebhookTokenIsNil(), project.WebhookTokenEQ(""))).
		SetWebhookToken(token).Exec(ctx)
	if err != nil {
		return "", fmt.Errorf("making webhook token: %w", err)
	}
	stored, err := c.Project.Query().Where(project.ID(p.ID)).Select(project.FieldWebhookToken).String(ctx)
	if err != nil {
		return "", fmt.Errorf("reading webhook token: %w", err)
	}
	p.WebhookToken = stored
	return stored, nil
}
