package guildkittest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// intentsNoPrivileged is GUILDS, GUILD_MODERATION, GUILD_INTEGRATIONS,
// GUILD_WEBHOOKS, GUILD_INVITES (spec §5: 117).
const intentsNoPrivileged = 117

func TestGatewayURLRoutes(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	for _, prefix := range []string{"", guildkittest.APIPrefix} {
		resp, err := http.Get(srv.URL + prefix + "/gateway")
		if err != nil {
			t.Fatal(err)
		}
		var g map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&g)
		resp.Body.Close()
		if g["url"] != srv.GatewayURL() || strings.Contains(g["url"].(string), "?") || !strings.HasPrefix(g["url"].(string), "ws://127.0.0.1:") {
			t.Errorf("GET %s/gateway = %v", prefix, g)
		}
		resp, err = http.Get(srv.URL + prefix + "/gateway/bot")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("GET /gateway/bot without a token: %d, want 401", resp.StatusCode)
		}
		req, _ := http.NewRequest("GET", srv.URL+prefix+"/gateway/bot", nil)
		req.Header.Set("Authorization", "Bot "+srv.Token())
		resp, err = http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var gb struct {
			URL    string `json:"url"`
			Shards int    `json:"shards"`
			Limit  struct {
				Total, Remaining, ResetAfter, MaxConcurrency int
			} `json:"session_start_limit"`
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		_ = json.Unmarshal(b, &gb)
		var raw map[string]map[string]any
		_ = json.Unmarshal(b, &raw)
		if gb.URL != srv.GatewayURL() || gb.Shards != 1 || raw["session_start_limit"]["total"] != 1000.0 ||
			raw["session_start_limit"]["remaining"] != 1000.0 || raw["session_start_limit"]["max_concurrency"] != 1.0 {
			t.Errorf("GET /gateway/bot = %s", b)
		}
		req, _ = http.NewRequest("GET", srv.URL+prefix+"/oauth2/applications/@me", nil)
		req.Header.Set("Authorization", "Bot "+srv.Token())
		resp, err = http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var app map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&app)
		resp.Body.Close()
		for _, k := range []string{"id", "name", "description", "icon", "bot_public", "bot_require_code_grant", "owner", "verify_key", "flags"} {
			if _, ok := app[k]; !ok {
				t.Errorf("application lacks %q: %v", k, app)
			}
		}
		if _, ok := app["interactions_endpoint_url"]; ok {
			t.Errorf("interactions_endpoint_url set though none is: %v", app)
		}
		owner, _ := app["owner"].(map[string]any)
		for _, k := range []string{"id", "username", "discriminator", "avatar"} {
			if _, ok := owner[k]; !ok {
				t.Errorf("owner lacks %q", k)
			}
		}
		if app["flags"] != float64(1<<12|1<<14|1<<18) {
			t.Errorf("flags = %v, want the three approved privileged intents", app["flags"])
		}
	}
}

