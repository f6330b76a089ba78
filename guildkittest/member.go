package guildkittest

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/seed012df1e9/guildkit"
)

// Error codes the server answers with that the root package has no constant
// for (the reference platform's).
const (
	codeInvalidAccessToken guildkit.ErrorCode = 50025 // Invalid OAuth2 access token
	codeUserBanned         guildkit.ErrorCode = 40007 // The user is banned from this guild
	codeInvalidRole        guildkit.ErrorCode = 50028 // Invalid Role
)

// accessTokenPrefix marks the tokens made by NewAccessToken.
const accessTokenPrefix = "access."

// maxTimeout is the longest timeout the interface accepts.
const maxTimeout = 28 * 24 * time.Hour

// memberRoutes registers the member, prune, ban and role routes (one entry in
// the routes list for the three resources this file family serves).
func (s *Server) memberRoutes(reg registrar) {
	reg("GET /guilds/{guild_id}/members", authRequired, s.listMembers)
	reg("GET /guilds/{guild_id}/members/search", authRequired, s.searchMembers)
	reg("GET /guilds/{guild_id}/members/{user_id}", authRequired, s.getMember)
	reg("PUT /guilds/{guild_id}/members/{user_id}", authRequired, s.addMember)
	reg("PATCH /guilds/{guild_id}/members/{user_id}", authRequired, s.modifyMember)
	reg("PATCH /guilds/{guild_id}/members/@me", authRequired, s.modifyCurrentMember, bodyLimit(MaxImageBody))
	reg("PATCH /guilds/{guild_id}/members/@me/nick", authRequired, s.modifyCurrentNick)
	reg("PUT /guilds/{guild_id}/members/{user_id}/roles/{role_id}", authRequired, s.addMemberRole)
	reg("DELETE /guilds/{guild_id}/members/{user_id}/roles/{role_id}", authRequired, s.removeMemberRole)
	reg("DELETE /guilds/{guild_id}/members/{user_id}", authRequired, s.removeMember)
	reg("GET /guilds/{guild_id}/prune", authRequired, s.pruneCount)
	reg("POST /guilds/{guild_id}/prune", authRequired, s.beginPrune)
	s.banRoutes(reg)
	s.roleRoutes(reg)
}

// NewAccessToken makes an OAuth2 access token of the user userID granted the
// guilds.join scope, as Add Guild Member needs. The server accepts it for
// that user only, whichever bot calls; any other access_token is refused with
// 403 (code 50025). The token also authenticates as "Bearer <token>" (never
// as "Bot <token>": 401). It is random, as [Server.NewToken]'s are.
func (s *Server) NewAccessToken(userID guildkit.Snowflake) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newTokenLocked(accessTokenPrefix, userID)
}

// WithoutMembersIntent starts the server with the members privileged intent
// turned off; see [Server.SetMembersIntent].
func WithoutMembersIntent() Option { return func(s *Server) { s.membersIntentOff = true } }

// SetMembersIntent turns the application's members privileged intent on (the
// default) or off. List Guild Members is restricted by it: with the intent
// off it answers 403 Missing Access (code 50001).
func (s *Server) SetMembersIntent(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.membersIntentOff = !on
}

// screening reports whether the guild has membership screening enabled: the
// guild feature MEMBER_VERIFICATION_GATE_ENABLED.
func (gs *guildState) screening() bool {
	return slices.Contains(gs.guild.Features, guildkit.FeatureMemberVerificationGateEnabled)
}

