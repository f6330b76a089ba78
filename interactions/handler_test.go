package interactions_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/interactions"
)

// TestRoutingByCustomID: exact custom_ids win over patterns, patterns give
// their named parts, commands go by name, and what nothing matches reaches
// the fallback.
func TestRoutingByCustomID(t *testing.T) {
	t.Parallel()
	_, c := newRESTServer(t)
	h := newHandler(t, c)
	var mu sync.Mutex
	got := map[string]string{}
	record := func(name string) interactions.HandlerFunc {
		return func(ctx context.Context, r *interactions.Request) error {
			mu.Lock()
			var params []string
			for _, p := range r.Params() {
				params = append(params, p.Name+"="+p.Value)
			}
			got[r.Interaction.CustomID()] = name + " " + strings.Join(params, ",")
			mu.Unlock()
			return r.ReplyEphemeral(ctx, name)
		}
	}
	h.HandleComponent("role:{id}", record("role"))
	h.HandleComponent("role:admin", record("exact"))
	h.HandleComponent("vote:{poll}:{choice}", record("vote"))
	h.HandleModal("form:{step}", record("modal"))
	h.HandleFallback(record("fallback"))

	for customID, want := range map[string]string{
		"role:123":       "role id=123",
		"role:admin":     "exact ",
		"vote:42:yes:no": "vote poll=42,choice=yes:no",
		"role:":          "fallback ",
		"other":          "fallback ",
	} {
		w := serve(t, h, componentInteraction(customID), time.Now())
		require.Equal(t, http.StatusOK, w.Code, customID)
		mu.Lock()
		assert.Equal(t, want, got[customID], customID)
		mu.Unlock()
	}
	assert.Panics(t, func() { h.HandleComponent("role:{id}", record("again")) }, "registered twice")
	assert.Panics(t, func() { h.HandleComponent("a:{x}{y}", record("adjacent")) }, "two parts with no literal between them")
	assert.Panics(t, func() { h.HandleComponent("a:{x", record("open")) })
	assert.Panics(t, func() { h.HandleComponent("a:{x}:{x}", record("twice")) })
}

// TestUnmatchedInteractionsAreAnswered: with no function and no fallback,
// a component gets an ephemeral notice and an autocomplete no choices; the
// outcome is logged, without the token.
func TestUnmatchedInteractionsAreAnswered(t *testing.T) {
	t.Parallel()
	_, c := newRESTServer(t)
	var logs bytes.Buffer
	h := newHandler(t, c, interactions.WithLogger(slog.New(slog.NewJSONHandler(&logs, nil))))
	w := serve(t, h, componentInteraction("nobody"), time.Now())
	require.Equal(t, http.StatusOK, w.Code)
	assert.JSONEq(t, `{"type":4,"data":{"content":"This interaction is not handled by the application.","flags":64}}`, w.Body.String())

	auto := map[string]any{"id": "6", "application_id": "4001", "type": 4, "token": testToken, "version": 1,
		"data": map[string]any{"id": "9", "name": "search", "type": 1, "options": []any{map[string]any{"name": "q", "type": 3, "value": "ad", "focused": true}}}}
	w = serve(t, h, auto, time.Now())
	assert.JSONEq(t, `{"type":8,"data":{"choices":[]}}`, w.Body.String())
	assert.Contains(t, logs.String(), "no function for the interaction")
	assert.Contains(t, logs.String(), `"custom_id":"nobody"`)
	assert.NotContains(t, logs.String(), testToken)
}

