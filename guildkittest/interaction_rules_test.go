package guildkittest_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// apiErr returns the interface error in err.
func apiErr(t *testing.T, err error) *guildkit.APIError {
	t.Helper()
	var e *guildkit.APIError
	require.ErrorAs(t, err, &e)
	return e
}

// TestLateHTTPAnswer: an answer that comes more than 3 seconds after the
// delivery on the server's clock fails the interaction, and the token is
// dead for a callback (10062) and follow-ups (10015).
func TestLateHTTPAnswer(t *testing.T) {
	var f *fixture
	var token guildkit.InteractionToken
	f = newFixture(t, func(w http.ResponseWriter, _ *http.Request, it *guildkit.Interaction) {
		token = it.Token
		f.srv.AdvanceClock(3*time.Second + time.Millisecond)
		reply(t, w, guildkit.MessageResponse(text("too late")))
	})
	out, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeFailed, out.Kind)
	assert.Equal(t, "failed: the application did not answer within 3 seconds", out.String())
	assert.Len(t, f.srv.ChannelMessages(f.ch.ID, f.alice), 1, "no message was made")

	c := f.srv.Client()
	_, err = c.Interactions.CreateResponse(t.Context(), out.Interaction.ID, token, guildkit.MessageResponse(text("x")), nil)
	require.ErrorIs(t, err, guildkit.ErrUnknownInteraction)
	_, err = c.Interactions.CreateFollowup(t.Context(), f.srv.Application().ID, token, text("x"))
	assert.Equal(t, guildkit.CodeUnknownWebhook, apiErr(t, err).Code)

	d := f.srv.Deliveries()
	require.Len(t, d, 1)
	assert.Equal(t, "the application did not answer within 3 seconds", d[0].Failure)
	assert.Equal(t, 200, d[0].Status)
	assert.Zero(t, d[0].AnswerType)
	assert.GreaterOrEqual(t, d[0].Duration, 3*time.Second)
}

// TestAnswerJustInTime: 3 seconds on the server's clock is still in time.
func TestAnswerJustInTime(t *testing.T) {
	var f *fixture
	f = newFixture(t, func(w http.ResponseWriter, _ *http.Request, _ *guildkit.Interaction) {
		f.srv.AdvanceClock(2900 * time.Millisecond)
		reply(t, w, guildkit.MessageResponse(text("in time")))
	})
	out, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	assert.Equal(t, "message: in time", out.String())
}

// TestCallbackRoute: the application answers through the callback route,
// then 202 to the delivery; a second answer is 40060, with_response gives
// the interaction callback response.
func TestCallbackRoute(t *testing.T) {
	var f *fixture
	var second error
	var cb *guildkit.InteractionCallbackResponse
	f = newFixture(t, func(w http.ResponseWriter, r *http.Request, it *guildkit.Interaction) {
		c := f.srv.Client()
		var err error
		cb, err = c.Interactions.CreateResponse(r.Context(), it.ID, it.Token, guildkit.MessageResponse(&guildkit.InteractionMessageParams{
			Content: guildkit.Some("via callback"), Flags: guildkit.Some(guildkit.MessageFlagEphemeral)}),
			&guildkit.InteractionResponseParams{WithResponse: guildkit.Some(true)})
		require.NoError(t, err)
		_, second = c.Interactions.CreateResponse(r.Context(), it.ID, it.Token, guildkit.DeferredUpdateResponse(), nil)
		w.WriteHeader(http.StatusAccepted)
	})
	out, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	assert.Equal(t, "message (ephemeral): via callback", out.String())
	require.ErrorIs(t, second, guildkit.ErrInteractionAcknowledged)
	assert.Equal(t, guildkit.CodeInteractionAcknowledged, apiErr(t, second).Code)
	require.NotNil(t, cb)
	assert.Equal(t, out.Interaction.ID, cb.Interaction.ID)
	assert.Equal(t, guildkit.InteractionTypeMessageComponent, cb.Interaction.Type)
	assert.Equal(t, guildkit.Some(out.Message.ID), cb.Interaction.ResponseMessageID)
	assert.Equal(t, guildkit.Some(true), cb.Interaction.ResponseMessageEphemeral)
	assert.Equal(t, guildkit.Some(false), cb.Interaction.ResponseMessageLoading)
	require.NotNil(t, cb.Resource)
	assert.Equal(t, guildkit.InteractionResponseChannelMessage, cb.Resource.Type)
	assert.Equal(t, "via callback", cb.Resource.Message.Content)

	d := f.srv.Deliveries()
	require.Len(t, d, 1)
	assert.Equal(t, http.StatusAccepted, d[0].Status)
	assert.True(t, d[0].Callback)

	// The callback route's log keeps no token.
	for _, r := range f.srv.Requests() {
		if strings.HasPrefix(r.Path, "/interactions/") {
			assert.Equal(t, "/interactions/"+out.Interaction.ID.String()+"/[redacted]/callback", r.Path)
			assert.Equal(t, "/interactions/{interaction.id}/{interaction.token}/callback", r.Route)
			assert.NotContains(t, r.Path, string(out.Interaction.Token))
		}
	}
}

