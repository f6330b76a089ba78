package guildkittest_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// keysOf returns the sorted keys of a JSON object.
func keysOf(t *testing.T, d json.RawMessage) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(d, &m); err != nil {
		t.Fatalf("not an object: %s", d)
	}
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TestGatewayEventPayloads: the operations of the interface documents
// emit the reference platform's payloads (spec §6, §7).
func TestGatewayEventPayloads(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	ctx := t.Context()
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	u := srv.AddUser(guildkit.User{Username: "dave"})
	srv.AddMember(g.ID, guildkit.Member{User: &u})
	w := srv.AddUser(guildkit.User{Username: "erin"})
	srv.AddMember(g.ID, guildkit.Member{User: &w})
	integ := srv.AddIntegration(g.ID, guildkit.Integration{Name: "i", Type: guildkit.IntegrationTypeYouTube})
	inv := srv.AddInvite(g.ID, ch.ID, guildkit.Invite{})
	c, _, _ := connect(t, srv, intentsNoPrivileged|1<<1|1<<9|1<<15, nil)
	c.until("GUILD_CREATE")
	cl := srv.Client()

	expect := func(name string, keys ...string) json.RawMessage {
		t.Helper()
		f := c.until(name)
		slices.Sort(keys)
		got := keysOf(t, f.D)
		for _, k := range keys {
			if !slices.Contains(got, k) {
				t.Errorf("%s lacks %q: %s", name, k, f.D)
			}
		}
		var d struct {
			GuildID string `json:"guild_id"`
		}
		_ = json.Unmarshal(f.D, &d)
		if slices.Contains(keys, "guild_id") && d.GuildID != g.ID.String() {
			t.Errorf("%s guild_id %q", name, d.GuildID)
		}
		return f.D
	}
	exact := func(name string, keys ...string) json.RawMessage {
		t.Helper()
		d := expect(name, keys...)
		if got := keysOf(t, d); !slices.Equal(got, keys) {
			t.Errorf("%s keys %v, want exactly %v", name, got, keys)
		}
		return d
	}

	if _, err := cl.Channels.Create(ctx, g.ID, &guildkit.ChannelCreateParams{Name: "new"}); err != nil {
		t.Fatal(err)
	}
	expect("CHANNEL_CREATE", "id", "type", "guild_id", "name", "position")

	role, err := cl.Roles.Create(ctx, g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("r")})
	if err != nil {
		t.Fatal(err)
	}
	d := exact("GUILD_ROLE_CREATE", "guild_id", "role")
	var rc struct {
		Role map[string]any `json:"role"`
	}
	_ = json.Unmarshal(d, &rc)
	for _, k := range []string{"id", "name", "color", "colors", "hoist", "position", "permissions", "managed", "mentionable", "flags"} {
		if _, ok := rc.Role[k]; !ok {
			t.Errorf("role lacks %q", k)
		}
	}
	if _, err := cl.Roles.Modify(ctx, g.ID, role.ID, &guildkit.RoleModifyParams{Name: guildkit.Some("r2")}); err != nil {
		t.Fatal(err)
	}
	exact("GUILD_ROLE_UPDATE", "guild_id", "role")
	if err := cl.Roles.Delete(ctx, g.ID, role.ID); err != nil {
		t.Fatal(err)
	}
	d = exact("GUILD_ROLE_DELETE", "guild_id", "role_id")
	if !json.Valid(d) || !slices.Contains(keysOf(t, d), "role_id") {
		t.Errorf("GUILD_ROLE_DELETE %s", d)
	}

	if _, err := cl.Members.Modify(ctx, g.ID, u.ID, &guildkit.MemberModifyParams{Nick: guildkit.Some("d")}); err != nil {
		t.Fatal(err)
	}
	expect("GUILD_MEMBER_UPDATE", "guild_id", "user", "roles", "nick", "flags", "pending", "deaf", "mute", "joined_at", "avatar")

	if err := cl.Members.Remove(ctx, g.ID, w.ID); err != nil {
		t.Fatal(err)
	}
	exact("GUILD_MEMBER_REMOVE", "guild_id", "user")

	if err := cl.Bans.Create(ctx, g.ID, u.ID, nil); err != nil {
		t.Fatal(err)
	}
	d = exact("GUILD_BAN_ADD", "guild_id", "user")
	var ban struct {
		User map[string]any `json:"user"`
	}
	_ = json.Unmarshal(d, &ban)
	for _, k := range []string{"id", "username", "discriminator", "avatar"} {
		if _, ok := ban.User[k]; !ok {
			t.Errorf("GUILD_BAN_ADD user lacks %q", k)
		}
	}
	if err := cl.Bans.Remove(ctx, g.ID, u.ID); err != nil {
		t.Fatal(err)
	}
	exact("GUILD_BAN_REMOVE", "guild_id", "user")

	if err := cl.Guilds.DeleteIntegration(ctx, g.ID, integ.ID); err != nil {
		t.Fatal(err)
	}
	exact("GUILD_INTEGRATIONS_UPDATE", "guild_id")
	d = expect("INTEGRATION_DELETE", "id", "guild_id")
	if !slices.Contains(keysOf(t, d), "id") {
		t.Errorf("INTEGRATION_DELETE %s", d)
	}

	if _, err := cl.Invites.Delete(ctx, inv.Code); err != nil {
		t.Fatal(err)
	}
	exact("INVITE_DELETE", "channel_id", "code", "guild_id")

	hook, err := cl.Webhooks.Create(ctx, ch.ID, &guildkit.WebhookCreateParams{Name: "hook"})
	if err != nil {
		t.Fatal(err)
	}
	exact("WEBHOOKS_UPDATE", "channel_id", "guild_id")

	if _, err := cl.Guilds.ModifyWidget(ctx, g.ID, &guildkit.GuildWidgetModifyParams{Enabled: guildkit.Some(true), ChannelID: guildkit.Some(ch.ID)}); err != nil {
		t.Fatal(err)
	}
	expect("GUILD_UPDATE", "id", "name", "roles", "emojis", "features", "premium_tier", "widget_enabled")
	if _, err := cl.Guilds.GetWidget(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	expect("INVITE_CREATE", "channel_id", "code", "created_at", "guild_id", "max_age", "max_uses", "temporary", "uses", "expires_at")

	msg, err := cl.Webhooks.Execute(ctx, hook.ID, hook.Token, &guildkit.WebhookExecuteParams{Content: guildkit.Some("hi"), Wait: guildkit.Some(true)})
	if err != nil {
		t.Fatal(err)
	}
	expect("MESSAGE_CREATE", "id", "channel_id", "guild_id", "author", "content", "timestamp", "edited_timestamp", "tts",
		"mention_everyone", "mentions", "mention_roles", "attachments", "embeds", "pinned", "type", "webhook_id", "channel_type")
	if _, err := cl.Webhooks.EditMessage(ctx, hook.ID, hook.Token, msg.ID, &guildkit.WebhookMessageEditParams{Content: guildkit.Some("edited")}); err != nil {
		t.Fatal(err)
	}
	expect("MESSAGE_UPDATE", "id", "channel_id", "guild_id", "content", "edited_timestamp")
	if err := cl.Webhooks.DeleteMessage(ctx, hook.ID, hook.Token, msg.ID, nil); err != nil {
		t.Fatal(err)
	}
	exact("MESSAGE_DELETE", "channel_id", "guild_id", "id")
}