// JoinMember makes the user join the guild as a person would (through an
// invite, say) and returns the new member: pending when the guild has
// membership screening (the feature MEMBER_VERIFICATION_GATE_ENABLED). It
// emits GUILD_MEMBER_ADD. An unknown user is added first, as by AddUser. It
// panics when the user already is a member.
func (s *Server) JoinMember(guildID guildkit.Snowflake, u guildkit.User) guildkit.Member {
	if _, ok := s.userKnown(u.ID); !ok {
		u = s.AddUser(u)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	gs := s.mustGuild(guildID)
	if _, ok := gs.members[u.ID]; ok {
		panic("guildkittest: JoinMember: " + u.ID.String() + " already is a member")
	}
	return copyMember(s.joinLocked(gs, u.ID).member)
}

// joinLocked makes the known user userID, not a member, join gs.
func (s *Server) joinLocked(gs *guildState, userID guildkit.Snowflake) *memberState {
	pending := gs.screening()
	ms := s.addMemberLocked(gs, guildkit.Member{User: s.users[userID], Pending: &pending})
	s.emit(guildkit.EventGuildMemberAdd, gs.guild.ID, eventMember(ms.member))
	return ms
}

func (s *Server) userKnown(id guildkit.Snowflake) (guildkit.User, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[id]
	if !ok {
		return guildkit.User{}, false
	}
	return *u, true
}

// CompleteScreening marks a pending member as having completed membership
// screening: pending becomes false and GUILD_MEMBER_UPDATE is emitted. It
// panics when the user is not a member, and does nothing to a member that is
// not pending.
func (s *Server) CompleteScreening(guildID, userID guildkit.Snowflake) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ms := s.mustMember(guildID, userID)
	if ms.member.Pending == nil || !*ms.member.Pending {
		return
	}
	f := false
	ms.member.Pending = &f
	s.emit(guildkit.EventGuildMemberUpdate, guildID, eventMember(ms.member))
}

// SetVoiceChannel connects a member to a voice channel of the guild, or
// disconnects it when channelID is 0. Mute, deaf and moves through Modify
// Guild Member need the member connected. It panics on an unknown member or
// channel.
func (s *Server) SetVoiceChannel(guildID, userID, channelID guildkit.Snowflake) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ms := s.mustMember(guildID, userID)
	if channelID != 0 {
		if _, ok := s.mustGuild(guildID).channels[channelID]; !ok {
			panic("guildkittest: SetVoiceChannel: unknown channel " + channelID.String())
		}
	}
	ms.voiceChannel = channelID
}

// VoiceChannel returns the voice channel the member is connected to, 0 when
// none (or when it is not a member).
func (s *Server) VoiceChannel(guildID, userID guildkit.Snowflake) guildkit.Snowflake {
	s.mu.Lock()
	defer s.mu.Unlock()
	if gs, ok := s.guilds[guildID]; ok {
		if ms, ok := gs.members[userID]; ok {
			return ms.voiceChannel
		}
	}
	return 0
}

// SetLastActive sets when the member was last active, for prune: a member is
// inactive for prune's days when it was last active more than that many days
// before the server's clock. Members are active when they are added. It
// panics on an unknown member.
func (s *Server) SetLastActive(guildID, userID guildkit.Snowflake, t time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mustMember(guildID, userID).lastActive = t
}

// eventMember is the member object of a guild-prefixed event: pending is
// always present.
func eventMember(m guildkit.Member) guildkit.Member {
	m = copyMember(m)
	if m.Pending == nil {
		f := false
		m.Pending = &f
	}
	return m
}

// member resolves the {user_id} wildcard to a member of gs, answering 404
// Unknown Member when there is none.
func (c *call) member(gs *guildState) (*memberState, bool) {
	id, ok := c.id("user_id", guildkit.CodeUnknownMember, "Member")
	if !ok {
		return nil, false
	}
	ms, ok := gs.members[id]
	if !ok {
		c.error(http.StatusNotFound, guildkit.CodeUnknownMember, "Unknown Member")
		return nil, false
	}
	return ms, true
}

// decodeOptional reads a JSON body into v when there is one; an empty body
// (or one of white space only) leaves v as it is. A null body is refused, as
// by decode.
func (c *call) decodeOptional(v any) bool {
	b, err := io.ReadAll(c.r.Body) // already bounded: readBody
	if err != nil {
		c.bodyError(err)
		return false
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return true
	}
	c.r.Body = io.NopCloser(bytes.NewReader(b))
	return c.decode(v)
}

