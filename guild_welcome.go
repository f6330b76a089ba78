package guildkit

import (
	"context"

	"github.com/seed012df1e9/guildkit/wire"
)

// WelcomeScreen is what new members see in a Community guild.
type WelcomeScreen struct {
	Description     *string          `json:"description"`      // nil when null
	WelcomeChannels []WelcomeChannel `json:"welcome_channels"` // up to 5
}

// WelcomeChannel is one channel shown on the welcome screen.
type WelcomeChannel struct {
	ChannelID   Snowflake  `json:"channel_id"`
	Description string     `json:"description"`
	EmojiID     *Snowflake `json:"emoji_id"`   // custom emoji only; nil when null
	EmojiName   *string    `json:"emoji_name"` // custom name, or the character of a standard emoji; nil when null
}

// GetWelcomeScreen returns the guild's welcome screen. MANAGE_GUILD is
// needed while the welcome screen is not enabled.
//
// Spec: "Get Guild Welcome Screen" — GET /guilds/{guild.id}/welcome-screen
func (s *GuildService) GetWelcomeScreen(ctx context.Context, guildID Snowflake, opts ...RequestOption) (*WelcomeScreen, error) {
	var out WelcomeScreen
	if _, err := s.c.do(ctx, &request{method: "GET", route: "/guilds/{guild.id}/welcome-screen", path: []any{guildID}, opts: opts}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// GuildWelcomeScreenModifyParams is the body of
// [GuildService.ModifyWelcomeScreen]. Every field is optional and may be
// Null.
type GuildWelcomeScreenModifyParams struct {
	// Enabled turns the welcome screen on or off (the guild feature
	// WELCOME_SCREEN_ENABLED); Null turns it off.
	Enabled Opt[bool] `json:"enabled,omitzero"`
	// WelcomeChannels are up to 5 channels; Null empties the list.
	WelcomeChannels Opt[[]WelcomeChannel] `json:"welcome_channels,omitzero"`
	// Description is the server description shown; Null clears it.
	Description Opt[string] `json:"description,omitzero"`
}

// MaxWelcomeChannels is how many channels a welcome screen shows at most.
const MaxWelcomeChannels = 5

func (p *GuildWelcomeScreenModifyParams) validate(validation) error {
	if p == nil {
		return nil
	}
	var v ValidationError
	if chs, ok := p.WelcomeChannels.Get(); ok {
		if len(chs) > MaxWelcomeChannels {
			v.Add("welcome_channels", wire.CodeLength, "at most %d channels, got %d", MaxWelcomeChannels, len(chs))
		}
		for i, ch := range chs {
			if ch.ChannelID == 0 {
				v.Add("welcome_channels"+indexPath(i, "channel_id"), wire.CodeRequired, "required")
			}
		}
	}
	return v.Err()
}

// ModifyWelcomeScreen changes the guild's welcome screen and returns it.
// Requires MANAGE_GUILD. At most 5 welcome channels, checked before
// sending. Emits GUILD_UPDATE when the screen is turned on or off.
// Supports WithReason.
//
// Spec: "Modify Guild Welcome Screen" — PATCH /guilds/{guild.id}/welcome-screen
func (s *GuildService) ModifyWelcomeScreen(ctx context.Context, guildID Snowflake, params *GuildWelcomeScreenModifyParams, opts ...RequestOption) (*WelcomeScreen, error) {
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	if params == nil {
		params = &GuildWelcomeScreenModifyParams{}
	}
	var out WelcomeScreen
	if _, err := s.c.do(ctx, &request{method: "PATCH", route: "/guilds/{guild.id}/welcome-screen", path: []any{guildID},
		body: params, auditLog: true, opts: opts}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
