package guildkittest

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/wire"
)

// PostParams is a message a user posts with [Server.PostMessage]: what the
// platform's client sends for a member who types, replies, attaches files
// or pings. Users' messages carry no components.
type PostParams struct {
	Content string
	// Embeds are kept only when the user may embed links there
	// (EMBED_LINKS).
	Embeds []guildkit.Embed
	// ReplyTo is the message, in the same channel, this one replies to;
	// 0 for none. MentionReplied pings its author.
	ReplyTo        guildkit.Snowflake
	MentionReplied bool
	// AllowedMentions limits the pings; nil parses every kind, as a
	// user's client does.
	AllowedMentions *guildkit.AllowedMentions
	// Files are attached (ATTACH_FILES), each served back from its
	// attachment's URL.
	Files []PostFile
	// Nonce is echoed in MESSAGE_CREATE; "" for none.
	Nonce string
	TTS   bool
}

// PostFile is a file a user attaches.
type PostFile struct {
	Name        string
	ContentType string // "" for none
	Data        []byte
}

// Post makes userID post content in channelID (a guild channel, a thread,
// or a DM channel from [Server.DMChannel]), as that user's client would:
// checked against the user's permissions there (VIEW_CHANNEL,
// SEND_MESSAGES or, in a thread, SEND_MESSAGES_IN_THREADS; a timed-out
// member cannot post) and the platform's rules, mentions resolved, stored,
// and announced as MESSAGE_CREATE to the gateway's sessions (the bot sees
// its content only with MESSAGE_CONTENT, unless the message mentions it or
// is in its DM). It returns the message as the platform answers it, or
// the *guildkit.APIError the user's client would get (403 code 50013 for a
// missing permission, for example). It is how a test gives a prefix
// command ("!ping") to a bot.
func (s *Server) Post(ctx context.Context, userID, channelID guildkit.Snowflake, content string) (guildkit.Message, error) {
	return s.PostMessage(ctx, userID, channelID, PostParams{Content: content})
}

// PostMessage is [Server.Post] with embeds, a reply, files, allowed
// mentions or a nonce.
func (s *Server) PostMessage(ctx context.Context, userID, channelID guildkit.Snowflake, p PostParams) (guildkit.Message, error) {
	if err := ctx.Err(); err != nil {
		return guildkit.Message{}, err
	}
	b := chatBody{TTS: p.TTS}
	if p.Content != "" {
		b.Content = wire.Some(p.Content)
	}
	if len(p.Embeds) > 0 {
		b.Embeds = wire.Some(p.Embeds)
	}
	if p.AllowedMentions != nil || p.MentionReplied {
		am := guildkit.AllowedMentions{Parse: []guildkit.AllowedMentionType{guildkit.AllowedMentionUsers, guildkit.AllowedMentionRoles, guildkit.AllowedMentionEveryone}}
		if p.AllowedMentions != nil {
			am = *p.AllowedMentions
		}
		am.RepliedUser = am.RepliedUser || p.MentionReplied
		b.AllowedMentions = wire.Some(am)
	}
	if p.ReplyTo != 0 {
		b.MessageReference = &chatReference{MessageID: p.ReplyTo}
	}
	if p.Nonce != "" {
		b.Nonce, _ = json.Marshal(p.Nonce)
	}
	files := make([]webhookFile, len(p.Files))
	for i, f := range p.Files {
		files[i] = webhookFile{index: i, filename: f.Name, contentType: f.ContentType, size: int64(len(f.Data)), data: f.Data}
		if len(f.Data) > attachmentKeep {
			files[i].data = nil
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.users[userID]; !ok {
		return guildkit.Message{}, (&chatError{status: http.StatusUnauthorized, code: 0, msg: "401: Unauthorized"}).apiError(http.MethodPost, "/channels/{channel.id}/messages")
	}
	wm, cerr := s.createChatLocked(userID, channelID, &b, files)
	if cerr != nil {
		return guildkit.Message{}, cerr.apiError(http.MethodPost, "/channels/{channel.id}/messages")
	}
	return shaped(copyWebhookMessage(wm.msg)), nil
}
