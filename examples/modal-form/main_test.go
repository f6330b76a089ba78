package main

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// check compares the program's output with the expected one. The texts of
// the validation paths and of the look-up error belong to the components
// package; here they are checked by their codes and their meaning.
func check(t *testing.T, out string, first string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, 13, out)
	assert.Equal(t, first, lines[0])
	assert.Equal(t, "draft form: 3 problems", lines[1])
	assert.Regexp(t, `^  \S*0\S* \(placement\)$`, lines[2], "the text input outside a label")
	assert.Regexp(t, `^  \S*1\S*\.options \(length\)$`, lines[3], "one option in a radio group")
	assert.Regexp(t, `^  \S*2\S*\.custom_id \(duplicate\)$`, lines[4], "summary used twice")
	assert.Equal(t, `bug form: valid, 5 components
posted the button (custom_id "open-bug-form") in 1 row(s)
submission of "bug-report":
  summary: "Crash when saving a file"
  severity: "high" (picked: true)
  platforms: linux, macos
  file: crash.log (text/plain, 2048 bytes)`, strings.Join(lines[5:12], "\n"))
	assert.Regexp(t, regexp.MustCompile(`^  reading severity as text: .*"severity".*Radio Group`), lines[12])
}

func TestModalFormInMemory(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, func(string) string { return "" }))
	check(t, out.String(), "GUILDKIT_TOKEN is not set: running against the in-memory server")
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
	check(t, "(no notice with a token)\n"+out.String(), "(no notice with a token)")

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
