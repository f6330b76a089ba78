package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit/interactions"
)

func TestDemo(t *testing.T) {
	var out bytes.Buffer
	if err := demo(t.Context(), &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"endpoint check: PING answered, bad signature refused",
		"keeping the guild's state from the gateway",
		"message (ephemeral): Done: added Artist; removed Writer; not self-assignable: Legend, Moderator.",
		"ada's roles now: Artist",
		`modal "Which role is missing?"`,
		`adding "Musician"`,
		"messages ada sees in #roles: 3; another member sees: 1",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// syncBuffer is an io.Writer safe for the server's goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServeAnswersWhateverArrives runs the endpoint as the platform would
// call it, REST going to an in-memory server: bad signatures get 401, a
// PING gets PONG, and an unknown custom_id or a guild the bot does not know
// get an ephemeral message saying what went wrong, never a 5xx.
func TestServeAnswersWhateverArrives(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	env := map[string]string{"GUILDKIT_PUBLIC_KEY": hex.EncodeToString(pub), "GUILDKIT_INTERACTIONS_ADDR": addr}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	out := &syncBuffer{}
	go func() { done <- serve(ctx, out, func(k string) string { return env[k] }) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	url := "http://" + addr + "/interactions"
	var up bool
	for range 100 {
		if strings.Contains(out.String(), "interactions endpoint:") {
			up = true
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !up {
		t.Fatal("the endpoint did not start")
	}

	post := func(body any, sign bool) (int, string) {
		raw, _ := json.Marshal(body)
		req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(raw))
		sig, ts := interactions.Sign(priv, time.Now(), raw)
		if !sign {
			sig = strings.Repeat("0", 128)
		}
		req.Header.Set(interactions.HeaderSignature, sig)
		req.Header.Set(interactions.HeaderTimestamp, ts)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	click := func(customID string) map[string]any {
		return map[string]any{"id": "10", "application_id": "20", "type": 3, "token": "tok", "version": 1,
			"guild_id": "999", "channel_id": "5",
			"member":  map[string]any{"user": map[string]any{"id": "7", "username": "ada"}, "roles": []string{}, "permissions": "0"},
			"message": map[string]any{"id": "30", "channel_id": "5", "components": []any{}},
			"data":    map[string]any{"custom_id": customID, "component_type": 6, "values": []string{"1"}}}
	}

	if code, _ := post(map[string]any{"type": 1}, false); code != http.StatusUnauthorized {
		t.Errorf("bad signature: %d, want 401", code)
	}
	if code, body := post(map[string]any{"type": 1, "id": "1", "token": "t"}, true); code != http.StatusOK || body != `{"type":1}` {
		t.Errorf("PING: %d %s", code, body)
	}
	for customID, want := range map[string]string{
		"something:old": "older version of the bot",
		pickID:          "could not read this server's roles: this server or role is unknown to me",
	} {
		code, body := post(click(customID), true)
		if code != http.StatusOK || !strings.Contains(body, want) || !strings.Contains(body, `"flags":64`) {
			t.Errorf("%s: %d %s, want an ephemeral message with %q", customID, code, body, want)
		}
	}
}
