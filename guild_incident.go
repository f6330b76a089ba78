package guildkit

import (
	"context"
	"time"

	"github.com/seed012df1e9/guildkit/wire"
)

// IncidentsData holds the guild's temporary incident actions.
type IncidentsData struct {
	InvitesDisabledUntil *time.Time `json:"invites_disabled_until"` // when invites resume; nil when null
	DMsDisabledUntil     *time.Time `json:"dms_disabled_until"`     // when direct messages resume; nil when null
	DMSpamDetectedAt     *time.Time `json:"dm_spam_detected_at"`    // nil when null
	RaidDetectedAt       *time.Time `json:"raid_detected_at"`       // nil when null
}

// GuildIncidentActionsModifyParams is the body of
// [GuildService.ModifyIncidentActions]. A time is at most 24 hours ahead;
// Null disables the action; an omitted field is left as it is.
type GuildIncidentActionsModifyParams struct {
	InvitesDisabledUntil Opt[time.Time] `json:"invites_disabled_until,omitzero"`
	DMsDisabledUntil     Opt[time.Time] `json:"dms_disabled_until,omitzero"`
}

// MaxIncidentActionDuration is how far ahead an incident action may end.
const MaxIncidentActionDuration = 24 * time.Hour

func (p *GuildIncidentActionsModifyParams) validate(vc validation) error {
	if p == nil {
		return nil
	}
	var v ValidationError
	limit := vc.now.Add(MaxIncidentActionDuration)
	for _, f := range []struct {
		name string
		t    Opt[time.Time]
	}{{"invites_disabled_until", p.InvitesDisabledUntil}, {"dms_disabled_until", p.DMsDisabledUntil}} {
		if t, ok := f.t.Get(); ok && t.After(limit) {
			v.Add(f.name, wire.CodeRange, "at most 24 hours ahead, got %s", t.Format(time.RFC3339))
		}
	}
	return v.Err()
}

// ModifyIncidentActions pauses invites or direct messages until a time at
// most 24 hours ahead (checked before sending against the local clock), or
// lifts the pause with Null, and returns the guild's incidents data.
// Requires MANAGE_GUILD.
//
// Spec: "Modify Guild Incident Actions" — PUT /guilds/{guild.id}/incident-actions
func (s *GuildService) ModifyIncidentActions(ctx context.Context, guildID Snowflake, params *GuildIncidentActionsModifyParams, opts ...RequestOption) (*IncidentsData, error) {
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	if params == nil {
		params = &GuildIncidentActionsModifyParams{}
	}
	var out IncidentsData
	if _, err := s.c.do(ctx, &request{method: "PUT", route: "/guilds/{guild.id}/incident-actions", path: []any{guildID},
		body: params, opts: opts}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
