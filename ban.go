package guildkit

import (
	"context"
	"iter"

	"github.com/seed012df1e9/guildkit/wire"
)

// BanService handles the operations on guild bans. Reach it through
// [Client].Bans.
type BanService service

// Ban is a user's ban from a guild.
type Ban struct {
	// Reason is the audit-log reason given when banning, nil when none was. Nil when null.
	Reason *string `json:"reason"`
	User   User    `json:"user"`
}

// Limits of the ban operations.
const (
	MaxBulkBanUsers           = 200    // users per Bulk call
	MaxDeleteMessageSeconds   = 604800 // 7 days of messages deleted on ban
	maxDeleteMessageDays      = 7
	maxBanListLimit           = 1000
	defaultBanListLimit       = 1000
	banListCursorConflictHint = "give Before or After, not both (the service would apply only Before)"
)

// BanListParams are the query parameters of [BanService.List] and
// [BanService.All]. Bans come in ascending user-id order.
//
// Before and After are alternative cursors: setting both is a
// [ValidationError], because the service would silently apply only Before.
type BanListParams struct {
	// Limit is the page size, 1-1000; default 1000. Null is not allowed.
	Limit Opt[int] `url:"limit,omitempty"`
	// Before asks for the bans of users with smaller ids than Before (the
	// ones closest to it). Null is not allowed.
	Before Opt[Snowflake] `url:"before,omitempty"`
	// After asks for the bans of users with greater ids than After. Null is
	// not allowed.
	After Opt[Snowflake] `url:"after,omitempty"`
}

func (p *BanListParams) validate(validation) error {
	if p == nil {
		return nil
	}
	var v ValidationError
	validateLimit(&v, "limit", p.Limit, 1, maxBanListLimit)
	notNull(&v, "before", p.Before)
	notNull(&v, "after", p.After)
	if !p.Before.IsZero() && !p.After.IsZero() {
		v.Add("after", wire.CodeConflict, banListCursorConflictHint)
	}
	return v.Err()
}

// List returns one page of the guild's bans in ascending user-id order: at
// most params.Limit (default 1000), after params.After or before
// params.Before. Needs BAN_MEMBERS. Use [BanService.All] to walk every page.
// params may be nil.
//
// Spec: "Get Guild Bans" — GET /guilds/{guild.id}/bans
func (s *BanService) List(ctx context.Context, guildID Snowflake, params *BanListParams, opts ...RequestOption) ([]Ban, error) {
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	var bans []Ban
	if _, err := s.c.do(ctx, &request{
		method: "GET", route: "/guilds/{guild.id}/bans", path: []any{guildID},
		query: params, opts: opts,
	}, &bans); err != nil {
		return nil, err
	}
	return bans, nil
}

// All iterates over every ban of the guild, fetching pages of params.Limit
// bans (1000 when omitted) with [BanService.List]. Needs BAN_MEMBERS.
//
// Without params.Before it walks forward in ascending user-id order, from
// params.After when set, using each page's highest user id as the next After.
// With params.Before it walks backward in descending user-id order, using
// each page's lowest user id as the next Before.
//
// All makes no request until the loop starts, and fetches a page only when
// the loop asks for an item from it, so breaking out of the loop stops
// fetching. When a request fails, the iterator yields the zero Ban with the
// error once and then stops; invalid params are reported the same way.
func (s *BanService) All(ctx context.Context, guildID Snowflake, params *BanListParams, opts ...RequestOption) iter.Seq2[Ban, error] {
	var base BanListParams
	if params != nil {
		base = *params
	}
	limit := base.Limit.Or(defaultBanListLimit)
	backward := !base.Before.IsZero()
	return pager[Ban]{
		limit:    limit,
		backward: backward,
		key:      func(b Ban) Snowflake { return b.User.ID },
		fetch: func(ctx context.Context, cursor Snowflake, first bool) ([]Ban, error) {
			p := base
			p.Limit = Some(limit)
			if !first {
				if backward {
					p.Before = Some(cursor)
				} else {
					p.After = Some(cursor)
				}
			}
			return s.List(ctx, guildID, &p, opts...)
		},
	}.all(ctx)
}

// Get returns the ban of the user userID. Needs BAN_MEMBERS. A user who is
// not banned gives an [*APIError] matching [ErrNotFound] (code
// [CodeUnknownBan]).
//
// Spec: "Get Guild Ban" — GET /guilds/{guild.id}/bans/{user.id}
func (s *BanService) Get(ctx context.Context, guildID, userID Snowflake, opts ...RequestOption) (*Ban, error) {
	var b Ban
	if _, err := s.c.do(ctx, &request{
		method: "GET", route: "/guilds/{guild.id}/bans/{user.id}", path: []any{guildID, userID}, opts: opts,
	}, &b); err != nil {
		return nil, err
	}
	return &b, nil
}

