package guildkittest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

	"github.com/seed012df1e9/guildkit"
)

// Channel messages.
//
// Every message the server holds lives in one table (webhookStore.messages,
// by id): webhook messages, interaction answers, and the messages of
// Create Message and [Server.Post]. The last kind carries a chatState: what
// the platform keeps about an ordinary message beyond guildkit.Message (its
// guild, reply reference, nonce and reactions). Each channel's ordinary
// messages are also listed in order, for the per-channel bound
// ([WithChannelMessageLimit]): past it the oldest one is dropped.

// DefaultChannelMessageLimit is how many ordinary messages (Create Message,
// [Server.Post]) a channel keeps unless [WithChannelMessageLimit] says
// otherwise; past it the oldest is dropped.
const DefaultChannelMessageLimit = 1000

// WithChannelMessageLimit sets how many ordinary messages each channel
// keeps (at least 1); the oldest goes when a new one would pass the bound.
// The default is [DefaultChannelMessageLimit].
func WithChannelMessageLimit(n int) Option {
	return func(s *Server) { s.chatLimit = max(n, 1) }
}

// chatState is what the server keeps about an ordinary message beyond its
// guildkit.Message.
type chatState struct {
	guildID   guildkit.Snowflake // 0 in a DM
	ref       *messageReference  // a reply's reference; nil otherwise
	nonce     json.RawMessage    // as sent; nil when none
	reactions []reactionState    // in the order first used
	snapshot  json.RawMessage    // a forward's frozen message; nil otherwise
}

// messageReference is a message_reference as the platform answers it.
type messageReference struct {
	Type      int                `json:"type"`
	MessageID guildkit.Snowflake `json:"message_id"`
	ChannelID guildkit.Snowflake `json:"channel_id"`
	GuildID   guildkit.Snowflake `json:"guild_id,omitzero"`
}

// reactionState is one emoji's reactions on a message.
type reactionState struct {
	emoji reactionEmoji
	users []guildkit.Snowflake // who reacted, in order
}

// reactionEmoji is an emoji as reactions carry it: a Unicode one (id 0)
// or a guild's custom one.
type reactionEmoji struct {
	ID   guildkit.Snowflake
	Name string
}

func (e reactionEmoji) MarshalJSON() ([]byte, error) {
	if e.ID == 0 {
		return json.Marshal(map[string]any{"id": nil, "name": e.Name})
	}
	return json.Marshal(map[string]any{"id": e.ID, "name": e.Name})
}

// chatLog lists each channel's ordinary messages, oldest first, for the
// per-channel bound.
type chatLog struct {
	byChannel map[guildkit.Snowflake][]guildkit.Snowflake
	dms       map[guildkit.Snowflake]*dmChannel // by channel id: dm.go
	dmByPair  map[[2]guildkit.Snowflake]guildkit.Snowflake
	dmsClosed map[guildkit.Snowflake]bool // users who refuse DMs: SetDirectMessagesOpen
}

// chat returns the server's chat log, made on first use; the caller holds
// s.mu.
func (s *Server) chat() *chatLog {
	if s.chatMessages == nil {
		s.chatMessages = &chatLog{
			byChannel: make(map[guildkit.Snowflake][]guildkit.Snowflake),
			dms:       make(map[guildkit.Snowflake]*dmChannel),
			dmByPair:  make(map[[2]guildkit.Snowflake]guildkit.Snowflake),
			dmsClosed: make(map[guildkit.Snowflake]bool),
		}
	}
	return s.chatMessages
}

// storeChatLocked stores an ordinary message and drops its channel's
// oldest past the bound (no event: the platform keeps history forever; the
// bound only keeps the server's memory in check). The caller holds s.mu.
func (s *Server) storeChatLocked(m guildkit.Message, st *chatState) *webhookMessage {
	wm := &webhookMessage{msg: m, chat: st}
	s.wh().messages[m.ID] = wm
	log := s.chat()
	ids := append(log.byChannel[m.ChannelID], m.ID)
	limit := s.chatLimit
	if limit <= 0 {
		limit = DefaultChannelMessageLimit
	}
	for len(ids) > limit {
		delete(s.wh().messages, ids[0])
		ids = ids[1:]
	}
	log.byChannel[m.ChannelID] = ids
	return wm
}

// forgetChatLocked removes a message from the per-channel list; the caller
// holds s.mu and deletes it from the table.
func (s *Server) forgetChatLocked(channelID, id guildkit.Snowflake) {
	log := s.chat()
	ids := log.byChannel[channelID]
	if i := slices.Index(ids, id); i >= 0 {
		log.byChannel[channelID] = slices.Delete(ids, i, i+1)
	}
}

