package guildkittest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/seed012df1e9/guildkit"
)

// Seed is the content of a seed file: users, and guilds with their roles,
// channels, members, invites and webhooks, as JSON in the interface's own
// field names. Ids are optional where nothing refers to the object; give
// one where something does (a member's user, a member's roles, an invite's
// or a webhook's channel). examples/emulator-seed.json shows every part.
//
//	{
//	  "bot":    {"id": "1000", "username": "testbot"},
//	  "users":  [{"id": "1001", "username": "alice"}, {"id": "1002", "username": "dave"}],
//	  "access_tokens": [{"user_id": "1002", "access_token": "access.dave-joins-guilds"}],
//	  "guilds": [{
//	    "id": "2001", "name": "Test guild", "owner_id": "1001",
//	    "roles":    [{"id": "2002", "name": "Moderator", "permissions": "2"}],
//	    "channels": [{"id": "2003", "name": "general", "type": 0}],
//	    "members":  [{"user_id": "1001", "nick": "Al"}, {"user_id": "1000", "roles": ["2002"]}],
//	    "invites":  [{"code": "welcome", "channel_id": "2003"}],
//	    "webhooks": [{"channel_id": "2003", "name": "CI"}, {"channel_id": "2003", "name": "App", "application_owned": true}]
//	  }]
//	}
type Seed struct {
	// Bot, when set, gives the bot user a fixed id (and a username), so
	// that a seed can make it a member with roles of guilds another user
	// owns, to test permission and hierarchy refusals. Its token is the
	// server's (made again with the new id in it; the old one goes on working). Without it the bot keeps its own id, random, and owns the
	// guilds that name no owner.
	Bot    *guildkit.User  `json:"bot,omitempty"`
	Users  []guildkit.User `json:"users"`
	Guilds []SeedGuild     `json:"guilds"`
	// AccessTokens are OAuth2 access tokens of users (with the guilds.join
	// scope), as [Server.NewAccessToken] makes them, for Add Guild Member
	// and "Authorization: Bearer" from any language. A token must start
	// with "access." and be at least 16 characters; unlike the tokens the
	// server makes, it is as guessable as the seed makes it.
	AccessTokens []SeedAccessToken `json:"access_tokens,omitempty"`
	// Application, when set, configures the application the bot is.
	Application *SeedApplication `json:"application,omitempty"`
}

// SeedApplication configures the application of a [Seed].
type SeedApplication struct {
	// PrivilegedIntents are the privileged intents the application is
	// approved for, by name: "GUILD_MEMBERS", "GUILD_PRESENCES",
	// "MESSAGE_CONTENT". Absent (null): all three, the default; [] none.
	// An IDENTIFY asking for one not listed closes with 4014.
	PrivilegedIntents []string `json:"privileged_intents"`
}

// privilegedIntentBits maps the privileged intents' names to their bits.
var privilegedIntentBits = map[string]uint64{
	"GUILD_MEMBERS": intentGuildMembers, "GUILD_PRESENCES": intentGuildPresences, "MESSAGE_CONTENT": intentMessageContent,
}

// SeedAccessToken is an OAuth2 access token of a user of a [Seed].
type SeedAccessToken struct {
	UserID      guildkit.Snowflake `json:"user_id"`
	AccessToken string             `json:"access_token"`
}

// SeedGuild is a guild of a [Seed]. The owner (owner_id, default the bot)
// becomes a member by itself.
type SeedGuild struct {
	guildkit.Guild
	Channels []guildkit.Channel `json:"channels"`
	Members  []SeedMember       `json:"members"`
	Invites  []SeedInvite       `json:"invites"`
	Webhooks []SeedWebhook      `json:"webhooks"`
}

// SeedMember is a member of a [SeedGuild]: the user it is, by user_id, and
// the member's own fields (nick, roles, joined_at, ...).
type SeedMember struct {
	UserID guildkit.Snowflake `json:"user_id"`
	guildkit.Member
}

// SeedInvite is an invite to a channel of a [SeedGuild].
type SeedInvite struct {
	ChannelID guildkit.Snowflake `json:"channel_id"`
	guildkit.Invite
}

// SeedWebhook is an incoming webhook in a channel of a [SeedGuild].
type SeedWebhook struct {
	ChannelID guildkit.Snowflake `json:"channel_id"`
	Name      string             `json:"name"`
	// ApplicationOwned makes the webhook the bot's application's, which may
	// send every kind of component (interactive buttons and selects); a
	// webhook no application owns may send only link buttons.
	ApplicationOwned bool `json:"application_owned,omitempty"`
}

// SeedError is what is wrong with a seed: each problem with where it is, a
// line and column for JSON that does not parse or does not fit the
// fields, a path ("guilds[0].members[1].user_id") for a reference to
// nothing.
type SeedError struct {
	Problems []string
}

