package guildkittest_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// gatewayInteraction is INTERACTION_CREATE's d as a bot reads it.
type gatewayInteraction struct {
	ID             string `json:"id"`
	Type           int    `json:"type"`
	Token          string `json:"token"`
	GuildID        string `json:"guild_id"`
	AppPermissions int64  `json:"app_permissions,string"` // as discordgo and disgo read it
	Data           struct {
		CustomID string `json:"custom_id"`
		Name     string `json:"name"`
	} `json:"data"`
}

// callback answers an interaction through the callback route, as a
// gateway bot does, and returns the status and body.
func callback(t *testing.T, srv *guildkittest.Server, it gatewayInteraction, answer string) (int, string) {
	t.Helper()
	resp, err := http.Post(srv.BaseURL()+"/interactions/"+it.ID+"/"+it.Token+"/callback", "application/json", strings.NewReader(answer))
	require.NoError(t, err)
	defer resp.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(resp.Body)
	return resp.StatusCode, b.String()
}

// goBot runs f, a bot's side of a test, on a goroutine the test waits for
// before its server closes.
func goBot(t *testing.T, f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	t.Cleanup(func() { <-done })
}

// nextInteraction reads frames until INTERACTION_CREATE.
func nextInteraction(t *testing.T, c *rawClient) (gatewayInteraction, wsFrame) {
	t.Helper()
	f := c.until("INTERACTION_CREATE")
	var it gatewayInteraction
	require.NoError(t, json.Unmarshal(f.D, &it), "d decodes the way discordgo decodes it: %s", f.D)
	return it, f
}

// gatewayGuild is a guild with a channel, a member and a message of the
// application with a button and a select; the server has no interactions
// endpoint.
func gatewayGuild(t *testing.T, srv *guildkittest.Server, id guildkit.Snowflake) (guildkit.Guild, guildkit.Snowflake, guildkit.Message) {
	t.Helper()
	g := srv.AddGuild(guildkit.Guild{ID: id, Name: "gw " + id.String()})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	alice := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}}).User.ID
	msg := srv.AddApplicationMessage(ch.ID, guildkit.Message{Content: "Pick", Components: components.List{
		components.NewActionRow(components.PrimaryButton("go", "Go")),
		components.NewActionRow(components.NewStringSelect("color", components.NewOption("Red", "red"), components.NewOption("Blue", "blue"))),
	}})
	return g, alice, msg
}

// TestInteractionOverGateway: without an interactions endpoint, a click
// reaches the bot's session as INTERACTION_CREATE (no intent asked for),
// its token usable on the callback route; the answer given there is what
// the user sees, and the delivery says it went over the gateway, to that
// session. The frame log keeps the dispatch with its token redacted.
func TestInteractionOverGateway(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g, alice, msg := gatewayGuild(t, srv, 0)
	bot, rd, _ := connect(t, srv, 0, nil) // no intent at all

	got := make(chan gatewayInteraction, 1)
	answered := make(chan int, 1)
	goBot(t, func() {
		it, f := nextInteraction(t, bot)
		assert.Positive(t, f.seq(), "a dispatch with a sequence number")
		got <- it
		status, _ := callback(t, srv, it, `{"type": 4, "data": {"content": "Hi from the gateway"}}`)
		answered <- status
	})
	out, err := srv.Click(t.Context(), alice, msg.ID, "go")
	require.NoError(t, err)
	require.Equal(t, guildkittest.OutcomeMessage, out.Kind, out.String())
	assert.Equal(t, "message: Hi from the gateway", out.String())
	assert.Equal(t, http.StatusNoContent, <-answered)

	it := <-got
	assert.Equal(t, 3, it.Type, "MESSAGE_COMPONENT")
	assert.Equal(t, "go", it.Data.CustomID)
	assert.Equal(t, g.ID.String(), it.GuildID)
	assert.Equal(t, out.Interaction.ID.String(), it.ID)
	assert.Positive(t, it.AppPermissions, "app_permissions fits a signed 64-bit integer")

	d := srv.Deliveries()
	require.NotEmpty(t, d)
	last := d[len(d)-1]
	assert.True(t, last.Gateway)
	assert.True(t, last.Callback)
	assert.Equal(t, []string{rd.SessionID}, last.Sessions)
	assert.Zero(t, last.Status, "no HTTP status over the gateway")

	var logged *guildkittest.GatewayFrame
	for _, f := range srv.GatewayFrames(rd.SessionID) {
		if f.Name == "INTERACTION_CREATE" {
			logged = &f
		}
	}
	require.NotNil(t, logged, "the frame log keeps the dispatch")
	assert.NotContains(t, string(logged.Data), it.Token, "the token is redacted")
	assert.Contains(t, string(logged.Data), "[redacted]")
}