// queryInt reads an integer query parameter within lo-hi, def when absent;
// it adds a problem otherwise.
func (c *call) queryInt(problems map[string]string, name string, def, lo, hi int) int {
	raw := c.r.URL.Query().Get(name)
	if raw == "" {
		return def
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < lo || n > hi {
		problems[name] = fmt.Sprintf("Must be between %d and %d.", lo, hi)
		return def
	}
	return n
}

// querySnowflake reads a snowflake query parameter, 0 when absent.
func (c *call) querySnowflake(problems map[string]string, name string) guildkit.Snowflake {
	raw := c.r.URL.Query().Get(name)
	if raw == "" {
		return 0
	}
	id, err := guildkit.ParseSnowflake(raw)
	if err != nil {
		problems[name] = "Value is not snowflake."
	}
	return id
}

// sortedMembers returns the members by user id.
func (gs *guildState) sortedMembers() []*memberState {
	out := make([]*memberState, 0, len(gs.members))
	for _, ms := range gs.members {
		out = append(out, ms)
	}
	slices.SortFunc(out, func(a, b *memberState) int { return cmp.Compare(a.member.User.ID, b.member.User.ID) })
	return out
}

// checkRoles adds a problem for each id that is not an assignable role of gs
// (unknown, or @everyone).
func (gs *guildState) checkRoles(problems map[string]string, path string, ids []guildkit.Snowflake) {
	for i, id := range ids {
		if _, ok := gs.roles[id]; !ok || id == gs.guild.ID {
			problems[fmt.Sprintf("%s.%d", path, i)] = "Unknown role " + id.String() + "."
		}
	}
}

// getMember: Get Guild Member.
func (s *Server) getMember(c *call) {
	gs, ok := c.guild()
	if !ok {
		return
	}
	ms, ok := c.member(gs)
	if !ok {
		return
	}
	c.json(http.StatusOK, copyMember(ms.member))
}

// listMembers: List Guild Members, restricted by the members intent.
func (s *Server) listMembers(c *call) {
	gs, ok := c.guild()
	if !ok {
		return
	}
	if s.membersIntentOff {
		c.error(http.StatusForbidden, guildkit.CodeMissingAccess, "Missing Access")
		return
	}
	problems := map[string]string{}
	limit := c.queryInt(problems, "limit", 1, 1, 1000)
	after := c.querySnowflake(problems, "after")
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	out := []guildkit.Member{}
	for _, ms := range gs.sortedMembers() {
		if len(out) == limit {
			break
		}
		if ms.member.User.ID > after {
			out = append(out, copyMember(ms.member))
		}
	}
	c.json(http.StatusOK, out)
}

// searchMembers: Search Guild Members, by username or nickname prefix,
// ignoring case.
func (s *Server) searchMembers(c *call) {
	gs, ok := c.guild()
	if !ok {
		return
	}
	problems := map[string]string{}
	q := strings.ToLower(c.r.URL.Query().Get("query"))
	if q == "" {
		problems["query"] = "This field is required"
	}
	limit := c.queryInt(problems, "limit", 1, 1, 1000)
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	out := []guildkit.Member{}
	for _, ms := range gs.sortedMembers() {
		if len(out) == limit {
			break
		}
		m := ms.member
		if strings.HasPrefix(strings.ToLower(m.User.Username), q) || (m.Nick != nil && strings.HasPrefix(strings.ToLower(*m.Nick), q)) {
			out = append(out, copyMember(m))
		}
	}
	c.json(http.StatusOK, out)
}

// addMember: Add Guild Member. The caller (the bot) must be a member with
// CREATE_INSTANT_INVITE, each field needs its permission, and the access
// token must be one NewAccessToken made for the user. 201 with the member, or
// 204 when the user already is a member.
func (s *Server) addMember(c *call) {
	gs, ok := c.guild()
	if !ok {
		return
	}
	uid, ok := c.id("user_id", guildkit.CodeUnknownUser, "User")
	if !ok {
		return
	}
	var body struct {
		AccessToken guildkit.Opt[string]               `json:"access_token"`
		Nick        guildkit.Opt[string]               `json:"nick"`
		Roles       guildkit.Opt[[]guildkit.Snowflake] `json:"roles"`
		Mute        guildkit.Opt[bool]                 `json:"mute"`
		Deaf        guildkit.Opt[bool]                 `json:"deaf"`
	}
	if !c.decode(&body) {
		return
	}
	need := guildkit.PermissionCreateInstantInvite
	if !body.Nick.IsZero() {
		need |= guildkit.PermissionManageNicknames
	}
	if !body.Roles.IsZero() {
		need |= guildkit.PermissionManageRoles
	}
	if !body.Mute.IsZero() {
		need |= guildkit.PermissionMuteMembers
	}
	if !body.Deaf.IsZero() {
		need |= guildkit.PermissionDeafenMembers
	}
	if !c.require(gs, need) {
		return
	}
	problems := map[string]string{}
	tok, ok := body.AccessToken.Get()
	if !ok || tok == "" {
		problems["access_token"] = "This field is required"
	}
	for path, null := range map[string]bool{"nick": body.Nick.IsNull(), "roles": body.Roles.IsNull(), "mute": body.Mute.IsNull(), "deaf": body.Deaf.IsNull()} {
		if null {
			problems[path] = "This field cannot be null."
		}
	}
	roles, _ := body.Roles.Get()
	gs.checkRoles(problems, "roles", roles)
	checkNick(problems, body.Nick)
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	if !c.requireManagesRoles(gs, roles...) {
		return
	}
	u, ok := s.users[uid]
	if !ok {
		c.error(http.StatusNotFound, guildkit.CodeUnknownUser, "Unknown User")
		return
	}
	if owner, ok := s.tokens[tok]; !ok || owner != uid || !strings.HasPrefix(tok, accessTokenPrefix) {
		c.error(http.StatusForbidden, codeInvalidAccessToken, "Invalid OAuth2 access token")
		return
	}
	if _, member := gs.members[uid]; member {
		c.noContent()
		return
	}
	if _, banned := gs.banMap()[uid]; banned {
		c.error(http.StatusForbidden, codeUserBanned, "The user is banned from this guild.")
		return
	}
	m := guildkit.Member{User: u, Roles: slices.Clone(roles), Mute: body.Mute.Or(false), Deaf: body.Deaf.Or(false)}
	if nick, ok := body.Nick.Get(); ok && nick != "" {
		m.Nick = &nick
	}
	pending := gs.screening()
	m.Pending = &pending
	ms := s.addMemberLocked(gs, m)
	s.emit(guildkit.EventGuildMemberAdd, gs.guild.ID, eventMember(ms.member))
	c.json(http.StatusCreated, copyMember(ms.member))
}

// modifyMember: Modify Guild Member, with each field's permission, the
// voice rules, the timeout rules, the editable flags, the role hierarchy
// (hierarchy.go) and the reference platform's nickname rule (1-32
// characters, not white space only; "" removes it).
func (s *Server) modifyMember(c *call) {
	gs, ok := c.guild()
	if !ok {
		return
	}
	ms, ok := c.member(gs)
	if !ok {
		return
	}
	var body struct {
		Nick      guildkit.Opt[string]               `json:"nick"`
		Roles     guildkit.Opt[[]guildkit.Snowflake] `json:"roles"`
		Mute      guildkit.Opt[bool]                 `json:"mute"`
		Deaf      guildkit.Opt[bool]                 `json:"deaf"`
		ChannelID guildkit.Opt[guildkit.Snowflake]   `json:"channel_id"`
		Until     guildkit.Opt[time.Time]            `json:"communication_disabled_until"`
		Flags     guildkit.Opt[guildkit.MemberFlags] `json:"flags"`
	}
	if !c.decode(&body) {
		return
	}
	perms := gs.permissions(c.user)
	allowed := true
	for _, f := range []struct {
		set  bool
		need guildkit.Permissions
	}{
		{!body.Nick.IsZero(), guildkit.PermissionManageNicknames},
		{!body.Roles.IsZero(), guildkit.PermissionManageRoles},
		{!body.Mute.IsZero(), guildkit.PermissionMuteMembers},
		{!body.Deaf.IsZero(), guildkit.PermissionDeafenMembers},
		{!body.ChannelID.IsZero(), guildkit.PermissionMoveMembers},
		{!body.Until.IsZero(), guildkit.PermissionModerateMembers},
	} {
		if f.set && !perms.Has(f.need) {
			allowed = false
		}
	}
	if !body.Flags.IsZero() && !perms.HasAny(guildkit.PermissionManageGuild|guildkit.PermissionManageRoles) &&
		!perms.Has(guildkit.PermissionModerateMembers|guildkit.PermissionKickMembers|guildkit.PermissionBanMembers) {
		allowed = false
	}
	if !allowed {
		c.error(http.StatusForbidden, guildkit.CodeMissingPermissions, "Missing Permissions")
		return
	}

	now := s.now()
	problems := map[string]string{}
	roles, _ := body.Roles.Get()
	gs.checkRoles(problems, "roles", roles)
	checkNick(problems, body.Nick)
	var target *guildkit.Channel
	if id, ok := body.ChannelID.Get(); ok {
		ch, ok := gs.channels[id]
		if !ok || (ch.Type != guildkit.ChannelTypeGuildVoice && ch.Type != guildkit.ChannelTypeGuildStageVoice) {
			problems["channel_id"] = "Unknown voice channel."
		}
		target = ch
	}
	until, timingOut := body.Until.Get()
	if timingOut && until.After(now.Add(maxTimeout)) {
		problems["communication_disabled_until"] = "Timeout can be at most 28 days in the future."
	}
	if f, ok := body.Flags.Get(); ok && f&^guildkit.MemberFlagsEditable != 0 {
		problems["flags"] = "Only BYPASSES_VERIFICATION can be changed."
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	uid := ms.member.User.ID
	if timingOut && until.After(now) && (gs.isAdmin(uid) || uid == gs.guild.OwnerID) {
		c.error(http.StatusForbidden, guildkit.CodeMissingPermissions, "Missing Permissions: cannot time out an administrator or the owner")
		return
	}
	// The role hierarchy (hierarchy.go): the nickname and roles of a member
	// not below the caller (the caller's own excepted), a timeout of one not
	// below it, and roles at or above the caller's highest. Lifting a
	// timeout is not refused.
	if (uid != c.user && (!body.Nick.IsZero() || !body.Roles.IsZero())) || (timingOut && until.After(now)) {
		if !c.requireOutranks(gs, uid) {
			return
		}
	}
	if !body.Roles.IsZero() && !c.requireManagesRoles(gs, changedRoles(ms.member.Roles, roles)...) {
		return
	}
	inVoice := ms.voiceChannel != 0
	if (body.Mute.IsSet() || body.Deaf.IsSet() || target != nil) && !inVoice {
		c.error(http.StatusBadRequest, guildkit.CodeTargetUserNotInVoice, "Target user is not connected to voice.")
		return
	}
	if target != nil && !perms.Has(guildkit.PermissionConnect) {
		c.error(http.StatusForbidden, guildkit.CodeMissingPermissions, "Missing Permissions: cannot connect to the target channel")
		return
	}

	m := &ms.member
	if !body.Nick.IsZero() {
		m.Nick = nil
		if nick, ok := body.Nick.Get(); ok && nick != "" {
			m.Nick = &nick
		}
	}
	if !body.Roles.IsZero() {
		m.Roles = slices.Clone(roles)
		if m.Roles == nil {
			m.Roles = []guildkit.Snowflake{}
		}
	}
	if !body.Mute.IsZero() {
		m.Mute = body.Mute.Or(false)
	}
	if !body.Deaf.IsZero() {
		m.Deaf = body.Deaf.Or(false)
	}
	if !body.ChannelID.IsZero() {
		ms.voiceChannel = body.ChannelID.Or(0)
	}
	if !body.Until.IsZero() {
		m.CommunicationDisabledUntil = nil
		if timingOut {
			t := until.UTC()
			m.CommunicationDisabledUntil = &t
		}
	}
	if !body.Flags.IsZero() {
		m.Flags = m.Flags&^guildkit.MemberFlagsEditable | body.Flags.Or(0)&guildkit.MemberFlagsEditable
	}
	s.emit(guildkit.EventGuildMemberUpdate, gs.guild.ID, eventMember(*m))
	c.json(http.StatusOK, copyMember(*m))
}

// validImage reports whether s is a base64 data URI of an image.
func validImage(s string) bool {
	return strings.HasPrefix(s, "data:image/") && strings.Contains(s, ";base64,")
}

// modifyCurrentMember: Modify Current Member. nick needs CHANGE_NICKNAME;
// avatar and banner are data URIs stored as hashes. The member object has no
// bio field, so bio is accepted and not shown.
func (s *Server) modifyCurrentMember(c *call) {
	gs, ok := c.guild()
	if !ok {
		return
	}
	var body struct {
		Nick   guildkit.Opt[string] `json:"nick"`
		Avatar guildkit.Opt[string] `json:"avatar"`
		Banner guildkit.Opt[string] `json:"banner"`
		Bio    guildkit.Opt[string] `json:"bio"`
	}
	if !c.decode(&body) {
		return
	}
	if !body.Nick.IsZero() && !c.require(gs, guildkit.PermissionChangeNickname) {
		return
	}
	problems := map[string]string{}
	checkNick(problems, body.Nick)
	for path, o := range map[string]guildkit.Opt[string]{"avatar": body.Avatar, "banner": body.Banner} {
		if v, ok := o.Get(); ok && !validImage(v) {
			problems[path] = "Invalid image data."
		}
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	m := &gs.members[c.user].member
	setNick(m, body.Nick)
	for _, f := range []struct {
		dst **string
		o   guildkit.Opt[string]
	}{{&m.Avatar, body.Avatar}, {&m.Banner, body.Banner}} {
		if f.o.IsZero() {
			continue
		}
		*f.dst = nil
		if v, ok := f.o.Get(); ok {
			h := imageHash(guildkit.ImageData(v))
			*f.dst = &h
		}
	}
	s.emit(guildkit.EventGuildMemberUpdate, gs.guild.ID, eventMember(*m))
	c.json(http.StatusOK, copyMember(*m))
}

// maxNick is the longest nickname, in characters: the reference
// platform's limit (the interface's documents state none).
const maxNick = 32

// checkNick adds a problem for a nickname the reference platform refuses:
// longer than 32 characters, or of white space only. The empty string (and
// null) removes a nickname and is not a problem.
func checkNick(problems map[string]string, o guildkit.Opt[string]) {
	nick, ok := o.Get()
	if !ok || nick == "" {
		return
	}
	if strings.TrimSpace(nick) == "" || utf8.RuneCountInString(nick) > maxNick {
		problems["nick"] = fmt.Sprintf("Must be between 1 and %d in length.", maxNick)
	}
}

func setNick(m *guildkit.Member, o guildkit.Opt[string]) {
	if o.IsZero() {
		return
	}
	m.Nick = nil
	if nick, ok := o.Get(); ok && nick != "" {
		m.Nick = &nick
	}
}

// modifyCurrentNick: Modify Current User Nick (deprecated), answering
// {"nick": ...}.
func (s *Server) modifyCurrentNick(c *call) {
	gs, ok := c.guild()
	if !ok {
		return
	}
	var body struct {
		Nick guildkit.Opt[string] `json:"nick"`
	}
	if !c.decodeOptional(&body) || !c.require(gs, guildkit.PermissionChangeNickname) {
		return
	}
	problems := map[string]string{}
	if checkNick(problems, body.Nick); len(problems) > 0 {
		c.formError(problems)
		return
	}
	m := &gs.members[c.user].member
	if body.Nick.IsZero() {
		body.Nick = guildkit.Null[string]()
	}
	setNick(m, body.Nick)
	s.emit(guildkit.EventGuildMemberUpdate, gs.guild.ID, eventMember(*m))
	c.json(http.StatusOK, map[string]*string{"nick": m.Nick})
}

// memberRole resolves the guild, member and role of the member-role routes
// and checks MANAGE_ROLES and the role hierarchy.
func (c *call) memberRole() (*guildState, *memberState, guildkit.Snowflake, bool) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageRoles) {
		return nil, nil, 0, false
	}
	ms, ok := c.member(gs)
	if !ok {
		return nil, nil, 0, false
	}
	rid, ok := c.id("role_id", guildkit.CodeUnknownRole, "Role")
	if !ok {
		return nil, nil, 0, false
	}
	if _, ok := gs.roles[rid]; !ok || rid == gs.guild.ID {
		c.error(http.StatusNotFound, guildkit.CodeUnknownRole, "Unknown Role")
		return nil, nil, 0, false
	}
	// The role hierarchy: the role below the caller's highest, and the
	// member below the caller unless it is the caller.
	if uid := ms.member.User.ID; uid != c.user && !c.requireOutranks(gs, uid) {
		return nil, nil, 0, false
	}
	if !c.requireManagesRoles(gs, rid) {
		return nil, nil, 0, false
	}
	return gs, ms, rid, true
}

// addMemberRole: Add Guild Member Role. The event is emitted when the
// member's roles change.
func (s *Server) addMemberRole(c *call) {
	gs, ms, rid, ok := c.memberRole()
	if !ok {
		return
	}
	if !slices.Contains(ms.member.Roles, rid) {
		ms.member.Roles = append(ms.member.Roles, rid)
		s.emit(guildkit.EventGuildMemberUpdate, gs.guild.ID, eventMember(ms.member))
	}
	c.noContent()
}

// removeMemberRole: Remove Guild Member Role.
func (s *Server) removeMemberRole(c *call) {
	gs, ms, rid, ok := c.memberRole()
	if !ok {
		return
	}
	if i := slices.Index(ms.member.Roles, rid); i >= 0 {
		ms.member.Roles = slices.Delete(ms.member.Roles, i, i+1)
		s.emit(guildkit.EventGuildMemberUpdate, gs.guild.ID, eventMember(ms.member))
	}
	c.noContent()
}

// removeMember: Remove Guild Member (a kick). The event carries the user.
// The owner and members not below the caller cannot be kicked (the role
// hierarchy, hierarchy.go).
func (s *Server) removeMember(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionKickMembers) {
		return
	}
	ms, ok := c.member(gs)
	if !ok || !c.requireOutranks(gs, ms.member.User.ID) {
		return
	}
	s.removeMemberLocked(gs, ms)
	c.noContent()
}

func (s *Server) removeMemberLocked(gs *guildState, ms *memberState) {
	u := *ms.member.User
	delete(gs.members, u.ID)
	s.emit(guildkit.EventGuildMemberRemove, gs.guild.ID, u)
}

// auditReason returns the decoded X-Audit-Log-Reason, or nil.
func (c *call) auditReason() *string {
	raw := c.r.Header.Get("X-Audit-Log-Reason")
	if raw == "" {
		return nil
	}
	if r, err := url.PathUnescape(raw); err == nil {
		raw = r
	}
	raw = truncateRunes(raw, maxAuditLogReason)
	return &raw
}

// changedRoles returns the roles in exactly one of before and after: the
// roles a change of a member's roles adds or removes.
func changedRoles(before, after []guildkit.Snowflake) []guildkit.Snowflake {
	var out []guildkit.Snowflake
	for _, id := range after {
		if !slices.Contains(before, id) {
			out = append(out, id)
		}
	}
	for _, id := range before {
		if !slices.Contains(after, id) {
			out = append(out, id)
		}
	}
	return out
}