func TestGatewayIdentifyReadyGuildCreate(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "g"})
	srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	u := srv.AddUser(guildkit.User{Username: "alice"})
	srv.AddMember(g.ID, guildkit.Member{User: &u})
	c, r, f := connect(t, srv, intentsNoPrivileged|2|1<<8, map[string]any{"shard": []int{0, 1}})
	if f.seq() != 1 {
		t.Errorf("READY s = %d, want 1", f.seq())
	}
	if r.V != 10 || r.SessionID == "" || len(r.Shard) != 2 || len(r.Guilds) != 1 || !r.Guilds[0].Unavailable || r.Guilds[0].ID != g.ID.String() {
		t.Errorf("READY = %s", f.D)
	}
	if r.ResumeGatewayURL == "" || r.ResumeGatewayURL == srv.GatewayURL() || !strings.HasPrefix(r.ResumeGatewayURL, "ws://") {
		t.Errorf("resume_gateway_url = %q, want a URL distinct from %q", r.ResumeGatewayURL, srv.GatewayURL())
	}
	var rd map[string]any
	_ = json.Unmarshal(f.D, &rd)
	for _, k := range []string{"v", "user", "guilds", "session_id", "resume_gateway_url", "shard", "application", "private_channels"} {
		if _, ok := rd[k]; !ok {
			t.Errorf("READY lacks %q", k)
		}
	}
	for _, k := range []string{"id", "username", "discriminator", "avatar", "mfa_enabled", "bot", "verified", "flags"} {
		if _, ok := r.User[k]; !ok {
			t.Errorf("READY.user lacks %q", k)
		}
	}
	if _, ok := r.Application["flags"]; !ok || r.Application["id"] != srv.Application().ID.String() {
		t.Errorf("READY.application = %v", r.Application)
	}
	gc := c.read()
	if gc.name() != "GUILD_CREATE" || gc.seq() != 2 {
		t.Fatalf("after READY: %s s=%d", gc.name(), gc.seq())
	}
	var gd map[string]any
	_ = json.Unmarshal(gc.D, &gd)
	for _, k := range []string{"id", "name", "roles", "channels", "threads", "members", "voice_states", "emojis", "stickers",
		"guild_scheduled_events", "presences", "stage_instances", "soundboard_sounds", "member_count", "joined_at", "large",
		"afk_timeout", "default_message_notifications", "explicit_content_filter", "features", "mfa_level", "nsfw_level",
		"owner_id", "preferred_locale", "premium_progress_bar_enabled", "system_channel_flags", "verification_level", "premium_tier"} {
		if _, ok := gd[k]; !ok {
			t.Errorf("GUILD_CREATE lacks %q", k)
		}
	}
	// discord.js marks a guild READY listed available only on reading
	// "unavailable": false.
	if v, ok := gd["unavailable"]; !ok || v != false {
		t.Errorf("GUILD_CREATE unavailable = %v (present %t), want false", v, ok)
	}
	for _, ch := range gd["channels"].([]any) {
		for _, k := range []string{"id", "type", "name", "position"} {
			if _, ok := ch.(map[string]any)[k]; !ok {
				t.Errorf("channel lacks %q: %v", k, ch)
			}
		}
	}
	members, _ := gd["members"].([]any)
	if len(members) != 2 || gd["member_count"] != 2.0 {
		t.Errorf("GUILD_CREATE members %d, member_count %v; want 2 (the bot, owner, and alice)", len(members), gd["member_count"])
	}
	for _, m := range members {
		m := m.(map[string]any)
		for _, k := range []string{"user", "flags", "roles", "deaf", "mute", "joined_at"} {
			if _, ok := m[k]; !ok {
				t.Errorf("member lacks %q: %v", k, m)
			}
		}
	}
	for _, r := range gd["roles"].([]any) {
		if _, ok := r.(map[string]any)["colors"].(map[string]any); !ok {
			t.Errorf("role without colors: %v", r)
		}
		for _, k := range []string{"id", "name", "color", "hoist", "managed", "mentionable", "permissions", "position", "flags"} {
			if _, ok := r.(map[string]any)[k]; !ok {
				t.Errorf("role lacks %q: %v", k, r)
			}
		}
	}

	// Heartbeats: d null, 0 or a number, each acknowledged.
	for _, d := range []any{nil, 0, 2} {
		c.send(1, d)
		if ack := c.read(); ack.Op != 11 {
			t.Fatalf("heartbeat %v answered with op %d", d, ack.Op)
		}
	}

	// An event caused by REST arrives with the next sequence number.
	if _, err := srv.Client().Roles.Create(t.Context(), g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("mods")}); err != nil {
		t.Fatal(err)
	}
	ev := c.until("GUILD_ROLE_CREATE")
	var rc struct {
		GuildID string         `json:"guild_id"`
		Role    map[string]any `json:"role"`
	}
	_ = json.Unmarshal(ev.D, &rc)
	if ev.seq() != 3 || rc.GuildID != g.ID.String() || rc.Role["name"] != "mods" {
		t.Errorf("GUILD_ROLE_CREATE s=%d d=%s", ev.seq(), ev.D)
	}
	sessions := srv.GatewaySessions()
	if len(sessions) != 1 || !sessions[0].Connected || sessions[0].Properties["browser"] != "rawclient" || sessions[0].URL != "gateway" {
		t.Errorf("GatewaySessions = %+v", sessions)
	}
	_ = time.Second
}

