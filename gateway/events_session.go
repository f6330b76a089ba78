package gateway

import (
	"time"

	"github.com/seed012df1e9/guildkit"
)

// Ready is READY, the first dispatch of a new session (after IDENTIFY, not
// after RESUME). No intent gates it. GUILD_CREATEs follow for every guild
// it lists as unavailable.
type Ready struct {
	// V is the API version in use (10).
	V int `json:"v"`
	// User is the bot's own user, private fields (Flags, MFA) included.
	User guildkit.User `json:"user"`
	// Guilds lists every guild this shard carries, each {id, unavailable: true}.
	Guilds []guildkit.UnavailableGuild `json:"guilds"`
	// SessionID is what a RESUME names.
	SessionID string `json:"session_id"`
	// ResumeGatewayURL is where every resume of this session connects.
	ResumeGatewayURL string `json:"resume_gateway_url"`
	// Shard is [shard_id, num_shards], present when IDENTIFY sent a shard.
	// Nil when absent.
	Shard *[2]int `json:"shard,omitempty"`
	// Application is the bot's application: its id and flags, which say
	// which privileged intents it has enabled.
	Application ReadyApplication `json:"application"`
}

// EventName returns "READY".
func (*Ready) EventName() string { return "READY" }

// ReadyApplication is the partial application a READY carries.
type ReadyApplication struct {
	ID    guildkit.Snowflake `json:"id"`
	Flags ApplicationFlags   `json:"flags"`
}

// ApplicationFlags is an application's public flags; READY's say which
// privileged intents the application has enabled.
type ApplicationFlags uint64

// The application flags that enable privileged intents. The LIMITED ones
// are those of an application in fewer than 100 guilds that has not been
// verified.
const (
	ApplicationFlagGatewayPresence              ApplicationFlags = 1 << 12
	ApplicationFlagGatewayPresenceLimited       ApplicationFlags = 1 << 13
	ApplicationFlagGatewayGuildMembers          ApplicationFlags = 1 << 14
	ApplicationFlagGatewayGuildMembersLimited   ApplicationFlags = 1 << 15
	ApplicationFlagGatewayMessageContent        ApplicationFlags = 1 << 18
	ApplicationFlagGatewayMessageContentLimited ApplicationFlags = 1 << 19
)

// Intents returns the privileged intents the flags enable.
func (f ApplicationFlags) Intents() Intents {
	var i Intents
	if f&(ApplicationFlagGatewayPresence|ApplicationFlagGatewayPresenceLimited) != 0 {
		i |= IntentGuildPresences
	}
	if f&(ApplicationFlagGatewayGuildMembers|ApplicationFlagGatewayGuildMembersLimited) != 0 {
		i |= IntentGuildMembers
	}
	if f&(ApplicationFlagGatewayMessageContent|ApplicationFlagGatewayMessageContentLimited) != 0 {
		i |= IntentMessageContent
	}
	return i
}

// Resumed is RESUMED: a RESUME succeeded and every event missed meanwhile
// was replayed before it. No intent gates it. The platform sends no
// documented field (an undocumented debug list, _trace, is ignored).
type Resumed struct{}

// EventName returns "RESUMED".
func (*Resumed) EventName() string { return "RESUMED" }

// RateLimited is RATE_LIMITED: a request (today only a whole-list Request
// Guild Members, one per guild every 30 seconds) was refused for its rate
// limit; no chunk will answer it. No intent gates it.
type RateLimited struct {
	// Opcode is the refused request's opcode (8).
	Opcode int `json:"opcode"`
	// RetryAfter is how long to wait before asking again, in seconds; see
	// [RateLimited.Wait].
	RetryAfter float64 `json:"retry_after"`
	// Meta says which request: for op 8, its guild and nonce.
	Meta RateLimitedMeta `json:"meta"`
}

// EventName returns "RATE_LIMITED".
func (*RateLimited) EventName() string { return "RATE_LIMITED" }

// Wait returns RetryAfter as a duration.
func (e *RateLimited) Wait() time.Duration {
	return time.Duration(e.RetryAfter * float64(time.Second))
}

// RateLimitedMeta names the request a RATE_LIMITED refused.
type RateLimitedMeta struct {
	GuildID guildkit.Snowflake `json:"guild_id"`
	Nonce   string             `json:"nonce,omitempty"` // the request's nonce, when it had one
}
