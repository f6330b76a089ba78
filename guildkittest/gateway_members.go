package guildkittest

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/coder/websocket"
	"github.com/seed012df1e9/guildkit"
)

// memberChunkSize is the most members one GUILD_MEMBERS_CHUNK carries.
const memberChunkSize = 1000

// wholeListInterval is the op 8 limit for a guild's whole member list.
const wholeListInterval = 30 * time.Second

// requestMembersPayload is op 8's d.
type requestMembersPayload struct {
	GuildID   *guildkit.Snowflake `json:"guild_id"`
	Query     *string             `json:"query"`
	Limit     *int                `json:"limit"`
	Presences bool                `json:"presences"`
	UserIDs   json.RawMessage     `json:"user_ids"`
	Nonce     *string             `json:"nonce"`
}

// requestMembers answers op 8 (spec §6.8) with GUILD_MEMBERS_CHUNK
// dispatches of up to 1000 members: every member for query "" with limit
// 0 (the whole list, which needs GUILD_MEMBERS and is limited to one per
// guild per 30 s: over it, a RATE_LIMITED dispatch), the members whose
// username or nick starts with query (at most limit, 100 at most), or the
// user_ids asked (at most 100; unknown ones in not_found). nonce (up to 32
// bytes) is echoed in every chunk. A guild the session does not carry, or
// a payload of the wrong shape, closes 4001.
func (c *gwConn) requestMembers(d json.RawMessage) (websocket.StatusCode, string) {
	var p requestMembersPayload
	if err := json.Unmarshal(d, &p); err != nil || string(d) == "null" || p.GuildID == nil {
		return closeUnknownOpcode, "Invalid Request Guild Members: guild_id is required."
	}
	if p.Query == nil && len(p.UserIDs) == 0 {
		return closeUnknownOpcode, "Invalid Request Guild Members: query or user_ids is required."
	}
	var ids []guildkit.Snowflake
	if len(p.UserIDs) > 0 && string(p.UserIDs) != "null" {
		var one guildkit.Snowflake
		if err := json.Unmarshal(p.UserIDs, &ids); err != nil {
			if err := json.Unmarshal(p.UserIDs, &one); err != nil {
				return closeUnknownOpcode, "Invalid Request Guild Members: user_ids must be a snowflake or an array of them."
			}
			ids = []guildkit.Snowflake{one}
		}
		if len(ids) > 100 {
			return closeUnknownOpcode, "Invalid Request Guild Members: at most 100 user_ids."
		}
	}
	if p.Query != nil && ids == nil && p.Limit == nil {
		return closeUnknownOpcode, "Invalid Request Guild Members: limit is required with query."
	}
	nonce := ""
	if p.Nonce != nil && len(*p.Nonce) <= 32 {
		nonce = *p.Nonce
	}
	s := c.s
	h := &s.gw
	s.mu.Lock()
	defer s.mu.Unlock()
	h.mu.Lock()
	defer h.mu.Unlock()
	sess := c.sess
	if sess == nil || sess.conn != c {
		return 0, ""
	}
	gs, ok := s.guilds[*p.GuildID]
	if _, member := gs.membersOrNil()[s.bot]; !ok || !member || shardOf(*p.GuildID, sess.numShards) != sess.shardID {
		return closeUnknownOpcode, "Invalid Request Guild Members: the guild is not on this shard."
	}
	presences := p.Presences && sess.intents&intentGuildPresences != 0
	var members []*memberState
	var notFound []guildkit.Snowflake
	switch {
	case ids != nil:
		for _, id := range ids {
			if ms, ok := gs.members[id]; ok && ms.member.User != nil {
				members = append(members, ms)
			} else {
				notFound = append(notFound, id)
			}
		}
	case *p.Query == "" && (p.Limit == nil || *p.Limit == 0):
		if sess.intents&intentGuildMembers == 0 {
			// The platform's answer is undocumented; the emulator
			// closes, as for any request the session may not make.
			return closeUnknownOpcode, "Request Guild Members: the whole list needs the GUILD_MEMBERS intent."
		}
		now := s.Now()
		if last, ok := h.wholeList[gs.guild.ID]; ok && now.Sub(last) < wholeListInterval {
			meta := map[string]any{"guild_id": gs.guild.ID}
			if nonce != "" {
				meta["nonce"] = nonce
			}
			retry := (wholeListInterval - now.Sub(last)).Seconds()
			s.appendLocked(sess, "RATE_LIMITED", mustJSON(map[string]any{"opcode": opRequestGuildMembers, "retry_after": retry, "meta": meta}))
			return 0, ""
		}
		h.wholeList[gs.guild.ID] = now
		for _, ms := range gs.sortedMembers() {
			if ms.member.User != nil {
				members = append(members, ms)
			}
		}
	default:
		limit := 100
		if p.Limit != nil && *p.Limit > 0 {
			limit = min(*p.Limit, 100)
		}
		q := strings.ToLower(*p.Query)
		for _, ms := range gs.sortedMembers() {
			if len(members) >= limit {
				break
			}
			m := ms.member
			if m.User == nil {
				continue
			}
			if strings.HasPrefix(strings.ToLower(m.User.Username), q) || (m.Nick != nil && strings.HasPrefix(strings.ToLower(*m.Nick), q)) {
				members = append(members, ms)
			}
		}
	}
	count := max(1, (len(members)+memberChunkSize-1)/memberChunkSize)
	for i := range count {
		part := members[min(len(members), i*memberChunkSize):min(len(members), (i+1)*memberChunkSize)]
		list := make([]guildkit.Member, 0, len(part))
		var pres []map[string]any
		for _, ms := range part {
			list = append(list, copyMember(ms.member))
			if presences {
				status := "offline"
				if ms.online {
					status = "online"
				}
				pres = append(pres, map[string]any{"user": map[string]any{"id": ms.member.User.ID}, "status": status, "activities": []any{}, "client_status": map[string]any{}})
			}
		}
		chunk := map[string]any{
			"guild_id": gs.guild.ID, "members": withShapes(list), "chunk_index": i, "chunk_count": count,
		}
		if i == 0 && notFound != nil {
			chunk["not_found"] = notFound
		}
		if presences {
			chunk["presences"] = nonNil(pres)
		}
		if nonce != "" {
			chunk["nonce"] = nonce
		}
		b, _ := json.Marshal(chunk)
		s.appendLocked(sess, "GUILD_MEMBERS_CHUNK", b)
	}
	return 0, ""
}