// BanCreateParams is the body of [BanService.Create].
type BanCreateParams struct {
	// DeleteMessageSeconds deletes the user's messages of the last
	// 0-604800 seconds (7 days); default 0. Null is not allowed.
	DeleteMessageSeconds Opt[int] `json:"delete_message_seconds,omitzero"`
	// DeleteMessageDays deletes the user's messages of the last 0-7 days;
	// default 0. Null is not allowed. Giving it with DeleteMessageSeconds is
	// a [ValidationError].
	//
	// Deprecated: the interface deprecates it; use DeleteMessageSeconds.
	DeleteMessageDays Opt[int] `json:"delete_message_days,omitzero"`
}

func (p *BanCreateParams) validate(validation) error {
	if p == nil {
		return nil
	}
	var v ValidationError
	validateLimit(&v, "delete_message_seconds", p.DeleteMessageSeconds, 0, MaxDeleteMessageSeconds)
	validateLimit(&v, "delete_message_days", p.DeleteMessageDays, 0, maxDeleteMessageDays)
	if p.DeleteMessageSeconds.IsSet() && p.DeleteMessageDays.IsSet() {
		v.Add("delete_message_days", wire.CodeConflict, "give delete_message_seconds or the deprecated delete_message_days, not both")
	}
	return v.Err()
}

// Create bans the user userID, a member or not, removing their membership.
// Needs BAN_MEMBERS. The ban's reason is the audit-log reason: Supports
// WithReason. Emits GUILD_BAN_ADD. params may be nil.
//
// Spec: "Create Guild Ban" — PUT /guilds/{guild.id}/bans/{user.id}
func (s *BanService) Create(ctx context.Context, guildID, userID Snowflake, params *BanCreateParams, opts ...RequestOption) error {
	if err := params.validate(s.c.validation()); err != nil {
		return err
	}
	var body any
	if params != nil {
		body = params
	}
	_, err := s.c.do(ctx, &request{
		method: "PUT", route: "/guilds/{guild.id}/bans/{user.id}", path: []any{guildID, userID},
		body: body, auditLog: true, opts: opts,
	}, nil)
	return err
}

// Remove lifts the ban of the user userID. Needs BAN_MEMBERS. A user who is
// not banned gives an [*APIError] matching [ErrNotFound]. Emits
// GUILD_BAN_REMOVE. Supports WithReason.
//
// Spec: "Remove Guild Ban" — DELETE /guilds/{guild.id}/bans/{user.id}
func (s *BanService) Remove(ctx context.Context, guildID, userID Snowflake, opts ...RequestOption) error {
	_, err := s.c.do(ctx, &request{
		method: "DELETE", route: "/guilds/{guild.id}/bans/{user.id}", path: []any{guildID, userID},
		auditLog: true, opts: opts,
	}, nil)
	return err
}

// BanBulkParams is the body of [BanService.Bulk].
type BanBulkParams struct {
	// UserIDs are the users to ban: 1-200, no repeats. Required.
	UserIDs []Snowflake `json:"user_ids"`
	// DeleteMessageSeconds deletes the users' messages of the last 0-604800
	// seconds; default 0. Null is not allowed.
	DeleteMessageSeconds Opt[int] `json:"delete_message_seconds,omitzero"`
}

// BulkBanResult is the answer of [BanService.Bulk].
type BulkBanResult struct {
	BannedUsers []Snowflake `json:"banned_users"`
	// FailedUsers could not be banned, already banned ones included.
	FailedUsers []Snowflake `json:"failed_users"`
}

func (p *BanBulkParams) validate(validation) error {
	var v ValidationError
	if p == nil || len(p.UserIDs) == 0 {
		v.Add("user_ids", wire.CodeRequired, "at least one user id")
	}
	if p != nil {
		if len(p.UserIDs) > MaxBulkBanUsers {
			v.Add("user_ids", wire.CodeLength, "at most %d user ids, got %d", MaxBulkBanUsers, len(p.UserIDs))
		}
		validateIDs(&v, "user_ids", "", "user", p.UserIDs)
		validateLimit(&v, "delete_message_seconds", p.DeleteMessageSeconds, 0, MaxDeleteMessageSeconds)
	}
	return v.Err()
}

// Bulk bans up to 200 users at once and says which were banned and which
// failed (already banned users fail). Needs BAN_MEMBERS and MANAGE_GUILD.
// Emits GUILD_BAN_ADD per user banned. Supports WithReason.
//
// When none could be banned the service answers error code 500000: the
// [*APIError] has Code [CodeFailedToBanUsers] and matches [ErrBulkBanFailed]
// with errors.Is.
//
// Spec: "Bulk Guild Ban" — POST /guilds/{guild.id}/bulk-ban
func (s *BanService) Bulk(ctx context.Context, guildID Snowflake, params *BanBulkParams, opts ...RequestOption) (*BulkBanResult, error) {
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	var out BulkBanResult
	if _, err := s.c.do(ctx, &request{
		method: "POST", route: "/guilds/{guild.id}/bulk-ban", path: []any{guildID},
		body: params, auditLog: true, opts: opts,
	}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