func (e *SeedError) Error() string {
	if len(e.Problems) == 1 {
		return "guildkittest: seed: " + e.Problems[0]
	}
	return "guildkittest: seed:\n  " + strings.Join(e.Problems, "\n  ")
}

// ParseSeed reads a seed file and checks it: JSON that parses into the
// seed's fields, with no unknown field, and references that name something
// in the seed. A *SeedError says what and where.
func ParseSeed(r io.Reader) (*Seed, error) {
	data, err := io.ReadAll(io.LimitReader(r, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("guildkittest: seed: %w", err)
	}
	if trimmed := bytes.TrimSpace(data); len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, &SeedError{Problems: []string{"a seed is a JSON object: {\"users\": [...], \"guilds\": [...]}"}}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var seed Seed
	if err := dec.Decode(&seed); err != nil {
		return nil, &SeedError{Problems: []string{jsonProblem(data, dec, err)}}
	}
	if dec.More() {
		return nil, &SeedError{Problems: []string{at(data, dec.InputOffset()) + ": data after the seed object"}}
	}
	if p := seed.check(); len(p) > 0 {
		return nil, &SeedError{Problems: p}
	}
	return &seed, nil
}

// jsonProblem turns a decoding error into "line L, column C: what".
func jsonProblem(data []byte, dec *json.Decoder, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return at(data, syn.Offset) + ": " + syn.Error()
	case errors.As(err, &typ):
		var parts []string // without the names of embedded Go types
		for _, p := range strings.Split(typ.Field, ".") {
			if p != "" && !(p[0] >= 'A' && p[0] <= 'Z') {
				parts = append(parts, p)
			}
		}
		field := strings.Join(parts, ".")
		if field == "" {
			field = "the seed"
		}
		return fmt.Sprintf("%s: %s: a JSON %s cannot be a %s", at(data, typ.Offset), field, typ.Value, typ.Type)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the file ends before the seed object does"
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	return at(data, dec.InputOffset()) + ": " + msg
}

// at names the line and column of offset in data.
func at(data []byte, offset int64) string {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	before := data[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(offset) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
}

// check finds references to nothing and repeated ids.
func (seed *Seed) check() []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if a := seed.Application; a != nil {
		for i, name := range a.PrivilegedIntents {
			if _, ok := privilegedIntentBits[name]; !ok {
				bad("application.privileged_intents[%d]: %q is not a privileged intent (GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT)", i, name)
			}
		}
	}
	users := map[guildkit.Snowflake]bool{}
	if seed.Bot != nil {
		if seed.Bot.ID == 0 {
			bad("bot.id: give the bot's id")
		}
		users[seed.Bot.ID] = true
	}
	for i, u := range seed.Users {
		if u.ID != 0 && users[u.ID] {
			bad("users[%d].id: %s is used twice", i, u.ID)
		}
		users[u.ID] = true
	}
	tokens := map[string]bool{}
	for i, at := range seed.AccessTokens {
		switch {
		case at.UserID == 0 || !users[at.UserID]:
			bad("access_tokens[%d].user_id: no user %s in users", i, at.UserID)
		case !strings.HasPrefix(at.AccessToken, accessTokenPrefix) || len(at.AccessToken) < 16:
			bad("access_tokens[%d].access_token: an access token starts with %q and has at least 16 characters", i, accessTokenPrefix)
		case tokens[at.AccessToken]:
			bad("access_tokens[%d].access_token: used twice", i)
		}
		tokens[at.AccessToken] = true
	}
	for gi, g := range seed.Guilds {
		path := fmt.Sprintf("guilds[%d]", gi)
		if g.OwnerID != 0 && !users[g.OwnerID] {
			bad("%s.owner_id: no user %s in users", path, g.OwnerID)
		}
		roles := map[guildkit.Snowflake]bool{}
		for ri, r := range g.Roles {
			if r.ID != 0 && (roles[r.ID] || r.ID == g.ID) {
				bad("%s.roles[%d].id: %s is used twice", path, ri, r.ID)
			}
			roles[r.ID] = true
		}
		channels := map[guildkit.Snowflake]bool{}
		for ci, ch := range g.Channels {
			if ch.ID != 0 && channels[ch.ID] {
				bad("%s.channels[%d].id: %s is used twice", path, ci, ch.ID)
			}
			channels[ch.ID] = true
			if ch.Name == "" {
				bad("%s.channels[%d].name: a channel needs a name", path, ci)
			}
		}
		for mi, m := range g.Members {
			switch {
			case m.UserID == 0 && m.User == nil:
				bad("%s.members[%d].user_id: a member needs a user_id", path, mi)
			case m.UserID != 0 && !users[m.UserID]:
				bad("%s.members[%d].user_id: no user %s in users", path, mi, m.UserID)
			}
			for ri, r := range m.Roles {
				if !roles[r] && r != g.ID {
					bad("%s.members[%d].roles[%d]: no role %s in this guild", path, mi, ri, r)
				}
			}
		}
		for ii, inv := range g.Invites {
			if !channels[inv.ChannelID] || inv.ChannelID == 0 {
				bad("%s.invites[%d].channel_id: no channel %s in this guild", path, ii, inv.ChannelID)
			}
		}
		for wi, w := range g.Webhooks {
			if !channels[w.ChannelID] || w.ChannelID == 0 {
				bad("%s.webhooks[%d].channel_id: no channel %s in this guild", path, wi, w.ChannelID)
			}
			if w.Name == "" {
				bad("%s.webhooks[%d].name: a webhook needs a name", path, wi)
			}
		}
	}
	return problems
}

// SeedResult is what [Server.ApplySeed] made: the guilds and webhooks with
// their ids and tokens.
type SeedResult struct {
	Guilds   []guildkit.Guild   `json:"guilds"`
	Webhooks []guildkit.Webhook `json:"webhooks"` // with their tokens
}

// ApplySeed adds everything in seed to the server. Objects with an id keep
// it; it panics when an id is already taken on the server (check with a
// fresh or reset server).
func (s *Server) ApplySeed(seed *Seed) SeedResult {
	res := SeedResult{Guilds: []guildkit.Guild{}, Webhooks: []guildkit.Webhook{}}
	if seed.Bot != nil {
		s.setBot(*seed.Bot)
	}
	if a := seed.Application; a != nil && a.PrivilegedIntents != nil {
		var bits uint64
		for _, name := range a.PrivilegedIntents {
			bits |= privilegedIntentBits[name]
		}
		s.SetPrivilegedIntents(bits)
	}
	for _, u := range seed.Users {
		s.AddUser(u)
	}
	s.mu.Lock()
	for _, at := range seed.AccessTokens {
		s.tokens[at.AccessToken] = at.UserID
	}
	s.mu.Unlock()
	for _, sg := range seed.Guilds {
		g := sg.Guild
		g.Roles = sg.Roles
		g = s.AddGuild(g)
		for _, ch := range sg.Channels {
			s.AddChannel(g.ID, ch)
		}
		for _, m := range sg.Members {
			mem := m.Member
			if m.UserID != 0 {
				s.mu.Lock()
				u := *s.users[m.UserID]
				s.mu.Unlock()
				mem.User = &u
			}
			s.AddMember(g.ID, mem)
		}
		for _, inv := range sg.Invites {
			s.AddInvite(g.ID, inv.ChannelID, inv.Invite)
		}
		for _, w := range sg.Webhooks {
			var opts []WebhookOption
			if w.ApplicationOwned {
				opts = append(opts, WebhookApplication(s.BotID()))
			}
			res.Webhooks = append(res.Webhooks, s.AddWebhook(w.ChannelID, w.Name, opts...))
		}
		stored, _ := s.Guild(g.ID)
		res.Guilds = append(res.Guilds, stored)
	}
	return res
}

// setBot gives the bot user bot's id and username (the rest of its fields
// too, Bot always true), keeping its token. It panics when the bot is
// already in a guild or the id is another user's: a seed with a bot is for
// a fresh or reset server.
func (s *Server) setBot(bot guildkit.User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if problem := s.botConflictLocked(bot.ID); problem != "" {
		panic("guildkittest: ApplySeed: " + problem)
	}
	old := s.users[s.bot]
	if bot.Username == "" {
		bot.Username = old.Username
	}
	if bot.Discriminator == "" {
		bot.Discriminator = "0"
	}
	bot.Bot = true
	delete(s.users, s.bot)
	s.users[bot.ID] = &bot
	s.bot = bot.ID
	s.app.id.Store(uint64(bot.ID))
	s.tokens[s.botToken] = bot.ID // the old token goes on working
	// A new token whose id part is the bot's new id (disgo reads it).
	s.botToken = s.newBotTokenLocked(bot.ID)
	if bot.ID > s.lastID {
		s.lastID = bot.ID
	}
}

// botConflictLocked says why the bot cannot take the id, or "". The caller
// holds s.mu.
func (s *Server) botConflictLocked(id guildkit.Snowflake) string {
	if id == s.bot {
		return ""
	}
	if _, taken := s.users[id]; taken {
		return fmt.Sprintf("bot.id: %s is another user's", id)
	}
	for _, gs := range s.guilds {
		if _, member := gs.members[s.bot]; member {
			return "bot: the bot is already in a guild; reset the server before seeding a bot"
		}
	}
	return ""
}
