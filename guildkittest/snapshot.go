package guildkittest

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/seed012df1e9/guildkit"
)

// stateVersion is the version of the state file's format; LoadState
// refuses any other.
const stateVersion = 1

// stateFile is everything a [Server] keeps, as [Server.SaveState] writes
// it. The event and request logs are not part of it: they are a record of
// what happened, not state an operation reads.
type stateFile struct {
	Version          int                                         `json:"version"`
	LastID           guildkit.Snowflake                          `json:"last_id"`
	Bot              guildkit.Snowflake                          `json:"bot_id"`
	BotToken         string                                      `json:"bot_token"`
	Tokens           map[string]guildkit.Snowflake               `json:"tokens"`
	Users            []guildkit.User                             `json:"users"`
	Guilds           []guildFile                                 `json:"guilds"`
	Invites          []inviteFile                                `json:"invites"`
	ScheduledEvents  []guildkit.GuildScheduledEvent              `json:"scheduled_events"`
	MembersIntentOff bool                                        `json:"members_intent_off,omitempty"`
	Webhooks         []guildkit.Webhook                          `json:"webhooks"`
	WebhookMessages  []webhookMessageFile                        `json:"webhook_messages"`
	WebhookThreads   map[guildkit.Snowflake]WebhookThreadState   `json:"webhook_threads,omitempty"`
	ForumTags        map[guildkit.Snowflake][]guildkit.Snowflake `json:"forum_tags,omitempty"`
	ClockOffset      time.Duration                               `json:"clock_offset_ns,omitempty"`
	// ApplicationKey is the seed of the application's Ed25519 private key,
	// in hex, so that a bot configured with its public key goes on
	// verifying deliveries after a restart. Absent in older files: the
	// server then keeps its own key.
	ApplicationKey string `json:"application_key,omitempty"`
	// Commands are the registered application commands of every
	// application and scope (command_store.go); absent in older files.
	Commands []guildkit.Command `json:"commands,omitempty"`
	// DMChannels are the DM channels (message_state.go); absent in older
	// files.
	DMChannels []dmChannelFile `json:"dm_channels,omitempty"`
}

type guildFile struct {
	Guild         guildkit.Guild                                 `json:"guild"`
	Roles         []guildkit.Role                                `json:"roles"`
	Members       []memberFile                                   `json:"members"`
	Channels      []guildkit.Channel                             `json:"channels"`
	Bans          []guildkit.Ban                                 `json:"bans"`
	ThreadMembers map[guildkit.Snowflake][]guildkit.ThreadMember `json:"thread_members,omitempty"`
	Integrations  []guildkit.Integration                         `json:"integrations"`
	WidgetInvite  string                                         `json:"widget_invite,omitempty"`
	Welcome       guildkit.WelcomeScreen                         `json:"welcome_screen"`
	Onboarding    guildkit.Onboarding                            `json:"onboarding"`
	VanityUses    int                                            `json:"vanity_uses,omitempty"`
}

type memberFile struct {
	Member       guildkit.Member    `json:"member"`
	Online       bool               `json:"online,omitempty"`
	VoiceChannel guildkit.Snowflake `json:"voice_channel_id,omitempty"`
	LastActive   time.Time          `json:"last_active,omitzero"`
}

type inviteFile struct {
	Invite      guildkit.Invite      `json:"invite"`
	GuildID     guildkit.Snowflake   `json:"guild_id"`
	ChannelID   guildkit.Snowflake   `json:"channel_id"`
	InviterID   guildkit.Snowflake   `json:"inviter_id,omitempty"`
	TargetUsers []guildkit.Snowflake `json:"target_users,omitempty"`
	Job         *jobFile             `json:"job,omitempty"`
}

type jobFile struct {
	Status guildkit.TargetUsersJobStatus `json:"status"`
	IDs    []guildkit.Snowflake          `json:"ids"`
	Reads  int                           `json:"reads"`
}

type webhookMessageFile struct {
	WebhookID guildkit.Snowflake `json:"webhook_id"`
	Message   guildkit.Message   `json:"message"`
	// VisibleTo is the only user who sees an ephemeral interaction
	// message; absent when everyone does.
	VisibleTo guildkit.Snowflake `json:"visible_to,omitzero"`
	// Chat is what an ordinary message (Create Message, Server.Post)
	// carries beyond Message; absent for webhook messages and interaction
	// answers.
	Chat *chatStateFile `json:"chat,omitempty"`
}

// sortedByID returns m's values ordered by id, so a saved state is stable.
func sortedByID[V any](m map[guildkit.Snowflake]V) []V {
	keys := slices.Sorted(maps.Keys(m))
	out := make([]V, 0, len(keys))
	for _, k := range keys {
		out = append(out, m[k])
	}
	return out
}

