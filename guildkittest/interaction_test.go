package guildkittest_test

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// app is a small interactions endpoint written with net/http and
// crypto/ed25519 only: it verifies the signature as the platform's
// documentation says, answers PING, and hands other interactions to answer.
type app struct {
	t      *testing.T
	pub    ed25519.PublicKey
	answer func(w http.ResponseWriter, r *http.Request, it *guildkit.Interaction)

	mu       sync.Mutex
	received []received
}

type received struct {
	header http.Header
	body   []byte
	it     *guildkit.Interaction
}

func (a *app) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "read", http.StatusBadRequest)
		return
	}
	sig, err := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
	ts := r.Header.Get("X-Signature-Timestamp")
	if err != nil || ts == "" || !ed25519.Verify(a.pub, append([]byte(ts), body...), sig) {
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	var it guildkit.Interaction
	if err := json.Unmarshal(body, &it); err != nil {
		http.Error(w, "bad json", http.StatusBadRequest)
		return
	}
	a.mu.Lock()
	a.received = append(a.received, received{r.Header.Clone(), body, &it})
	a.mu.Unlock()
	if it.Type == guildkit.InteractionTypePing {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"type":1}`)
		return
	}
	a.answer(w, r, &it)
}

func (a *app) last() received {
	a.mu.Lock()
	defer a.mu.Unlock()
	require.NotEmpty(a.t, a.received, "nothing delivered")
	return a.received[len(a.received)-1]
}

func (a *app) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.received)
}

// reply writes resp as the HTTP answer (JSON, or multipart with files).
func reply(t *testing.T, w http.ResponseWriter, resp *guildkit.InteractionResponse) {
	ct, body, err := resp.Encode()
	require.NoError(t, err)
	w.Header().Set("Content-Type", ct)
	_, _ = io.Copy(w, body)
}

// fixture is a guild with a text channel, a member (alice) and a second
// member (bob), an endpoint, and a message of the application with a
// button, a disabled button, a link button and a string select.
type fixture struct {
	srv   *guildkittest.Server
	app   *app
	guild guildkit.Guild
	ch    guildkit.Channel
	alice guildkit.Snowflake
	bob   guildkit.Snowflake
	msg   guildkit.Message
}

func newFixture(t *testing.T, answer func(w http.ResponseWriter, r *http.Request, it *guildkit.Interaction)) *fixture {
	t.Helper()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "Guild", Features: []guildkit.GuildFeature{"COMMUNITY"}})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	alice := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}}).User.ID
	bob := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "bob"}}).User.ID
	msg := srv.AddApplicationMessage(ch.ID, guildkit.Message{Content: "Pick", Components: components.List{
		components.NewActionRow(components.PrimaryButton("go", "Go"), components.SecondaryButton("off", "Off").WithDisabled(true),
			components.LinkButton("https://example.com", "Site")),
		components.NewActionRow(components.NewStringSelect("color", components.NewOption("Red", "red"), components.NewOption("Blue", "blue"),
			components.NewOption("Green", "green")).WithValues(1, 2)),
	}})
	a := &app{t: t, pub: srv.Application().PublicKey, answer: answer}
	srv.SetInteractionsHandler(a)
	return &fixture{srv: srv, app: a, guild: g, ch: ch, alice: alice, bob: bob, msg: msg}
}

func answerWith(t *testing.T, resp *guildkit.InteractionResponse) func(http.ResponseWriter, *http.Request, *guildkit.Interaction) {
	return func(w http.ResponseWriter, _ *http.Request, _ *guildkit.Interaction) { reply(t, w, resp) }
}

func text(s string) *guildkit.InteractionMessageParams {
	return &guildkit.InteractionMessageParams{Content: guildkit.Some(s)}
}

// TestClickDeliversWhatThePlatformSends: the delivery is signed with the
// application's key over timestamp+body, with the platform's headers, and
// carries every field of the reference platform's interaction.
func TestClickDeliversWhatThePlatformSends(t *testing.T) {
	f := newFixture(t, answerWith(t, guildkit.MessageResponse(text("Hello"))))
	before := time.Now().Unix()
	out, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	require.Equal(t, guildkittest.OutcomeMessage, out.Kind, out.String())
	assert.Equal(t, "message: Hello", out.String())
	assert.False(t, out.Ephemeral)

	got := f.app.last()
	assert.Equal(t, "application/json", got.header.Get("Content-Type"))
	assert.Contains(t, got.header.Get("User-Agent"), "Discord-Interactions/1.0")
	ts, err := strconv.ParseInt(got.header.Get("X-Signature-Timestamp"), 10, 64)
	require.NoError(t, err)
	assert.InDelta(t, before, ts, 2)
	sig, err := hex.DecodeString(got.header.Get("X-Signature-Ed25519"))
	require.NoError(t, err)
	assert.True(t, ed25519.Verify(f.srv.Application().PublicKey, append([]byte(got.header.Get("X-Signature-Timestamp")), got.body...), sig))
	assert.Equal(t, hex.EncodeToString(f.srv.Application().PublicKey), f.srv.Application().PublicKeyHex())

	var raw map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(got.body, &raw))
	for _, k := range []string{"id", "application_id", "type", "data", "guild", "guild_id", "channel", "channel_id", "member", "token",
		"version", "message", "app_permissions", "locale", "guild_locale", "entitlements", "authorizing_integration_owners", "context",
		"attachment_size_limit"} {
		assert.Contains(t, raw, k)
	}
	assert.NotContains(t, raw, "user", "in a guild the user is member.user")
	it := got.it
	assert.Equal(t, f.srv.Application().ID, it.ApplicationID)
	assert.Equal(t, f.srv.BotID(), it.ApplicationID, "the application's id is its bot's")
	assert.Equal(t, guildkit.InteractionTypeMessageComponent, it.Type)
	assert.Equal(t, 1, it.Version)
	assert.Len(t, string(it.Token), 43, "256 random bits, base64url")
	assert.NotContains(t, string(it.Token), "+")
	assert.Equal(t, guildkit.Some(f.guild.ID), it.GuildID)
	assert.Equal(t, f.guild.ID, it.Guild.ID)
	assert.Equal(t, "en-US", it.Guild.Locale)
	assert.Equal(t, []guildkit.GuildFeature{"COMMUNITY"}, it.Guild.Features)
	assert.Equal(t, guildkit.Some(f.ch.ID), it.ChannelID)
	assert.Equal(t, f.ch.ID, it.Channel.ID)
	require.NotNil(t, it.Member)
	assert.Equal(t, f.alice, it.Member.User.ID)
	require.NotNil(t, it.Member.Permissions)
	assert.Equal(t, guildkittest.DefaultEveryonePermissions, *it.Member.Permissions)
	assert.Equal(t, guildkit.Permissions(1<<47-1|0x1F<<48), it.AppPermissions, "the bot owns the guild: every permission the platform defines (8866461766385663)")
	assert.Equal(t, guildkit.Some("en-US"), it.Locale)
	assert.Equal(t, guildkit.Some("en-US"), it.GuildLocale)
	assert.Equal(t, map[string]guildkit.Snowflake{"0": f.guild.ID}, it.AuthorizingIntegrationOwners)
	assert.Equal(t, guildkit.Some(guildkit.InteractionContextGuild), it.Context)
	assert.Equal(t, int64(10<<20), it.AttachmentSizeLimit)
	assert.NotNil(t, it.Entitlements)
	require.NotNil(t, it.Component)
	assert.Equal(t, "go", it.Component.CustomID)
	assert.Equal(t, components.TypeButton, it.Component.ComponentType)
	assert.Equal(t, 2, it.Component.ID, "the button's id as the platform numbered the message")
	require.NotNil(t, it.Message)
	assert.Equal(t, f.msg.ID, it.Message.ID)
	assert.Len(t, it.Message.Components, 2)

	// The answer is a message everyone sees, with its event.
	assert.Len(t, f.srv.ChannelMessages(f.ch.ID, f.bob), 2)
	created := f.srv.EventsNamed(guildkit.EventMessageCreate)
	require.Len(t, created, 1)
	assert.Equal(t, out.Message.ID, created[0].Data.(guildkit.Message).ID)
	assert.Equal(t, f.srv.BotID(), out.Message.Author.ID)
	assert.Equal(t, guildkit.Some(f.srv.Application().ID).Or(0), *out.Message.ApplicationID)

	d := f.srv.Deliveries()
	require.Len(t, d, 1)
	assert.Positive(t, d[0].Duration)
	assert.Less(t, d[0].Duration, 3*time.Second)
	d[0].Duration = 0
	require.NotNil(t, d[0].Answer, "the delivery keeps the answer")
	assert.Equal(t, guildkit.InteractionResponseChannelMessage, d[0].Answer.Type)
	assert.Equal(t, out.Response, d[0].Answer)
	d[0].Answer = nil
	assert.Equal(t, guildkittest.Delivery{InteractionID: it.ID, Type: guildkit.InteractionTypeMessageComponent, CustomID: "go",
		UserID: f.alice, Status: 200, AnswerType: guildkit.InteractionResponseChannelMessage}, d[0])
}

// TestClickRefusals: what the platform's client would not let a user do
// is an error matching ErrRefused, and nothing is delivered.
func TestClickRefusals(t *testing.T) {
	f := newFixture(t, answerWith(t, guildkit.MessageResponse(text("x"))))
	srv := f.srv
	hook := srv.AddWebhook(f.ch.ID, "plain")
	plain, err := srv.Client().Webhooks.Execute(t.Context(), hook.ID, hook.Token, &guildkit.WebhookExecuteParams{Wait: guildkit.Some(true),
		WithComponents: guildkit.Some(true), Content: guildkit.Some("not the app's"),
		Components: components.List{components.NewActionRow(components.LinkButton("https://example.com", "x"))}})
	require.NoError(t, err)
	premium := srv.AddApplicationMessage(f.ch.ID, guildkit.Message{Components: components.List{components.NewActionRow(components.PremiumButton(42))}})
	stranger := srv.AddUser(guildkit.User{Username: "stranger"}).ID
	hidden := srv.AddChannel(f.guild.ID, guildkit.Channel{Name: "staff", Type: guildkit.ChannelTypeGuildText,
		PermissionOverwrites: []guildkit.PermissionOverwrite{{ID: f.guild.ID, Type: guildkit.OverwriteTypeRole, Deny: guildkit.PermissionViewChannel}}})
	hiddenMsg := srv.AddApplicationMessage(hidden.ID, guildkit.Message{Components: components.List{components.NewActionRow(components.PrimaryButton("h", "H"))}})

	tests := []struct {
		name     string
		user     guildkit.Snowflake
		message  guildkit.Snowflake
		customID string
		want     string
	}{
		{"unknown message", f.alice, 12345, "go", "unknown message"},
		{"not the application's message", f.alice, plain.ID, "x", "not sent by the application"},
		{"custom_id not on the message", f.alice, f.msg.ID, "nope", "no component with custom_id"},
		{"empty custom_id", f.alice, f.msg.ID, "", "no component"},
		{"disabled button", f.alice, f.msg.ID, "off", "disabled"},
		{"select clicked", f.alice, f.msg.ID, "color", "is a select"},
		{"not a member", stranger, f.msg.ID, "go", "not a member"},
		{"cannot see the channel", f.alice, hiddenMsg.ID, "h", "cannot see channel"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := srv.Click(t.Context(), tt.user, tt.message, tt.customID)
			require.ErrorIs(t, err, guildkittest.ErrRefused)
			assert.Contains(t, err.Error(), tt.want)
			assert.Nil(t, out)
		})
	}
	// Link and premium buttons have no custom_id: there is nothing to click.
	_, err = srv.Click(t.Context(), f.alice, premium.ID, "")
	require.ErrorIs(t, err, guildkittest.ErrRefused)
	assert.Zero(t, f.app.count(), "nothing was delivered")
	assert.Empty(t, srv.Deliveries())

	// The guild owner sees the hidden channel: the same click is delivered.
	out, err := srv.Click(t.Context(), srv.BotID(), hiddenMsg.ID, "h")
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeMessage, out.Kind)

	// Without an endpoint the interaction goes to the gateway; with no
	// session connected it fails, as with an endpoint out of reach.
	srv.SetInteractionsHandler(nil)
	out, err = srv.Click(t.Context(), f.alice, f.msg.ID, "go")
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeFailed, out.Kind)
	assert.Contains(t, out.Failure, "no gateway session")
	d := srv.Deliveries()
	assert.True(t, d[len(d)-1].Gateway)
}

// TestSelect: values among the options and within min/max; non-string
// selects carry resolved data.
func TestSelect(t *testing.T) {
	f := newFixture(t, answerWith(t, guildkit.DeferredUpdateResponse()))
	srv := f.srv
	role := srv.AddRole(f.guild.ID, guildkit.Role{Name: "Blue"})
	voice := srv.AddChannel(f.guild.ID, guildkit.Channel{Name: "voice", Type: guildkit.ChannelTypeGuildVoice})
	msg := srv.AddApplicationMessage(f.ch.ID, guildkit.Message{Components: components.List{
		components.NewActionRow(components.NewUserSelect("users").WithValues(1, 2)),
		components.NewActionRow(components.NewRoleSelect("roles")),
		components.NewActionRow(components.NewMentionableSelect("who").WithValues(1, 2)),
		components.NewActionRow(components.NewChannelSelect("chan", guildkit.ChannelTypeGuildText)),
		components.NewActionRow(components.NewStringSelect("off", components.NewOption("A", "a")).WithDisabled(true)),
	}})

	out, err := srv.Select(t.Context(), f.alice, f.msg.ID, "color", "red", "blue")
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeDeferred, out.Kind)
	it := f.app.last().it
	assert.Equal(t, []string{"red", "blue"}, it.Component.Values)
	assert.Equal(t, components.TypeStringSelect, it.Component.ComponentType)
	assert.Nil(t, it.Resolved)

	_, err = srv.Select(t.Context(), f.alice, msg.ID, "users", f.alice.String(), f.bob.String())
	require.NoError(t, err)
	it = f.app.last().it
	require.NotNil(t, it.Resolved)
	assert.Equal(t, "alice", it.Resolved.Users[f.alice].Username)
	assert.Contains(t, it.Resolved.Members, f.bob)
	assert.Nil(t, it.Resolved.Members[f.bob].User, "resolved members are partial")
	var rawRes struct {
		Resolved struct {
			Members map[string]map[string]any `json:"members"`
		} `json:"resolved"`
	}
	require.NoError(t, json.Unmarshal(it.Data, &rawRes))
	assert.NotContains(t, rawRes.Resolved.Members[f.bob.String()], "deaf")
	assert.Contains(t, rawRes.Resolved.Members[f.bob.String()], "permissions")

	_, err = srv.Select(t.Context(), f.alice, msg.ID, "roles", role.ID.String())
	require.NoError(t, err)
	assert.Equal(t, "Blue", f.app.last().it.Resolved.Roles[role.ID].Name)

	_, err = srv.Select(t.Context(), f.alice, msg.ID, "who", role.ID.String(), f.bob.String())
	require.NoError(t, err)
	res := f.app.last().it.Resolved
	assert.Contains(t, res.Roles, role.ID)
	assert.Contains(t, res.Users, f.bob)

	_, err = srv.Select(t.Context(), f.alice, msg.ID, "chan", f.ch.ID.String())
	require.NoError(t, err)
	assert.Equal(t, "general", f.app.last().it.Resolved.Channels[f.ch.ID].Name)

	delivered := f.app.count()
	refusals := []struct {
		name, customID string
		msg            guildkit.Snowflake
		values         []string
		want           string
	}{
		{"not an option", "color", f.msg.ID, []string{"pink"}, "no option"},
		{"too many", "color", f.msg.ID, []string{"red", "blue", "green"}, "takes 1 to 2"},
		{"too few", "color", f.msg.ID, nil, "takes 1 to 2"},
		{"twice", "color", f.msg.ID, []string{"red", "red"}, "twice"},
		{"button", "go", f.msg.ID, []string{"x"}, "is a button"},
		{"disabled", "off", msg.ID, []string{"a"}, "disabled"},
		{"not a member", "users", msg.ID, []string{"999"}, "not a member"},
		{"not an id", "users", msg.ID, []string{"bob"}, "not an id"},
		{"not a role", "roles", msg.ID, []string{f.alice.String()}, "not a role"},
		{"neither", "who", msg.ID, []string{f.ch.ID.String()}, "neither"},
		{"channel type", "chan", msg.ID, []string{voice.ID.String()}, "channel types"},
		{"unknown channel", "chan", msg.ID, []string{"77"}, "not a channel"},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			_, err := srv.Select(t.Context(), f.alice, tt.msg, tt.customID, tt.values...)
			require.ErrorIs(t, err, guildkittest.ErrRefused)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	assert.Equal(t, delivered, f.app.count())
}

// TestEveryAnswerType: what the user sees for each callback type.
func TestEveryAnswerType(t *testing.T) {
	modal := guildkit.ModalResponse("form", "Form", components.NewLabel("Name", components.NewTextInput("name", components.TextInputShort)))
	update := &guildkit.InteractionMessageParams{Content: guildkit.Some("Chosen"),
		Components: components.List{components.NewActionRow(components.PrimaryButton("go", "Again"))}}
	tests := []struct {
		name      string
		resp      *guildkit.InteractionResponse
		kind      guildkittest.OutcomeKind
		ephemeral bool
		str       string
	}{
		{"message", guildkit.MessageResponse(text("Hi")), guildkittest.OutcomeMessage, false, "message: Hi"},
		{"ephemeral message", guildkit.MessageResponse(&guildkit.InteractionMessageParams{Content: guildkit.Some("Only you"),
			Flags: guildkit.Some(guildkit.MessageFlagEphemeral)}), guildkittest.OutcomeMessage, true, "message (ephemeral): Only you"},
		{"deferred message", guildkit.DeferredMessageResponse(false), guildkittest.OutcomeDeferred, false, "deferred: loading"},
		{"deferred ephemeral", guildkit.DeferredMessageResponse(true), guildkittest.OutcomeDeferred, true, "deferred (ephemeral): loading"},
		{"deferred update", guildkit.DeferredUpdateResponse(), guildkittest.OutcomeDeferred, false, "deferred"},
		{"update", guildkit.UpdateResponse(update), guildkittest.OutcomeUpdated, false, "updated: Chosen"},
		{"modal", modal, guildkittest.OutcomeModal, false, `modal "Form" (form)`},
		{"launch activity", guildkit.LaunchActivityResponse(), guildkittest.OutcomeLaunchActivity, false, "launch activity"},
		{"autocomplete answers no click", guildkit.AutocompleteResponse(), guildkittest.OutcomeFailed, false,
			"failed: the answer is invalid: Invalid Form Body: type: APPLICATION_COMMAND_AUTOCOMPLETE_RESULT cannot answer MESSAGE_COMPONENT interactions"},
		{"pong answers no click", &guildkit.InteractionResponse{Type: guildkit.InteractionResponsePong}, guildkittest.OutcomeFailed, false, ""},
		{"invalid modal", guildkit.ModalResponse("form", "Form"), guildkittest.OutcomeFailed, false, ""},
		{"V2 with content", guildkit.MessageResponse(&guildkit.InteractionMessageParams{Content: guildkit.Some("x"),
			Flags: guildkit.Some(guildkit.MessageFlagIsComponentsV2), Components: components.List{components.NewTextDisplay("t")}}),
			guildkittest.OutcomeFailed, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, answerWith(t, tt.resp))
			out, err := f.srv.Click(t.Context(), f.alice, f.msg.ID, "go")
			require.NoError(t, err)
			assert.Equal(t, tt.kind, out.Kind, out.String())
			assert.Equal(t, tt.ephemeral, out.Ephemeral)
			if tt.str != "" {
				assert.Equal(t, tt.str, out.String())
			}
			require.NotNil(t, out.Interaction)
			switch tt.kind {
			case guildkittest.OutcomeFailed:
				assert.Contains(t, out.Failure, "the answer is invalid")
				assert.Empty(t, f.srv.EventsNamed(guildkit.EventMessageCreate))
				assert.Len(t, f.srv.ChannelMessages(f.ch.ID, f.alice), 1)
			case guildkittest.OutcomeUpdated:
				stored, _ := f.srv.WebhookMessage(f.msg.ID)
				assert.Equal(t, "Chosen", stored.Content)
				assert.Len(t, stored.Components, 1)
				assert.NotNil(t, stored.EditedTimestamp)
				ev := f.srv.EventsNamed(guildkit.EventMessageUpdate)
				require.Len(t, ev, 1)
				assert.Equal(t, f.msg.ID, ev[0].Data.(guildkit.Message).ID)
			case guildkittest.OutcomeDeferred:
				if tt.resp.Type == guildkit.InteractionResponseDeferredChannelMessage {
					assert.True(t, out.Message.Flags.Has(guildkit.MessageFlagLoading))
				} else {
					assert.Equal(t, f.msg.ID, out.Message.ID)
				}
			case guildkittest.OutcomeModal:
				require.NotNil(t, out.Modal)
				assert.Equal(t, "form", out.Modal.Modal.CustomID)
				assert.Equal(t, out.Interaction.ID, out.Modal.Interaction.ID)
			}
			if tt.ephemeral {
				assert.Len(t, f.srv.ChannelMessages(f.ch.ID, f.bob), 1, "bob does not see alice's ephemeral message")
				assert.Len(t, f.srv.ChannelMessages(f.ch.ID, f.alice), 2)
				assert.Empty(t, f.srv.EventsNamed(guildkit.EventMessageCreate), "no MESSAGE_CREATE for everyone")
				_, err := f.srv.Click(t.Context(), f.bob, out.Message.ID, "go")
				assert.ErrorIs(t, err, guildkittest.ErrRefused)
			}
		})
	}
}

// TestApplicationWebhookMessagesAreClickable: a message the application
// sends through its webhook carries usable components.
func TestApplicationWebhookMessagesAreClickable(t *testing.T) {
	f := newFixture(t, answerWith(t, guildkit.MessageResponse(text("ok"))))
	hook := f.srv.ApplicationWebhook(f.ch.ID)
	assert.Equal(t, hook.ID, f.srv.ApplicationWebhook(f.ch.ID).ID, "one per channel")
	require.NotNil(t, hook.ApplicationID)
	assert.Equal(t, f.srv.Application().ID, *hook.ApplicationID)
	wc, err := guildkit.NewWebhookClientFromID(hook.ID, hook.Token, guildkit.WithBaseURL(f.srv.BaseURL()))
	require.NoError(t, err)
	m, err := wc.Execute(t.Context(), &guildkit.WebhookExecuteParams{Wait: guildkit.Some(true), ApplicationOwned: true,
		Components: components.List{components.NewActionRow(components.DangerButton("del", "Delete"))}})
	require.NoError(t, err)
	out, err := f.srv.Click(t.Context(), f.alice, m.ID, "del")
	require.NoError(t, err)
	assert.Equal(t, "message: ok", out.String())
	assert.Equal(t, m.ID, f.app.last().it.Message.ID)
}

// TestOutcomeInteractionIsDecoded: the Outcome's interaction is what the
// application decoded, typed data included.
func TestOutcomeInteractionIsDecoded(t *testing.T) {
	f := newFixture(t, answerWith(t, guildkit.DeferredUpdateResponse()))
	out, err := f.srv.Select(t.Context(), f.alice, f.msg.ID, "color", "green")
	require.NoError(t, err)
	require.NotNil(t, out.Interaction.Component)
	assert.Equal(t, "color", out.Interaction.CustomID())
	assert.Equal(t, []string{"green"}, out.Interaction.Component.Values)
	assert.JSONEq(t, string(f.app.last().body), string(out.Interaction.Raw))
}
