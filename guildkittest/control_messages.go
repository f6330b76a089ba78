package guildkittest

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/seed012df1e9/guildkit"
)

// controlMessageRoutes registers the control API's message routes: a
// member posts ([Server.PostMessage]), the page reads a channel as a
// member sees it, and lists the bot's DM channels.
func (s *Server) controlMessageRoutes(api func(pattern string, h func(w http.ResponseWriter, r *http.Request))) {
	api("POST messages", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			UserID         guildkit.Snowflake `json:"user_id"`
			ChannelID      guildkit.Snowflake `json:"channel_id"`
			Content        string             `json:"content"`
			Embeds         []guildkit.Embed   `json:"embeds"`
			ReplyTo        guildkit.Snowflake `json:"reply_to"`
			MentionReplied bool               `json:"mention_replied"`
			Nonce          string             `json:"nonce"`
		}
		if !controlDecode(w, r, &body) {
			return
		}
		if body.UserID == 0 || body.ChannelID == 0 {
			controlError(w, http.StatusBadRequest, "user_id and channel_id: give the user who posts and the channel (a DM channel's id for a DM)")
			return
		}
		m, err := s.PostMessage(r.Context(), body.UserID, body.ChannelID, PostParams{
			Content: body.Content, Embeds: body.Embeds, ReplyTo: body.ReplyTo, MentionReplied: body.MentionReplied, Nonce: body.Nonce,
		})
		var apiErr *guildkit.APIError
		if errors.As(err, &apiErr) {
			controlJSON(w, apiErr.Status, map[string]any{"error": apiErr.Error(), "status": apiErr.Status, "code": apiErr.Code})
			return
		}
		if err != nil {
			controlError(w, http.StatusBadRequest, err.Error())
			return
		}
		controlJSON(w, http.StatusOK, withShapes(m))
	})
	api("GET channels/{channel_id}/messages", func(w http.ResponseWriter, r *http.Request) {
		channelID, err := guildkit.ParseSnowflake(r.PathValue("channel_id"))
		if err != nil {
			controlError(w, http.StatusNotFound, "no channel "+r.PathValue("channel_id"))
			return
		}
		userID, err := guildkit.ParseSnowflake(r.URL.Query().Get("user_id"))
		if err != nil {
			controlError(w, http.StatusBadRequest, "user_id: give the member who reads the channel")
			return
		}
		controlJSON(w, http.StatusOK, s.channelAsSeen(channelID, userID))
	})
	api("GET dms", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		out := []dmChannelJSON{}
		for _, dm := range sortedByID(s.chat().dms) {
			if dm.has(s.bot) {
				out = append(out, s.dmJSONLocked(dm, s.bot))
			}
		}
		s.mu.Unlock()
		controlJSON(w, http.StatusOK, withShapes(out))
	})
}

// channelView is a channel as a member reads it, for the page.
type channelView struct {
	// Messages are the messages the member sees, oldest first, as Get
	// Channel Messages answers them to that member (reactions' "me" is
	// theirs), with the ephemeral answers only it sees; empty without
	// READ_MESSAGE_HISTORY.
	Messages []json.RawMessage `json:"messages"`
	// Refused says why the member cannot read the channel (not a member,
	// no VIEW_CHANNEL, not in the DM), or why it shows no history; "" when
	// it can.
	Refused string `json:"refused,omitempty"`
	// CanSend says whether the member may post there.
	CanSend bool `json:"can_send"`
}

// channelAsSeen is channelID as userID reads it.
func (s *Server) channelAsSeen(channelID, userID guildkit.Snowflake) channelView {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := channelView{Messages: []json.RawMessage{}}
	t, cerr := s.chatTargetLocked(channelID, userID)
	if cerr != nil {
		out.Refused = cerr.msg
		return out
	}
	send := guildkit.PermissionSendMessages
	if t.ch != nil && t.ch.Type.IsThread() {
		send = guildkit.PermissionSendMessagesInThreads
	}
	out.CanSend = t.perms.Has(send)
	if !t.perms.Has(guildkit.PermissionReadMessageHistory) {
		out.Refused = "no READ_MESSAGE_HISTORY: the member sees only what arrives while the channel is open"
		return out
	}
	for _, wm := range s.channelHistoryLocked(channelID, userID) {
		out.Messages = append(out.Messages, s.messageAnswerLocked(wm, userID, false))
	}
	return out
}