// SaveState writes everything the server keeps (users and tokens, guilds
// with their roles, members, channels, bans, threads, integrations and
// settings, invites, scheduled events, webhooks and their messages, and the
// clock's advance) as JSON, for [Server.LoadState]. The event and request
// logs are not saved. The output holds every token: keep it private.
func (s *Server) SaveState(w io.Writer) error {
	s.mu.Lock()
	st := s.snapshotLocked()
	s.mu.Unlock()
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(st); err != nil {
		return fmt.Errorf("guildkittest: saving state: %w", err)
	}
	return nil
}

func (s *Server) snapshotLocked() *stateFile {
	st := &stateFile{
		Version: stateVersion, LastID: s.lastID, Bot: s.bot, BotToken: s.botToken,
		Tokens: maps.Clone(s.tokens), MembersIntentOff: s.membersIntentOff,
		ClockOffset: time.Duration(s.clockOffset.Load()), ApplicationKey: hex.EncodeToString(s.appKey().Seed()),
		Users: []guildkit.User{}, Guilds: []guildFile{}, Invites: []inviteFile{},
		ScheduledEvents: []guildkit.GuildScheduledEvent{}, Webhooks: []guildkit.Webhook{},
		WebhookMessages: []webhookMessageFile{},
	}
	for _, u := range sortedByID(s.users) {
		st.Users = append(st.Users, *u)
	}
	for _, gs := range sortedByID(s.guilds) {
		gf := guildFile{
			Guild: gs.guild, WidgetInvite: gs.settings.widgetInvite, Welcome: gs.settings.welcome,
			Onboarding: gs.settings.onboarding, VanityUses: gs.settings.vanityUses,
			Roles: []guildkit.Role{}, Members: []memberFile{}, Channels: []guildkit.Channel{},
			Bans: []guildkit.Ban{}, Integrations: []guildkit.Integration{},
		}
		for _, r := range sortedByID(gs.roles) {
			gf.Roles = append(gf.Roles, *r)
		}
		for _, m := range sortedByID(gs.members) {
			gf.Members = append(gf.Members, memberFile{Member: m.member, Online: m.online, VoiceChannel: m.voiceChannel, LastActive: m.lastActive})
		}
		for _, ch := range sortedByID(gs.channels) {
			gf.Channels = append(gf.Channels, *ch)
		}
		for _, b := range sortedByID(gs.bans) {
			gf.Bans = append(gf.Bans, *b)
		}
		for _, in := range sortedByID(gs.settings.integrations) {
			gf.Integrations = append(gf.Integrations, *in)
		}
		if len(gs.settings.threadMembers) > 0 {
			gf.ThreadMembers = make(map[guildkit.Snowflake][]guildkit.ThreadMember)
			for tid, byUser := range gs.settings.threadMembers {
				gf.ThreadMembers[tid] = sortedByID(byUser)
			}
		}
		st.Guilds = append(st.Guilds, gf)
	}
	for _, code := range slices.Sorted(maps.Keys(s.invites)) {
		is := s.invites[code]
		f := inviteFile{Invite: is.invite, GuildID: is.guildID, ChannelID: is.channelID, InviterID: is.inviterID, TargetUsers: is.targetUsers}
		if is.job != nil {
			f.Job = &jobFile{Status: is.job.status, IDs: is.job.ids, Reads: is.job.reads}
		}
		st.Invites = append(st.Invites, f)
	}
	for _, ev := range sortedByID(s.inv.events) {
		st.ScheduledEvents = append(st.ScheduledEvents, *ev)
	}
	if wh := s.webhooks; wh != nil {
		for _, e := range sortedByID(wh.hooks) {
			st.Webhooks = append(st.Webhooks, e.hook)
		}
		for _, m := range sortedByID(wh.messages) {
			st.WebhookMessages = append(st.WebhookMessages, webhookMessageFile{WebhookID: m.webhookID, Message: m.msg, VisibleTo: m.visibleTo, Chat: chatStateToFile(m.chat)})
		}
		if len(wh.threads) > 0 {
			st.WebhookThreads = make(map[guildkit.Snowflake]WebhookThreadState)
			for id, t := range wh.threads {
				st.WebhookThreads[id] = *t
			}
		}
		if len(wh.forumTags) > 0 {
			st.ForumTags = make(map[guildkit.Snowflake][]guildkit.Snowflake)
			for id, tags := range wh.forumTags {
				st.ForumTags[id] = tags
			}
		}
	}
	st.Commands = s.savedCommandsLocked()
	st.DMChannels = s.dmChannelsFileLocked()
	return st
}

