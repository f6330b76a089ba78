package guildkit

import (
	"context"
	"net/http"
)

// ApplicationService reads the application a bot token belongs to. Reach
// it through [Client].Applications. Its id is what [CommandService] takes
// (on the reference platform, the bot user's id for the applications made
// today; this route says it for any).
type ApplicationService service

// Application is the application of the bot, as the platform shows it to
// the bot itself: the fields a bot needs, and what discord.py's parser
// requires.
type Application struct {
	ID          Snowflake `json:"id"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	// Icon is the icon's hash; zero Opt when absent, Null when none.
	Icon                Opt[string] `json:"icon,omitzero"`
	BotPublic           bool        `json:"bot_public"`
	BotRequireCodeGrant bool        `json:"bot_require_code_grant"`
	Owner               *User       `json:"owner,omitempty"` // nil when absent
	// VerifyKey is the hex public key that checks the signatures of the
	// interactions delivered to the application's endpoint.
	VerifyKey string `json:"verify_key"`
	Flags     uint64 `json:"flags"`
	// InteractionsEndpointURL is where interactions are delivered; zero
	// Opt when absent (they arrive over the gateway).
	InteractionsEndpointURL Opt[string] `json:"interactions_endpoint_url,omitzero"`
	Bot                     *User       `json:"bot,omitempty"` // the application's bot user; nil when absent
}

// GetCurrent returns the application the client's bot token belongs to.
// Its ID is what the command routes take.
//
// Spec: "Get Current Bot Application Information" — GET /oauth2/applications/@me
func (s *ApplicationService) GetCurrent(ctx context.Context, opts ...RequestOption) (*Application, error) {
	var a Application
	if _, err := s.c.do(ctx, &request{method: http.MethodGet, route: "/oauth2/applications/@me", opts: opts}, &a); err != nil {
		return nil, err
	}
	return &a, nil
}
