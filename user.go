package guildkit

// User is a user account, person or bot. The interface's documents use the
// user object without listing its fields; these are the reference platform's.
type User struct {
	ID                   Snowflake             `json:"id"`
	Username             string                `json:"username"`
	Discriminator        string                `json:"discriminator,omitempty"`
	GlobalName           *string               `json:"global_name,omitempty"`
	Avatar               *string               `json:"avatar"`
	Bot                  bool                  `json:"bot,omitempty"`
	System               bool                  `json:"system,omitempty"`
	Banner               *string               `json:"banner,omitempty"`
	AccentColor          *int                  `json:"accent_color,omitempty"`
	PublicFlags          int                   `json:"public_flags,omitempty"`
	AvatarDecorationData *AvatarDecorationData `json:"avatar_decoration_data,omitempty"`
}

// AvatarDecorationData is the decoration drawn around an avatar.
type AvatarDecorationData struct {
	Asset string    `json:"asset"`
	SKUID Snowflake `json:"sku_id"`
}