// membersOrNil is gs.members, nil for a nil gs.
func (gs *guildState) membersOrNil() map[guildkit.Snowflake]*memberState {
	if gs == nil {
		return nil
	}
	return gs.members
}

// requestSoundboard answers op 31 with an empty SOUNDBOARD_SOUNDS per
// guild.
func (c *gwConn) requestSoundboard(d json.RawMessage) (websocket.StatusCode, string) {
	var p struct {
		GuildIDs []guildkit.Snowflake `json:"guild_ids"`
	}
	if err := json.Unmarshal(d, &p); err != nil || p.GuildIDs == nil || len(p.GuildIDs) > 100 {
		return closeUnknownOpcode, "Invalid Request Soundboard Sounds: guild_ids is required."
	}
	h := &c.s.gw
	h.mu.Lock()
	defer h.mu.Unlock()
	if sess := c.sess; sess != nil && sess.conn == c {
		for _, id := range p.GuildIDs {
			c.s.appendLocked(sess, "SOUNDBOARD_SOUNDS", mustJSON(map[string]any{"guild_id": id, "soundboard_sounds": []any{}}))
		}
	}
	return 0, ""
}

// requestChannelInfo answers op 43 with a CHANNEL_INFO carrying no data.
func (c *gwConn) requestChannelInfo(d json.RawMessage) (websocket.StatusCode, string) {
	var p struct {
		GuildID *guildkit.Snowflake `json:"guild_id"`
		Fields  []string            `json:"fields"`
	}
	if err := json.Unmarshal(d, &p); err != nil || p.GuildID == nil {
		return closeUnknownOpcode, "Invalid Request Channel Info: guild_id is required."
	}
	h := &c.s.gw
	h.mu.Lock()
	defer h.mu.Unlock()
	if sess := c.sess; sess != nil && sess.conn == c {
		c.s.appendLocked(sess, "CHANNEL_INFO", mustJSON(map[string]any{"guild_id": *p.GuildID, "channels": []any{}}))
	}
	return 0, ""
}
