package gateway_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/interactions"
)

// TestInteractionsOverTheGateway: the interactions Handler, built without
// a public key, answers INTERACTION_CREATE from the shard with the same
// functions as over HTTP: the answer through the callback route, the
// automatic deferral at the deadline, the one-answer rule.
func TestInteractionsOverTheGateway(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.srv.AddChannel(e.guild.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	alice := e.srv.AddMember(e.guild.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}}).User.ID
	msg := e.srv.AddApplicationMessage(ch.ID, guildkit.Message{Content: "Pick", Components: components.List{
		components.NewActionRow(components.PrimaryButton("role:7", "Seven"), components.SecondaryButton("slow", "Slow"),
			components.SecondaryButton("twice", "Twice")),
	}})
	h, err := interactions.NewGatewayHandler(e.srv.Client(), interactions.WithClock(e.clock),
		interactions.WithLogger(slog.New(slog.NewTextHandler(testWriter{t}, nil))))
	require.NoError(t, err)
	h.HandleComponent("role:{id}", func(ctx context.Context, r *interactions.Request) error {
		return r.ReplyEphemeral(ctx, "role "+r.Param("id"))
	})
	release := make(chan struct{})
	h.HandleComponent("slow", func(ctx context.Context, r *interactions.Request) error {
		<-release
		return r.Reply(ctx, &guildkit.InteractionMessageParams{Content: guildkit.Some("done late")})
	})
	second := make(chan error, 1)
	h.HandleComponent("twice", func(ctx context.Context, r *interactions.Request) error {
		if err := r.ReplyEphemeral(ctx, "once"); err != nil {
			return err
		}
		second <- r.ReplyEphemeral(ctx, "twice")
		return nil
	})
	gateway.OnInteraction(e.shard, h.ServeInteraction) // the one line
	e.open(t)

	out, err := e.srv.Click(t.Context(), alice, msg.ID, "role:7")
	require.NoError(t, err)
	require.Equal(t, guildkittest.OutcomeMessage, out.Kind, out.Failure)
	assert.Equal(t, "role 7", out.Message.Content)
	assert.True(t, out.Ephemeral)

	out, err = e.srv.Click(t.Context(), alice, msg.ID, "twice")
	require.NoError(t, err)
	assert.Equal(t, "once", out.Message.Content)
	assert.ErrorIs(t, <-second, guildkit.ErrInteractionAcknowledged, "one answer per interaction")

	// The slow function is deferred for at the deadline, on the clock.
	done := make(chan *guildkittest.Outcome, 1)
	e.clock.forget()
	go func() {
		out, err := e.srv.Click(context.Background(), alice, msg.ID, "slow")
		assert.NoError(t, err)
		done <- out
	}()
	e.clock.advanceWhenArmed(t, interactions.DefaultDeadline)
	select {
	case out = <-done:
	case <-time.After(patience):
		t.Fatal("the click got no answer")
	}
	assert.Equal(t, guildkittest.OutcomeDeferred, out.Kind, out.Failure)
	close(release)
	// Once the shard has ended, no interaction starts: wait for the
	// functions still running.
	require.NoError(t, e.shard.End(t.Context()))
	require.NoError(t, h.Wait(t.Context()))
}

// TestGatewayHandlerRefusesHTTP: a Handler without a key serves no HTTP
// delivery, however it is signed.
func TestGatewayHandlerRefusesHTTP(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	h, err := interactions.NewGatewayHandler(srv.Client(), interactions.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	require.NoError(t, err)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/", nil))
	assert.Equal(t, http.StatusUnauthorized, w.Code)
	_, err = interactions.NewGatewayHandler(nil)
	require.Error(t, err)
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) { w.t.Log(string(p)); return len(p), nil }