// TestAnswerInTheHTTPResponse: a reply is the HTTP answer (no REST call);
// the function's data reaches it whole; a component the SDK does not know
// in the clicked message does not fail the interaction.
func TestAnswerInTheHTTPResponse(t *testing.T) {
	t.Parallel()
	rs, c := newRESTServer(t)
	h := newHandler(t, c)
	var seen *guildkit.Interaction
	h.HandleComponent("go", func(ctx context.Context, r *interactions.Request) error {
		seen = r.Interaction
		return r.Update(ctx, &guildkit.InteractionMessageParams{Content: guildkit.Some("went"), Components: components.List{}})
	})
	w := serve(t, h, componentInteraction("go"), time.Now())
	require.Equal(t, http.StatusOK, w.Code)
	assert.JSONEq(t, `{"type":7,"data":{"content":"went","components":[]}}`, w.Body.String())
	assert.Empty(t, rs.Calls())
	require.NotNil(t, seen)
	assert.Equal(t, guildkit.Snowflake(77), seen.Invoker().ID)
	assert.Equal(t, "ada!", *seen.Member.Nick)
	require.NotNil(t, seen.Member.Permissions)
	require.Len(t, seen.Message.Components, 1)
	row := seen.Message.Components[0].(*components.ActionRow)
	require.Len(t, row.Components, 2)
	assert.Equal(t, components.Type(99), row.Components[1].Type(), "the unknown component is kept as Unknown")
	assert.Contains(t, string(seen.Raw), `"future":true`, "Raw keeps the delivery whole")
}

// TestInvalidAnswerNeverLeaves: a component tree that breaks the rules is
// refused with a *ValidationError before anything is sent; the function
// can answer again with a valid one.
func TestInvalidAnswerNeverLeaves(t *testing.T) {
	t.Parallel()
	rs, c := newRESTServer(t)
	h := newHandler(t, c)
	var firstErr error
	h.HandleComponent("go", func(ctx context.Context, r *interactions.Request) error {
		firstErr = r.Reply(ctx, &guildkit.InteractionMessageParams{Components: components.List{
			components.NewActionRow(components.NewButton(components.ButtonPrimary, "", "Go")), // no custom_id
		}})
		if err := r.ShowModal(ctx, "m", strings.Repeat("t", 46)); err == nil {
			return errors.New("a modal with no components and a long title passed")
		}
		if err := r.Respond(ctx, guildkit.AutocompleteResponse()); err == nil {
			return errors.New("an autocomplete answer to a click passed")
		}
		return r.ReplyEphemeral(ctx, "fixed")
	})
	w := serve(t, h, componentInteraction("go"), time.Now())
	var ve *guildkit.ValidationError
	require.ErrorAs(t, firstErr, &ve)
	assert.Equal(t, "data.components[0].components[0].custom_id", ve.Problems[0].Path)
	assert.JSONEq(t, `{"type":4,"data":{"content":"fixed","flags":64}}`, w.Body.String())
	assert.Empty(t, rs.Calls())
}

// TestOneAnswerOnly: a second initial answer is refused with the
// platform's "already acknowledged".
func TestOneAnswerOnly(t *testing.T) {
	t.Parallel()
	_, c := newRESTServer(t)
	h := newHandler(t, c)
	second := make(chan error, 1)
	h.HandleComponent("go", func(ctx context.Context, r *interactions.Request) error {
		if err := r.ReplyEphemeral(ctx, "one"); err != nil {
			return err
		}
		second <- r.ReplyEphemeral(ctx, "two")
		return nil
	})
	w := serve(t, h, componentInteraction("go"), time.Now())
	assert.Contains(t, w.Body.String(), `"one"`)
	err := <-second
	assert.ErrorIs(t, err, guildkit.ErrInteractionAcknowledged)
	assert.NotContains(t, err.Error(), testToken)
}