// TestInteractionOverGatewayRules: the answer through the callback route
// is held to the rules of an HTTP delivery: one answer (a second gets
// 40060), within 3 seconds of the server's clock (later: the user sees the
// interaction fail, and the late answer gets 10062), and the token serves
// follow-ups.
func TestInteractionOverGatewayRules(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	_, alice, msg := gatewayGuild(t, srv, 0)
	bot, _, _ := connect(t, srv, 0, nil)

	// One answer; the second is refused; the token serves a follow-up.
	second := make(chan string, 1)
	goBot(t, func() {
		it, _ := nextInteraction(t, bot)
		status, _ := callback(t, srv, it, `{"type": 6}`)
		assert.Equal(t, http.StatusNoContent, status)
		status, body := callback(t, srv, it, `{"type": 4, "data": {"content": "again"}}`)
		assert.Equal(t, http.StatusBadRequest, status)
		second <- body
		resp, err := http.Post(srv.BaseURL()+"/webhooks/"+srv.Application().ID.String()+"/"+it.Token+"?wait=true", "application/json",
			strings.NewReader(`{"content": "follow-up"}`))
		if assert.NoError(t, err) {
			resp.Body.Close()
			assert.Equal(t, http.StatusOK, resp.StatusCode, "the token serves follow-ups")
		}
	})
	out, err := srv.Select(t.Context(), alice, msg.ID, "color", "blue")
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeDeferred, out.Kind, out.String())
	assert.Contains(t, <-second, "40060")

	// Too late: the server's clock passes the 3 seconds while the bot
	// holds the interaction.
	late := make(chan gatewayInteraction, 1)
	goBot(t, func() {
		it, _ := nextInteraction(t, bot)
		late <- it
	})
	done := make(chan *guildkittest.Outcome, 1)
	goBot(t, func() {
		out, err := srv.Click(t.Context(), alice, msg.ID, "go")
		assert.NoError(t, err)
		done <- out
	})
	it := <-late
	srv.AdvanceClock(3*time.Second + time.Millisecond)
	out = <-done
	assert.Equal(t, guildkittest.OutcomeFailed, out.Kind)
	assert.Contains(t, out.Failure, "did not answer within 3 seconds")
	status, body := callback(t, srv, it, `{"type": 6}`)
	assert.Equal(t, http.StatusNotFound, status)
	assert.Contains(t, body, "10062")
}

// TestInteractionOverGatewayRouting: an interaction goes to the session
// that carries its guild's shard, not to the other; with only a session of
// another shard, or none, the user sees the interaction fail and why.
func TestInteractionOverGatewayRouting(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithGateway(guildkittest.GatewaySettings{MaxConcurrency: 2}))
	// (id >> 22) % 2: shard 0 and shard 1.
	_, alice0, msg0 := gatewayGuild(t, srv, guildkit.Snowflake(4<<22))
	_, alice1, msg1 := gatewayGuild(t, srv, guildkit.Snowflake(5<<22))

	out, err := srv.Click(t.Context(), alice1, msg1.ID, "go")
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeFailed, out.Kind)
	assert.Contains(t, out.Failure, "no gateway session is connected")

	shard0, r0, _ := connect(t, srv, 1, map[string]any{"shard": []int{0, 2}})
	out, err = srv.Click(t.Context(), alice1, msg1.ID, "go")
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeFailed, out.Kind)
	assert.Contains(t, out.Failure, "carries the shard")
	for _, f := range srv.GatewayFrames(r0.SessionID) {
		assert.NotEqual(t, "INTERACTION_CREATE", f.Name, "an interaction no session could receive is not dispatched at all")
	}

	shard1, r1, _ := connect(t, srv, 1, map[string]any{"shard": []int{1, 2}})
	goBot(t, func() {
		it, _ := nextInteraction(t, shard1)
		callback(t, srv, it, `{"type": 4, "data": {"content": "shard one"}}`)
	})
	out, err = srv.Click(t.Context(), alice1, msg1.ID, "go")
	require.NoError(t, err)
	assert.Equal(t, "message: shard one", out.String())
	d := srv.Deliveries()
	assert.Equal(t, []string{r1.SessionID}, d[len(d)-1].Sessions)

	goBot(t, func() {
		it, _ := nextInteraction(t, shard0)
		callback(t, srv, it, `{"type": 4, "data": {"content": "shard zero"}}`)
	})
	out, err = srv.Click(t.Context(), alice0, msg0.ID, "go")
	require.NoError(t, err)
	assert.Equal(t, "message: shard zero", out.String())

	// Shard 0's log marks the interaction of shard 1 as not sent to it.
	marked := false
	for _, f := range srv.GatewayFrames(r0.SessionID) {
		marked = marked || (f.Name == "INTERACTION_CREATE" && f.Direction == guildkittest.FrameNotSent && strings.Contains(f.Note, "shard"))
	}
	assert.True(t, marked, "the other shard's session logs it as not sent")
}

