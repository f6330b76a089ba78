package guildkittest

import (
	"encoding/json"
	"strconv"

	"github.com/seed012df1e9/guildkit"
)

// gwEvent is an event as the gateway sends it: its payload built once,
// the intent that gates it, and whether the bot's permissions let it
// through.
type gwEvent struct {
	name    string
	guildID guildkit.Snowflake
	intent  uint64 // 0: no intent needed
	d       []byte
	// blanked is the payload for sessions without MESSAGE_CONTENT, when
	// it differs (a message the bot neither sent nor is mentioned in).
	blanked []byte
	// notAllowed says why the bot may not see it (permissions), or "".
	notAllowed string
	// always: sessions get it whatever their intents (the bot's own
	// GUILD_MEMBER_UPDATE).
	always bool
}

// dispatchLocked hands an event the server emitted to every session that
// should get it, as the platform does: routed by shard, filtered by
// intents and permissions, with the platform's payload. The caller holds
// s.mu; it never blocks (each session's queue is bounded, §gwSession).
func (s *Server) dispatchLocked(e Event) {
	h := &s.gw
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.sessions) == 0 {
		return
	}
	evs := s.gatewayEventsLocked(e)
	for _, ev := range evs {
		s.fanOutLocked(ev)
	}
}

// fanOutLocked queues ev in every session that carries its guild and asks
// for it, and returns how many; the others log it as not sent. The caller
// holds both locks.
func (s *Server) fanOutLocked(ev gwEvent) int {
	h := &s.gw
	queued := 0
	for _, sess := range h.sessions {
		note := ""
		switch {
		case shardOf(ev.guildID, sess.numShards) != sess.shardID:
			note = "shard: guild on shard " + strconv.Itoa(shardOf(ev.guildID, sess.numShards))
		case ev.intent != 0 && !ev.always && sess.intents&ev.intent == 0:
			note = "intents: needs " + intentNames(ev.intent)[0]
		case ev.notAllowed != "":
			note = "permissions: " + ev.notAllowed
		}
		if note != "" {
			sess.logLocked(GatewayFrame{At: s.Now(), Direction: FrameNotSent, Op: opDispatch, Name: ev.name, data: ev.d, Note: note})
			continue
		}
		d := ev.d
		if ev.blanked != nil && sess.intents&intentMessageContent == 0 {
			d = ev.blanked
		}
		s.appendLocked(sess, ev.name, d)
		queued++
	}
	return queued
}

// DispatchGatewayEvent sends a dispatch named name with payload d (a JSON
// object) to the sessions, connected or waiting for a resume, that carry
// guildID (0: shard 0) and whose intents include intent (0: every
// session), as any event of the server is sent, and returns how many
// sessions it was queued for (0: no bot would see it). It is for events
// the server does not emit by itself (INTERACTION_CREATE, for example).
func (s *Server) DispatchGatewayEvent(name string, guildID guildkit.Snowflake, intent uint64, d json.RawMessage) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dispatchRawLocked(name, guildID, intent, d)
}

// dispatchRawLocked is DispatchGatewayEvent for a caller holding s.mu.
func (s *Server) dispatchRawLocked(name string, guildID guildkit.Snowflake, intent uint64, d []byte) int {
	h := &s.gw
	h.mu.Lock()
	defer h.mu.Unlock()
	return s.fanOutLocked(gwEvent{name: name, guildID: guildID, intent: intent, d: append([]byte(nil), d...)})
}

