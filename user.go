package guildkit

// User is a user account, person or bot. The interface's documents use the
// user object without listing its fields; these are the reference platform's.
// Fields that may be both absent and null are [Opt]s, so a decoded user
// re-encodes as it came.
type User struct {
	ID                   Snowflake                 `json:"id"`
	Username             string                    `json:"username"`
	Discriminator        string                    `json:"discriminator,omitempty"`
	GlobalName           Opt[string]               `json:"global_name,omitzero"` // display name; Null when unset; zero Opt when absent, Null when null
	Avatar               *string                   `json:"avatar"`               // nil when null
	Bot                  bool                      `json:"bot,omitempty"`
	System               bool                      `json:"system,omitempty"`
	Banner               Opt[string]               `json:"banner,omitzero"`                 // banner hash; Null when unset; zero Opt when absent, Null when null
	AccentColor          Opt[int]                  `json:"accent_color,omitzero"`           // RGB; Null when unset; zero Opt when absent, Null when null
	PublicFlags          *int                      `json:"public_flags,omitempty"`          // nil when absent
	AvatarDecorationData Opt[AvatarDecorationData] `json:"avatar_decoration_data,omitzero"` // zero Opt when absent, Null when null
	// Flags are the user's flags, a bit set the interface does not list
	// (the reference platform's); nil when absent.
	Flags *int `json:"flags,omitempty"`
	// PrimaryGuild is the guild whose tag the user shows (the reference
	// platform's user object); zero Opt when absent, Null when null.
	PrimaryGuild Opt[PrimaryGuild] `json:"primary_guild,omitzero"`
}

// PrimaryGuild is the guild tag a user shows beside their name. The
// interface's documents do not show it; these are the reference platform's
// fields.
type PrimaryGuild struct {
	IdentityGuildID *Snowflake `json:"identity_guild_id"` // nil when null
	IdentityEnabled *bool      `json:"identity_enabled"`  // nil when null
	Tag             *string    `json:"tag"`               // nil when null
	Badge           *string    `json:"badge"`             // nil when null
}

// DisplayName returns the name the platform shows for the user: the global
// display name when set, else the username. The interface's documents do
// not show the user object; this follows the reference platform.
func (u *User) DisplayName() string {
	if g, ok := u.GlobalName.Get(); ok && g != "" {
		return g
	}
	return u.Username
}

// AvatarDecorationData is the decoration drawn around an avatar.
type AvatarDecorationData struct {
	Asset string    `json:"asset"`
	SKUID Snowflake `json:"sku_id"`
}