// TestHTTPAnswerAfterCallback: an HTTP answer after a callback is a
// second answer; the user sees the first.
func TestHTTPAnswerAfterCallback(t *testing.T) {
	var f *fixture
	f = newFixture(t, func(w http.ResponseWriter, r *http.Request, it *guildkit.Interaction) {
		_, err := f.srv.Client().Interactions.CreateResponse(r.Context(), it.ID, it.Token, guildkit.MessageResponse(text("first")), nil)
		require.NoError(t, err)
		reply(t, w, guildkit.MessageResponse(text("second")))
	})
	out, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	assert.Equal(t, "message: first", out.String())
	assert.Len(t, f.srv.ChannelMessages(f.ch.ID, f.bob), 2)
}

// TestLateCallback: a callback after 3 seconds on the server's clock is
// 10062, and the user saw the interaction fail.
func TestLateCallback(t *testing.T) {
	var f *fixture
	var late error
	f = newFixture(t, func(w http.ResponseWriter, r *http.Request, it *guildkit.Interaction) {
		f.srv.AdvanceClock(4 * time.Second)
		_, late = f.srv.Client().Interactions.CreateResponse(r.Context(), it.ID, it.Token, guildkit.MessageResponse(text("late")), nil)
		w.WriteHeader(http.StatusAccepted)
	})
	out, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeFailed, out.Kind)
	require.ErrorIs(t, late, guildkit.ErrUnknownInteraction)
	assert.Equal(t, http.StatusNotFound, apiErr(t, late).Status)
}

// TestAcceptedWithoutCallback: 202 and no callback within 3 seconds on the
// server's clock fails, without waiting 3 seconds of real time.
func TestAcceptedWithoutCallback(t *testing.T) {
	var f *fixture
	f = newFixture(t, func(w http.ResponseWriter, _ *http.Request, _ *guildkit.Interaction) {
		w.WriteHeader(http.StatusAccepted)
		go f.srv.AdvanceClock(5 * time.Second)
	})
	start := time.Now()
	out, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	assert.Equal(t, "failed: the application did not answer within 3 seconds", out.String())
	assert.Less(t, time.Since(start), 2*time.Second)
}

