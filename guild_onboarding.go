package guildkit

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/seed012df1e9/guildkit/wire"
)

// OnboardingMode says what counts toward the onboarding constraints.
type OnboardingMode int

// Onboarding modes.
const (
	OnboardingDefault  OnboardingMode = 0 // only default channels count
	OnboardingAdvanced OnboardingMode = 1 // default channels and questions count
)

func (m OnboardingMode) String() string {
	return enumString("OnboardingMode", []string{"ONBOARDING_DEFAULT", "ONBOARDING_ADVANCED"}, int(m))
}

// PromptType is how an onboarding question shows its options.
type PromptType int

// Prompt types.
const (
	PromptTypeMultipleChoice PromptType = 0
	PromptTypeDropdown       PromptType = 1
)

func (t PromptType) String() string {
	return enumString("PromptType", []string{"MULTIPLE_CHOICE", "DROPDOWN"}, int(t))
}

// Onboarding is a guild's onboarding flow.
type Onboarding struct {
	GuildID Snowflake          `json:"guild_id"`
	Prompts []OnboardingPrompt `json:"prompts"`
	// DefaultChannelIDs are the channels members are opted into.
	DefaultChannelIDs []Snowflake    `json:"default_channel_ids"`
	Enabled           bool           `json:"enabled"`
	Mode              OnboardingMode `json:"mode"`
}

// OnboardingPrompt is one question of the onboarding flow.
type OnboardingPrompt struct {
	ID           Snowflake                `json:"id"`
	Type         PromptType               `json:"type"`
	Options      []OnboardingPromptOption `json:"options"`
	Title        string                   `json:"title"`
	SingleSelect bool                     `json:"single_select"` // one option at most
	Required     bool                     `json:"required"`      // must be answered to finish onboarding
	InOnboarding bool                     `json:"in_onboarding"` // false: only in the channels-and-roles tab
}

// OnboardingPromptOption is one answer of an onboarding question. The
// service returns the emoji as Emoji; EmojiID, EmojiName and EmojiAnimated
// are the input form, present here so that nothing is lost in a round trip.
type OnboardingPromptOption struct {
	ID            Snowflake   `json:"id"`
	ChannelIDs    []Snowflake `json:"channel_ids"`              // joined on selection
	RoleIDs       []Snowflake `json:"role_ids"`                 // assigned on selection
	Emoji         *Emoji      `json:"emoji,omitempty"`          // nil when absent
	EmojiID       *Snowflake  `json:"emoji_id,omitempty"`       // nil when absent
	EmojiName     *string     `json:"emoji_name,omitempty"`     // nil when absent
	EmojiAnimated *bool       `json:"emoji_animated,omitempty"` // nil when absent
	Title         string      `json:"title"`
	Description   *string     `json:"description"` // nil when null
}

