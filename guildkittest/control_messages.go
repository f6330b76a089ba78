package guildkittest

import (
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