// TestInteractionOverGatewayControlAPI: a command run through the control
// API reaches the gateway bot, and the answer says how it went.
func TestInteractionOverGatewayControlAPI(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g, alice, _ := gatewayGuild(t, srv, 0)
	channel := srv.Channels(g.ID)[0].ID
	srv.AddCommand(0, guildkit.CommandCreateParams{Name: "ping", Description: "Ping"}) // only a registered command runs
	bot, _, _ := connect(t, srv, 0, nil)
	goBot(t, func() {
		it, _ := nextInteraction(t, bot)
		assert.Equal(t, 2, it.Type, "APPLICATION_COMMAND")
		assert.Equal(t, "ping", it.Data.Name)
		callback(t, srv, it, `{"type": 4, "data": {"content": "pong"}}`)
	})
	resp, err := http.Post(srv.URL+guildkittest.ControlPrefix+"api/interactions", "application/json",
		strings.NewReader(`{"kind": "command", "user_id": "`+alice.String()+`", "channel_id": "`+channel.String()+`", "name": "ping"}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var seen struct {
		Kind     string `json:"kind"`
		Summary  string `json:"summary"`
		Delivery struct {
			Via      string   `json:"via"`
			Sessions []string `json:"sessions"`
			Callback bool     `json:"callback"`
		} `json:"delivery"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&seen))
	assert.Equal(t, "message", seen.Kind)
	assert.Equal(t, "message: pong", seen.Summary)
	assert.Equal(t, "gateway", seen.Delivery.Via)
	assert.Len(t, seen.Delivery.Sessions, 1)
	assert.True(t, seen.Delivery.Callback)
}

// TestModalAndAutocompleteOverGateway: a modal opened through the callback
// route is submitted back to the bot as MODAL_SUBMIT over the gateway, and
// an autocomplete's choices come back the same way.
func TestModalAndAutocompleteOverGateway(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g, alice, msg := gatewayGuild(t, srv, 0)
	channel := srv.Channels(g.ID)[0].ID
	srv.AddCommand(0, guildkit.CommandCreateParams{Name: "color", Description: "Pick a colour", Options: []guildkit.CommandOptionDefinition{
		{Type: guildkit.CommandOptionString, Name: "name", Description: "The colour", Autocomplete: true},
	}}) // only a registered command runs
	bot, _, _ := connect(t, srv, 0, nil)
	types := make(chan int, 3)
	goBot(t, func() {
		for range 3 {
			it, _ := nextInteraction(t, bot)
			types <- it.Type
			switch it.Type {
			case 3: // the click opens a modal
				callback(t, srv, it, `{"type": 9, "data": {"custom_id": "form", "title": "Form", "components": [
					{"type": 18, "label": "Name", "component": {"type": 4, "custom_id": "name", "style": 1}}]}}`)
			case 5: // its submission
				callback(t, srv, it, `{"type": 4, "data": {"content": "thanks"}}`)
			case 4: // autocomplete
				callback(t, srv, it, `{"type": 8, "data": {"choices": [{"name": "red", "value": "red"}, {"name": "rose", "value": "rose"}]}}`)
			}
		}
	})
	out, err := srv.Click(t.Context(), alice, msg.ID, "go")
	require.NoError(t, err)
	require.Equal(t, guildkittest.OutcomeModal, out.Kind, out.String())
	out, err = srv.SubmitModal(t.Context(), alice, out.Modal, guildkittest.ModalValues{"name": "Alice"})
	require.NoError(t, err)
	assert.Equal(t, "message: thanks", out.String())
	out, err = srv.Autocomplete(t.Context(), alice, channel, "color",
		guildkit.CommandOption{Name: "name", Type: guildkit.CommandOptionString, Value: json.RawMessage(`"r"`), Focused: true})
	require.NoError(t, err)
	assert.Equal(t, "autocomplete: 2 choices", out.String())
	assert.Equal(t, []int{3, 5, 4}, []int{<-types, <-types, <-types})
}
