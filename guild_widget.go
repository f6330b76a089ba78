package guildkit

import (
	"context"
	"io"
	"slices"

	"github.com/seed012df1e9/guildkit/wire"
)

// CodeWidgetDisabled is the error code of a widget request for a guild whose
// widget is disabled (the reference platform's code).
const CodeWidgetDisabled ErrorCode = 50004

// GuildWidgetSettings says whether the widget is on and which channel its
// invites lead to.
type GuildWidgetSettings struct {
	Enabled   bool       `json:"enabled"`
	ChannelID *Snowflake `json:"channel_id"` // nil: the widget makes no invite; nil when null
}

// GuildWidget is the public widget of a guild (widget.json).
type GuildWidget struct {
	ID   Snowflake `json:"id"`
	Name string    `json:"name"`
	// InstantInvite is the invite URL to the widget's channel; nil when no
	// channel is set. Nil when null.
	InstantInvite *string         `json:"instant_invite"`
	Channels      []WidgetChannel `json:"channels"` // voice and stage channels visible to @everyone
	Members       []WidgetMember  `json:"members"`  // online members, at most 100, anonymised
	PresenceCount int             `json:"presence_count"`
}

// WidgetChannel is a partial channel in a [GuildWidget].
type WidgetChannel struct {
	ID       Snowflake `json:"id"`
	Name     string    `json:"name"`
	Position int       `json:"position"`
}

// WidgetMember is an anonymised partial user in a [GuildWidget]: ID is an
// index rather than the user's id, and Discriminator and Avatar are blanked.
type WidgetMember struct {
	ID            string  `json:"id"`
	Username      string  `json:"username"`
	Discriminator string  `json:"discriminator"`
	Avatar        *string `json:"avatar"` // nil when null
	Status        string  `json:"status"` // online, idle or dnd
	AvatarURL     string  `json:"avatar_url"`
}

// WidgetStyle is the look of the widget image.
type WidgetStyle string

// Widget image styles.
const (
	WidgetStyleShield  WidgetStyle = "shield"  // a compact badge with the online count (the default)
	WidgetStyleBanner1 WidgetStyle = "banner1" // the banners: progressively different layouts
	WidgetStyleBanner2 WidgetStyle = "banner2" // with the guild's icon, name and online count
	WidgetStyleBanner3 WidgetStyle = "banner3"
	WidgetStyleBanner4 WidgetStyle = "banner4"
)

// WidgetStyles lists every widget image style.
var WidgetStyles = []WidgetStyle{WidgetStyleShield, WidgetStyleBanner1, WidgetStyleBanner2, WidgetStyleBanner3, WidgetStyleBanner4}

// GetWidgetSettings returns whether the widget is enabled and its invite
// channel. Requires MANAGE_GUILD.
//
// Spec: "Get Guild Widget Settings" — GET /guilds/{guild.id}/widget
func (s *GuildService) GetWidgetSettings(ctx context.Context, guildID Snowflake, opts ...RequestOption) (*GuildWidgetSettings, error) {
	var out GuildWidgetSettings
	if _, err := s.c.do(ctx, &request{method: "GET", route: "/guilds/{guild.id}/widget", path: []any{guildID}, opts: opts}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// GuildWidgetModifyParams is the body of [GuildService.ModifyWidget].
type GuildWidgetModifyParams struct {
	// Enabled turns the widget on or off; Null is refused.
	Enabled Opt[bool] `json:"enabled,omitzero"`
	// ChannelID is the channel the widget's invites lead to; Null means no
	// invite.
	ChannelID Opt[Snowflake] `json:"channel_id,omitzero"`
}

func (p *GuildWidgetModifyParams) validate(validation) error {
	if p == nil {
		return nil
	}
	var v ValidationError
	notNull(&v, "enabled", p.Enabled)
	return v.Err()
}

// ModifyWidget changes the widget settings and returns them. Requires
// MANAGE_GUILD. Emits GUILD_UPDATE. Supports WithReason.
//
// Spec: "Modify Guild Widget" — PATCH /guilds/{guild.id}/widget
func (s *GuildService) ModifyWidget(ctx context.Context, guildID Snowflake, params *GuildWidgetModifyParams, opts ...RequestOption) (*GuildWidgetSettings, error) {
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	if params == nil {
		params = &GuildWidgetModifyParams{}
	}
	var out GuildWidgetSettings
	if _, err := s.c.do(ctx, &request{method: "PATCH", route: "/guilds/{guild.id}/widget", path: []any{guildID},
		body: params, auditLog: true, opts: opts}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// GetWidget returns the guild's public widget. The widget must be enabled
// (otherwise 403, [CodeWidgetDisabled]). When it has an invite channel and
// no invite exists yet, the service makes one and emits INVITE_CREATE.
//
// Spec: "Get Guild Widget" — GET /guilds/{guild.id}/widget.json
func (s *GuildService) GetWidget(ctx context.Context, guildID Snowflake, opts ...RequestOption) (*GuildWidget, error) {
	var out GuildWidget
	if _, err := s.c.do(ctx, &request{method: "GET", route: "/guilds/{guild.id}/widget.json", path: []any{guildID}, opts: opts}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// guildWidgetImageParams is the query of Get Guild Widget Image.
type guildWidgetImageParams struct {
	Style WidgetStyle `url:"style,omitempty"`
}

func (p *guildWidgetImageParams) validate(validation) error {
	if p == nil || p.Style == "" || slices.Contains(WidgetStyles, p.Style) {
		return nil
	}
	return problem("style", wire.CodeInvalid, "one of shield, banner1, banner2, banner3, banner4, got %q", p.Style)
}

// GetWidgetImage returns the guild's widget as a PNG image, streamed: the
// caller reads and closes it. style is one of [WidgetStyles]; "" means the
// service's default, [WidgetStyleShield]. It needs no permission and sends
// no credential (a client made without one can call it). See also
// [GuildService.GetWidgetImageBytes].
//
// Spec: "Get Guild Widget Image" — GET /guilds/{guild.id}/widget.png
func (s *GuildService) GetWidgetImage(ctx context.Context, guildID Snowflake, style WidgetStyle, opts ...RequestOption) (io.ReadCloser, error) {
	params := &guildWidgetImageParams{Style: style}
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	resp, err := s.c.send(ctx, &request{method: "GET", route: "/guilds/{guild.id}/widget.png", path: []any{guildID},
		query: params, auth: authNone, opts: opts})
	if err != nil {
		return nil, err
	}
	return resp.Body, nil
}

// maxWidgetImage bounds what GetWidgetImageBytes reads.
const maxWidgetImage = 8 << 20

// GetWidgetImageBytes is [GuildService.GetWidgetImage] read whole (at most
// 8 MiB).
func (s *GuildService) GetWidgetImageBytes(ctx context.Context, guildID Snowflake, style WidgetStyle, opts ...RequestOption) ([]byte, error) {
	rc, err := s.GetWidgetImage(ctx, guildID, style, opts...)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(&limitedReader{r: rc, n: maxWidgetImage})
	if err != nil {
		return nil, &RequestError{Method: "GET", Route: "/guilds/{guild.id}/widget.png", Err: err}
	}
	return b, nil
}
