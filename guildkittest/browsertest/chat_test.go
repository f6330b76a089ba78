package browsertest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// sendAsBot posts a message as the bot through the server's Create Message
// route, with net/http: what a bot in any language does.
func sendAsBot(t *testing.T, srv *guildkittest.Server, channelID guildkit.Snowflake, body any) guildkit.Message {
	t.Helper()
	b, err := json.Marshal(body)
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodPost, srv.BaseURL()+"/channels/"+channelID.String()+"/messages", bytes.NewReader(b))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bot "+srv.Token())
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var m guildkit.Message
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&m))
	return m
}

// pingBot answers "!ping" with "pong" as a reply, watching the server's
// live feed: a prefix-command bot in a few lines.
func pingBot(t *testing.T, srv *guildkittest.Server) {
	feed, stop := srv.Subscribe()
	t.Cleanup(stop)
	go func() {
		for it := range feed {
			if it.Event == nil || it.Event.Name != guildkit.EventMessageCreate {
				continue
			}
			m, ok := it.Event.Data.(guildkit.Message)
			if !ok || m.Content != "!ping" {
				continue
			}
			b, _ := json.Marshal(map[string]any{"content": "pong", "message_reference": map[string]any{"message_id": m.ID}})
			req, _ := http.NewRequest(http.MethodPost, srv.BaseURL()+"/channels/"+m.ChannelID.String()+"/messages", bytes.NewReader(b))
			req.Header.Set("Authorization", "Bot "+srv.Token())
			req.Header.Set("Content-Type", "application/json")
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
		}
	}()
}

// chatHas reports whether the channel view shows a message whose text
// contains text.
func chatHas(text string) chromedp.Action[chromedp.Void] {
	return chromedp.WaitVisible(`//div[@id="chat-messages"]//article[contains(., ` + strconv.Quote(text) + `)]`)
}

// TestInspectorChannelView: a person acting as a member types "!ping" in
// the channel view's composer; the bot's reply "pong" appears at the
// bottom of the channel. Then the person clicks a button and picks an
// option of a select in messages the bot sent to the channel, and the
// bot's answers are shown.
func TestInspectorChannelView(t *testing.T) {
	ctx := browser(t)
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "Chat guild"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	alice := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}})
	pingBot(t, srv)
	srv.SetInteractionsHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var it guildkit.Interaction
		_ = json.NewDecoder(r.Body).Decode(&it)
		w.Header().Set("Content-Type", "application/json")
		if it.Type == guildkit.InteractionTypePing {
			_, _ = w.Write([]byte(`{"type":1}`))
			return
		}
		var data struct {
			CustomID string   `json:"custom_id"`
			Values   []string `json:"values"`
		}
		_ = json.Unmarshal(it.Data, &data)
		answer, _ := json.Marshal(map[string]any{"type": 4, "data": map[string]any{"content": "you used " + data.CustomID + " " + strings.Join(data.Values, ",")}})
		_, _ = w.Write(answer)
	}))
	rows, err := json.Marshal(components.List{components.NewActionRow(components.PrimaryButton("press", "Press me"))})
	require.NoError(t, err)
	sendAsBot(t, srv, ch.ID, map[string]any{"content": "Welcome, <@" + alice.User.ID.String() + ">", "components": json.RawMessage(rows)})

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+guildkittest.ControlPrefix),
		chromedp.WaitVisible(`//span[@id="status" and text()="live"]`),
		chatHas("Welcome"),
	))
	require.NoError(t, actAs(ctx, alice.User.ID))
	// The mention is drawn as the member's name.
	welcome, err := textOf(ctx, `#chat-messages article .mention`, false)
	require.NoError(t, err)
	assert.Contains(t, welcome, "alice")

	require.NoError(t, chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS(`#chat-input`), "!ping\n"),
		chatHas("pong"),
	))
	last, err := textOf(ctx, `#chat-messages > article:last-of-type`, false)
	require.NoError(t, err)
	assert.Contains(t, last, "pong", "the newest message is at the bottom")
	msgs := srv.ChannelMessages(ch.ID, alice.User.ID)
	require.Len(t, msgs, 3)
	assert.Equal(t, "!ping", msgs[1].Content)
	assert.Equal(t, alice.User.ID, msgs[1].Author.ID)

	require.NoError(t, clickPage(ctx, `(() => { const b = [...document.querySelectorAll("#chat-messages button.live")].find((b) => b.textContent === "Press me"); if (b) b.click(); return !!b; })()`))
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`//div[@id="outcome" and contains(., "you used press")]`)))
	require.Len(t, srv.Deliveries(), 1, "the click reached the bot")

	// A select in a message the bot sent: a choice made in place.
	rows, err = json.Marshal(components.List{components.NewActionRow(components.NewStringSelect("colour", components.NewOption("Red", "red"), components.NewOption("Blue", "blue")))})
	require.NoError(t, err)
	sendAsBot(t, srv, ch.ID, map[string]any{"content": "Pick a colour", "components": json.RawMessage(rows)})
	require.NoError(t, chromedp.Do(ctx, chatHas("Pick a colour")))
	require.NoError(t, clickPage(ctx, `(() => { const s = document.querySelector('#chat-messages select[data-custom-id="colour"]'); if (!s) return false; s.value = "blue"; s.dispatchEvent(new Event("change")); return true; })()`))
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`//div[@id="outcome" and contains(., "you used colour blue")]`)))
}

// TestInspectorDirectMessages: a DM the bot sends appears among the bot's
// DMs in the channel view, and the member answers it there.
func TestInspectorDirectMessages(t *testing.T) {
	ctx := browser(t)
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "DM guild"})
	srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	bob := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "bob"}})
	dm := srv.DMChannel(bob.User.ID)
	sendAsBot(t, srv, dm, map[string]any{"content": "psst, bob"})

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+guildkittest.ControlPrefix),
		chromedp.WaitVisible(`//span[@id="status" and text()="live"]`),
		chromedp.WaitReady(`//select[@id="chat-channel"]/optgroup/option[text()="@bob"]`),
	))
	require.NoError(t, actAs(ctx, bob.User.ID))
	require.NoError(t, clickPage(ctx, `(() => { const p = document.getElementById("chat-channel"); p.value = `+strconv.Quote(dm.String())+
		`; p.dispatchEvent(new Event("change")); return p.value === `+strconv.Quote(dm.String())+`; })()`))
	require.NoError(t, chromedp.Do(ctx, chatHas("psst, bob"),
		chromedp.SendKeys(chromedp.CSS(`#chat-input`), "hi bot\n"),
		chatHas("hi bot"),
	))
	msgs := srv.ChannelMessages(dm, bob.User.ID)
	require.Len(t, msgs, 2)
	assert.Equal(t, bob.User.ID, msgs[1].Author.ID)
}
