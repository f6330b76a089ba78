package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// checkDraft checks the validation lines every run starts with. The texts
// of the paths belong to the components package; here they are checked by
// their codes and their meaning.
func checkDraft(t *testing.T, lines []string) {
	t.Helper()
	require.GreaterOrEqual(t, len(lines), 5)
	assert.Equal(t, "draft form: 3 problems", lines[0])
	assert.Regexp(t, `^  \S*0\S* \(placement\)$`, lines[1], "the text input outside a label")
	assert.Regexp(t, `^  \S*1\S*\.options \(length\)$`, lines[2], "one option in a radio group")
	assert.Regexp(t, `^  \S*2\S*\.custom_id \(duplicate\)$`, lines[3], "summary used twice")
	assert.Equal(t, "bug form: valid, 5 components", lines[4])
}

// In memory the whole loop runs: the button opens the modal, a form the
// platform's client would refuse is refused, and the submission is
// answered with what the bot read, the uploaded file included.
func TestModalFormInMemory(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, func(string) string { return "" }))
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	checkDraft(t, lines)
	assert.Equal(t, `GUILDKIT_TOKEN is not set: running against the in-memory server
posted the button (custom_id "open-bug-form") in 1 row(s)
ada clicks the button: modal "Report a bug" (bug-report)
ada submits a 3-character summary: refused (true)
ada submits the form: message
the bot answers (ephemeral: true):
Thanks, ada. We got:
summary: "Crash when saving a file"
severity: high
platforms: linux, macos
file: crash.log (text/plain, 1920 bytes)`, strings.Join(lines[5:], "\n"))
}

// The form the program builds holds every input the issue names, each in a
// label, and passes the modal rules.
func TestBugFormShape(t *testing.T) {
	form := bugForm()
	require.NoError(t, components.Validate(components.Modal, form...))
	var kinds []components.Type
	for _, c := range form[1:] {
		l, ok := c.(*components.Label)
		require.True(t, ok, "%T", c)
		kinds = append(kinds, l.Component.Type())
	}
	assert.Equal(t, []components.Type{components.TypeTextInput, components.TypeRadioGroup,
		components.TypeCheckboxGroup, components.TypeFileUpload}, kinds)
}

// With a token the program posts to the channel the environment names (here
// on a guildkittest server reached over HTTP) through a webhook it creates
// and deletes.
func TestModalFormWithToken(t *testing.T) {
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "Remote"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "bugs", Type: guildkit.ChannelTypeGuildText})
	env := map[string]string{"GUILDKIT_TOKEN": srv.Token(), "GUILDKIT_BASE_URL": srv.BaseURL(), "GUILDKIT_CHANNEL_ID": ch.ID.String()}
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, func(k string) string { return env[k] }))
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	checkDraft(t, lines)
	assert.Equal(t, []string{`posted the button (custom_id "open-bug-form") in 1 row(s)`,
		"set GUILDKIT_PUBLIC_KEY to serve the interactions endpoint that answers the button"}, lines[5:])

	var executed, deleted bool
	for _, r := range srv.Requests() {
		switch {
		case r.Method == "POST" && r.Route == "/webhooks/{webhook.id}/{webhook.token}":
			executed = true
			var body struct {
				Components []struct {
					Components []struct {
						CustomID string `json:"custom_id"`
					} `json:"components"`
				} `json:"components"`
			}
			require.NoError(t, json.Unmarshal(r.Body, &body))
			assert.Equal(t, "open-bug-form", body.Components[0].Components[0].CustomID)
		case r.Method == "DELETE" && r.Route == "/webhooks/{webhook.id}":
			deleted = true
		}
	}
	assert.True(t, executed)
	assert.True(t, deleted, "the webhook is deleted at the end")
	hooks, err := srv.Client().Webhooks.ListByGuild(context.Background(), g.ID)
	require.NoError(t, err)
	assert.Empty(t, hooks)
}
