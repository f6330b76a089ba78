package guildkittest

import (
	"encoding/json"

	"github.com/seed012df1e9/guildkit"
)

// The gateway's message events (messages.md §7): who gets them and what
// MESSAGE_CREATE and MESSAGE_UPDATE carry beyond the message.

// Intents of the message events beyond those gateway_payloads.go names.
const (
	intentGuildMessageReactions  = 1 << 10
	intentGuildMessageTyping     = 1 << 11
	intentDirectMessageReactions = 1 << 13
	intentDirectMessageTyping    = 1 << 14
)

// chatVisibilityLocked marks ev as not for the bot when it cannot see the
// channel: a DM it is not in, a guild channel without VIEW_CHANNEL.
func (s *Server) chatVisibilityLocked(ev *gwEvent, channelID guildkit.Snowflake) {
	if dm, ok := s.chat().dms[channelID]; ok {
		if !dm.has(s.bot) {
			ev.notAllowed = "the bot is not in this DM"
		}
		return
	}
	gs, ch := s.webhookChannel(channelID)
	if gs == nil {
		return
	}
	if !s.effectivePermissionsLocked(gs, ch, s.bot).Has(guildkit.PermissionViewChannel) {
		ev.notAllowed = "needs VIEW_CHANNEL on the channel"
	}
}

// chatMessageExtrasLocked adds to MESSAGE_CREATE/UPDATE's extra keys what
// the platform sends with an ordinary message: channel_type 1 in a DM, the
// author's partial member (no user), each mentioned member, the reply's
// reference and replied-to message, a forward's snapshot, the nonce.
func (s *Server) chatMessageExtrasLocked(ev *gwEvent, m guildkit.Message, extra map[string]any) {
	s.chatVisibilityLocked(ev, m.ChannelID)
	if _, dm := s.chat().dms[m.ChannelID]; dm {
		extra["channel_type"] = guildkit.ChannelTypeDM
	}
	wm, ok := s.wh().messages[m.ID]
	if !ok || wm.chat == nil {
		return
	}
	st := wm.chat
	if gs := s.guilds[st.guildID]; gs != nil {
		if m.Author != nil {
			if ms, ok := gs.members[m.Author.ID]; ok {
				extra["member"] = partialMember(ms.member)
			}
		}
		mentions := make([]json.RawMessage, 0, len(m.Mentions))
		for _, u := range m.Mentions {
			var more map[string]any
			if ms, ok := gs.members[u.ID]; ok {
				more = map[string]any{"member": partialMember(ms.member)}
			}
			mentions = append(mentions, objectWith(u, more, nil))
		}
		extra["mentions"] = mentions
	}
	s.referenceExtrasLocked(st, extra)
	if st.nonce != nil && ev.name == string(guildkit.EventMessageCreate) {
		extra["nonce"] = st.nonce
	}
}

// chatEventLocked builds MESSAGE_DELETE_BULK, MESSAGE_REACTION_ADD and
// _REMOVE, and TYPING_START: their payload as emitted, the intent by
// guild or DM, and the bot's visibility of the channel.
func (s *Server) chatEventLocked(ev *gwEvent, e Event) {
	d, _ := e.Data.(map[string]any)
	ev.d = mustJSON(e.Data)
	dm := e.GuildID == 0
	switch e.Name {
	case eventMessageDeleteBulk:
		ev.intent = intentGuildMessages
	case eventMessageReactionAdd, eventMessageReactionRemove:
		ev.intent = intentGuildMessageReactions
		if dm {
			ev.intent = intentDirectMessageReactions
		}
	case eventTypingStart:
		ev.intent = intentGuildMessageTyping
		if dm {
			ev.intent = intentDirectMessageTyping
		}
	}
	if id, ok := d["channel_id"].(guildkit.Snowflake); ok {
		s.chatVisibilityLocked(ev, id)
	}
}