// TestGatewayPrivilegedIntentsFromSeed: a seed's application lists the
// approved privileged intents; the others close IDENTIFY with 4014 and
// are absent from the application's flags.
func TestGatewayPrivilegedIntentsFromSeed(t *testing.T) {
	t.Parallel()
	if _, err := guildkittest.ParseSeed(strings.NewReader(`{"application": {"privileged_intents": ["GUILDS"]}}`)); err == nil ||
		!strings.Contains(err.Error(), "application.privileged_intents[0]") {
		t.Errorf("a seed naming GUILDS as privileged: %v", err)
	}
	seed, err := guildkittest.ParseSeed(strings.NewReader(`{"application": {"privileged_intents": ["GUILD_MEMBERS"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	srv := guildkittest.NewServer(t)
	srv.ApplySeed(seed)
	if got := srv.PrivilegedIntentsApproved(); got != 1<<1 {
		t.Errorf("approved %b, want GUILD_MEMBERS only", got)
	}
	c := dial(t, srv.GatewayURL(), "/?v=10&encoding=json")
	c.hello()
	c.identify(srv.Token(), 1|1<<15, nil)
	if code := c.closed(); code != 4014 {
		t.Errorf("MESSAGE_CONTENT not approved: closed with %d, want 4014", code)
	}
	_, r, _ := connect(t, srv, 1|1<<1, nil)
	if r.Application["flags"] != float64(1<<14) {
		t.Errorf("READY application.flags = %v, want GATEWAY_GUILD_MEMBERS (1<<14)", r.Application["flags"])
	}
}

// TestGatewayTokenWithBotPrefix: IDENTIFY and RESUME take the token with
// or without "Bot " (discordgo sends the prefix).
func TestGatewayTokenWithBotPrefix(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	c := dial(t, srv.GatewayURL(), "/?v=9&encoding=json")
	c.hello()
	c.identify("Bot "+srv.Token(), 1, nil)
	var r ready
	_ = json.Unmarshal(c.until("READY").D, &r)
	if r.V != 9 {
		t.Errorf("READY v = %d on a v=9 connection", r.V)
	}
	c.ws.CloseNow()
	waitDisconnected(t, srv, r.SessionID)
	c2 := dial(t, r.ResumeGatewayURL, "/?v=9&encoding=json")
	c2.hello()
	c2.send(6, map[string]any{"token": "Bot " + srv.Token(), "session_id": r.SessionID, "seq": 1})
	if f := c2.read(); f.name() != "RESUMED" {
		t.Errorf("resume with the prefix: op %d %s", f.Op, f.name())
	}
	if n := srv.DispatchGatewayEvent("X", 0, 0, json.RawMessage(`{}`)); n != 1 {
		t.Errorf("DispatchGatewayEvent queued for %d sessions, want 1", n)
	}
}

// TestGatewayGuildCreateMembers: which members GUILD_CREATE lists (spec
// §3.6): without GUILD_PRESENCES the bot and members in voice; with it,
// every member of a small guild, and of a large one (over
// large_threshold) those online, with a role or a nickname, or in voice.
func TestGatewayGuildCreateMembers(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithGateway(guildkittest.GatewaySettings{MaxConcurrency: 4}))
	g := srv.AddGuild(guildkit.Guild{})
	voice := srv.AddChannel(g.ID, guildkit.Channel{Name: "voice", Type: guildkit.ChannelTypeGuildVoice})
	role := srv.AddRole(g.ID, guildkit.Role{Name: "r", Position: 1})
	nick := "nick"
	var online, inVoice, withRole, withNick guildkit.Member
	for i := range 60 {
		m := guildkit.Member{User: &guildkit.User{Username: "m" + strings.Repeat("x", i%3)}}
		switch i {
		case 1:
			m.Roles = []guildkit.Snowflake{role.ID}
		case 2:
			m.Nick = &nick
		}
		added := srv.AddMember(g.ID, m)
		switch i {
		case 0:
			online = added
			srv.SetOnline(g.ID, added.User.ID, true)
		case 1:
			withRole = added
		case 2:
			withNick = added
		case 3:
			inVoice = added
			srv.SetVoiceChannel(g.ID, added.User.ID, voice.ID)
		}
	}
	ids := func(intents uint64, shard int, large int) (map[string]bool, map[string]any) {
		t.Helper()
		c, _, _ := connect(t, srv, intents, map[string]any{"shard": []int{shard, 4}, "large_threshold": large})
		_ = c
		f := c.until("GUILD_CREATE")
		var d struct {
			Members []struct {
				User struct{ ID string } `json:"user"`
			} `json:"members"`
			VoiceStates []map[string]any `json:"voice_states"`
			Presences   []map[string]any `json:"presences"`
		}
		_ = json.Unmarshal(f.D, &d)
		out := map[string]bool{}
		for _, m := range d.Members {
			out[m.User.ID] = true
		}
		var all map[string]any
		_ = json.Unmarshal(f.D, &all)
		if len(d.VoiceStates) != 1 || d.VoiceStates[0]["user_id"] != inVoice.User.ID.String() || d.VoiceStates[0]["channel_id"] != voice.ID.String() {
			t.Errorf("voice_states = %v", d.VoiceStates)
		}
		return out, all
	}
	// The guild's shard of 4 is the same for every session: use the one
	// key the guild id gives and move the identify window between them.
	shard := int((uint64(g.ID) >> 22) % 4)
	bot := srv.BotID().String()

	got, all := ids(1, shard, 50) // no presences: the bot and the member in voice
	if len(got) != 2 || !got[bot] || !got[inVoice.User.ID.String()] {
		t.Errorf("without GUILD_PRESENCES: members %v", got)
	}
	if all["member_count"] != 61.0 || all["large"] != true {
		t.Errorf("member_count %v large %v", all["member_count"], all["large"])
	}
	srv.AdvanceClock(5 * time.Second)
	got, _ = ids(1|1<<8, shard, 50) // large: online, role, nick, voice, and the bot
	for _, m := range []guildkit.Member{online, withRole, withNick, inVoice} {
		if !got[m.User.ID.String()] {
			t.Errorf("large guild with GUILD_PRESENCES lacks %s", m.User.ID)
		}
	}
	if len(got) != 5 {
		t.Errorf("large guild with GUILD_PRESENCES lists %d members, want 5", len(got))
	}
	srv.AdvanceClock(5 * time.Second)
	got, all = ids(1|1<<8, shard, 250) // small at threshold 250: everyone
	if len(got) != 61 || all["large"] != false {
		t.Errorf("small guild: %d members, large %v", len(got), all["large"])
	}
}
