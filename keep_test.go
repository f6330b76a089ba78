package guildkit_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
)

// TestEditedMessageKeepsWhatItCameWith: a message fetched with Get Webhook
// Message whose embeds and components hold members guildkit does not model
// (a newer field of the interface) and explicit zero values, sent back
// unchanged with Edit Webhook Message, reaches the service with every one
// of those members; an edit made in between wins.
func TestEditedMessageKeepsWhatItCameWith(t *testing.T) {
	t.Parallel()
	const (
		embeds = `[{"type":"rich","title":"Report","description":"","color":0,"future":{"a":1},` +
			`"footer":{"text":"f","icon_url":"","badge":true},` +
			`"fields":[{"name":"n","value":"v","inline":false,"style":2}]}]`
		comps = `[{"type":1,"components":[{"type":2,"style":1,"custom_id":"ok","label":"OK","disabled":false,"emoji":null,"tooltip":"soon"}]}]`
	)
	c, mux := setup(t)
	mux.HandleFunc("GET /webhooks/7/tok/messages/9", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"9","channel_id":"5","content":"","flags":0,"embeds":` + embeds + `,"components":` + comps + `}`))
	})
	mux.HandleFunc("PATCH /webhooks/7/tok/messages/9", func(w http.ResponseWriter, r *http.Request) {
		testJSONBody(t, r, `{"embeds":[{"type":"rich","title":"Report, edited","description":"","color":0,"future":{"a":1},`+
			`"footer":{"text":"f","icon_url":"","badge":true},"fields":[{"name":"n","value":"v","inline":false,"style":2}]}],"components":`+comps+`}`)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"9","channel_id":"5"}`))
	})
	msg, err := c.Webhooks.GetMessage(t.Context(), 7, "tok", 9, nil)
	require.NoError(t, err)
	require.Len(t, msg.Embeds, 1)
	msg.Embeds[0].Title = "Report, edited"
	_, err = c.Webhooks.EditMessage(t.Context(), 7, "tok", 9, &guildkit.WebhookMessageEditParams{
		ApplicationOwned: true,
		Embeds:           guildkit.Some(msg.Embeds),
		Components:       guildkit.Some(msg.Components),
	})
	require.NoError(t, err)
	assert.Equal(t, "f", msg.Embeds[0].Footer.Text)
}
