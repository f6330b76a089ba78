package guildkittest

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/seed012df1e9/guildkit"
)

func (s *Server) channelRoutes(reg registrar) {
	reg("GET /guilds/{guild_id}/channels", authRequired, s.listChannels)
	reg("POST /guilds/{guild_id}/channels", authRequired, s.createChannel)
	reg("PATCH /guilds/{guild_id}/channels", authRequired, s.modifyChannelPositions)
	reg("GET /guilds/{guild_id}/threads/active", authRequired, s.listActiveThreads)
}

func copyChannel(ch guildkit.Channel) guildkit.Channel {
	ch.PermissionOverwrites = slices.Clone(ch.PermissionOverwrites)
	ch.AvailableTags = slices.Clone(ch.AvailableTags)
	ch.AppliedTags = slices.Clone(ch.AppliedTags)
	if ch.ThreadMetadata != nil {
		md := *ch.ThreadMetadata
		ch.ThreadMetadata = &md
	}
	return ch
}

// sortedChannels returns copies of the guild's channels, threads excluded,
// by position with ties sorted by id.
func (gs *guildState) sortedChannels() []guildkit.Channel {
	out := []guildkit.Channel{}
	for _, ch := range gs.channels {
		if !ch.Type.IsThread() {
			out = append(out, copyChannel(*ch))
		}
	}
	slices.SortFunc(out, func(a, b guildkit.Channel) int {
		return cmp.Or(cmp.Compare(a.Position, b.Position), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// Channel returns a channel or thread as the server holds it.
func (s *Server) Channel(guildID, channelID guildkit.Snowflake) (guildkit.Channel, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, ok := s.mustGuild(guildID).channels[channelID]
	if !ok {
		return guildkit.Channel{}, false
	}
	return shaped(copyChannel(*ch)), true
}

// Channels returns a guild's channels, threads excluded, in the order Get
// Guild Channels uses: by position, ties by id.
func (s *Server) Channels(guildID guildkit.Snowflake) []guildkit.Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	return shaped(s.mustGuild(guildID).sortedChannels())
}

// listChannels: Get Guild Channels.
func (s *Server) listChannels(c *call) {
	gs, ok := c.guild()
	if !ok {
		return
	}
	c.json(http.StatusOK, gs.sortedChannels())
}

// maxBitrate is the highest bitrate a channel of type t may have in gs:
// 64000 for stage channels; for voice 96000, 128000, 256000 and 384000 by
// premium tier, 384000 with VIP_REGIONS.
func (gs *guildState) maxBitrate(t guildkit.ChannelType) int {
	if t == guildkit.ChannelTypeGuildStageVoice {
		return 64000
	}
	if gs.guild.HasFeature(guildkit.FeatureVIPRegions) {
		return 384000
	}
	switch gs.guild.PremiumTier {
	case guildkit.PremiumTier1:
		return 128000
	case guildkit.PremiumTier2:
		return 256000
	case guildkit.PremiumTier3:
		return 384000
	}
	return 96000
}

// createChannel: Create Guild Channel. MANAGE_CHANNELS; the interface's
// field rules, bitrate maxima by tier, a category parent, a known voice
// region, overwrites naming known roles and members and only permissions
// the caller holds (MANAGE_ROLES only for administrators). Without a
// position the channel goes after every other. A name of white space only
// is refused, as the reference platform does. Emits CHANNEL_CREATE.
func (s *Server) createChannel(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageChannels) {
		return
	}
	var p guildkit.ChannelCreateParams
	if !c.decode(&p) {
		return
	}
	typ := p.Type.Or(guildkit.ChannelTypeGuildText)
	problems := map[string]string{}
	if n := utf8.RuneCountInString(p.Name); n < 1 || n > 100 || strings.TrimSpace(p.Name) == "" {
		problems["name"] = "Must be between 1 and 100 in length."
	}
	switch typ {
	case guildkit.ChannelTypeGuildText, guildkit.ChannelTypeGuildVoice, guildkit.ChannelTypeGuildCategory,
		guildkit.ChannelTypeGuildAnnouncement, guildkit.ChannelTypeGuildStageVoice, guildkit.ChannelTypeGuildForum,
		guildkit.ChannelTypeGuildMedia:
	default:
		problems["type"] = "Value is not a valid channel type for a guild channel."
	}
	for _, field := range p.InapplicableFields() {
		problems[field] = fmt.Sprintf("Not allowed for a %v channel.", typ)
	}
	if t, ok := p.Topic.Get(); ok && utf8.RuneCountInString(t) > 1024 {
		problems["topic"] = "Must be 1024 or fewer in length."
	}
	if b, ok := p.Bitrate.Get(); ok {
		if hi := gs.maxBitrate(typ); b < 8000 || b > hi {
			problems["bitrate"] = fmt.Sprintf("Must be between 8000 and %d.", hi)
		}
	}
	for field, o := range map[string]guildkit.Opt[int]{
		"rate_limit_per_user": p.RateLimitPerUser, "default_thread_rate_limit_per_user": p.DefaultThreadRateLimitPerUser,
	} {
		if r, ok := o.Get(); ok && (r < 0 || r > 21600) {
			problems[field] = "Must be between 0 and 21600."
		}
	}
	var parent *guildkit.Channel
	if id, ok := p.ParentID.Get(); ok {
		if parent, ok = gs.channels[id]; !ok || parent.Type != guildkit.ChannelTypeGuildCategory {
			problems["parent_id"] = "Not a category of this guild."
		}
	}
	if r, ok := p.RTCRegion.Get(); ok && !slices.ContainsFunc(regionsFor(gs), func(v guildkit.VoiceRegion) bool { return v.ID == r }) {
		problems["rtc_region"] = "Unknown voice region."
	}
	callerPerms := gs.permissions(c.user)
	var overwrites []guildkit.PermissionOverwrite
	ows, _ := p.PermissionOverwrites.Get()
	for i, ow := range ows {
		o := guildkit.PermissionOverwrite{ID: ow.ID, Type: ow.Type, Allow: ow.Allow.Or(0), Deny: ow.Deny.Or(0)}
		both := o.Allow | o.Deny
		switch {
		case both.Has(guildkit.PermissionManageRoles) && !gs.isAdmin(c.user):
			c.error(http.StatusForbidden, guildkit.CodeMissingPermissions, "Missing Permissions")
			return
		case !callerPerms.Has(both):
			c.error(http.StatusForbidden, guildkit.CodeMissingPermissions, "Missing Permissions")
			return
		}
		switch ow.Type {
		case guildkit.OverwriteTypeRole:
			if _, ok := gs.roles[ow.ID]; !ok {
				problems[fmt.Sprintf("permission_overwrites.%d.id", i)] = "Unknown role"
			}
		case guildkit.OverwriteTypeMember:
			if _, ok := gs.members[ow.ID]; !ok {
				problems[fmt.Sprintf("permission_overwrites.%d.id", i)] = "Unknown member"
			}
		default:
			problems[fmt.Sprintf("permission_overwrites.%d.type", i)] = "Value must be one of {0, 1}."
		}
		overwrites = append(overwrites, o)
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	ch := guildkit.Channel{
		ID: s.newID(), Type: typ, GuildID: gs.guild.ID, Name: p.Name,
		PermissionOverwrites:       append([]guildkit.PermissionOverwrite{}, overwrites...),
		DefaultAutoArchiveDuration: p.DefaultAutoArchiveDuration.Or(0),
		AvailableTags:              p.AvailableTags.Or(nil),
		DefaultReactionEmoji:       p.DefaultReactionEmoji,
		DefaultSortOrder:           p.DefaultSortOrder,
		DefaultForumLayout:         p.DefaultForumLayout.Or(guildkit.ForumLayoutNotSet),
	}
	// Each type carries the fields that apply to it, unset ones as the
	// platform shows them (null topic, false nsfw, no slow mode).
	applies := func(field string) bool { return guildkit.ChannelFieldApplies(field, typ) }
	if applies("topic") {
		ch.Topic = orNull(p.Topic)
	}
	if applies("default_thread_rate_limit_per_user") {
		ch.DefaultThreadRateLimitPerUser = ptr(p.DefaultThreadRateLimitPerUser.Or(0))
	}
	if applies("nsfw") {
		ch.NSFW = ptr(p.NSFW.Or(false))
	}
	if applies("rate_limit_per_user") {
		ch.RateLimitPerUser = ptr(p.RateLimitPerUser.Or(0))
	}
	if applies("parent_id") {
		ch.ParentID = guildkit.Null[guildkit.Snowflake]()
		if parent != nil {
			ch.ParentID = guildkit.Some(parent.ID)
		}
	}
	if pos, ok := p.Position.Get(); ok {
		ch.Position = pos
	} else {
		for _, other := range gs.channels {
			if !other.Type.IsThread() {
				ch.Position = max(ch.Position, other.Position+1)
			}
		}
	}
	if typ == guildkit.ChannelTypeGuildVoice || typ == guildkit.ChannelTypeGuildStageVoice {
		ch.Bitrate = ptr(p.Bitrate.Or(64000))
		ch.UserLimit = ptr(p.UserLimit.Or(0))
		ch.RTCRegion = orNull(p.RTCRegion)
		ch.VideoQualityMode = p.VideoQualityMode.Or(guildkit.VideoQualityAuto)
	}
	for i := range ch.AvailableTags {
		if ch.AvailableTags[i].ID == 0 {
			ch.AvailableTags[i].ID = s.newID()
		}
	}
	gs.channels[ch.ID] = &ch
	out := copyChannel(ch)
	s.emit(guildkit.EventChannelCreate, gs.guild.ID, out)
	c.json(http.StatusCreated, out) // 201, as the reference platform answers
}

// modifyChannelPositions: Modify Guild Channel Positions. MANAGE_CHANNELS;
// each item names a channel of the guild (not a thread); a parent must be a
// category and a category cannot get one; lock_permissions copies the new
// parent's overwrites. Positions are stored as given (ties are sorted by id
// when listed). One CHANNEL_UPDATE per channel whose position, parent or
// overwrites changed, in request order.
func (s *Server) modifyChannelPositions(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageChannels) {
		return
	}
	var items []guildkit.ChannelPositionParams
	if !c.decode(&items) {
		return
	}
	problems := map[string]string{}
	if len(items) == 0 {
		problems["_"] = "Must be at least 1 in length."
	}
	next := map[guildkit.Snowflake]guildkit.Channel{}
	for i, it := range items {
		cur, ok := gs.channels[it.ID]
		if !ok || cur.Type.IsThread() {
			problems[fmt.Sprintf("%d.id", i)] = "Unknown channel"
			continue
		}
		ch := copyChannel(*cur)
		if pos, ok := it.Position.Get(); ok {
			ch.Position = pos
		}
		if !it.ParentID.IsZero() {
			ch.ParentID = guildkit.Null[guildkit.Snowflake]()
			if pid, ok := it.ParentID.Get(); ok {
				parent, ok := gs.channels[pid]
				switch {
				case !ok || parent.Type != guildkit.ChannelTypeGuildCategory:
					problems[fmt.Sprintf("%d.parent_id", i)] = "Not a category of this guild."
				case ch.Type == guildkit.ChannelTypeGuildCategory:
					problems[fmt.Sprintf("%d.parent_id", i)] = "A category cannot have a parent."
				default:
					ch.ParentID = guildkit.Some(pid)
					if it.LockPermissions.Or(false) {
						ch.PermissionOverwrites = slices.Clone(parent.PermissionOverwrites)
					}
				}
			}
		}
		next[it.ID] = ch
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	for _, it := range items {
		ch, ok := next[it.ID]
		if !ok {
			continue
		}
		delete(next, it.ID)
		cur := gs.channels[it.ID]
		changed := cur.Position != ch.Position || cur.ParentID != ch.ParentID ||
			!slices.Equal(cur.PermissionOverwrites, ch.PermissionOverwrites)
		*cur = ch
		if changed {
			s.emit(guildkit.EventChannelUpdate, gs.guild.ID, copyChannel(ch))
		}
	}
	c.noContent()
}

func ptr[T any](v T) *T { return &v }

// orNull returns o, or Null when o is omitted: how the service shows a
// nullable field the request left out.
func orNull[T any](o guildkit.Opt[T]) guildkit.Opt[T] {
	if o.IsZero() {
		return guildkit.Null[T]()
	}
	return o
}

// AddThread adds a thread under channel parentID and returns it. Type
// defaults to a public thread and must be a thread type; OwnerID defaults to
// the bot, who joins it; ThreadMetadata defaults to active, archiving after
// 1440 minutes.
func (s *Server) AddThread(guildID, parentID guildkit.Snowflake, th guildkit.Channel) guildkit.Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	gs := s.mustGuild(guildID)
	if _, ok := gs.channels[parentID]; !ok {
		panic("guildkittest: AddThread: unknown parent channel " + parentID.String())
	}
	if th.Type == 0 {
		th.Type = guildkit.ChannelTypePublicThread
	}
	if !th.Type.IsThread() {
		panic("guildkittest: AddThread: " + th.Type.String() + " is not a thread type")
	}
	if th.ID == 0 {
		th.ID = s.newID()
	}
	if th.Name == "" {
		th.Name = "thread " + th.ID.String()
	}
	if th.OwnerID == 0 {
		th.OwnerID = s.bot
	}
	th.GuildID, th.ParentID = guildID, guildkit.Some(parentID)
	if th.ThreadMetadata == nil {
		th.ThreadMetadata = &guildkit.ThreadMetadata{AutoArchiveDuration: 1440, ArchiveTimestamp: s.now().UTC()}
	}
	zero := 0
	if th.MessageCount == nil {
		th.MessageCount = &zero
	}
	th.MemberCount = &zero
	cp := copyChannel(th)
	gs.channels[th.ID] = &cp
	gs.settings.threadMembers[th.ID] = map[guildkit.Snowflake]guildkit.ThreadMember{}
	s.addThreadMemberLocked(gs, &cp, th.OwnerID)
	return shaped(copyChannel(cp))
}

// AddThreadMember adds a user to a thread and returns the thread member.
func (s *Server) AddThreadMember(guildID, threadID, userID guildkit.Snowflake) guildkit.ThreadMember {
	s.mu.Lock()
	defer s.mu.Unlock()
	gs := s.mustGuild(guildID)
	th, ok := gs.channels[threadID]
	if !ok || !th.Type.IsThread() {
		panic("guildkittest: AddThreadMember: unknown thread " + threadID.String())
	}
	return s.addThreadMemberLocked(gs, th, userID)
}

func (s *Server) addThreadMemberLocked(gs *guildState, th *guildkit.Channel, userID guildkit.Snowflake) guildkit.ThreadMember {
	tid, uid := th.ID, userID
	tm := guildkit.ThreadMember{ID: &tid, UserID: &uid, JoinTimestamp: s.now().UTC()}
	members := gs.settings.threadMembers[th.ID]
	if _, ok := members[userID]; !ok {
		n := len(members) + 1
		th.MemberCount = &n
	}
	members[userID] = tm
	return tm
}

// listActiveThreads: List Active Guild Threads: unarchived threads, public
// and private, by id descending; members holds the caller's thread members.
func (s *Server) listActiveThreads(c *call) {
	gs, ok := c.guild()
	if !ok {
		return
	}
	out := guildkit.ActiveThreads{Threads: []guildkit.Channel{}, Members: []guildkit.ThreadMember{}}
	for _, ch := range gs.channels {
		if ch.Type.IsThread() && (ch.ThreadMetadata == nil || !ch.ThreadMetadata.Archived) {
			out.Threads = append(out.Threads, copyChannel(*ch))
		}
	}
	slices.SortFunc(out.Threads, func(a, b guildkit.Channel) int { return cmp.Compare(b.ID, a.ID) })
	for _, th := range out.Threads {
		if tm, ok := gs.settings.threadMembers[th.ID][c.user]; ok {
			out.Members = append(out.Members, tm)
		}
	}
	c.json(http.StatusOK, out)
}