// gatewayEventsLocked converts an event of the server into the gateway's
// (spec §6 and §7): usually one, two when the bot itself left a guild
// (GUILD_MEMBER_REMOVE, then GUILD_DELETE).
func (s *Server) gatewayEventsLocked(e Event) []gwEvent {
	gid := e.GuildID
	gs := s.guilds[gid]
	ev := gwEvent{name: string(e.Name), guildID: gid}
	guildField := map[string]any{"guild_id": gid}
	switch e.Name {
	case guildkit.EventGuildUpdate:
		ev.intent = intentGuilds
		ev.d = objectWith(e.Data, nil, map[string]any{"emojis": []any{}, "stickers": []any{}, "premium_tier": 0, "roles": []any{}})
	case guildkit.EventChannelCreate, guildkit.EventChannelUpdate:
		ev.intent = intentGuilds
		ev.d = objectWith(e.Data, guildField, nil)
		if ch, ok := e.Data.(guildkit.Channel); ok && gs != nil && !gs.inviteChannelPermissions(s.bot, &ch).Has(guildkit.PermissionViewChannel) {
			ev.notAllowed = "the bot cannot see the channel"
		}
	case guildkit.EventGuildMemberAdd, guildkit.EventGuildMemberUpdate:
		ev.intent = intentGuildMembers
		ev.d = objectWith(e.Data, guildField, map[string]any{"pending": false, "flags": 0, "deaf": false, "mute": false, "avatar": nil, "banner": nil})
		if m, ok := e.Data.(guildkit.Member); ok && m.User != nil && m.User.ID == s.bot {
			ev.always = e.Name == guildkit.EventGuildMemberUpdate
		}
	case guildkit.EventGuildMemberRemove, guildkit.EventGuildBanAdd, guildkit.EventGuildBanRemove:
		var u guildkit.User
		switch v := e.Data.(type) {
		case guildkit.User:
			u = v
		case *guildkit.User:
			u = *v
		case guildkit.Member:
			if v.User != nil {
				u = *v.User
			}
		}
		ev.d = mustJSON(map[string]any{"guild_id": gid, "user": userObject(u)})
		if e.Name == guildkit.EventGuildMemberRemove {
			ev.intent = intentGuildMembers
			if u.ID == s.bot {
				left := gwEvent{name: "GUILD_DELETE", guildID: gid, intent: intentGuilds, d: mustJSON(map[string]any{"id": gid})}
				return []gwEvent{ev, left}
			}
			break
		}
		ev.intent = intentGuildModeration
		if gs != nil {
			p := gs.permissions(s.bot)
			if !p.Has(guildkit.PermissionBanMembers) && !p.Has(guildkit.PermissionViewAuditLog) {
				ev.notAllowed = "needs BAN_MEMBERS or VIEW_AUDIT_LOG"
			}
		}
	case guildkit.EventGuildRoleCreate, guildkit.EventGuildRoleUpdate:
		ev.intent = intentGuilds
		ev.d = mustJSON(map[string]any{"guild_id": gid, "role": json.RawMessage(mustJSON(e.Data))})
	case guildkit.EventGuildRoleDelete:
		ev.intent = intentGuilds
		ev.d = mustJSON(map[string]any{"guild_id": gid, "role_id": e.Data})
	case guildkit.EventGuildIntegrationsUpdate, guildkit.EventIntegrationDelete:
		ev.intent = intentGuildIntegrations
		ev.d = mustJSON(e.Data)
	case guildkit.EventInviteCreate:
		ev.intent = intentGuildInvites
		ev.d = inviteCreatePayload(e.Data, gid)
		s.inviteAllowedLocked(&ev, gs, e.Data)
	case guildkit.EventInviteDelete:
		ev.intent = intentGuildInvites
		ev.d = objectWith(e.Data, guildField, nil)
		s.inviteAllowedLocked(&ev, gs, e.Data)
	case guildkit.EventWebhooksUpdate:
		ev.intent = intentGuildWebhooks
		ev.d = mustJSON(e.Data)
	case guildkit.EventMessageCreate, guildkit.EventMessageUpdate:
		s.messageEventLocked(&ev, e.Data)
	case guildkit.EventMessageDelete:
		ev.intent = intentGuildMessages
		if gid == 0 {
			ev.intent = intentDirectMessages
		}
		m, _ := e.Data.(guildkit.Message)
		d := map[string]any{"id": m.ID, "channel_id": m.ChannelID}
		if gid != 0 {
			d["guild_id"] = gid
		}
		ev.d = mustJSON(d)
		s.chatVisibilityLocked(&ev, m.ChannelID)
	case eventMessageDeleteBulk, eventMessageReactionAdd, eventMessageReactionRemove, eventTypingStart:
		s.chatEventLocked(&ev, e)
	default:
		ev.d = mustJSON(e.Data)
	}
	return []gwEvent{ev}
}