// GetOnboarding returns the guild's onboarding flow.
//
// Spec: "Get Guild Onboarding" — GET /guilds/{guild.id}/onboarding
func (s *GuildService) GetOnboarding(ctx context.Context, guildID Snowflake, opts ...RequestOption) (*Onboarding, error) {
	var out Onboarding
	if _, err := s.c.do(ctx, &request{method: "GET", route: "/guilds/{guild.id}/onboarding", path: []any{guildID}, opts: opts}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// GuildOnboardingModifyParams is the body of [GuildService.ModifyOnboarding].
// Every field is optional; none may be Null.
type GuildOnboardingModifyParams struct {
	// Prompts replace the onboarding questions.
	Prompts Opt[[]OnboardingPromptParams] `json:"prompts,omitzero"`
	// DefaultChannelIDs are the channels members are opted into.
	DefaultChannelIDs Opt[[]Snowflake] `json:"default_channel_ids,omitzero"`
	// Enabled turns onboarding on; that needs at least 7 default channels,
	// at least 5 of which @everyone can send messages in (in
	// [OnboardingAdvanced] mode the channels of the questions count too).
	Enabled Opt[bool]           `json:"enabled,omitzero"`
	Mode    Opt[OnboardingMode] `json:"mode,omitzero"`
}

// OnboardingPromptParams is a question in [GuildOnboardingModifyParams].
type OnboardingPromptParams struct {
	// ID is the prompt to keep. The interface requires an id on every
	// prompt; for a new one leave it unset and the client sends a fresh
	// snowflake, as the reference platform's own client does.
	ID           Opt[Snowflake]                 `json:"id,omitzero"`
	Type         PromptType                     `json:"type"`
	Options      []OnboardingPromptOptionParams `json:"options"` // at least one
	Title        string                         `json:"title"`   // required
	SingleSelect Opt[bool]                      `json:"single_select,omitzero"`
	Required     Opt[bool]                      `json:"required,omitzero"`
	InOnboarding Opt[bool]                      `json:"in_onboarding,omitzero"`
}

// OnboardingPromptOptionParams is an option of an
// [OnboardingPromptParams]. The emoji is given through EmojiID (a custom
// emoji), EmojiName and EmojiAnimated; the service answers with an emoji
// object ([OnboardingPromptOption.Emoji]).
type OnboardingPromptOptionParams struct {
	// ID is the option to keep; for a new one leave it unset and the client
	// sends a fresh snowflake, as it does for prompts.
	ID            Opt[Snowflake]   `json:"id,omitzero"`
	ChannelIDs    Opt[[]Snowflake] `json:"channel_ids,omitzero"`
	RoleIDs       Opt[[]Snowflake] `json:"role_ids,omitzero"`
	EmojiID       Opt[Snowflake]   `json:"emoji_id,omitzero"`
	EmojiName     Opt[string]      `json:"emoji_name,omitzero"`
	EmojiAnimated Opt[bool]        `json:"emoji_animated,omitzero"`
	Title         string           `json:"title"` // required
	Description   Opt[string]      `json:"description,omitzero"`
}

func (p *GuildOnboardingModifyParams) validate(validation) error {
	if p == nil {
		return nil
	}
	var v ValidationError
	notNull(&v, "prompts", p.Prompts)
	notNull(&v, "default_channel_ids", p.DefaultChannelIDs)
	notNull(&v, "enabled", p.Enabled)
	notNull(&v, "mode", p.Mode)
	if m, ok := p.Mode.Get(); ok && m != OnboardingDefault && m != OnboardingAdvanced {
		v.Add("mode", wire.CodeInvalid, "0 or 1, got %d", m)
	}
	prompts, _ := p.Prompts.Get()
	for i, pr := range prompts {
		at := "prompts" + indexPath(i, "")
		if pr.Type != PromptTypeMultipleChoice && pr.Type != PromptTypeDropdown {
			v.Add(at+".type", wire.CodeInvalid, "0 or 1, got %d", pr.Type)
		}
		if strings.TrimSpace(pr.Title) == "" {
			v.Add(at+".title", wire.CodeRequired, "required")
		}
		if len(pr.Options) == 0 {
			v.Add(at+".options", wire.CodeRequired, "at least one option")
		}
		for j, o := range pr.Options {
			if strings.TrimSpace(o.Title) == "" {
				v.Add(at+".options"+indexPath(j, "title"), wire.CodeRequired, "required")
			}
		}
	}
	slices.SortFunc(v.Problems, func(a, b FieldError) int { return strings.Compare(a.Path, b.Path) })
	return v.Err()
}

// withIDs returns p, or a copy of p whose new prompts and options carry a
// fresh snowflake each: the interface requires a prompt's id, and the
// reference platform refuses a prompt without one. The ids are made from now,
// one apart, so that they are unique in the request; the caller's params are
// not changed.
func (p *GuildOnboardingModifyParams) withIDs(now time.Time) *GuildOnboardingModifyParams {
	prompts, ok := p.Prompts.Get()
	if !ok {
		return p
	}
	missing := false
	for _, pr := range prompts {
		missing = missing || !pr.ID.IsSet()
		for _, o := range pr.Options {
			missing = missing || !o.ID.IsSet()
		}
	}
	if !missing {
		return p
	}
	next := SnowflakeFromTime(now)
	fresh := func() Opt[Snowflake] { next++; return Some(next) }
	cp := *p
	out := make([]OnboardingPromptParams, len(prompts))
	for i, pr := range prompts {
		if !pr.ID.IsSet() {
			pr.ID = fresh()
		}
		opts := make([]OnboardingPromptOptionParams, len(pr.Options))
		for j, o := range pr.Options {
			if !o.ID.IsSet() {
				o.ID = fresh()
			}
			opts[j] = o
		}
		pr.Options = opts
		out[i] = pr
	}
	cp.Prompts = Some(out)
	return &cp
}

// ModifyOnboarding changes the guild's onboarding flow and returns it.
// Requires MANAGE_GUILD and MANAGE_ROLES. Enabling it needs at least 7
// default channels, at least 5 of them writable by @everyone (counted per
// mode); the service answers 400 otherwise. Supports WithReason.
//
// Spec: "Modify Guild Onboarding" — PUT /guilds/{guild.id}/onboarding
func (s *GuildService) ModifyOnboarding(ctx context.Context, guildID Snowflake, params *GuildOnboardingModifyParams, opts ...RequestOption) (*Onboarding, error) {
	if params == nil {
		params = &GuildOnboardingModifyParams{}
	}
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	params = params.withIDs(time.Now())
	var out Onboarding
	if _, err := s.c.do(ctx, &request{method: "PUT", route: "/guilds/{guild.id}/onboarding", path: []any{guildID},
		body: params, auditLog: true, opts: opts}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
