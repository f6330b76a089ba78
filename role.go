package guildkit

// RoleService handles the operations on guild roles. Reach it through
// [Client].Roles.
type RoleService service

// Role is a guild role. The @everyone role has the guild's id.
type Role struct {
	ID           Snowflake   `json:"id"`
	Name         string      `json:"name"`
	Color        int         `json:"color"` // deprecated by the interface: use Colors
	Colors       RoleColors  `json:"colors"`
	Hoist        bool        `json:"hoist"`
	Icon         *string     `json:"icon,omitempty"`
	UnicodeEmoji *string     `json:"unicode_emoji,omitempty"`
	Position     int         `json:"position"`
	Permissions  Permissions `json:"permissions"`
	Managed      bool        `json:"managed"`
	Mentionable  bool        `json:"mentionable"`
	Tags         *RoleTags   `json:"tags,omitempty"`
	Flags        int         `json:"flags,omitempty"`
}

// RoleColors are a role's colours as RGB integers. Secondary and tertiary
// colours make a gradient (guild feature ENHANCED_ROLE_COLORS); nil means
// unset.
type RoleColors struct {
	PrimaryColor   int  `json:"primary_color"`
	SecondaryColor *int `json:"secondary_color"`
	TertiaryColor  *int `json:"tertiary_color"`
}

// RoleTags says what a managed role belongs to.
type RoleTags struct {
	BotID                 *Snowflake `json:"bot_id,omitempty"`
	IntegrationID         *Snowflake `json:"integration_id,omitempty"`
	SubscriptionListingID *Snowflake `json:"subscription_listing_id,omitempty"`
}