// TestEndpointFailures: an endpoint that answers an error or garbage.
func TestEndpointFailures(t *testing.T) {
	tests := []struct {
		name   string
		answer func(w http.ResponseWriter)
		want   string
	}{
		{"500", func(w http.ResponseWriter) { w.WriteHeader(http.StatusInternalServerError) }, "the interactions endpoint answered 500 Internal Server Error"},
		{"401", func(w http.ResponseWriter) { w.WriteHeader(http.StatusUnauthorized) }, "answered 401"},
		{"not JSON", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, "{")
		}, "the answer is invalid: The request body contains invalid JSON."},
		{"wrong content type", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/plain")
			_, _ = io.WriteString(w, `{"type":4}`)
		}, "the answer is invalid: Content-Type"},
		{"unknown type", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"type":77}`)
		}, "the answer is invalid"},
		{"panic", func(http.ResponseWriter) { panic("boom") }, "closed the connection without an answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, func(w http.ResponseWriter, _ *http.Request, _ *guildkit.Interaction) { tt.answer(w) })
			out, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
			require.NoError(t, err)
			assert.Equal(t, guildkittest.OutcomeFailed, out.Kind)
			assert.Contains(t, out.Failure, tt.want)
		})
	}
}

// TestEndpointTooSlowInRealTime: a handler that does not answer within 3
// seconds of real time is given up on; its request's context ends.
func TestEndpointTooSlowInRealTime(t *testing.T) {
	if testing.Short() {
		t.Skip("waits 3 seconds")
	}
	t.Parallel()
	ended := make(chan struct{})
	f := newFixture(t, func(_ http.ResponseWriter, r *http.Request, _ *guildkit.Interaction) {
		<-r.Context().Done()
		close(ended)
	})
	out, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	assert.Equal(t, "failed: the application did not answer within 3 seconds", out.String())
	<-ended
}

// TestDeliveryOverHTTP: SetInteractionsURL posts to a real endpoint.
func TestDeliveryOverHTTP(t *testing.T) {
	f := newFixture(t, answerWith(t, guildkit.MessageResponse(text("over HTTP"))))
	ts := httptest.NewServer(f.app)
	defer ts.Close()
	f.srv.SetInteractionsURL(ts.URL + "/interactions")
	out, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	assert.Equal(t, "message: over HTTP", out.String())
	require.NoError(t, f.srv.CheckInteractionsEndpoint(t.Context()))

	ts.Close()
	out, err = f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	assert.Contains(t, out.Failure, "the interactions endpoint could not be reached")
}

// TestCheckInteractionsEndpoint: a signed PING must get PONG and a bad
// signature 401.
func TestCheckInteractionsEndpoint(t *testing.T) {
	f := newFixture(t, answerWith(t, guildkit.MessageResponse(text("x"))))
	require.NoError(t, f.srv.CheckInteractionsEndpoint(t.Context()))
	assert.Equal(t, guildkit.InteractionTypePing, f.app.last().it.Type)

	f.srv.SetInteractionsHandler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, `{"type":1}`) // no verification
	}))
	err := f.srv.CheckInteractionsEndpoint(t.Context())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a PING with a bad signature was answered 200, want 401")

	f.srv.SetInteractionsHandler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusUnauthorized) // refuses everything
	}))
	err = f.srv.CheckInteractionsEndpoint(t.Context())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a signed PING was answered 401")

	f.srv.SetInteractionsHandler(nil)
	require.ErrorIs(t, f.srv.CheckInteractionsEndpoint(t.Context()), guildkittest.ErrNoInteractionsEndpoint)
}

// TestFollowups: the original response and follow-ups through the token,
// for 15 minutes; after a deferral the first follow-up edits the loading
// message.
func TestFollowups(t *testing.T) {
	var token guildkit.InteractionToken
	f := newFixture(t, func(w http.ResponseWriter, _ *http.Request, it *guildkit.Interaction) {
		token = it.Token
		reply(t, w, guildkit.DeferredMessageResponse(false))
	})
	srv, c, appID := f.srv, f.srv.Client(), f.srv.Application().ID
	out, err := srv.Click(t.Context(), f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	require.Equal(t, "deferred: loading", out.String())
	loading := out.Message.ID

	first, err := c.Interactions.CreateFollowup(t.Context(), appID, token, text("Done"))
	require.NoError(t, err)
	assert.Equal(t, loading, first.ID, "the first follow-up after a deferral edits the loading message")
	assert.False(t, first.Flags.Has(guildkit.MessageFlagLoading))
	assert.Equal(t, "Done", first.Content)

	second, err := c.Interactions.CreateFollowup(t.Context(), appID, token, &guildkit.InteractionMessageParams{
		Content: guildkit.Some("psst"), Flags: guildkit.Some(guildkit.MessageFlagEphemeral)})
	require.NoError(t, err)
	assert.NotEqual(t, loading, second.ID)
	assert.True(t, second.Flags.Has(guildkit.MessageFlagEphemeral))
	assert.Len(t, srv.ChannelMessages(f.ch.ID, f.bob), 2, "bob sees the message and the answer, not the ephemeral follow-up")
	assert.Len(t, srv.ChannelMessages(f.ch.ID, f.alice), 3)

	got, err := c.Interactions.GetOriginalResponse(t.Context(), appID, token)
	require.NoError(t, err)
	assert.Equal(t, "Done", got.Content)
	edited, err := c.Interactions.EditOriginalResponse(t.Context(), appID, token, &guildkit.WebhookMessageEditParams{Content: guildkit.Some("Done!")})
	require.NoError(t, err)
	assert.Equal(t, "Done!", edited.Content)
	assert.NotNil(t, edited.EditedTimestamp)
	fu, err := c.Interactions.GetFollowup(t.Context(), appID, token, second.ID)
	require.NoError(t, err)
	assert.Equal(t, "psst", fu.Content)
	fu, err = c.Interactions.EditFollowup(t.Context(), appID, token, second.ID, &guildkit.WebhookMessageEditParams{Content: guildkit.Some("psst!")})
	require.NoError(t, err)
	assert.Equal(t, "psst!", fu.Content)
	_, err = c.Interactions.GetFollowup(t.Context(), appID, token, f.msg.ID)
	assert.Equal(t, guildkit.CodeUnknownMessage, apiErr(t, err).Code, "not a message of this interaction")
	require.NoError(t, c.Interactions.DeleteFollowup(t.Context(), appID, token, second.ID))
	assert.Len(t, srv.ChannelMessages(f.ch.ID, f.alice), 2)

	// Events: the loading message was created and updated for everyone;
	// the ephemeral follow-up emitted nothing.
	assert.Len(t, srv.EventsNamed(guildkit.EventMessageCreate), 1)
	assert.Len(t, srv.EventsNamed(guildkit.EventMessageUpdate), 2)
	assert.Empty(t, srv.EventsNamed(guildkit.EventMessageDelete))

	// 15 minutes on: the token answers nothing; the reference platform
	// says 401 Invalid Webhook Token (50027) for an expired one.
	srv.AdvanceClock(15*time.Minute + time.Second)
	_, err = c.Interactions.CreateFollowup(t.Context(), appID, token, text("late"))
	assert.Equal(t, guildkit.CodeInvalidWebhookToken, apiErr(t, err).Code)
	assert.Equal(t, http.StatusUnauthorized, apiErr(t, err).Status)
	_, err = c.Interactions.GetOriginalResponse(t.Context(), appID, token)
	assert.Equal(t, guildkit.CodeInvalidWebhookToken, apiErr(t, err).Code)
	err = c.Interactions.DeleteOriginalResponse(t.Context(), appID, token)
	assert.Equal(t, guildkit.CodeInvalidWebhookToken, apiErr(t, err).Code)
	// A token that never existed is still 404 Unknown Webhook.
	_, err = c.Interactions.GetOriginalResponse(t.Context(), appID, "no-such-token")
	assert.Equal(t, guildkit.CodeUnknownWebhook, apiErr(t, err).Code)
	assert.Equal(t, http.StatusNotFound, apiErr(t, err).Status)

	// No request in the log shows the token.
	for _, r := range srv.Requests() {
		assert.NotContains(t, r.Path, string(token))
		if strings.HasPrefix(r.Path, "/webhooks/") {
			assert.Contains(t, r.Path, "/webhooks/"+appID.String()+"/[redacted]")
		}
	}
}

// TestDeleteOriginal deletes the original response: MESSAGE_DELETE.
func TestDeleteOriginal(t *testing.T) {
	var token guildkit.InteractionToken
	f := newFixture(t, func(w http.ResponseWriter, _ *http.Request, it *guildkit.Interaction) {
		token = it.Token
		reply(t, w, guildkit.MessageResponse(text("bye")))
	})
	out, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	c := f.srv.Client()
	require.NoError(t, c.Interactions.DeleteOriginalResponse(t.Context(), f.srv.Application().ID, token))
	ev := f.srv.EventsNamed(guildkit.EventMessageDelete)
	require.Len(t, ev, 1)
	assert.Equal(t, out.Message.ID, ev[0].Data.(guildkit.Message).ID)
	_, err = c.Interactions.GetOriginalResponse(t.Context(), f.srv.Application().ID, token)
	assert.Equal(t, guildkit.CodeUnknownMessage, apiErr(t, err).Code)
}

// TestDeferredUpdateThenEdit: after DEFERRED_UPDATE_MESSAGE, the original
// response is the message the component is on.
func TestDeferredUpdateThenEdit(t *testing.T) {
	var token guildkit.InteractionToken
	f := newFixture(t, func(w http.ResponseWriter, _ *http.Request, it *guildkit.Interaction) {
		token = it.Token
		reply(t, w, guildkit.DeferredUpdateResponse())
	})
	_, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	m, err := f.srv.Client().Interactions.EditOriginalResponse(t.Context(), f.srv.Application().ID, token,
		&guildkit.WebhookMessageEditParams{Content: guildkit.Some("Picked"), Components: guildkit.Some(components.List{})})
	require.NoError(t, err)
	assert.Equal(t, f.msg.ID, m.ID)
	stored, _ := f.srv.WebhookMessage(f.msg.ID)
	assert.Equal(t, "Picked", stored.Content)
	assert.Empty(t, stored.Components)
}

// TestFilesInAnswer: a multipart answer (HTTP or callback) makes
// attachments whose bytes the server serves.
func TestFilesInAnswer(t *testing.T) {
	resp := guildkit.MessageResponse(&guildkit.InteractionMessageParams{Content: guildkit.Some("report"),
		Files: []guildkit.File{{Name: "report.txt", ContentType: "text/plain", Reader: strings.NewReader("hello file")}}})
	f := newFixture(t, answerWith(t, resp))
	out, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	require.Equal(t, guildkittest.OutcomeMessage, out.Kind, out.String())
	require.Len(t, out.Message.Attachments, 1)
	a := out.Message.Attachments[0]
	assert.Equal(t, "report.txt", a.Filename)
	assert.Equal(t, int64(len("hello file")), a.Size)
	res, err := http.Get(a.URL)
	require.NoError(t, err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	assert.Equal(t, "hello file", string(body))

	var f2 *fixture
	f2 = newFixture(t, func(w http.ResponseWriter, r *http.Request, it *guildkit.Interaction) {
		_, err := f2.srv.Client().Interactions.CreateResponse(r.Context(), it.ID, it.Token, guildkit.MessageResponse(&guildkit.InteractionMessageParams{
			Files: []guildkit.File{{Name: "a.png", Reader: bytes.NewReader([]byte{1, 2, 3})}}}), nil)
		require.NoError(t, err)
		w.WriteHeader(http.StatusAccepted)
	})
	out, err = f2.srv.Click(t.Context(), f2.alice, f2.msg.ID, "go")
	require.NoError(t, err)
	require.Len(t, out.Message.Attachments, 1)
	assert.Equal(t, "a.png", out.Message.Attachments[0].Filename)
	assert.Equal(t, "image/png", out.Message.Attachments[0].ContentType)
}

// TestInvalidAnswerOnCallback: the callback route refuses an invalid
// answer with 400 Invalid Form Body (sent raw: the client checks first).
func TestInvalidAnswerOnCallback(t *testing.T) {
	var f *fixture
	var status int
	var body string
	f = newFixture(t, func(w http.ResponseWriter, r *http.Request, it *guildkit.Interaction) {
		req, _ := http.NewRequestWithContext(r.Context(), http.MethodPost,
			f.srv.BaseURL()+"/interactions/"+it.ID.String()+"/"+string(it.Token)+"/callback",
			strings.NewReader(`{"type":9,"data":{"custom_id":"m","title":"T","components":[]}}`))
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		status, body = res.StatusCode, string(b)
		w.WriteHeader(http.StatusAccepted)
		go f.srv.AdvanceClock(4 * time.Second)
	})
	out, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeFailed, out.Kind)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, body, `"code":50035`)
	assert.Contains(t, body, "components")
	assert.NotContains(t, body, string(out.Interaction.Token))
}

// TestInteractionRoutesOutsideGlobalLimit: the server's global limit does
// not count interaction routes, as the platform does not.
func TestInteractionRoutesOutsideGlobalLimit(t *testing.T) {
	srv := guildkittest.NewServer(t, guildkittest.WithGlobalLimit(1, time.Hour))
	c := srv.Client(guildkit.WithRetry(0, 0, 0))
	for range 3 {
		_, err := c.Interactions.CreateResponse(t.Context(), 1, "nope", guildkit.DeferredUpdateResponse(), nil)
		require.ErrorIs(t, err, guildkit.ErrUnknownInteraction)
	}
	assert.Zero(t, srv.GlobalRateLimited())
}

// TestAfterFunc: functions run when AdvanceClock reaches them, in order;
// stop prevents them; Close stops the rest.
func TestAfterFunc(t *testing.T) {
	srv := guildkittest.New()
	var order []string
	srv.AfterFunc(2*time.Hour, func() { order = append(order, "2h") })
	srv.AfterFunc(time.Hour, func() { order = append(order, "1h") })
	stop := srv.AfterFunc(90*time.Minute, func() { order = append(order, "90m") })
	var never atomic.Bool
	srv.AfterFunc(10*time.Hour, func() { never.Store(true) })

	srv.AdvanceClock(59 * time.Minute)
	assert.Empty(t, order)
	assert.True(t, stop())
	assert.False(t, stop(), "already stopped")
	srv.AdvanceClock(2 * time.Hour)
	assert.Equal(t, []string{"1h", "2h"}, order)

	stop = srv.AfterFunc(time.Minute, func() { order = append(order, "nested") })
	srv.AdvanceClock(time.Minute)
	assert.False(t, stop(), "already ran")
	assert.Equal(t, []string{"1h", "2h", "nested"}, order)

	// Real time moves the default clock too.
	done := make(chan struct{})
	srv.AfterFunc(time.Millisecond, func() { close(done) })
	<-done

	srv.Close()
	assert.False(t, never.Load())
	stop = srv.AfterFunc(0, func() { never.Store(true) })
	assert.False(t, stop(), "a closed server runs nothing")
	assert.False(t, never.Load())
}

// TestAfterFuncFrozenClock: with a clock that does not move, only
// AdvanceClock runs the function.
func TestAfterFuncFrozenClock(t *testing.T) {
	at := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	srv := guildkittest.NewServer(t, guildkittest.WithClock(func() time.Time { return at }))
	ran := make(chan struct{})
	srv.AfterFunc(time.Millisecond, func() { close(ran) })
	select {
	case <-ran:
		t.Fatal("ran before the clock moved")
	case <-time.After(20 * time.Millisecond):
	}
	srv.AdvanceClock(time.Millisecond)
	<-ran
}

// TestClickContextCanceled: a user who goes away before the answer.
func TestClickContextCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	f := newFixture(t, func(_ http.ResponseWriter, r *http.Request, _ *guildkit.Interaction) {
		cancel()
		<-r.Context().Done()
	})
	out, err := f.srv.Click(ctx, f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeFailed, out.Kind)
	assert.Contains(t, out.Failure, "the user went away")
	assert.True(t, errors.Is(ctx.Err(), context.Canceled))
}

// TestInteractionRoutesHostileInput: whatever a sender puts in a request
// to the interaction routes gets a 4xx, never a 5xx, and no answer shows
// the token.
func TestInteractionRoutesHostileInput(t *testing.T) {
	var token guildkit.InteractionToken
	var id guildkit.Snowflake
	f := newFixture(t, func(w http.ResponseWriter, _ *http.Request, it *guildkit.Interaction) {
		token, id = it.Token, it.ID
		reply(t, w, guildkit.DeferredMessageResponse(false))
	})
	_, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	base := f.srv.BaseURL()
	app := f.srv.Application().ID.String()
	tok := string(token)
	bodies := []struct{ contentType, body string }{
		{"application/json", ""},
		{"application/json", "null"},
		{"application/json", "{"},
		{"application/json", `{"type":"4"}`},
		{"application/json", `{"content":` + strings.Repeat("[", 10000) + `}`},
		{"application/json", `{"content":"x"} {"content":"y"}`},
		{"application/json", `{"flags":"64","components":[{"type":999}]}`},
		{"application/json", `{"components":{"type":1}}`},
		{"multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{"},
		{"multipart/form-data", "no boundary"},
		{"text/plain", "hello"},
	}
	paths := []struct{ method, path string }{
		{http.MethodPost, "/interactions/" + id.String() + "/" + tok + "/callback"},
		{http.MethodPost, "/webhooks/" + app + "/" + tok},
		{http.MethodPatch, "/webhooks/" + app + "/" + tok + "/messages/@original"},
		{http.MethodPatch, "/webhooks/" + app + "/" + tok + "/messages/123"},
		{http.MethodGet, "/webhooks/" + app + "/" + tok + "/messages/not-an-id"},
		{http.MethodPut, "/webhooks/" + app + "/" + tok + "/messages/@original"},
		{http.MethodGet, "/interactions/" + id.String() + "/" + tok + "/callback"},
		{http.MethodPost, "/interactions/not-an-id/" + tok + "/callback"},
	}
	for _, p := range paths {
		for _, b := range bodies {
			status, body := rawDo(t, p.method, base+p.path, "", b.contentType, b.body)
			assert.True(t, status >= 400 && status < 500, "%s %s %q: %d %s", p.method, p.path, b.body, status, body)
			assert.NotContains(t, string(body), tok)
		}
	}
	big := `{"content":"` + strings.Repeat("x", guildkittest.MaxJSONBody) + `"}`
	for _, p := range paths[:3] {
		status, _ := rawDo(t, p.method, base+p.path, "", "application/json", big)
		assert.Equal(t, http.StatusRequestEntityTooLarge, status, p.path)
	}
	for _, r := range f.srv.Requests() {
		assert.NotContains(t, r.Path, tok)
	}
}

// TestEditWithNulls: an edit's nulls remove content, components,
// embeds and attachments, as Edit Webhook Message's do.
func TestEditWithNulls(t *testing.T) {
	var token guildkit.InteractionToken
	f := newFixture(t, func(w http.ResponseWriter, _ *http.Request, it *guildkit.Interaction) {
		token = it.Token
		reply(t, w, guildkit.MessageResponse(&guildkit.InteractionMessageParams{Content: guildkit.Some("text"),
			Components: components.List{components.NewActionRow(components.PrimaryButton("again", "Again"))},
			Files:      []guildkit.File{{Name: "a.txt", Reader: strings.NewReader("a")}}}))
	})
	out, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	require.Len(t, out.Message.Attachments, 1)
	c, app := f.srv.Client(), f.srv.Application().ID
	m, err := c.Interactions.EditOriginalResponse(t.Context(), app, token, &guildkit.WebhookMessageEditParams{
		Content: guildkit.Some("kept"), Components: guildkit.Null[components.List](), Attachments: guildkit.Null[[]guildkit.PartialAttachment]()})
	require.NoError(t, err)
	assert.Equal(t, "kept", m.Content)
	assert.Empty(t, m.Components)
	assert.Empty(t, m.Attachments)
	_, err = c.Interactions.EditOriginalResponse(t.Context(), app, token, &guildkit.WebhookMessageEditParams{Content: guildkit.Null[string]()})
	assert.Equal(t, codeEmptyMessage, apiErr(t, err).Code, "nothing would be left")
	m, err = c.Interactions.EditOriginalResponse(t.Context(), app, token, &guildkit.WebhookMessageEditParams{
		Embeds: guildkit.Some([]guildkit.Embed{{Title: "E"}}), Content: guildkit.Null[string]()})
	require.NoError(t, err)
	assert.Empty(t, m.Content)
	assert.Len(t, m.Embeds, 1)
}

const codeEmptyMessage guildkit.ErrorCode = 50006
