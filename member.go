package guildkit

import (
	"bytes"
	"context"
	"fmt"
	"iter"
	"net/http"
	"time"

	"github.com/seed012df1e9/guildkit/wire"
)

// MemberService handles the operations on guild members and pruning. Reach
// it through [Client].Members.
type MemberService service

// Member is a user's membership of a guild.
type Member struct {
	// User is absent in members attached to message events. Nil when absent.
	User         *User       `json:"user,omitempty"`
	Nick         *string     `json:"nick"`   // nil when null
	Avatar       *string     `json:"avatar"` // guild avatar hash; nil when null
	Banner       *string     `json:"banner"` // guild banner hash; nil when null
	Roles        []Snowflake `json:"roles"`
	JoinedAt     *time.Time  `json:"joined_at"`     // nil for a guest in a voice state; nil when null
	PremiumSince *time.Time  `json:"premium_since"` // nil when null
	Deaf         bool        `json:"deaf"`
	Mute         bool        `json:"mute"`
	Flags        MemberFlags `json:"flags"`
	// Pending is true while membership screening is incomplete. It is
	// present only in guild-prefixed events and some answers. Nil when absent.
	Pending *bool `json:"pending,omitempty"`
	// Permissions holds the member's channel permissions, only inside an
	// interaction. Nil when absent.
	Permissions *Permissions `json:"permissions,omitempty"`
	// CommunicationDisabledUntil is when the member's timeout ends. nil or a
	// past time means the member is not timed out; see [Member.TimedOut]. Nil when null.
	CommunicationDisabledUntil *time.Time            `json:"communication_disabled_until"`
	AvatarDecorationData       *AvatarDecorationData `json:"avatar_decoration_data"` // nil when null
}

// DisplayName returns the name the platform shows for the member: the
// guild nickname when set, else the user's display name ([User.DisplayName]).
// It is "" only for a member decoded without its user (message events) and
// without a nickname.
func (m *Member) DisplayName() string {
	if m.Nick != nil && *m.Nick != "" {
		return *m.Nick
	}
	if m.User == nil {
		return ""
	}
	return m.User.DisplayName()
}

// TimedOut reports whether the member is timed out at time now.
func (m *Member) TimedOut(now time.Time) bool {
	return m.CommunicationDisabledUntil != nil && m.CommunicationDisabledUntil.After(now)
}

// MemberFlags is the bit set of a member's flags.
type MemberFlags int

// Member flags. Only MemberFlagBypassesVerification can be changed by a
// caller.
const (
	MemberFlagDidRejoin                    MemberFlags = 1 << 0
	MemberFlagCompletedOnboarding          MemberFlags = 1 << 1
	MemberFlagBypassesVerification         MemberFlags = 1 << 2 // editable
	MemberFlagStartedOnboarding            MemberFlags = 1 << 3
	MemberFlagIsGuest                      MemberFlags = 1 << 4
	MemberFlagStartedHomeActions           MemberFlags = 1 << 5
	MemberFlagCompletedHomeActions         MemberFlags = 1 << 6
	MemberFlagAutomodQuarantinedUsername   MemberFlags = 1 << 7
	MemberFlagDMSettingsUpsellAcknowledged MemberFlags = 1 << 9
	MemberFlagAutomodQuarantinedGuildTag   MemberFlags = 1 << 10
)

// MemberFlagsEditable are the flags a caller may set or clear.
const MemberFlagsEditable = MemberFlagBypassesVerification

var memberFlagNames = []string{
	0: "DID_REJOIN", 1: "COMPLETED_ONBOARDING", 2: "BYPASSES_VERIFICATION", 3: "STARTED_ONBOARDING",
	4: "IS_GUEST", 5: "STARTED_HOME_ACTIONS", 6: "COMPLETED_HOME_ACTIONS",
	7: "AUTOMOD_QUARANTINED_USERNAME", 9: "DM_SETTINGS_UPSELL_ACKNOWLEDGED",
	10: "AUTOMOD_QUARANTINED_GUILD_TAG",
}

