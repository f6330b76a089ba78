package guildkit_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
)

// TestNoSecretUnderAnyVerb prints every type that holds a secret, as a
// value and as a pointer, on its own and nested in structs (exported and
// unexported fields, embedded), under every fmt verb, through slog's text
// and JSON handlers and through encoding/json: no token ever shows.
func TestNoSecretUnderAnyVerb(t *testing.T) {
	t.Parallel()
	const botToken = "bot-SECRET-token.Abc123"
	const bearer = "bearer-SECRET-access.Def456"
	const hookToken = "hook-SECRET_token-Ghi789"

	c, err := guildkit.New(guildkit.BotToken(botToken), guildkit.WithBaseURL("https://chat.example.com/api/v10"))
	require.NoError(t, err)
	wc, err := guildkit.NewWebhookClient("https://chat.example.com/api/v10/webhooks/123456789012345678/" + hookToken)
	require.NoError(t, err)
	cred := guildkit.BotToken(botToken)
	bearerCred := guildkit.BearerToken(bearer)
	hook := guildkit.Webhook{ID: 1, Type: guildkit.WebhookTypeIncoming, Token: hookToken, URL: "https://x/webhooks/1/" + hookToken}

	type nested struct {
		Client      *guildkit.Client
		client      *guildkit.Client
		ClientValue guildkit.Client
		clientValue guildkit.Client
		Webhook     guildkit.WebhookClient
		webhook     guildkit.WebhookClient
		WebhookPtr  *guildkit.WebhookClient
		Cred        guildkit.Credential
		cred        guildkit.Credential
	}
	type withWebhook struct {
		Hook  guildkit.Webhook
		Hooks []guildkit.Webhook
	}
	type embedding struct {
		*guildkit.Client
		guildkit.Credential
	}
	values := map[string]any{
		"*Client":           c,
		"Client":            *c,
		"*WebhookClient":    wc,
		"WebhookClient":     *wc,
		"bot credential":    cred,
		"bearer credential": bearerCred,
		"Webhook":           hook,
		"*Webhook":          &hook,
		"nested":            nested{c, c, *c, *c, *wc, *wc, wc, cred, bearerCred},
		"*nested":           &nested{c, c, *c, *c, *wc, *wc, wc, cred, bearerCred},
		"Webhook nested":    withWebhook{hook, []guildkit.Webhook{hook}},
		"embedding":         embedding{c, cred},
		"[]any":             []any{c, *c, wc, *wc, cred},
		"map":               map[string]any{"c": c, "w": *wc, "cred": bearerCred},
	}
	secrets := []string{botToken, bearer, hookToken, "SECRET"}
	check := func(t *testing.T, what, out string) {
		t.Helper()
		for _, s := range secrets {
			if strings.Contains(out, s) {
				t.Errorf("%s shows a secret: %s", what, out)
				return
			}
		}
	}
	for name, v := range values {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			verbs := []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%T", "%p"}
			webhookObject := strings.Contains(name, "Webhook") && !strings.Contains(name, "WebhookClient")
			if webhookObject {
				// %p of a struct value is fmt's "bad verb" path, which
				// prints exported fields as they are; the Webhook object's
				// Token is one. Every other verb goes through its Format.
				verbs = verbs[:len(verbs)-1]
			}
			for _, verb := range verbs {
				check(t, verb, fmt.Sprintf(verb, v))
			}
			check(t, "Sprint", fmt.Sprint(v))
			check(t, "Sprintln", fmt.Sprintln(v))
			var text, js bytes.Buffer
			slog.New(slog.NewTextHandler(&text, nil)).Info("value", "v", v)
			slog.New(slog.NewJSONHandler(&js, nil)).Info("value", "v", v)
			check(t, "slog text", text.String())
			if !webhookObject || name == "Webhook" || name == "*Webhook" {
				// slog's JSON handler encodes a value nested in a struct with
				// encoding/json, which, for a Webhook object, includes the
				// token: the object is the interface's data.
				check(t, "slog JSON", js.String())
			}
			if b, err := json.Marshal(v); err == nil {
				if !webhookObject {
					// A Webhook object encodes its token: that is the
					// interface's data, sent back to the service.
					check(t, "encoding/json", string(b))
				}
			}
		})
	}
}
