package guildkittest_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// BenchmarkClick measures a whole click: the server's checks, the signed
// delivery to an in-process endpoint that verifies and decodes it, and the
// answer (an UPDATE_MESSAGE) checked and applied.
func BenchmarkClick(b *testing.B) {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	alice := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}}).User.ID
	msg := srv.AddApplicationMessage(ch.ID, guildkit.Message{Content: "Press",
		Components: components.List{components.NewActionRow(components.PrimaryButton("go", "Go"))}})
	resp := guildkit.UpdateResponse(&guildkit.InteractionMessageParams{Content: guildkit.Some("pressed"),
		Components: components.List{components.NewActionRow(components.PrimaryButton("go", "Go"))}})
	srv.SetInteractionsHandler(interactionsEndpoint(srv.Application().PublicKey, func(*guildkit.Interaction) *guildkit.InteractionResponse { return resp }))
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		out, err := srv.Click(ctx, alice, msg.ID, "go")
		if err != nil || out.Kind != guildkittest.OutcomeUpdated {
			b.Fatal(err, out)
		}
	}
}

// BenchmarkClickTwin is the plain twin of BenchmarkClick's transport: the
// same interaction body signed with crypto/ed25519, served by the same
// endpoint through httptest.NewRecorder, and its answer decoded with
// encoding/json; no checks, no state.
func BenchmarkClickTwin(b *testing.B) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	resp := guildkit.UpdateResponse(&guildkit.InteractionMessageParams{Content: guildkit.Some("pressed"),
		Components: components.List{components.NewActionRow(components.PrimaryButton("go", "Go"))}})
	h := interactionsEndpoint(pub, func(*guildkit.Interaction) *guildkit.InteractionResponse { return resp })
	// A body of the size and shape the server delivers.
	srv := guildkittest.New()
	defer srv.Close()
	var body []byte
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	alice := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}}).User.ID
	msg := srv.AddApplicationMessage(ch.ID, guildkit.Message{Content: "Press",
		Components: components.List{components.NewActionRow(components.PrimaryButton("go", "Go"))}})
	srv.SetInteractionsHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"type":6}`)
	}))
	if _, err := srv.Click(context.Background(), alice, msg.ID, "go"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		ts := strconv.FormatInt(time.Now().Unix(), 10)
		sig := ed25519.Sign(priv, append([]byte(ts), body...))
		req := httptest.NewRequest(http.MethodPost, "/interactions", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
		req.Header.Set("X-Signature-Timestamp", ts)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var answer guildkit.InteractionResponse
		if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &answer) != nil {
			b.Fatal(rec.Code, rec.Body.String())
		}
	}
}
