package guildkittest

import (
	"encoding/json"
	"slices"

	"github.com/seed012df1e9/guildkit"
)

// What SaveState writes of channel messages and DMs, and LoadState reads.

// dmChannelFile is a DM channel in a state file.
type dmChannelFile struct {
	ID            guildkit.Snowflake    `json:"id"`
	Users         [2]guildkit.Snowflake `json:"users"`
	LastMessageID guildkit.Snowflake    `json:"last_message_id,omitzero"`
}

// chatStateFile is an ordinary message's chatState in a state file.
type chatStateFile struct {
	GuildID   guildkit.Snowflake  `json:"guild_id,omitzero"`
	Reference *messageReference   `json:"message_reference,omitempty"`
	Nonce     json.RawMessage     `json:"nonce,omitempty"`
	Snapshot  json.RawMessage     `json:"snapshot,omitempty"`
	Reactions []reactionStateFile `json:"reactions,omitempty"`
}

type reactionStateFile struct {
	EmojiID   guildkit.Snowflake   `json:"emoji_id,omitzero"`
	EmojiName string               `json:"emoji_name"`
	Users     []guildkit.Snowflake `json:"users"`
}

func chatStateToFile(st *chatState) *chatStateFile {
	if st == nil {
		return nil
	}
	f := &chatStateFile{GuildID: st.guildID, Reference: st.ref, Nonce: st.nonce, Snapshot: st.snapshot}
	for _, r := range st.reactions {
		f.Reactions = append(f.Reactions, reactionStateFile{EmojiID: r.emoji.ID, EmojiName: r.emoji.Name, Users: slices.Clone(r.users)})
	}
	return f
}

func chatStateFromFile(f *chatStateFile) *chatState {
	if f == nil {
		return nil
	}
	st := &chatState{guildID: f.GuildID, ref: f.Reference, nonce: f.Nonce, snapshot: f.Snapshot}
	for _, r := range f.Reactions {
		st.reactions = append(st.reactions, reactionState{emoji: reactionEmoji{ID: r.EmojiID, Name: r.EmojiName}, users: slices.Clone(r.Users)})
	}
	return st
}

// dmChannelsFileLocked lists the DM channels for a state file; the caller
// holds s.mu.
func (s *Server) dmChannelsFileLocked() []dmChannelFile {
	if s.chatMessages == nil {
		return nil
	}
	var out []dmChannelFile
	for _, dm := range sortedByID(s.chatMessages.dms) {
		out = append(out, dmChannelFile{ID: dm.id, Users: dm.users, LastMessageID: dm.lastMessageID})
	}
	return out
}

// loadChatLocked restores the DM channels and each channel's list of
// ordinary messages after LoadState filled the message table; the caller
// holds s.mu.
func (s *Server) loadChatLocked(dms []dmChannelFile) {
	log := s.chat()
	for _, f := range dms {
		dm := &dmChannel{id: f.ID, users: f.Users, lastMessageID: f.LastMessageID}
		log.dms[dm.id] = dm
		log.dmByPair[dm.users] = dm.id
	}
	if s.webhooks == nil {
		return
	}
	for _, wm := range sortedByID(s.webhooks.messages) {
		if wm.chat != nil {
			log.byChannel[wm.msg.ChannelID] = append(log.byChannel[wm.msg.ChannelID], wm.msg.ID)
		}
	}
}
