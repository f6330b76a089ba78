package guildkittest

import (
	"cmp"
	"net/http"
	"slices"
	"time"

	"github.com/seed012df1e9/guildkit"
)

// guildState is everything the server keeps about one guild. Resources add
// their own fields.
type guildState struct {
	guild    guildkit.Guild // Roles is kept in roles, not here
	roles    map[guildkit.Snowflake]*guildkit.Role
	members  map[guildkit.Snowflake]*memberState
	channels map[guildkit.Snowflake]*guildkit.Channel
	bans     map[guildkit.Snowflake]*guildkit.Ban // by user id; made on first use
	settings guildSettings                        // guild.go: threads, integrations, widget, welcome screen, onboarding
}

// memberState is a member and what the server tracks about it.
type memberState struct {
	member       guildkit.Member
	online       bool               // counted in approximate_presence_count
	voiceChannel guildkit.Snowflake // 0 when not connected to voice
	lastActive   time.Time          // for prune
}

// DefaultEveryonePermissions are the @everyone permissions of a seeded guild
// that names none: view channels, send messages, read history, connect,
// speak, change nickname, create invites, use application commands (as the
// platform's default @everyone role does: without it no member could run a
// command).
const DefaultEveryonePermissions = guildkit.PermissionViewChannel | guildkit.PermissionSendMessages |
	guildkit.PermissionReadMessageHistory | guildkit.PermissionConnect | guildkit.PermissionSpeak |
	guildkit.PermissionChangeNickname | guildkit.PermissionCreateInstantInvite | guildkit.PermissionUseApplicationCommands

// AddUser adds a user, giving it an id when u.ID is zero, and returns it.
func (s *Server) AddUser(u guildkit.User) guildkit.User {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addUserLocked(u)
}

func (s *Server) addUserLocked(u guildkit.User) guildkit.User {
	if u.ID == 0 {
		u.ID = s.newID()
	}
	if u.Username == "" {
		u.Username = "user" + u.ID.String()
	}
	if u.Discriminator == "" {
		u.Discriminator = "0"
	}
	cp := u
	s.users[u.ID] = &cp
	return shaped(u)
}

// AddGuild adds a guild and returns it as stored. A zero ID gets a fresh
// one. The owner becomes a member.
//
// A zero OwnerID makes the bot the owner, and an owner has every
// permission: in such a guild a test of a missing permission (a command
// only moderators see, a ban the bot may not make) passes silently. When
// permissions are part of the test, give the guild a person as owner and
// the bot a role, as on the platform:
//
//	owner := srv.AddUser(guildkit.User{Username: "owner"})
//	g := srv.AddGuild(guildkit.Guild{Name: "Gophers", OwnerID: owner.ID})
//	srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{ID: srv.BotID()}, Roles: []guildkit.Snowflake{botRole.ID}})
//
// The @everyone role (id = guild id) is created from g.Roles when it is there,
// with [DefaultEveryonePermissions] otherwise; the other roles in g.Roles are
// added as given. Empty fields get the interface's defaults (name "guild",
// afk_timeout 300, preferred_locale en-US).
func (s *Server) AddGuild(g guildkit.Guild) guildkit.Guild {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g.ID == 0 {
		g.ID = s.newID()
	}
	if g.OwnerID == 0 {
		g.OwnerID = s.bot
	}
	if g.Name == "" {
		g.Name = "guild " + g.ID.String()
	}
	if g.AFKTimeout == 0 {
		g.AFKTimeout = 300
	}
	if g.PreferredLocale == "" {
		g.PreferredLocale = "en-US"
	}
	if g.Features == nil {
		g.Features = []guildkit.GuildFeature{}
	}
	if g.Emojis == nil {
		g.Emojis = []guildkit.Emoji{}
	}
	gs := &guildState{
		roles:    make(map[guildkit.Snowflake]*guildkit.Role),
		members:  make(map[guildkit.Snowflake]*memberState),
		channels: make(map[guildkit.Snowflake]*guildkit.Channel),
	}
	gs.roles[g.ID] = &guildkit.Role{ID: g.ID, Name: "@everyone", Permissions: DefaultEveryonePermissions}
	for _, r := range g.Roles {
		if r.ID == 0 {
			r.ID = s.newID()
		}
		syncRoleColors(&r)
		cp := r
		gs.roles[r.ID] = &cp
	}
	g.Roles = nil
	gs.guild = g
	s.guilds[g.ID] = gs
	s.initGuild(gs)
	if _, ok := s.users[g.OwnerID]; !ok {
		s.users[g.OwnerID] = &guildkit.User{ID: g.OwnerID, Username: "owner" + g.OwnerID.String(), Discriminator: "0"}
	}
	s.addMemberLocked(gs, guildkit.Member{User: s.users[g.OwnerID]})
	return shaped(s.guildJSON(gs))
}

