package guildkit

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/seed012df1e9/guildkit/wire"
)

// RoleService handles the operations on guild roles. Reach it through
// [Client].Roles.
type RoleService service

// Role is a guild role. The @everyone role has the guild's id.
type Role struct {
	ID     Snowflake  `json:"id"`
	Name   string     `json:"name"`
	Color  int        `json:"color"` // deprecated by the interface: use Colors
	Colors RoleColors `json:"colors"`
	Hoist  bool       `json:"hoist"`
	// Icon is the role icon's hash (guild feature ROLE_ICONS); Null when the
	// role has none, absent (the zero Opt) when the answer does not say.
	Icon Opt[string] `json:"icon,omitzero"`
	// UnicodeEmoji is the standard emoji shown as the role's icon; Null when
	// none, absent (the zero Opt) when the answer does not say.
	UnicodeEmoji Opt[string] `json:"unicode_emoji,omitzero"`
	Position     int         `json:"position"`
	Permissions  Permissions `json:"permissions"`
	Managed      bool        `json:"managed"`
	Mentionable  bool        `json:"mentionable"`
	Tags         *RoleTags   `json:"tags,omitempty"` // nil when absent
	Flags        RoleFlags   `json:"flags"`
}

// RoleFlags is the bit set of a role's flags. The interface does not list
// them; the one flag is the reference platform's.
type RoleFlags int

// Role flags.
const (
	RoleFlagInPrompt RoleFlags = 1 << 0 // the role can be picked in an onboarding prompt
)

var roleFlagNames = []string{0: "IN_PROMPT"}

// Has reports whether f holds every flag in g.
func (f RoleFlags) Has(g RoleFlags) bool { return f&g == g }

// String names the flags ("IN_PROMPT").
func (f RoleFlags) String() string { return flagString(roleFlagNames, uint64(f)) }

// RoleColors are a role's colours as RGB integers. Secondary and tertiary
// colours make a gradient (guild feature ENHANCED_ROLE_COLORS); nil means
// unset.
type RoleColors struct {
	PrimaryColor   int  `json:"primary_color"`
	SecondaryColor *int `json:"secondary_color"` // nil when null
	TertiaryColor  *int `json:"tertiary_color"`  // nil when null
}

// RoleTags says what a managed role belongs to.
type RoleTags struct {
	BotID                 *Snowflake `json:"bot_id,omitempty"`                  // nil when absent
	IntegrationID         *Snowflake `json:"integration_id,omitempty"`          // nil when absent
	SubscriptionListingID *Snowflake `json:"subscription_listing_id,omitempty"` // nil when absent
	// The next three are flags that are true when present, and present as
	// null: IsNull reports true. They are Opts so that a role re-encodes to
	// what the service sent. Zero Opt when absent, Null when null.
	PremiumSubscriber    Opt[bool] `json:"premium_subscriber,omitzero"`
	AvailableForPurchase Opt[bool] `json:"available_for_purchase,omitzero"` // zero Opt when absent, Null when null
	GuildConnections     Opt[bool] `json:"guild_connections,omitzero"`      // zero Opt when absent, Null when null
}

// Role limits.
const (
	MaxRoleNameLength = 100      // characters
	maxRGB            = 0xFFFFFF // colours are RGB integers
)

// List returns the guild's roles.
//
// Spec: "Get Guild Roles" — GET /guilds/{guild.id}/roles
func (s *RoleService) List(ctx context.Context, guildID Snowflake, opts ...RequestOption) ([]Role, error) {
	var roles []Role
	if _, err := s.c.do(ctx, &request{
		method: "GET", route: "/guilds/{guild.id}/roles", path: []any{guildID}, opts: opts,
	}, &roles); err != nil {
		return nil, err
	}
	return roles, nil
}

