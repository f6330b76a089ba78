package guildkit_test

import (
	"context"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// The ledger calls of the interaction routes: each reaches the in-memory
// server on its route (with a token the server never issued, so the
// answer is 404; the route is what is checked). The follow-up and
// original-response routes must name the application to be told apart
// from the webhook-token routes of the same shape.
var (
	_ = registerLedger("Create Interaction Response", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, err := c.Interactions.CreateResponse(ctx, 1, "unknown-token", guildkit.DeferredUpdateResponse(), nil)
		return err
	})
	_ = registerLedger("Get Original Interaction Response", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, err := c.Interactions.GetOriginalResponse(ctx, srv.Application().ID, "unknown-token")
		return err
	})
	_ = registerLedger("Edit Original Interaction Response", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, err := c.Interactions.EditOriginalResponse(ctx, srv.Application().ID, "unknown-token", &guildkit.WebhookMessageEditParams{Content: guildkit.Some("x")})
		return err
	})
	_ = registerLedger("Delete Original Interaction Response", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		return c.Interactions.DeleteOriginalResponse(ctx, srv.Application().ID, "unknown-token")
	})
	_ = registerLedger("Create Followup Message", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, err := c.Interactions.CreateFollowup(ctx, srv.Application().ID, "unknown-token", &guildkit.InteractionMessageParams{Content: guildkit.Some("x")})
		return err
	})
	_ = registerLedger("Get Followup Message", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, err := c.Interactions.GetFollowup(ctx, srv.Application().ID, "unknown-token", 1)
		return err
	})
	_ = registerLedger("Edit Followup Message", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, err := c.Interactions.EditFollowup(ctx, srv.Application().ID, "unknown-token", 1, &guildkit.WebhookMessageEditParams{Content: guildkit.Some("x")})
		return err
	})
	_ = registerLedger("Delete Followup Message", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		return c.Interactions.DeleteFollowup(ctx, srv.Application().ID, "unknown-token", 1)
	})
)
