package guildkit

import (
	"context"
	"net/http"

	"github.com/seed012df1e9/guildkit/wire"
)

// UserService handles the operations on users: opening a DM channel. Reach
// it through [Client].Users.
type UserService service

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

// dmCreate is the body of Create DM.
type dmCreate struct {
	RecipientID Snowflake `json:"recipient_id"`
}

// CreateDM opens the bot's DM channel with a user (type 1, with the user in
// Recipients) and returns it; if one is open already, that one. Send to it
// with [MessageService.Create] on its id; the user may refuse, with
// [ErrCannotSendToUser] (50007). No gateway event announces the channel.
// Opening many DMs quickly gets the bot limited or blocked (40003): open
// one in answer to a user's action.
//
// Spec: "Create DM" — POST /users/@me/channels
func (s *UserService) CreateDM(ctx context.Context, recipientID Snowflake, opts ...RequestOption) (*Channel, error) {
	var v ValidationError
	if recipientID == 0 {
		v.Add("recipient_id", wire.CodeRequired, "the user to open a DM with is required")
		return nil, v.Err()
	}
	var ch Channel
	if _, err := s.c.do(ctx, &request{method: http.MethodPost, route: "/users/@me/channels",
		body: dmCreate{RecipientID: recipientID}, opts: opts}, &ch); err != nil {
		return nil, err
	}
	return &ch, nil
}