// Get returns the role roleID. An unknown role gives an [*APIError] matching
// [ErrNotFound] (code [CodeUnknownRole]).
//
// Spec: "Get Guild Role" — GET /guilds/{guild.id}/roles/{role.id}
func (s *RoleService) Get(ctx context.Context, guildID, roleID Snowflake, opts ...RequestOption) (*Role, error) {
	var r Role
	if _, err := s.c.do(ctx, &request{
		method: "GET", route: "/guilds/{guild.id}/roles/{role.id}", path: []any{guildID, roleID}, opts: opts,
	}, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// MemberCounts returns how many members hold each role of the guild, by role
// id. The @everyone role is not in the map.
//
// Spec: "Get Guild Role Member Counts" — GET /guilds/{guild.id}/roles/member-counts
func (s *RoleService) MemberCounts(ctx context.Context, guildID Snowflake, opts ...RequestOption) (map[Snowflake]int, error) {
	var counts map[Snowflake]int
	if _, err := s.c.do(ctx, &request{
		method: "GET", route: "/guilds/{guild.id}/roles/member-counts", path: []any{guildID}, opts: opts,
	}, &counts); err != nil {
		return nil, err
	}
	return counts, nil
}

// RoleCreateParams is the body of [RoleService.Create]. Every field is
// optional; the defaults are the interface's.
type RoleCreateParams struct {
	// Name is at most 100 characters; default "new role". Null is not
	// allowed.
	Name Opt[string] `json:"name,omitzero"`
	// Permissions default to the @everyone role's. Null is not allowed.
	Permissions Opt[Permissions] `json:"permissions,omitzero"`
	// Color is an RGB integer, default 0.
	//
	// Deprecated: the interface prefers Colors; Color is still returned.
	Color Opt[int] `json:"color,omitzero"`
	// Colors default to the default colours object (primary 0, no gradient).
	// Null is not allowed.
	Colors Opt[RoleColors] `json:"colors,omitzero"`
	// Hoist shows the role's members apart; default false. Null is not
	// allowed.
	Hoist Opt[bool] `json:"hoist,omitzero"`
	// Icon is the role icon; needs the guild feature ROLE_ICONS. Default
	// null.
	Icon Opt[ImageData] `json:"icon,omitzero"`
	// UnicodeEmoji is a standard emoji shown as the role icon; needs the
	// guild feature ROLE_ICONS. Default null.
	UnicodeEmoji Opt[string] `json:"unicode_emoji,omitzero"`
	// Mentionable lets anyone mention the role; default false. Null is not
	// allowed.
	Mentionable Opt[bool] `json:"mentionable,omitzero"`
}

// validateRoleFields checks the fields Create and Modify share.
func validateRoleFields(v *ValidationError, name Opt[string], color Opt[int], colors Opt[RoleColors], icon Opt[ImageData]) {
	if n, ok := name.Get(); ok && utf8.RuneCountInString(n) > MaxRoleNameLength {
		v.Add("name", wire.CodeLength, "at most %d characters, got %d", MaxRoleNameLength, utf8.RuneCountInString(n))
	}
	if c, ok := color.Get(); ok && (c < 0 || c > maxRGB) {
		v.Add("color", wire.CodeRange, "an RGB value 0-0xFFFFFF, got %d", c)
	}
	if cs, ok := colors.Get(); ok {
		for _, f := range []struct {
			path string
			c    *int
		}{{"colors.primary_color", &cs.PrimaryColor}, {"colors.secondary_color", cs.SecondaryColor}, {"colors.tertiary_color", cs.TertiaryColor}} {
			if f.c != nil && (*f.c < 0 || *f.c > maxRGB) {
				v.Add(f.path, wire.CodeRange, "an RGB value 0-0xFFFFFF, got %d", *f.c)
			}
		}
	}
	validateImage(v, "icon", icon)
}

func (p *RoleCreateParams) validate(validation) error {
	if p == nil {
		return nil
	}
	var v ValidationError
	validateRoleFields(&v, p.Name, p.Color, p.Colors, p.Icon)
	if n, ok := p.Name.Get(); ok && strings.TrimSpace(n) == "" {
		// The service would quietly name it "new role": leave Name unset
		// for that.
		v.Add("name", wire.CodeRequired, "an empty name: leave Name unset for the default \"new role\"")
	}
	notNull(&v, "name", p.Name)
	notNull(&v, "permissions", p.Permissions)
	notNull(&v, "color", p.Color)
	notNull(&v, "colors", p.Colors)
	notNull(&v, "hoist", p.Hoist)
	notNull(&v, "mentionable", p.Mentionable)
	return v.Err()
}

// Create adds a role to the guild and returns it. Needs MANAGE_ROLES; an
// icon or unicode emoji needs the guild feature ROLE_ICONS. Emits
// GUILD_ROLE_CREATE. Supports WithReason. params may be nil (a role named
// "new role" with the @everyone permissions).
//
// Spec: "Create Guild Role" — POST /guilds/{guild.id}/roles
func (s *RoleService) Create(ctx context.Context, guildID Snowflake, params *RoleCreateParams, opts ...RequestOption) (*Role, error) {
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	if params == nil {
		params = &RoleCreateParams{}
	}
	var r Role
	if _, err := s.c.do(ctx, &request{
		method: "POST", route: "/guilds/{guild.id}/roles", path: []any{guildID},
		body: params, auditLog: true, opts: opts,
	}, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// RolePositionParams is one item of [RoleService.ModifyPositions].
type RolePositionParams struct {
	ID Snowflake `json:"id"` // the role to move; required
	// Position is the role's new position; roles at the same position sort
	// by id.
	Position Opt[int] `json:"position,omitzero"`
}

// rolePositions is the body of [RoleService.ModifyPositions].
type rolePositions []RolePositionParams

func (ps rolePositions) validate(validation) error {
	var v ValidationError
	validatePositionItems(&v, "role", ps, func(p RolePositionParams) Snowflake { return p.ID })
	for i, p := range ps {
		if n, ok := p.Position.Get(); ok && n < 0 {
			v.Add(indexPath(i, "position"), wire.CodeRange, "at least 0, got %d", n)
		}
	}
	return v.Err()
}

// ModifyPositions moves roles and returns all the guild's roles. Only the
// roles to move need be listed. Needs MANAGE_ROLES. Emits one
// GUILD_ROLE_UPDATE per role moved. Supports WithReason.
//
// Spec: "Modify Guild Role Positions" — PATCH /guilds/{guild.id}/roles
func (s *RoleService) ModifyPositions(ctx context.Context, guildID Snowflake, positions []RolePositionParams, opts ...RequestOption) ([]Role, error) {
	if err := rolePositions(positions).validate(s.c.validation()); err != nil {
		return nil, err
	}
	var roles []Role
	if _, err := s.c.do(ctx, &request{
		method: "PATCH", route: "/guilds/{guild.id}/roles", path: []any{guildID},
		body: positions, auditLog: true, opts: opts,
	}, &roles); err != nil {
		return nil, err
	}
	return roles, nil
}

// RoleModifyParams is the body of [RoleService.Modify]: the fields of
// [RoleCreateParams], without defaults. Every field is optional and
// nullable; Null resets a field to its default ("new role", the @everyone
// permissions, colour 0, false, no icon, no emoji).
type RoleModifyParams struct {
	Name        Opt[string]      `json:"name,omitzero"` // at most 100 characters
	Permissions Opt[Permissions] `json:"permissions,omitzero"`
	// Deprecated: the interface prefers Colors.
	Color        Opt[int]        `json:"color,omitzero"`
	Colors       Opt[RoleColors] `json:"colors,omitzero"`
	Hoist        Opt[bool]       `json:"hoist,omitzero"`
	Icon         Opt[ImageData]  `json:"icon,omitzero"`          // needs ROLE_ICONS; Null removes it
	UnicodeEmoji Opt[string]     `json:"unicode_emoji,omitzero"` // needs ROLE_ICONS; Null removes it
	Mentionable  Opt[bool]       `json:"mentionable,omitzero"`
}

func (p *RoleModifyParams) validate(validation) error {
	if p == nil {
		return nil
	}
	var v ValidationError
	validateRoleFields(&v, p.Name, p.Color, p.Colors, p.Icon)
	return v.Err()
}

// Modify changes the role roleID and returns it. Needs MANAGE_ROLES. Emits
// GUILD_ROLE_UPDATE. Supports WithReason.
//
// Spec: "Modify Guild Role" — PATCH /guilds/{guild.id}/roles/{role.id}
func (s *RoleService) Modify(ctx context.Context, guildID, roleID Snowflake, params *RoleModifyParams, opts ...RequestOption) (*Role, error) {
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	if params == nil {
		params = &RoleModifyParams{}
	}
	var r Role
	if _, err := s.c.do(ctx, &request{
		method: "PATCH", route: "/guilds/{guild.id}/roles/{role.id}", path: []any{guildID, roleID},
		body: params, auditLog: true, opts: opts,
	}, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Delete deletes the role roleID, taking it from every member. Needs
// MANAGE_ROLES. Emits GUILD_ROLE_DELETE. Supports WithReason.
//
// Spec: "Delete Guild Role" — DELETE /guilds/{guild.id}/roles/{role.id}
func (s *RoleService) Delete(ctx context.Context, guildID, roleID Snowflake, opts ...RequestOption) error {
	_, err := s.c.do(ctx, &request{
		method: "DELETE", route: "/guilds/{guild.id}/roles/{role.id}", path: []any{guildID, roleID},
		auditLog: true, opts: opts,
	}, nil)
	return err
}