// TestGatewayMessageContent: without MESSAGE_CONTENT a session gets a
// message's content blanked, unless the message mentions the bot.
func TestGatewayMessageContent(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithGateway(guildkittest.GatewaySettings{MaxConcurrency: 3}))
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	hook := srv.AddWebhook(ch.ID, "hook")
	blind, _, _ := connect(t, srv, 1<<9, map[string]any{"shard": []int{0, 1}})
	srv.AdvanceClock(5e9)
	seeing, _, _ := connect(t, srv, 1<<9|1<<15, map[string]any{"shard": []int{0, 1}})
	srv.AdvanceClock(5e9)
	none, _, _ := connect(t, srv, 1, nil)
	content := func(f wsFrame) (string, int) {
		var m struct {
			Content string            `json:"content"`
			Embeds  []json.RawMessage `json:"embeds"`
		}
		_ = json.Unmarshal(f.D, &m)
		return m.Content, len(m.Embeds)
	}
	for _, text := range []string{"secret plans", "hey <@" + srv.BotID().String() + ">"} {
		_, err := srv.Client().Webhooks.Execute(t.Context(), hook.ID, hook.Token, &guildkit.WebhookExecuteParams{
			Content: guildkit.Some(text), Embeds: []guildkit.Embed{{Title: "t"}},
		})
		if err != nil {
			t.Fatal(err)
		}
		mentioned := text != "secret plans"
		if got, embeds := content(blind.until("MESSAGE_CREATE")); (got == text) != mentioned || (embeds == 1) != mentioned {
			t.Errorf("without MESSAGE_CONTENT: content %q embeds %d for %q", got, embeds, text)
		}
		if got, embeds := content(seeing.until("MESSAGE_CREATE")); got != text || embeds != 1 {
			t.Errorf("with MESSAGE_CONTENT: content %q embeds %d", got, embeds)
		}
	}
	srv.DispatchGatewayEvent("MARK", g.ID, 0, json.RawMessage(`{}`))
	if got := none.collect("MARK"); len(got) != 0 {
		t.Errorf("a session without GUILD_MESSAGES got %v", got)
	}
}
