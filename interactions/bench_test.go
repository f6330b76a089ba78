package interactions_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/interactions"
)

func hexPub() string { return hex.EncodeToString(testPub) }

// benchDelivery is a realistic component interaction: a role select's
// choice in a guild, the member with every nullable field set, the message
// with its components, resolved roles.
func benchDelivery(b *testing.B) []byte {
	it := componentInteraction("roles:pick")
	it["data"] = map[string]any{"custom_id": "roles:pick", "component_type": 6, "id": 4, "values": []string{"301", "302"},
		"resolved": map[string]any{"roles": map[string]any{
			"301": map[string]any{"id": "301", "name": "Artist", "color": 3447003, "colors": map[string]any{"primary_color": 3447003, "secondary_color": nil, "tertiary_color": nil},
				"hoist": true, "icon": "abc", "unicode_emoji": nil, "position": 3, "permissions": "1071698660929", "managed": false, "mentionable": true, "flags": 0},
			"302": map[string]any{"id": "302", "name": "Writer", "color": 15844367, "colors": map[string]any{"primary_color": 15844367, "secondary_color": nil, "tertiary_color": nil},
				"hoist": false, "icon": nil, "unicode_emoji": "✍️", "position": 2, "permissions": "1071698660929", "managed": false, "mentionable": true, "flags": 0},
		}}}
	member := it["member"].(map[string]any)
	member["avatar"] = "a_1234567890abcdef"
	member["communication_disabled_until"] = "2026-12-01T10:00:00.654321+00:00"
	member["avatar_decoration_data"] = map[string]any{"asset": "a_deco", "sku_id": "1144058844004233369"}
	member["banner"] = "b_99"
	member["pending"] = false
	member["unusual_future_field"] = map[string]any{"x": 1}
	user := member["user"].(map[string]any)
	user["banner"] = "ub"
	user["accent_color"] = 16711680
	user["public_flags"] = 64
	user["primary_guild"] = map[string]any{"identity_guild_id": "1", "identity_enabled": true, "tag": "GK", "badge": "bd"}
	msg := it["message"].(map[string]any)
	msg["components"] = []any{
		map[string]any{"type": 1, "id": 1, "components": []any{map[string]any{"type": 6, "id": 4, "custom_id": "roles:pick", "placeholder": "Pick roles", "min_values": 0, "max_values": 5}}},
		map[string]any{"type": 1, "id": 2, "components": []any{map[string]any{"type": 2, "id": 5, "style": 2, "label": "Tell us more", "custom_id": "roles:form", "emoji": map[string]any{"name": "📝", "id": nil}}}},
	}
	msg["edited_timestamp"] = "2026-01-01T00:05:00.123456+00:00"
	msg["author"] = map[string]any{"id": "4001", "username": "Role Picker", "bot": true, "avatar": nil, "global_name": nil}
	msg["webhook_id"] = "4001"
	msg["application_id"] = "4001"
	return mustJSON(b, it)
}

// BenchmarkComponentInteraction: verify + decode + route + answer (an
// ephemeral reply with a select) through the Handler, beside its twin: the
// same work by hand with crypto/ed25519 and encoding/json.
func BenchmarkComponentInteraction(b *testing.B) {
	body := benchDelivery(b)
	sig, ts := interactions.Sign(testPriv, time.Now(), body)
	answer := func(values []string) *guildkit.InteractionMessageParams {
		return &guildkit.InteractionMessageParams{
			Content: guildkit.Some("Roles updated: " + strconv.Itoa(len(values))),
			Flags:   guildkit.Some(guildkit.MessageFlagEphemeral),
		}
	}
	request := func() *http.Request {
		r := httptest.NewRequest(http.MethodPost, "/interactions", nil)
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		r.Header.Set(interactions.HeaderSignature, sig)
		r.Header.Set(interactions.HeaderTimestamp, ts)
		return r
	}

	b.Run("guildkit", func(b *testing.B) {
		c, err := guildkit.New(nil, guildkit.WithBaseURL("http://127.0.0.1:1"))
		if err != nil {
			b.Fatal(err)
		}
		h, err := interactions.NewHandler(hexPub(), c, interactions.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
		if err != nil {
			b.Fatal(err)
		}
		h.HandleComponent("roles:{action}", func(ctx context.Context, r *interactions.Request) error {
			return r.Reply(ctx, answer(r.Interaction.Component.Values))
		})
		b.ReportAllocs()
		for b.Loop() {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, request())
			if w.Code != http.StatusOK {
				b.Fatal(w.Code, w.Body.String())
			}
		}
	})

	b.Run("twin", func(b *testing.B) {
		pub, _ := hex.DecodeString(hexPub())
		twin := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodPost {
				http.Error(w, "method", http.StatusMethodNotAllowed)
				return
			}
			raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
			if err != nil {
				http.Error(w, "body", http.StatusRequestEntityTooLarge)
				return
			}
			sig, err := hex.DecodeString(r.Header.Get(interactions.HeaderSignature))
			if err != nil || !ed25519.Verify(pub, append([]byte(r.Header.Get(interactions.HeaderTimestamp)), raw...), sig) {
				http.Error(w, "signature", http.StatusUnauthorized)
				return
			}
			// What the Handler gives its function: the envelope, the
			// member, the message and the resolved roles, decoded.
			var it struct {
				ID             string            `json:"id"`
				ApplicationID  string            `json:"application_id"`
				Type           int               `json:"type"`
				Token          string            `json:"token"`
				GuildID        string            `json:"guild_id"`
				ChannelID      string            `json:"channel_id"`
				Guild          map[string]any    `json:"guild"`
				Member         *guildkit.Member  `json:"member"`
				Message        *guildkit.Message `json:"message"`
				AppPermissions string            `json:"app_permissions"`
				Locale         string            `json:"locale"`
				Data           struct {
					CustomID      string   `json:"custom_id"`
					ComponentType int      `json:"component_type"`
					Values        []string `json:"values"`
					Resolved      struct {
						Roles map[string]guildkit.Role `json:"roles"`
					} `json:"resolved"`
				} `json:"data"`
			}
			if err := json.Unmarshal(raw, &it); err != nil {
				http.Error(w, "json", http.StatusBadRequest)
				return
			}
			if it.Data.CustomID != "roles:pick" {
				http.Error(w, "route", http.StatusBadRequest)
				return
			}
			out, _ := json.Marshal(map[string]any{"type": 4, "data": answer(it.Data.Values)})
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(out)
		})
		b.ReportAllocs()
		for b.Loop() {
			w := httptest.NewRecorder()
			twin.ServeHTTP(w, request())
			if w.Code != http.StatusOK {
				b.Fatal(w.Code)
			}
		}
	})
}