// TestFailingAndPanickingFunctions are answered for, never with a 5xx.
func TestFailingAndPanickingFunctions(t *testing.T) {
	t.Parallel()
	_, c := newRESTServer(t)
	var logs bytes.Buffer
	h := newHandler(t, c, interactions.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	h.HandleComponent("fail", func(ctx context.Context, r *interactions.Request) error { return errors.New("database down") })
	h.HandleComponent("panic", func(ctx context.Context, r *interactions.Request) error { panic("boom") })
	h.HandleComponent("silent", func(ctx context.Context, r *interactions.Request) error { return nil })
	for id, want := range map[string]string{
		"fail":   `{"type":4,"data":{"content":"Something went wrong while handling this interaction.","flags":64}}`,
		"panic":  `{"type":4,"data":{"content":"Something went wrong while handling this interaction.","flags":64}}`,
		"silent": `{"type":6}`,
	} {
		w := serve(t, h, componentInteraction(id), time.Now())
		assert.Equal(t, http.StatusOK, w.Code, id)
		assert.JSONEq(t, want, w.Body.String(), id)
	}
	assert.Contains(t, logs.String(), "database down")
	assert.Contains(t, logs.String(), "panic: boom")
	assert.NotContains(t, logs.String(), testToken)
}

// TestAutoDeferralAndLateAnswer: a function still working at the deadline
// gets the deferral that fits (6 for a component, 5 for a modal
// submission) sent for it; its answer then goes as an edit of the original
// response, and its context outlives the HTTP request.
func TestAutoDeferralAndLateAnswer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		delivery map[string]any
		deferral string
		answer   func(ctx context.Context, r *interactions.Request) error
		rest     string // method and path of the late answer
		restBody string
	}{
		{
			name: "component", delivery: componentInteraction("slow"), deferral: `{"type":6}`,
			answer: func(ctx context.Context, r *interactions.Request) error {
				return r.Update(ctx, &guildkit.InteractionMessageParams{Content: guildkit.Some("done")})
			},
			rest: "PATCH /api/v10/webhooks/4001/" + testToken + "/messages/@original", restBody: `{"content":"done"}`,
		},
		{
			name: "component answered with a new message", delivery: componentInteraction("slow"), deferral: `{"type":6}`,
			answer: func(ctx context.Context, r *interactions.Request) error { return r.ReplyEphemeral(ctx, "done") },
			rest:   "POST /api/v10/webhooks/4001/" + testToken, restBody: `{"content":"done","flags":64}`,
		},
		{
			name: "modal submission", delivery: modalSubmission(), deferral: `{"type":5}`,
			answer: func(ctx context.Context, r *interactions.Request) error { return r.ReplyEphemeral(ctx, "thanks") },
			rest:   "PATCH /api/v10/webhooks/4001/" + testToken + "/messages/@original", restBody: `{"content":"thanks"}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rs, c := newRESTServer(t)
			clock := newManualClock()
			h := newHandler(t, c, interactions.WithClock(clock))
			entered, release, finished := make(chan struct{}), make(chan struct{}), make(chan error, 1)
			slow := func(ctx context.Context, r *interactions.Request) error {
				close(entered)
				<-release
				err := tc.answer(ctx, r)
				finished <- err
				return err
			}
			h.HandleComponent("slow", slow)
			h.HandleModal("feedback", slow)

			reqCtx, cancelReq := context.WithCancel(context.Background())
			w := httptest.NewRecorder()
			served := make(chan struct{})
			go func() {
				h.ServeHTTP(w, signed(t, mustJSON(t, tc.delivery), clock.Now()).WithContext(reqCtx))
				close(served)
			}()
			<-entered
			clock.Advance(interactions.DefaultDeadline - time.Millisecond)
			select {
			case <-served:
				t.Fatal("answered before the deadline")
			case <-time.After(20 * time.Millisecond):
			}
			clock.Advance(time.Millisecond)
			<-served
			assert.JSONEq(t, tc.deferral, w.Body.String())
			cancelReq() // the platform's request is over; the function goes on
			close(release)
			require.NoError(t, <-finished)
			calls := rs.Calls()
			require.Len(t, calls, 1)
			assert.Equal(t, tc.rest, calls[0].Method+" "+calls[0].Path)
			assert.JSONEq(t, tc.restBody, string(calls[0].Body))
		})
	}
}

func modalSubmission() map[string]any {
	it := componentInteraction("x")
	it["type"] = 5
	delete(it, "message")
	it["data"] = map[string]any{"custom_id": "feedback", "components": []any{
		map[string]any{"type": 18, "id": 1, "component": map[string]any{"type": 4, "id": 2, "custom_id": "text", "value": "hi"}},
		map[string]any{"type": 77, "id": 3, "custom_id": "future", "value": 1},
	}}
	return it
}

// TestModalSubmissionWithUnknownComponent decodes and reads a submission
// holding a component type the SDK does not know.
func TestModalSubmissionWithUnknownComponent(t *testing.T) {
	t.Parallel()
	_, c := newRESTServer(t)
	h := newHandler(t, c)
	h.HandleModal("feedback", func(ctx context.Context, r *interactions.Request) error {
		text, err := r.Interaction.ModalSubmit.Text("text")
		if err != nil {
			return err
		}
		return r.ReplyEphemeral(ctx, "got "+text)
	})
	w := serve(t, h, modalSubmission(), time.Now())
	assert.JSONEq(t, `{"type":4,"data":{"content":"got hi","flags":64}}`, w.Body.String())
}

// TestAnswerByCallback: in callback mode the answer goes over REST and the
// POST is answered 202 once the function is done.
func TestAnswerByCallback(t *testing.T) {
	t.Parallel()
	rs, c := newRESTServer(t)
	h := newHandler(t, c, interactions.WithAnswerMode(interactions.AnswerByCallback))
	h.HandleComponent("go", func(ctx context.Context, r *interactions.Request) error {
		if err := r.Defer(ctx, false); err != nil {
			return err
		}
		_, err := r.EditOriginal(ctx, &guildkit.WebhookMessageEditParams{Content: guildkit.Some("later")})
		return err
	})
	w := serve(t, h, componentInteraction("go"), time.Now())
	assert.Equal(t, http.StatusAccepted, w.Code)
	assert.Empty(t, w.Body.String())
	calls := rs.Calls()
	require.Len(t, calls, 2)
	assert.Equal(t, "POST /api/v10/interactions/5001/"+testToken+"/callback", calls[0].Method+" "+calls[0].Path)
	assert.JSONEq(t, `{"type":6}`, string(calls[0].Body))
	assert.Equal(t, "PATCH /api/v10/webhooks/4001/"+testToken+"/messages/@original", calls[1].Method+" "+calls[1].Path)
}

// TestFilesInTheAnswer: an answer with files is a multipart body, in the
// HTTP response as on the callback route.
func TestFilesInTheAnswer(t *testing.T) {
	t.Parallel()
	_, c := newRESTServer(t)
	h := newHandler(t, c)
	h.HandleComponent("go", func(ctx context.Context, r *interactions.Request) error {
		return r.Reply(ctx, &guildkit.InteractionMessageParams{Content: guildkit.Some("log"),
			Files: []guildkit.File{{Name: "log.txt", Reader: strings.NewReader("line 1\nline 2\n")}}})
	})
	w := serve(t, h, componentInteraction("go"), time.Now())
	mt, params, err := mime.ParseMediaType(w.Header().Get("Content-Type"))
	require.NoError(t, err)
	require.Equal(t, "multipart/form-data", mt)
	mr := multipart.NewReader(w.Body, params["boundary"])
	p, err := mr.NextPart()
	require.NoError(t, err)
	assert.Equal(t, "payload_json", p.FormName())
	payload, _ := io.ReadAll(p)
	assert.JSONEq(t, `{"type":4,"data":{"content":"log","attachments":[{"id":"0","filename":"log.txt"}]}}`, string(payload))
	p, err = mr.NextPart()
	require.NoError(t, err)
	assert.Equal(t, "files[0]", p.FormName())
	assert.Equal(t, "log.txt", p.FileName())
	data, _ := io.ReadAll(p)
	assert.Equal(t, "line 1\nline 2\n", string(data))
}

// TestTokenNeverPrinted: the interaction a function gets prints no token
// under any verb nor through slog.
func TestTokenNeverPrinted(t *testing.T) {
	t.Parallel()
	var it guildkit.Interaction
	require.NoError(t, json.Unmarshal(mustJSON(t, componentInteraction("go")), &it))
	require.Equal(t, testToken, string(it.Token))
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d"} {
		for _, v := range []any{it, &it, it.Token, struct{ I guildkit.Interaction }{it}} {
			assert.NotContains(t, fmt.Sprintf(verb, v), "SECRET", verb)
		}
	}
	var text, js bytes.Buffer
	slog.New(slog.NewTextHandler(&text, nil)).Info("x", "it", it, "p", &it, "tok", it.Token)
	slog.New(slog.NewJSONHandler(&js, nil)).Info("x", "it", it, "p", &it, "tok", it.Token)
	assert.NotContains(t, text.String(), "SECRET")
	assert.NotContains(t, js.String(), "SECRET")
	assert.Contains(t, text.String(), "custom_id=go")
}

// TestPlatformGivesUp: when the platform closes its request before the
// function answers, the answer returns an error matching
// ErrUnknownInteraction at once instead of waiting.
func TestPlatformGivesUp(t *testing.T) {
	t.Parallel()
	_, c := newRESTServer(t)
	h := newHandler(t, c, interactions.WithClock(newManualClock()))
	entered, release, answered := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	h.HandleComponent("go", func(ctx context.Context, r *interactions.Request) error {
		close(entered)
		<-release
		answered <- r.ReplyEphemeral(ctx, "too late")
		return nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() {
		h.ServeHTTP(httptest.NewRecorder(), signed(t, mustJSON(t, componentInteraction("go")), time.Now()).WithContext(ctx))
		close(served)
	}()
	<-entered
	cancel()
	<-served
	close(release)
	select {
	case err := <-answered:
		assert.ErrorIs(t, err, guildkit.ErrUnknownInteraction)
	case <-time.After(5 * time.Second):
		t.Fatal("the answer waited for a request that had ended")
	}
}

// TestLateAnswerFollowsTheDeferral: an answer after the automatic deferral
// (an edit of the original response, by Update or by EditOriginal itself,
// or a follow-up) leaves only once the deferral is written in the HTTP
// response; the platform refuses an edit that comes before it 404.
func TestLateAnswerFollowsTheDeferral(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		answer func(ctx context.Context, r *interactions.Request) error
	}{
		{"Update", func(ctx context.Context, r *interactions.Request) error {
			return r.Update(ctx, &guildkit.InteractionMessageParams{Content: guildkit.Some("done")})
		}},
		{"EditOriginal", func(ctx context.Context, r *interactions.Request) error {
			_, err := r.EditOriginal(ctx, &guildkit.WebhookMessageEditParams{Content: guildkit.Some("done")})
			return err
		}},
		{"Followup", func(ctx context.Context, r *interactions.Request) error {
			_, err := r.Followup(ctx, &guildkit.InteractionMessageParams{Content: guildkit.Some("done")})
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := &holdingWriter{ResponseRecorder: httptest.NewRecorder(), writing: make(chan struct{}), release: make(chan struct{})}
			var beforeDeferral atomic.Bool
			arrived := make(chan struct{}, 1)
			rest := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
				if !w.written.Load() {
					beforeDeferral.Store(true)
				}
				arrived <- struct{}{}
				rw.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(rw, `{"id":"900","channel_id":"2","content":"done","timestamp":"2026-01-01T00:00:00.000000+00:00","flags":0,"components":[]}`)
			}))
			t.Cleanup(rest.Close)
			c, err := guildkit.New(nil, guildkit.WithBaseURL(rest.URL+"/api/v10"), guildkit.WithRetry(0, time.Millisecond, time.Millisecond))
			require.NoError(t, err)
			clock := newManualClock()
			h := newHandler(t, c, interactions.WithClock(clock))
			answered := make(chan error, 1)
			h.HandleComponent("slow", func(ctx context.Context, r *interactions.Request) error {
				clock.Advance(interactions.DefaultDeadline)
				<-w.writing // the deferral is on its way
				answered <- tc.answer(ctx, r)
				return nil
			})
			served := make(chan struct{})
			go func() {
				h.ServeHTTP(w, signed(t, mustJSON(t, componentInteraction("slow")), clock.Now()))
				close(served)
			}()
			<-w.writing
			select {
			case <-arrived: // too early: the deferral is held
			case <-time.After(50 * time.Millisecond):
			}
			close(w.release)
			<-served
			require.NoError(t, <-answered)
			assert.JSONEq(t, `{"type":6}`, w.Body.String())
			assert.False(t, beforeDeferral.Load(), "the answer left before the deferral was written")
		})
	}
}

// holdingWriter holds the answer's header until release is closed.
type holdingWriter struct {
	*httptest.ResponseRecorder
	once             sync.Once
	writing, release chan struct{}
	written          atomic.Bool
}

func (w *holdingWriter) WriteHeader(code int) {
	w.once.Do(func() { close(w.writing) })
	<-w.release
	w.ResponseRecorder.WriteHeader(code)
	w.written.Store(true)
}
