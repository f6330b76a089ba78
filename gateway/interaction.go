package gateway

import (
	"context"

	"github.com/seed012df1e9/guildkit"
)

// OnInteraction hands every INTERACTION_CREATE's interaction to fn, such
// as the interactions package's Handler.ServeInteraction:
//
//	h, _ := interactions.NewGatewayHandler(rest)
//	h.HandleComponent("role:{id}", pickRole)
//	gateway.OnInteraction(shard, h.ServeInteraction)
//
// INTERACTION_CREATE needs no intent. An application receives its
// interactions over the gateway only when it has no interactions endpoint
// URL. fn runs on the shard's dispatch goroutine: it must return quickly
// (ServeInteraction does, running the function in its own goroutine), as
// the answer is due within 3 seconds and later events wait for it.
func OnInteraction(r Registrar, fn func(ctx context.Context, it *guildkit.Interaction)) {
	On(r, func(ctx context.Context, e *InteractionCreate) {
		if e.Interaction != nil {
			fn(ctx, e.Interaction)
		}
	})
}
