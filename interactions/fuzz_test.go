package interactions_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit/interactions"
)

// FuzzHandler: whatever a sender puts in a request (method, headers, body,
// signed or not), the Handler answers it with a status below 500, promptly,
// and without panicking. Half of the inputs are signed with the right key,
// so decoding and routing are reached too.
func FuzzHandler(f *testing.F) {
	f.Add("POST", []byte(`{"type":1}`), true, "", "")
	f.Add("POST", mustJSON(f, componentInteraction("role:1")), true, "", "")
	f.Add("POST", mustJSON(f, modalSubmission()), true, "", "")
	f.Add("POST", []byte(`{"type":3,"token":"t","data":{"custom_id":"x","component_type":999},"message":{"components":[{"type":1,"components":[{"type":1234}]}]}}`), true, "", "")
	f.Add("POST", []byte(`{"type":2,"token":"t","data":{"name":"n","options":[{"name":"a","type":3,"value":{}}]}}`), true, "", "")
	f.Add("POST", []byte(`{"type":4,"token":"t","data":{"name":"n","resolved":{"users":{"1":{"id":"x"}}}}}`), true, "", "")
	f.Add("GET", []byte(""), false, "", "")
	f.Add("POST", []byte("{}"), false, strings.Repeat("a", 128), "123")
	f.Add("POST", []byte("\x00\xff"), true, "", "")
	f.Fuzz(func(t *testing.T, method string, body []byte, sign bool, sig, ts string) {
		_, c := newRESTServer(t)
		h, err := interactions.NewHandler(hexPub(), c, interactions.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))),
			interactions.WithDeadline(50*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		h.HandleComponent("role:{id}", func(ctx context.Context, r *interactions.Request) error {
			return r.ReplyEphemeral(ctx, "role "+r.Param("id"))
		})
		h.HandleFallback(func(ctx context.Context, r *interactions.Request) error { return nil })
		if method == "" || strings.ContainsAny(method, " \t\r\n()<>@,;:\\\"/[]?={}") {
			method = "POST"
		}
		r := httptest.NewRequest(http.MethodPost, "/interactions", bytes.NewReader(body))
		r.Method = method
		if sign {
			sig, ts = interactions.Sign(testPriv, time.Now(), body)
		}
		r.Header.Set(interactions.HeaderSignature, sig)
		r.Header.Set(interactions.HeaderTimestamp, ts)
		w := httptest.NewRecorder()
		done := make(chan struct{})
		go func() { h.ServeHTTP(w, r); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("the Handler did not answer")
		}
		if w.Code >= 500 {
			t.Fatalf("status %d for %q: %s", w.Code, body, w.Body)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := h.Wait(ctx); err != nil {
			t.Fatal("a function is still running")
		}
	})
}
