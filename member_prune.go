package guildkit

import (
	"context"
)

// MemberPruneCountParams are the query parameters of
// [MemberService.PruneCount].
type MemberPruneCountParams struct {
	// Days is how many days without activity make a member inactive, 1-30;
	// default 7. Null is not allowed.
	Days Opt[int] `url:"days,omitempty"`
	// IncludeRoles are roles whose holders may be counted too (sent
	// comma-separated). By default a member with any role is not counted;
	// with IncludeRoles, an inactive member whose roles are all among them
	// is counted, and one with any other role is not.
	IncludeRoles []Snowflake `url:"include_roles,omitempty,comma"`
}

func (p *MemberPruneCountParams) validate(validation) error {
	if p == nil {
		return nil
	}
	var v ValidationError
	validateLimit(&v, "days", p.Days, 1, 30)
	validateRoleIDs(&v, "include_roles", Some(p.IncludeRoles))
	return v.Err()
}

// PruneCount returns how many members [MemberService.Prune] would remove with
// the same days and roles. Needs MANAGE_GUILD and KICK_MEMBERS. params may be
// nil.
//
// Spec: "Get Guild Prune Count" — GET /guilds/{guild.id}/prune
func (s *MemberService) PruneCount(ctx context.Context, guildID Snowflake, params *MemberPruneCountParams, opts ...RequestOption) (int, error) {
	if err := params.validate(s.c.validation()); err != nil {
		return 0, err
	}
	var out struct {
		Pruned int `json:"pruned"`
	}
	if _, err := s.c.do(ctx, &request{
		method: "GET", route: "/guilds/{guild.id}/prune", path: []any{guildID},
		query: params, opts: opts,
	}, &out); err != nil {
		return 0, err
	}
	return out.Pruned, nil
}

// MemberPruneParams is the body of [MemberService.Prune].
type MemberPruneParams struct {
	// Days is how many days without activity make a member inactive, 1-30;
	// default 7. Null is not allowed.
	Days Opt[int] `json:"days,omitzero"`
	// ComputePruneCount, true by default, asks for the number pruned; false
	// makes Prune return nil, which the interface advises for large guilds.
	// Null is not allowed.
	ComputePruneCount Opt[bool] `json:"compute_prune_count,omitzero"`
	// IncludeRoles are roles whose holders may be pruned too; see
	// [MemberPruneCountParams.IncludeRoles]. Null is not allowed.
	IncludeRoles Opt[[]Snowflake] `json:"include_roles,omitzero"`
	// Reason is the deprecated body form of the audit-log reason; use
	// WithReason instead.
	Reason Opt[string] `json:"reason,omitzero"`
}

func (p *MemberPruneParams) validate(validation) error {
	if p == nil {
		return nil
	}
	var v ValidationError
	validateLimit(&v, "days", p.Days, 1, 30)
	notNull(&v, "compute_prune_count", p.ComputePruneCount)
	notNull(&v, "include_roles", p.IncludeRoles)
	validateRoleIDs(&v, "include_roles", p.IncludeRoles)
	return v.Err()
}

// Prune removes the guild's inactive members (see
// [MemberPruneCountParams.IncludeRoles] for who counts) and returns how many
// it removed, or nil when params.ComputePruneCount is false. Needs
// MANAGE_GUILD and KICK_MEMBERS. Emits one GUILD_MEMBER_REMOVE per member
// removed. Supports WithReason. params may be nil.
//
// Spec: "Begin Guild Prune" — POST /guilds/{guild.id}/prune
func (s *MemberService) Prune(ctx context.Context, guildID Snowflake, params *MemberPruneParams, opts ...RequestOption) (*int, error) {
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	if params == nil {
		params = &MemberPruneParams{}
	}
	var out struct {
		Pruned *int `json:"pruned"`
	}
	if _, err := s.c.do(ctx, &request{
		method: "POST", route: "/guilds/{guild.id}/prune", path: []any{guildID},
		body: params, auditLog: true, opts: opts,
	}, &out); err != nil {
		return nil, err
	}
	return out.Pruned, nil
}