// LoadState replaces everything the server keeps with a state written by
// [Server.SaveState]; the event and request logs are emptied. Nothing
// changes when it returns an error. Tokens are kept as saved, so bots
// configured with them go on working; a state saved by a release whose
// tokens were "tok.<user id>.<n>" keeps those guessable tokens, so start
// such an emulator afresh (from its seed) rather than expose it.
func (s *Server) LoadState(r io.Reader) error {
	var st stateFile
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		return fmt.Errorf("guildkittest: loading state: %w", err)
	}
	if st.Version != stateVersion {
		return fmt.Errorf("guildkittest: loading state: version %d, want %d", st.Version, stateVersion)
	}
	if st.Bot == 0 || st.BotToken == "" || st.Tokens[st.BotToken] != st.Bot {
		return fmt.Errorf("guildkittest: loading state: the bot and its token are missing")
	}
	var key ed25519.PrivateKey
	if st.ApplicationKey != "" {
		var err error
		if key, err = ParseApplicationKey(st.ApplicationKey); err != nil {
			return fmt.Errorf("guildkittest: loading state: application_key: %w", err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resetState()
	s.lastID, s.bot, s.botToken = st.LastID, st.Bot, st.BotToken
	s.app.id.Store(uint64(st.Bot))
	if key != nil {
		s.app.key.Store(&key)
	}
	maps.Copy(s.tokens, st.Tokens)
	s.membersIntentOff = st.MembersIntentOff
	s.clockOffset.Store(int64(st.ClockOffset))
	for _, u := range st.Users {
		s.users[u.ID] = &u
	}
	for _, gf := range st.Guilds {
		gs := &guildState{
			guild:    gf.Guild,
			roles:    make(map[guildkit.Snowflake]*guildkit.Role),
			members:  make(map[guildkit.Snowflake]*memberState),
			channels: make(map[guildkit.Snowflake]*guildkit.Channel),
		}
		s.initGuild(gs)
		for _, r := range gf.Roles {
			gs.roles[r.ID] = &r
		}
		for _, m := range gf.Members {
			if m.Member.User == nil {
				continue
			}
			if u, ok := s.users[m.Member.User.ID]; ok {
				m.Member.User = u
			}
			gs.members[m.Member.User.ID] = &memberState{member: m.Member, online: m.Online, voiceChannel: m.VoiceChannel, lastActive: m.LastActive}
		}
		for _, ch := range gf.Channels {
			gs.channels[ch.ID] = &ch
		}
		if len(gf.Bans) > 0 {
			gs.bans = make(map[guildkit.Snowflake]*guildkit.Ban)
			for _, b := range gf.Bans {
				gs.bans[b.User.ID] = &b
			}
		}
		for _, in := range gf.Integrations {
			gs.settings.integrations[in.ID] = &in
		}
		for id, list := range gf.ThreadMembers {
			byUser := make(map[guildkit.Snowflake]guildkit.ThreadMember)
			for _, tm := range list {
				if tm.UserID != nil {
					byUser[*tm.UserID] = tm
				}
			}
			gs.settings.threadMembers[id] = byUser
		}
		gs.settings.widgetInvite = gf.WidgetInvite
		gs.settings.welcome = gf.Welcome
		gs.settings.onboarding = gf.Onboarding
		gs.settings.vanityUses = gf.VanityUses
		s.guilds[gs.guild.ID] = gs
	}
	if len(st.Invites) > 0 {
		s.invites = make(map[string]*inviteState)
	}
	for _, f := range st.Invites {
		is := &inviteState{invite: f.Invite, guildID: f.GuildID, channelID: f.ChannelID, inviterID: f.InviterID, targetUsers: f.TargetUsers}
		if f.Job != nil {
			is.job = &targetUsersJob{status: f.Job.Status, ids: f.Job.IDs, reads: f.Job.Reads}
		}
		s.invites[f.Invite.Code] = is
	}
	for _, ev := range st.ScheduledEvents {
		if s.inv.events == nil {
			s.inv.events = make(map[guildkit.Snowflake]*guildkit.GuildScheduledEvent)
		}
		s.inv.events[ev.ID] = &ev
	}
	if len(st.Webhooks) > 0 || len(st.WebhookMessages) > 0 {
		wh := s.wh()
		for _, h := range st.Webhooks {
			wh.hooks[h.ID] = &webhookEntry{hook: h}
		}
		for _, m := range st.WebhookMessages {
			wh.messages[m.Message.ID] = &webhookMessage{msg: m.Message, webhookID: m.WebhookID, visibleTo: m.VisibleTo, chat: chatStateFromFile(m.Chat)}
		}
		for id, t := range st.WebhookThreads {
			wh.threads[id] = &t
		}
		maps.Copy(wh.forumTags, st.ForumTags)
	}
	s.loadCommandsLocked(st.Commands)
	s.loadChatLocked(st.DMChannels)
	return nil
}
