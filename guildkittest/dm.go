package guildkittest

import (
	"net/http"

	"github.com/seed012df1e9/guildkit"
)

// dmChannel is a DM channel between two users (the bot and a user, as a
// rule).
type dmChannel struct {
	id            guildkit.Snowflake
	users         [2]guildkit.Snowflake // ordered: the lower id first
	lastMessageID guildkit.Snowflake    // 0 when none was sent
}

// other returns the recipient of the DM as userID sees it.
func (dm *dmChannel) other(userID guildkit.Snowflake) guildkit.Snowflake {
	if dm.users[0] == userID {
		return dm.users[1]
	}
	return dm.users[0]
}

// has reports whether userID is one of the DM's two users.
func (dm *dmChannel) has(userID guildkit.Snowflake) bool {
	return dm.users[0] == userID || dm.users[1] == userID
}

// dmChannelJSON is a DM channel as the platform answers it (channel.mdx):
// id, type 1, last_message_id, the other user as the only recipient,
// flags. No guild_id, name, position or overwrites.
type dmChannelJSON struct {
	ID            guildkit.Snowflake   `json:"id"`
	Type          guildkit.ChannelType `json:"type"`
	LastMessageID *guildkit.Snowflake  `json:"last_message_id"`
	Recipients    []guildkit.User      `json:"recipients"`
	Flags         int                  `json:"flags"`
}

// dmJSONLocked is dm as viewer sees it; the caller holds s.mu.
func (s *Server) dmJSONLocked(dm *dmChannel, viewer guildkit.Snowflake) dmChannelJSON {
	out := dmChannelJSON{ID: dm.id, Type: guildkit.ChannelTypeDM, Recipients: []guildkit.User{*s.userLocked(dm.other(viewer))}}
	if dm.lastMessageID != 0 {
		id := dm.lastMessageID
		out.LastMessageID = &id
	}
	return out
}

// openDMLocked returns the DM channel between a and b, making it when
// there is none. The caller holds s.mu.
func (s *Server) openDMLocked(a, b guildkit.Snowflake) *dmChannel {
	pair := [2]guildkit.Snowflake{min(a, b), max(a, b)}
	log := s.chat()
	if id, ok := log.dmByPair[pair]; ok {
		return log.dms[id]
	}
	dm := &dmChannel{id: s.newID(), users: pair}
	log.dms[dm.id] = dm
	log.dmByPair[pair] = dm.id
	return dm
}

// DMChannel returns the id of the DM channel between the bot and userID,
// opening it when there is none, as Create DM does (no event). A member
// posts to the bot there with [Server.Post]. It panics on an unknown user.
func (s *Server) DMChannel(userID guildkit.Snowflake) guildkit.Snowflake {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.users[userID]; !ok {
		panic("guildkittest: DMChannel: unknown user " + userID.String())
	}
	return s.openDMLocked(s.bot, userID).id
}

// SetDirectMessagesOpen sets whether userID accepts direct messages from
// the users it shares a guild with (the default). A user who does not makes
// Create Message in its DM answer 403 with code 50007, as the platform
// does for a user whose privacy settings refuse the bot.
func (s *Server) SetDirectMessagesOpen(userID guildkit.Snowflake, open bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if open {
		delete(s.chat().dmsClosed, userID)
	} else {
		s.chat().dmsClosed[userID] = true
	}
}

// sharesGuildLocked reports whether a and b are members of one guild; the
// caller holds s.mu.
func (s *Server) sharesGuildLocked(a, b guildkit.Snowflake) bool {
	for _, gs := range s.guilds {
		_, okA := gs.members[a]
		_, okB := gs.members[b]
		if okA && okB {
			return true
		}
	}
	return false
}

// createDM: Create DM. {"recipient_id": snowflake}; an unknown user is 400
// with code 50033 (Invalid Recipient). The DM with that user is returned
// when there is one; no event (the platform sends no CHANNEL_CREATE for
// DMs).
func (s *Server) createDM(c *call) {
	var body struct {
		RecipientID guildkit.Snowflake `json:"recipient_id"`
	}
	if !c.decode(&body) {
		return
	}
	if _, ok := s.users[body.RecipientID]; !ok || body.RecipientID == c.user {
		c.error(http.StatusBadRequest, codeInvalidRecipient, "Invalid Recipient(s)")
		return
	}
	dm := s.openDMLocked(c.user, body.RecipientID)
	c.json(http.StatusOK, s.dmJSONLocked(dm, c.user))
}

// getChannel: Get Channel. A guild channel or thread for a member who can
// see it (VIEW_CHANNEL, else 403 50001); a DM for one of its two users.
func (s *Server) getChannel(c *call) {
	t, ok := s.callTargetLocked(c)
	if !ok {
		return
	}
	if t.dm != nil {
		c.json(http.StatusOK, s.dmJSONLocked(t.dm, c.user))
		return
	}
	c.json(http.StatusOK, copyChannel(*t.ch))
}

// getUser: Get User. Any known user, as the platform shows a user to a
// bot; 404 10013 otherwise.
func (s *Server) getUser(c *call) {
	id, ok := c.id("user_id", guildkit.CodeUnknownUser, "User")
	if !ok {
		return
	}
	u, ok := s.users[id]
	if !ok {
		c.error(http.StatusNotFound, guildkit.CodeUnknownUser, "Unknown User")
		return
	}
	c.json(http.StatusOK, *u)
}