// inviteCreatePayload is INVITE_CREATE's d (spec §6.6), guild_id always
// set (twilight requires it), uses 0.
func inviteCreatePayload(data any, gid guildkit.Snowflake) []byte {
	inv, _ := data.(guildkit.Invite)
	d := map[string]any{
		"code": inv.Code, "guild_id": gid, "uses": 0, "max_age": 86400, "max_uses": 0, "temporary": false,
		"created_at": nil, "expires_at": nil,
	}
	if inv.Channel != nil {
		d["channel_id"] = inv.Channel.ID
	}
	if inv.MaxAge != nil {
		d["max_age"] = *inv.MaxAge
	}
	if inv.MaxUses != nil {
		d["max_uses"] = *inv.MaxUses
	}
	if inv.Temporary != nil {
		d["temporary"] = *inv.Temporary
	}
	if inv.CreatedAt != nil {
		d["created_at"] = inv.CreatedAt.UTC()
	}
	if t, ok := inv.ExpiresAt.Get(); ok {
		d["expires_at"] = t.UTC()
	}
	if inv.Inviter != nil {
		d["inviter"] = userObject(*inv.Inviter)
	}
	if inv.TargetType != 0 {
		d["target_type"] = inv.TargetType
	}
	if inv.TargetUser != nil {
		d["target_user"] = userObject(*inv.TargetUser)
	}
	if inv.TargetApplication != nil {
		d["target_application"] = inv.TargetApplication
	}
	return mustJSON(d)
}

// inviteAllowedLocked: invite events reach only a bot with MANAGE_CHANNELS
// on the invite's channel.
func (s *Server) inviteAllowedLocked(ev *gwEvent, gs *guildState, data any) {
	if gs == nil {
		return
	}
	var chID guildkit.Snowflake
	switch v := data.(type) {
	case guildkit.Invite:
		if v.Channel != nil {
			chID = v.Channel.ID
		}
	case guildkit.InviteDeleteEvent:
		chID = v.ChannelID
	}
	ch, ok := gs.channels[chID]
	if !ok {
		return
	}
	if !gs.inviteChannelPermissions(s.bot, ch).Has(guildkit.PermissionManageChannels) {
		ev.notAllowed = "needs MANAGE_CHANNELS on the channel"
	}
}

// messageEventLocked builds MESSAGE_CREATE/UPDATE: the message with
// guild_id and channel_type; member absent (webhook messages carry none).
// Without MESSAGE_CONTENT a session gets content "", embeds, attachments
// and components [] and no poll, unless the bot sent the message, it is in
// a DM, or it mentions the bot.
func (s *Server) messageEventLocked(ev *gwEvent, data any) {
	m, _ := data.(guildkit.Message)
	gid := ev.guildID
	ev.intent = intentGuildMessages
	extra := map[string]any{}
	if gid == 0 {
		ev.intent = intentDirectMessages
	} else {
		extra["guild_id"] = gid
		if gs := s.guilds[gid]; gs != nil {
			if ch, ok := gs.channels[m.ChannelID]; ok {
				extra["channel_type"] = ch.Type
			}
		}
	}
	if ev.name == string(guildkit.EventMessageUpdate) {
		extra["tts"] = false
	}
	s.chatMessageExtrasLocked(ev, m, extra)
	ev.d = objectWith(m, extra, nil)
	own := (m.Author != nil && m.Author.ID == s.bot) || (m.ApplicationID != nil && *m.ApplicationID == s.appID())
	mentioned := false
	for _, u := range m.Mentions {
		if u.ID == s.bot {
			mentioned = true
		}
	}
	if own || mentioned || gid == 0 {
		return
	}
	blank := m
	blank.Content = ""
	blank.Embeds = []guildkit.Embed{}
	blank.Attachments = []guildkit.Attachment{}
	blank.Components = nil
	blank.Poll = nil
	extra["components"] = []any{}
	ev.blanked = objectWith(blank, extra, nil)
}