// Has reports whether f holds every flag in g.
func (f MemberFlags) Has(g MemberFlags) bool { return f&g == g }

// String names the flags ("DID_REJOIN|IS_GUEST").
func (f MemberFlags) String() string { return flagString(memberFlagNames, uint64(f)) }

// maxTimeout is the longest timeout the interface accepts: 28 days ahead.
const maxTimeout = 28 * 24 * time.Hour

// Get returns the member userID of the guild. A user who is not a member
// gives an [*APIError] matching [ErrNotFound] (code [CodeUnknownMember]).
//
// Spec: "Get Guild Member" — GET /guilds/{guild.id}/members/{user.id}
func (s *MemberService) Get(ctx context.Context, guildID, userID Snowflake, opts ...RequestOption) (*Member, error) {
	var m Member
	if _, err := s.c.do(ctx, &request{
		method: "GET", route: "/guilds/{guild.id}/members/{user.id}", path: []any{guildID, userID}, opts: opts,
	}, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// MemberListParams are the query parameters of [MemberService.List] and
// [MemberService.All].
type MemberListParams struct {
	// Limit is the page size, 1-1000. The interface's default is 1; All
	// uses 1000 when Limit is omitted. Null is not allowed.
	Limit Opt[int] `url:"limit,omitempty"`
	// After is the cursor: members whose user id is greater than After.
	// Default 0 (from the start). Null is not allowed.
	After Opt[Snowflake] `url:"after,omitempty"`
}

func (p *MemberListParams) validate(validation) error {
	if p == nil {
		return nil
	}
	var v ValidationError
	validateLimit(&v, "limit", p.Limit, 1, 1000)
	notNull(&v, "after", p.After)
	return v.Err()
}

// List returns one page of the guild's members, ordered by user id: those
// after params.After, at most params.Limit (default 1, at most 1000). Use
// [MemberService.All] to walk every page. params may be nil.
//
// The operation is restricted by the members privileged intent: an
// application without it gets an [*APIError] matching [ErrForbidden].
//
// Spec: "List Guild Members" — GET /guilds/{guild.id}/members
func (s *MemberService) List(ctx context.Context, guildID Snowflake, params *MemberListParams, opts ...RequestOption) ([]Member, error) {
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	var ms []Member
	if _, err := s.c.do(ctx, &request{
		method: "GET", route: "/guilds/{guild.id}/members", path: []any{guildID},
		query: params, opts: opts,
	}, &ms); err != nil {
		return nil, err
	}
	return ms, nil
}

// All iterates over every member of the guild in ascending user-id order,
// fetching pages of params.Limit members (1000 when omitted) with
// [MemberService.List] and using the highest user id of each page as the next
// page's After. params.After, when set, is where the walk starts. Like List,
// it needs the members privileged intent.
//
// All makes no request until the loop starts, and fetches a page only when
// the loop asks for an item from it, so breaking out of the loop stops
// fetching. When a request fails, the iterator yields the zero Member with the
// error once and then stops:
//
//	for m, err := range client.Members.All(ctx, guildID, nil) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(m.User.Username)
//	}
func (s *MemberService) All(ctx context.Context, guildID Snowflake, params *MemberListParams, opts ...RequestOption) iter.Seq2[Member, error] {
	var base MemberListParams
	if params != nil {
		base = *params
	}
	limit := base.Limit.Or(1000)
	return pager[Member]{
		limit: limit,
		key: func(m Member) Snowflake {
			if m.User == nil {
				return 0
			}
			return m.User.ID
		},
		fetch: func(ctx context.Context, cursor Snowflake, first bool) ([]Member, error) {
			p := base
			p.Limit = Some(limit)
			if !first {
				p.After = Some(cursor)
			}
			return s.List(ctx, guildID, &p, opts...)
		},
	}.all(ctx)
}

// MemberSearchParams are the query parameters of [MemberService.Search].
type MemberSearchParams struct {
	// Query matches the start of a username or nickname. Required.
	Query string `url:"query"`
	// Limit is the most members to return, 1-1000; default 1. Null is not
	// allowed.
	Limit Opt[int] `url:"limit,omitempty"`
}

func (p *MemberSearchParams) validate(validation) error {
	var v ValidationError
	if p == nil || p.Query == "" {
		v.Add("query", wire.CodeRequired, "required")
	}
	if p != nil {
		validateLimit(&v, "limit", p.Limit, 1, 1000)
	}
	return v.Err()
}

// Search returns the guild's members whose username or nickname starts with
// params.Query, at most params.Limit (default 1, at most 1000).
//
// Spec: "Search Guild Members" — GET /guilds/{guild.id}/members/search
func (s *MemberService) Search(ctx context.Context, guildID Snowflake, params *MemberSearchParams, opts ...RequestOption) ([]Member, error) {
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	var ms []Member
	if _, err := s.c.do(ctx, &request{
		method: "GET", route: "/guilds/{guild.id}/members/search", path: []any{guildID},
		query: params, opts: opts,
	}, &ms); err != nil {
		return nil, err
	}
	return ms, nil
}

// MemberAddParams is the body of [MemberService.Add].
type MemberAddParams struct {
	// AccessToken is the user's OAuth2 access token, granted the guilds.join
	// scope for the calling bot's application. Required. It is a secret: it
	// never appears in an error.
	AccessToken string `json:"access_token"`
	// Nick is the new member's nickname; needs MANAGE_NICKNAMES. Null is not
	// allowed.
	Nick Opt[string] `json:"nick,omitzero"`
	// Roles are the new member's role ids; needs MANAGE_ROLES. Null is not
	// allowed.
	Roles Opt[[]Snowflake] `json:"roles,omitzero"`
	// Mute mutes the new member in voice; needs MUTE_MEMBERS. Null is not
	// allowed.
	Mute Opt[bool] `json:"mute,omitzero"`
	// Deaf deafens the new member in voice; needs DEAFEN_MEMBERS. Null is not
	// allowed.
	Deaf Opt[bool] `json:"deaf,omitzero"`
}

// String hides the access token, so that printing params leaks nothing.
func (p MemberAddParams) String() string {
	return fmt.Sprintf("{AccessToken:<redacted> Nick:%v Roles:%v Mute:%v Deaf:%v}", p.Nick, p.Roles, p.Mute, p.Deaf)
}

// GoString is String, for %#v.
func (p MemberAddParams) GoString() string { return "guildkit.MemberAddParams" + p.String() }

func (p *MemberAddParams) validate(validation) error {
	var v ValidationError
	if p != nil {
		validateNick(&v, p.Nick)
	}
	if p == nil || p.AccessToken == "" {
		v.Add("access_token", wire.CodeRequired, "required")
	}
	if p != nil {
		notNull(&v, "nick", p.Nick)
		notNull(&v, "roles", p.Roles)
		notNull(&v, "mute", p.Mute)
		notNull(&v, "deaf", p.Deaf)
		validateRoleIDs(&v, "roles", p.Roles)
	}
	return v.Err()
}

// MemberAddResult is what [MemberService.Add] returns.
type MemberAddResult struct {
	// Created is true when the user was added (201 Created), and false when
	// the user already was a member (204 No Content, not an error).
	Created bool
	// Member is the new member; nil when Created is false.
	Member *Member
}

// Add adds the user userID to the guild with an OAuth2 access token the user
// granted the guilds.join scope to the bot's application (params.AccessToken,
// required). The bot must be a member of the guild holding
// CREATE_INSTANT_INVITE; Nick, Roles, Mute and Deaf need MANAGE_NICKNAMES,
// MANAGE_ROLES, MUTE_MEMBERS and DEAFEN_MEMBERS. In a guild with membership
// screening the new member is pending. Emits GUILD_MEMBER_ADD.
//
// A user who already is a member is not an error: the result's Created is
// false and its Member nil (the service answers 204).
//
// Spec: "Add Guild Member" — PUT /guilds/{guild.id}/members/{user.id}
func (s *MemberService) Add(ctx context.Context, guildID, userID Snowflake, params *MemberAddParams, opts ...RequestOption) (*MemberAddResult, error) {
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	var m Member
	res, err := s.c.do(ctx, &request{
		method: "PUT", route: "/guilds/{guild.id}/members/{user.id}", path: []any{guildID, userID},
		body: params, opts: opts, secrets: []string{params.AccessToken},
	}, &m)
	if err != nil {
		return nil, err
	}
	if res.Status == http.StatusNoContent {
		return &MemberAddResult{}, nil
	}
	return &MemberAddResult{Created: true, Member: &m}, nil
}

// MemberModifyParams is the body of [MemberService.Modify]. Every field is
// optional; Null clears the field where that means something.
type MemberModifyParams struct {
	// Nick is the nickname; Null removes it. Needs MANAGE_NICKNAMES.
	Nick Opt[string] `json:"nick,omitzero"`
	// Roles replaces the member's roles; Null removes every role. Needs
	// MANAGE_ROLES.
	Roles Opt[[]Snowflake] `json:"roles,omitzero"`
	// Mute mutes or unmutes the member in voice. Needs MUTE_MEMBERS; the
	// service answers 400 when the member is not connected to voice.
	Mute Opt[bool] `json:"mute,omitzero"`
	// Deaf deafens or undeafens the member in voice. Needs DEAFEN_MEMBERS;
	// the service answers 400 when the member is not connected to voice.
	Deaf Opt[bool] `json:"deaf,omitzero"`
	// ChannelID moves a member connected to voice to another voice channel;
	// Null disconnects them. Needs MOVE_MEMBERS and permission to connect to
	// the target channel.
	ChannelID Opt[Snowflake] `json:"channel_id,omitzero"`
	// CommunicationDisabledUntil times the member out until that time, at
	// most 28 days ahead; Null lifts the timeout. Needs MODERATE_MEMBERS; the
	// service answers 403 when the member is an administrator or the owner.
	// See also [MemberService.Timeout] and [MemberService.RemoveTimeout].
	CommunicationDisabledUntil Opt[time.Time] `json:"communication_disabled_until,omitzero"`
	// Flags sets the member's editable flags: only
	// [MemberFlagBypassesVerification] can be given, other bits are rejected
	// before sending (the others are kept as they are). Null clears the
	// editable flags. Needs MANAGE_GUILD, or MANAGE_ROLES, or all of
	// MODERATE_MEMBERS, KICK_MEMBERS and BAN_MEMBERS.
	Flags Opt[MemberFlags] `json:"flags,omitzero"`
}

func (p *MemberModifyParams) validate(vc validation) error {
	if p == nil {
		return nil
	}
	var v ValidationError
	validateNick(&v, p.Nick)
	validateRoleIDs(&v, "roles", p.Roles)
	if id, ok := p.ChannelID.Get(); ok && id == 0 {
		v.Add("channel_id", wire.CodeInvalid, "zero channel id: use Null to disconnect")
	}
	if t, ok := p.CommunicationDisabledUntil.Get(); ok {
		switch {
		case t.IsZero():
			v.Add("communication_disabled_until", wire.CodeRequired, "the zero time: give when the timeout ends, or use Null (RemoveTimeout) to lift one")
		case !t.After(vc.now):
			v.Add("communication_disabled_until", wire.CodeRange, "%s in the past: a timeout must end in the future; use Null (RemoveTimeout) to lift one", roundDuration(vc.now.Sub(t)))
		case t.After(vc.now.Add(maxTimeout)):
			v.Add("communication_disabled_until", wire.CodeRange, "at most 28 days ahead, got %s", roundDuration(t.Sub(vc.now)))
		}
	}
	if f, ok := p.Flags.Get(); ok && f&^MemberFlagsEditable != 0 {
		v.Add("flags", wire.CodeNotAllowed, "only BYPASSES_VERIFICATION can be set, got %s", f)
	}
	return v.Err()
}

// Modify changes the member userID. Each field of params needs its own
// permission (see [MemberModifyParams]); a timeout on an administrator or the
// owner is refused with 403, and mute, deaf or a move of a member not
// connected to voice with 400. Emits GUILD_MEMBER_UPDATE. Supports
// WithReason.
//
// Spec: "Modify Guild Member" — PATCH /guilds/{guild.id}/members/{user.id}
func (s *MemberService) Modify(ctx context.Context, guildID, userID Snowflake, params *MemberModifyParams, opts ...RequestOption) (*Member, error) {
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	if params == nil {
		params = &MemberModifyParams{}
	}
	var m Member
	if _, err := s.c.do(ctx, &request{
		method: "PATCH", route: "/guilds/{guild.id}/members/{user.id}", path: []any{guildID, userID},
		body: params, auditLog: true, opts: opts,
	}, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// Timeout times the member out until until (in the future, at most 28 days
// ahead) with [MemberService.Modify]; the zero time or a time already past
// is refused before sending (use [MemberService.RemoveTimeout] to lift a
// timeout). It needs MODERATE_MEMBERS; administrators and the owner cannot
// be timed out. Supports WithReason.
func (s *MemberService) Timeout(ctx context.Context, guildID, userID Snowflake, until time.Time, opts ...RequestOption) (*Member, error) {
	return s.Modify(ctx, guildID, userID, &MemberModifyParams{CommunicationDisabledUntil: Some(until)}, opts...)
}

// RemoveTimeout lifts the member's timeout with [MemberService.Modify]. It
// needs MODERATE_MEMBERS. Supports WithReason.
func (s *MemberService) RemoveTimeout(ctx context.Context, guildID, userID Snowflake, opts ...RequestOption) (*Member, error) {
	return s.Modify(ctx, guildID, userID, &MemberModifyParams{CommunicationDisabledUntil: Null[time.Time]()}, opts...)
}

// MemberModifyCurrentParams is the body of [MemberService.ModifyCurrent].
// Every field is optional; Null clears it.
type MemberModifyCurrentParams struct {
	// Nick is the bot's nickname in the guild; needs CHANGE_NICKNAME.
	Nick Opt[string] `json:"nick,omitzero"`
	// Avatar is the bot's guild avatar as a data URI ([NewImageData]).
	Avatar Opt[ImageData] `json:"avatar,omitzero"`
	// Banner is the bot's guild banner as a data URI ([NewImageData]).
	Banner Opt[ImageData] `json:"banner,omitzero"`
	// Bio is the bot's guild bio.
	Bio Opt[string] `json:"bio,omitzero"`
}

func (p *MemberModifyCurrentParams) validate(validation) error {
	if p == nil {
		return nil
	}
	var v ValidationError
	validateNick(&v, p.Nick)
	validateImage(&v, "avatar", p.Avatar)
	validateImage(&v, "banner", p.Banner)
	return v.Err()
}

// ModifyCurrent changes the calling user's own membership of the guild:
// nickname (needs CHANGE_NICKNAME), guild avatar, banner and bio. Emits
// GUILD_MEMBER_UPDATE. Supports WithReason.
//
// Spec: "Modify Current Member" — PATCH /guilds/{guild.id}/members/@me
func (s *MemberService) ModifyCurrent(ctx context.Context, guildID Snowflake, params *MemberModifyCurrentParams, opts ...RequestOption) (*Member, error) {
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	if params == nil {
		params = &MemberModifyCurrentParams{}
	}
	var m Member
	if _, err := s.c.do(ctx, &request{
		method: "PATCH", route: "/guilds/{guild.id}/members/@me", path: []any{guildID},
		body: params, auditLog: true, opts: opts,
	}, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// MemberModifyCurrentNickParams is the body of
// [MemberService.ModifyCurrentNick].
type MemberModifyCurrentNickParams struct {
	// Nick is the new nickname; Null (or omitting it) removes it.
	Nick Opt[string] `json:"nick,omitzero"`
}

func (p *MemberModifyCurrentNickParams) validate(validation) error {
	var v ValidationError
	validateNick(&v, p.Nick)
	return v.Err()
}

// ModifyCurrentNick sets the calling user's nickname in the guild and
// returns it (nil when removed). Needs CHANGE_NICKNAME. Emits
// GUILD_MEMBER_UPDATE. Supports WithReason.
//
// Deprecated: the interface deprecates this operation; use
// [MemberService.ModifyCurrent] with Nick.
//
// Spec: "Modify Current User Nick" — PATCH /guilds/{guild.id}/members/@me/nick
func (s *MemberService) ModifyCurrentNick(ctx context.Context, guildID Snowflake, params *MemberModifyCurrentNickParams, opts ...RequestOption) (*string, error) {
	if params == nil {
		params = &MemberModifyCurrentNickParams{}
	}
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	var out nickAnswer
	if _, err := s.c.do(ctx, &request{
		method: "PATCH", route: "/guilds/{guild.id}/members/@me/nick", path: []any{guildID},
		body: params, auditLog: true, opts: opts,
	}, &out); err != nil {
		return nil, err
	}
	return out.nick, nil
}

// nickAnswer decodes the answer of Modify Current User Nick, which the
// interface calls "the nickname": the reference platform sends an object
// {"nick": ...}; a bare JSON string or null is accepted too.
type nickAnswer struct{ nick *string }

func (n *nickAnswer) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '{' {
		var obj struct {
			Nick *string `json:"nick"`
		}
		if err := decodeValue(b, &obj); err != nil {
			return err
		}
		n.nick = obj.Nick
		return nil
	}
	return decodeValue(b, &n.nick)
}

// AddRole gives the member userID the role roleID. Needs MANAGE_ROLES. Emits
// GUILD_MEMBER_UPDATE. Supports WithReason.
//
// Spec: "Add Guild Member Role" — PUT /guilds/{guild.id}/members/{user.id}/roles/{role.id}
func (s *MemberService) AddRole(ctx context.Context, guildID, userID, roleID Snowflake, opts ...RequestOption) error {
	_, err := s.c.do(ctx, &request{
		method: "PUT", route: "/guilds/{guild.id}/members/{user.id}/roles/{role.id}",
		path: []any{guildID, userID, roleID}, auditLog: true, opts: opts,
	}, nil)
	return err
}

// RemoveRole takes the role roleID from the member userID. Needs
// MANAGE_ROLES. Emits GUILD_MEMBER_UPDATE. Supports WithReason.
//
// Spec: "Remove Guild Member Role" — DELETE /guilds/{guild.id}/members/{user.id}/roles/{role.id}
func (s *MemberService) RemoveRole(ctx context.Context, guildID, userID, roleID Snowflake, opts ...RequestOption) error {
	_, err := s.c.do(ctx, &request{
		method: "DELETE", route: "/guilds/{guild.id}/members/{user.id}/roles/{role.id}",
		path: []any{guildID, userID, roleID}, auditLog: true, opts: opts,
	}, nil)
	return err
}

// Remove removes (kicks) the member userID from the guild. Needs
// KICK_MEMBERS. Emits GUILD_MEMBER_REMOVE. Supports WithReason.
//
// Spec: "Remove Guild Member" — DELETE /guilds/{guild.id}/members/{user.id}
func (s *MemberService) Remove(ctx context.Context, guildID, userID Snowflake, opts ...RequestOption) error {
	_, err := s.c.do(ctx, &request{
		method: "DELETE", route: "/guilds/{guild.id}/members/{user.id}", path: []any{guildID, userID},
		auditLog: true, opts: opts,
	}, nil)
	return err
}