// channelHistoryLocked returns the messages of a channel everyone in it
// sees, with the ephemeral ones only viewer sees (none for viewer 0),
// oldest first. The caller holds s.mu.
func (s *Server) channelHistoryLocked(channelID, viewer guildkit.Snowflake) []*webhookMessage {
	var out []*webhookMessage
	for _, wm := range s.wh().messages {
		if wm.msg.ChannelID == channelID && (wm.visibleTo == 0 || (viewer != 0 && wm.visibleTo == viewer)) {
			out = append(out, wm)
		}
	}
	slices.SortFunc(out, func(a, b *webhookMessage) int { return cmpSnowflake(a.msg.ID, b.msg.ID) })
	return out
}

// chatError is a refusal of a message operation: the platform's status,
// code and message, or a 400 Invalid Form Body's problems.
type chatError struct {
	status   int
	code     guildkit.ErrorCode
	msg      string
	problems map[string]string
}

func (e *chatError) Error() string {
	if e.problems != nil {
		return fmt.Sprintf("%d Invalid Form Body: %v", e.status, e.problems)
	}
	return fmt.Sprintf("%d %s (%d)", e.status, e.msg, int(e.code))
}

// answer writes e as the call's answer.
func (e *chatError) answer(c *call) {
	if e.problems != nil {
		c.formError(e.problems)
		return
	}
	c.error(e.status, e.code, e.msg)
}

// apiError turns e into the error a member's action returns
// ([Server.Post]): the *guildkit.APIError the member's client would get.
func (e *chatError) apiError(method, route string) error {
	out := &guildkit.APIError{Status: e.status, Code: e.code, Message: e.msg, Method: method, Route: route}
	if e.problems != nil {
		out.Code, out.Message = guildkit.CodeInvalidFormBody, "Invalid Form Body"
		for path, msg := range e.problems {
			out.Errors = append(out.Errors, guildkit.FieldError{Path: path, Message: msg})
		}
		slices.SortFunc(out.Errors, func(a, b guildkit.FieldError) int {
			if a.Path < b.Path {
				return -1
			}
			if a.Path > b.Path {
				return 1
			}
			return 0
		})
	}
	return out
}

// Error codes of the message routes (the platform's; guildkit's errors.go
// names the ones a bot meets).
const (
	codeCannotDMChannel      guildkit.ErrorCode = 50003
	codeEditOthers           guildkit.ErrorCode = 50005
	codeCannotSendToUser     guildkit.ErrorCode = 50007
	codeNoTextInChannel      guildkit.ErrorCode = 50008
	codeBulkCount            guildkit.ErrorCode = 50016
	codeSystemMessage        guildkit.ErrorCode = 50021
	codeInvalidRecipient     guildkit.ErrorCode = 50033
	codeBulkTooOld           guildkit.ErrorCode = 50034
	codeNoMutualGuild        guildkit.ErrorCode = 50278
	codeUnknownEmoji         guildkit.ErrorCode = 10014
	codeTooManyReactions     guildkit.ErrorCode = 30010
	codeForumChannel         guildkit.ErrorCode = 40058
	codeReplyWithoutHistory  guildkit.ErrorCode = 160002
	codeTooManyAttachmentsMS guildkit.ErrorCode = 30015
)

func errMissingAccess() *chatError {
	return &chatError{status: http.StatusForbidden, code: guildkit.CodeMissingAccess, msg: "Missing Access"}
}

func errMissingPermissions() *chatError {
	return &chatError{status: http.StatusForbidden, code: guildkit.CodeMissingPermissions, msg: "Missing Permissions"}
}

func errUnknownChannel() *chatError {
	return &chatError{status: http.StatusNotFound, code: guildkit.CodeUnknownChannel, msg: "Unknown Channel"}
}

func errUnknownMessage() *chatError {
	return &chatError{status: http.StatusNotFound, code: guildkit.CodeUnknownMessage, msg: "Unknown Message"}
}

// sentByApplicationLocked reports whether the application's components on
// wm deliver interactions to it: a message its webhook or an interaction
// made, or one its bot user sent to a channel.
func (s *Server) sentByApplicationLocked(wm *webhookMessage) bool {
	if wm.msg.ApplicationID != nil && *wm.msg.ApplicationID == s.appID() {
		return true
	}
	return wm.chat != nil && wm.msg.Author != nil && wm.msg.Author.ID == s.bot
}
