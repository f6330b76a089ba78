package guildkittest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func TestMessageEventsByIntent(t *testing.T) {
	t.Parallel()
	w := newChatWorld(t, guildkittest.WithGateway(guildkittest.GatewaySettings{MaxConcurrency: 3}))
	const guildMessages, directMessages, messageContent = 1 << 9, 1 << 12, 1 << 15
	blind, _, _ := connect(t, w.srv, guildMessages|directMessages, map[string]any{"shard": []int{0, 1}})
	w.srv.AdvanceClock(5e9)
	seeing, _, _ := connect(t, w.srv, guildMessages|messageContent, map[string]any{"shard": []int{0, 1}})
	type payload struct {
		ID          string          `json:"id"`
		Content     string          `json:"content"`
		GuildID     string          `json:"guild_id"`
		ChannelType *int            `json:"channel_type"`
		Member      json.RawMessage `json:"member"`
		Nonce       json.RawMessage `json:"nonce"`
	}
	read := func(c *rawClient, name string) payload {
		t.Helper()
		var p payload
		require.NoError(t, json.Unmarshal(c.until(name).D, &p))
		return p
	}

	// A member's prefix command: content only with MESSAGE_CONTENT.
	_, err := w.srv.PostMessage(t.Context(), w.alice.User.ID, w.general.ID, guildkittest.PostParams{Content: "!ping", Nonce: "abc"})
	require.NoError(t, err)
	got := read(blind, "MESSAGE_CREATE")
	assert.Empty(t, got.Content)
	assert.Equal(t, w.guild.ID.String(), got.GuildID)
	assert.JSONEq(t, `"abc"`, string(got.Nonce))
	var member map[string]any
	require.NoError(t, json.Unmarshal(got.Member, &member))
	assert.NotContains(t, member, "user", "MESSAGE_CREATE's member has no user")
	assert.Contains(t, member, "roles")
	assert.Equal(t, "!ping", read(seeing, "MESSAGE_CREATE").Content)

	// The bot's own message keeps its content for everyone.
	w.send(t, "", w.general.ID, map[string]any{"content": "pong"})
	assert.Equal(t, "pong", read(blind, "MESSAGE_CREATE").Content)
	assert.Equal(t, "pong", read(seeing, "MESSAGE_CREATE").Content)

	// A DM: DIRECT_MESSAGES, full content, no guild_id, channel_type 1.
	_, err = w.srv.Post(t.Context(), w.alice.User.ID, w.srv.DMChannel(w.alice.User.ID), "psst")
	require.NoError(t, err)
	dm := read(blind, "MESSAGE_CREATE")
	assert.Equal(t, "psst", dm.Content)
	assert.Empty(t, dm.GuildID)
	require.NotNil(t, dm.ChannelType)
	assert.Equal(t, 1, *dm.ChannelType)

	// Bulk delete reaches GUILD_MESSAGES sessions.
	a := w.send(t, "", w.general.ID, map[string]any{"content": "a"})
	b := w.send(t, "", w.general.ID, map[string]any{"content": "b"})
	status, _, _ := w.do(t, "", http.MethodPost, "/channels/"+w.general.ID.String()+"/messages/bulk-delete",
		map[string]any{"messages": []any{a["id"], b["id"]}})
	require.Equal(t, http.StatusNoContent, status)
	var bulk struct {
		IDs []string `json:"ids"`
	}
	require.NoError(t, json.Unmarshal(seeing.until("MESSAGE_DELETE_BULK").D, &bulk))
	assert.Equal(t, []string{a["id"].(string), b["id"].(string)}, bulk.IDs)
	// The DM was not sent to the session without DIRECT_MESSAGES.
	w.srv.DispatchGatewayEvent("MARK", w.guild.ID, 0, json.RawMessage(`{}`))
	assert.NotContains(t, seeing.collect("MARK"), "MESSAGE_CREATE")
}

func TestClickOnTheBotsChannelMessage(t *testing.T) {
	t.Parallel()
	w := newChatWorld(t)
	w.srv.SetInteractionsHandler(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		var it guildkit.Interaction
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &it)
		rw.Header().Set("Content-Type", "application/json")
		if it.Type == guildkit.InteractionTypePing {
			_, _ = io.WriteString(rw, `{"type":1}`)
			return
		}
		_, _ = io.WriteString(rw, `{"type":4,"data":{"content":"clicked"}}`)
	}))
	rows, err := json.Marshal(components.List{components.NewActionRow(components.PrimaryButton("go", "Go"))})
	require.NoError(t, err)
	m := w.send(t, "", w.general.ID, map[string]any{"content": "press", "components": json.RawMessage(rows)})
	id, err := guildkit.ParseSnowflake(m["id"].(string))
	require.NoError(t, err)
	out, err := w.srv.Click(t.Context(), w.alice.User.ID, id, "go")
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeMessage, out.Kind)
	assert.Equal(t, "clicked", out.Message.Content)

	// A member's message's components deliver nothing (users send none).
	rows, _ = json.Marshal(components.List{components.NewActionRow(components.PrimaryButton("x", "X"))})
	status, resp, _ := w.do(t, w.aliceTok, http.MethodPost, "/channels/"+w.general.ID.String()+"/messages",
		map[string]any{"content": "mine", "components": json.RawMessage(rows)})
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, 50035, code(resp))
}

func TestUpdateMessageOnTheBotsChannelMessage(t *testing.T) {
	t.Parallel()
	w := newChatWorld(t)
	w.srv.SetInteractionsHandler(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		var it guildkit.Interaction
		_ = json.NewDecoder(r.Body).Decode(&it)
		rw.Header().Set("Content-Type", "application/json")
		if it.Type == guildkit.InteractionTypePing {
			_, _ = io.WriteString(rw, `{"type":1}`)
			return
		}
		_, _ = io.WriteString(rw, `{"type":7,"data":{"content":"chosen: `+it.Component.Values[0]+`","components":[]}}`)
	}))
	rows, err := json.Marshal(components.List{components.NewActionRow(components.NewStringSelect("pick", components.NewOption("Red", "red"), components.NewOption("Blue", "blue")))})
	require.NoError(t, err)
	m := w.send(t, "", w.general.ID, map[string]any{"content": "pick one", "components": json.RawMessage(rows)})
	id, err := guildkit.ParseSnowflake(m["id"].(string))
	require.NoError(t, err)
	out, err := w.srv.Select(t.Context(), w.alice.User.ID, id, "pick", "blue")
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeUpdated, out.Kind)
	status, got, _ := w.do(t, "", http.MethodGet, "/channels/"+w.general.ID.String()+"/messages/"+id.String(), nil)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "chosen: blue", got["content"])
	assert.Empty(t, got["components"])
	require.NotEmpty(t, w.srv.EventsNamed(guildkit.EventMessageUpdate))
}