// initGuild gives a new guild the state later resources keep. Resources add
// their initialisation here.
func (s *Server) initGuild(gs *guildState) {
	s.initGuildSettings(gs)
}

// AddMember adds a member to a guild and returns it. m.User is required; an
// unknown user is added as well. JoinedAt defaults to now.
func (s *Server) AddMember(guildID guildkit.Snowflake, m guildkit.Member) guildkit.Member {
	s.mu.Lock()
	defer s.mu.Unlock()
	gs := s.mustGuild(guildID)
	if m.User == nil {
		panic("guildkittest: AddMember: Member.User is required")
	}
	u := *m.User
	if u.ID == 0 {
		u.ID = s.newID()
	}
	if _, ok := s.users[u.ID]; !ok {
		if u.Username == "" {
			u.Username = "user" + u.ID.String()
		}
		cp := u
		s.users[u.ID] = &cp
	}
	m.User = s.users[u.ID]
	return shaped(s.addMemberLocked(gs, m).member)
}

func (s *Server) addMemberLocked(gs *guildState, m guildkit.Member) *memberState {
	now := s.now().UTC()
	if m.JoinedAt == nil {
		m.JoinedAt = &now
	}
	if m.Roles == nil {
		m.Roles = []guildkit.Snowflake{}
	}
	u := *m.User
	m.User = &u
	ms := &memberState{member: m, lastActive: now}
	gs.members[u.ID] = ms
	if u.ID == s.bot {
		s.botJoinedLocked(gs)
	}
	return ms
}

// SetOnline marks a member online or offline, for approximate presence
// counts.
func (s *Server) SetOnline(guildID, userID guildkit.Snowflake, online bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mustMember(guildID, userID).online = online
}

// AddRole adds a role to a guild and returns it. A zero ID gets a fresh one.
func (s *Server) AddRole(guildID guildkit.Snowflake, r guildkit.Role) guildkit.Role {
	s.mu.Lock()
	defer s.mu.Unlock()
	gs := s.mustGuild(guildID)
	if r.ID == 0 {
		r.ID = s.newID()
	}
	syncRoleColors(&r)
	cp := r
	gs.roles[r.ID] = &cp
	return shaped(r)
}

// AddChannel adds a channel to a guild and returns it. A zero ID gets a
// fresh one. Fields left zero get the defaults Create Guild Channel gives
// (a voice or stage channel: bitrate 64000, user_limit 0, video quality
// auto).
func (s *Server) AddChannel(guildID guildkit.Snowflake, ch guildkit.Channel) guildkit.Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	gs := s.mustGuild(guildID)
	if ch.ID == 0 {
		ch.ID = s.newID()
	}
	ch.GuildID = guildID
	if ch.PermissionOverwrites == nil {
		ch.PermissionOverwrites = []guildkit.PermissionOverwrite{}
	}
	if ch.Type == guildkit.ChannelTypeGuildVoice || ch.Type == guildkit.ChannelTypeGuildStageVoice {
		// What Create Guild Channel gives a voice channel that names none.
		if ch.Bitrate == nil {
			ch.Bitrate = ptr(64000)
		}
		if ch.UserLimit == nil {
			ch.UserLimit = ptr(0)
		}
		if ch.VideoQualityMode == 0 {
			ch.VideoQualityMode = guildkit.VideoQualityAuto
		}
	}
	cp := ch
	gs.channels[ch.ID] = &cp
	return shaped(ch)
}

// Guild returns the guild as the server holds it, roles included.
func (s *Server) Guild(id guildkit.Snowflake) (guildkit.Guild, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	gs, ok := s.guilds[id]
	if !ok {
		return guildkit.Guild{}, false
	}
	return shaped(s.guildJSON(gs)), true
}

// Member returns a member as the server holds it.
func (s *Server) Member(guildID, userID guildkit.Snowflake) (guildkit.Member, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	gs, ok := s.guilds[guildID]
	if !ok {
		return guildkit.Member{}, false
	}
	ms, ok := gs.members[userID]
	if !ok {
		return guildkit.Member{}, false
	}
	return shaped(copyMember(ms.member)), true
}

func (s *Server) mustGuild(id guildkit.Snowflake) *guildState {
	gs, ok := s.guilds[id]
	if !ok {
		panic("guildkittest: unknown guild " + id.String())
	}
	return gs
}

func (s *Server) mustMember(guildID, userID guildkit.Snowflake) *memberState {
	ms, ok := s.mustGuild(guildID).members[userID]
	if !ok {
		panic("guildkittest: unknown member " + userID.String() + " of guild " + guildID.String())
	}
	return ms
}

