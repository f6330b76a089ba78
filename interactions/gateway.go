package interactions

import (
	"context"
	"log/slog"
	"strconv"

	"github.com/seed012df1e9/guildkit"
)

// NewGatewayHandler returns a Handler for an application that receives its
// interactions over the gateway (it has no interactions endpoint URL, so
// no public key is needed): hand it each INTERACTION_CREATE with
// [Handler.ServeInteraction]. Its ServeHTTP refuses every request (401).
// Every option of [NewHandler] applies; the answer mode does not matter:
// over the gateway every answer goes through the callback route.
func NewGatewayHandler(client *guildkit.Client, opts ...Option) (*Handler, error) {
	return newHandler("NewGatewayHandler", nil, client, opts)
}

// ServeInteraction serves one interaction that arrived over the gateway
// (INTERACTION_CREATE), with the functions registered for it, as ServeHTTP
// serves a delivery: the same checks of every answer before sending, the
// same automatic deferral at the deadline ([WithDeadline], counted from
// this call), the same one-answer rule; the initial answer goes through
// the REST callback route (the platform takes no answer over the
// gateway). Moving from an endpoint to the gateway is one line:
//
//	http.Handle("/interactions", h)               // an endpoint
//	gateway.OnInteraction(shard, h.ServeInteraction) // the gateway
//
// It returns at once: the function runs in its own goroutine (wait for
// it with [Handler.Wait]), so the gateway's events keep flowing while it
// works. An interaction the Handler does not answer (a PING, an unknown
// type, one without a token) is logged and dropped. The function's
// context is ctx without its cancellation, bounded by the token's life.
func (h *Handler) ServeInteraction(ctx context.Context, it *guildkit.Interaction) {
	if it == nil {
		return
	}
	switch it.Type {
	case guildkit.InteractionTypeApplicationCommand, guildkit.InteractionTypeMessageComponent,
		guildkit.InteractionTypeAutocomplete, guildkit.InteractionTypeModalSubmit:
	default:
		h.logger.LogAttrs(ctx, slog.LevelWarn, "interactions: a gateway interaction of a type the Handler does not answer was dropped",
			slog.String("type", strconv.Itoa(int(it.Type))))
		return
	}
	if it.Token == "" {
		h.logger.LogAttrs(ctx, slog.LevelWarn, "interactions: a gateway interaction without a token was dropped", slog.Any("interaction", *it))
		return
	}
	ex := &exchange{h: h, it: it, pending: make(chan *pending, 1), served: make(chan struct{}), gateway: true}
	fn, params := h.lookup(it)
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), TokenLifetime)
	req := &Request{Interaction: it, params: params, ex: ex}
	stop := h.clock.AfterFunc(h.deadline, ex.deadlinePassed)
	h.work.Add(1)
	go func() {
		defer h.work.Done()
		defer cancel()
		defer close(ex.served)
		defer stop()
		h.run(fctx, fn, req)
	}()
}