// guildJSON returns a copy of the guild with its roles, as the interface
// returns it.
func (s *Server) guildJSON(gs *guildState) guildkit.Guild {
	g := gs.guild
	g.Roles = gs.sortedRoles()
	g.Features = slices.Clone(g.Features)
	g.Emojis = slices.Clone(g.Emojis)
	return g
}

// sortedRoles returns copies of the roles by position, ties by id.
func (gs *guildState) sortedRoles() []guildkit.Role {
	out := make([]guildkit.Role, 0, len(gs.roles))
	for _, r := range gs.roles {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b guildkit.Role) int {
		return cmp.Or(cmp.Compare(a.Position, b.Position), cmp.Compare(a.ID, b.ID))
	})
	return out
}

func copyMember(m guildkit.Member) guildkit.Member {
	m.Roles = slices.Clone(m.Roles)
	if m.User != nil {
		u := *m.User
		m.User = &u
	}
	return m
}

// permissions returns the guild-level permissions of userID: every
// permission the platform defines ([platformPermissions]) for the owner and
// for holders of ADMINISTRATOR; otherwise the union of the @everyone role
// and the member's roles, limited to the defined bits. A non-member has
// none.
func (gs *guildState) permissions(userID guildkit.Snowflake) guildkit.Permissions {
	const all = platformPermissions
	if userID == gs.guild.OwnerID {
		return all
	}
	ms, ok := gs.members[userID]
	if !ok {
		return 0
	}
	p := gs.roles[gs.guild.ID].Permissions
	for _, id := range ms.member.Roles {
		if r, ok := gs.roles[id]; ok {
			p |= r.Permissions
		}
	}
	if p.Has(guildkit.PermissionAdministrator) {
		return all
	}
	return p & platformPermissions
}

// isAdmin reports whether userID owns the guild or holds ADMINISTRATOR.
func (gs *guildState) isAdmin(userID guildkit.Snowflake) bool {
	return gs.permissions(userID).Has(guildkit.PermissionAdministrator)
}

// guild resolves the {guild_id} wildcard to a guild the caller belongs to:
// 404 Unknown Guild when there is none, 403 Missing Access when the caller is
// not a member.
func (c *call) guild() (*guildState, bool) {
	id, ok := c.id("guild_id", guildkit.CodeUnknownGuild, "Guild")
	if !ok {
		return nil, false
	}
	gs, ok := c.s.guilds[id]
	if !ok {
		c.error(http.StatusNotFound, guildkit.CodeUnknownGuild, "Unknown Guild")
		return nil, false
	}
	if c.user != 0 && !c.callerIsMember(gs) {
		return nil, false
	}
	return gs, true
}

// callerIsMember answers 403 Missing Access unless the caller is a member of gs.
func (c *call) callerIsMember(gs *guildState) bool {
	if _, ok := gs.members[c.user]; ok {
		return true
	}
	c.error(http.StatusForbidden, guildkit.CodeMissingAccess, "Missing Access")
	return false
}

// require answers 403 Missing Permissions unless the caller holds every
// permission in need.
func (c *call) require(gs *guildState, need guildkit.Permissions) bool {
	if gs.permissions(c.user).Has(need) {
		return true
	}
	c.error(http.StatusForbidden, guildkit.CodeMissingPermissions, "Missing Permissions")
	return false
}

// requireAny answers 403 Missing Permissions unless the caller holds at
// least one permission in any.
func (c *call) requireAny(gs *guildState, any guildkit.Permissions) bool {
	if gs.permissions(c.user).HasAny(any) {
		return true
	}
	c.error(http.StatusForbidden, guildkit.CodeMissingPermissions, "Missing Permissions")
	return false
}

// Permissions returns the guild-level permissions of a user as the server
// computes them: every permission the reference platform defines (bits 0 to
// 46 and 48 to 52, never all 64) for the owner and ADMINISTRATOR holders,
// else the union of @everyone and the member's roles; none for a
// non-member.
func (s *Server) Permissions(guildID, userID guildkit.Snowflake) guildkit.Permissions {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mustGuild(guildID).permissions(userID)
}

// everyoneCan reports whether @everyone holds perm in ch: the @everyone
// role's permissions with the channel's @everyone overwrite applied.
func (gs *guildState) everyoneCan(ch *guildkit.Channel, perm guildkit.Permissions) bool {
	p := gs.roles[gs.guild.ID].Permissions
	if p.Has(guildkit.PermissionAdministrator) {
		return true
	}
	for _, ow := range ch.PermissionOverwrites {
		if ow.Type == guildkit.OverwriteTypeRole && ow.ID == gs.guild.ID {
			p = p&^ow.Deny | ow.Allow
		}
	}
	return p.Has(perm)
}
