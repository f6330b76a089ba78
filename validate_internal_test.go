package guildkit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestValidateShape keeps one validation shape: every method named validate
// in the package takes one validation and returns error.
func TestValidateShape(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	var n int
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Name.Name != "validate" {
				continue
			}
			n++
			at := fset.Position(fn.Pos()).String()
			assert.NotNil(t, fn.Recv, "%s: validate is a method of its input", at)
			params, results := fn.Type.Params.List, fn.Type.Results
			if assert.Len(t, params, 1, "%s: one parameter", at) {
				id, ok := params[0].Type.(*ast.Ident)
				assert.True(t, ok && id.Name == "validation", "%s: the parameter is a validation", at)
			}
			if assert.NotNil(t, results, "%s: returns error", at) && assert.Len(t, results.List, 1, "%s: returns error", at) {
				id, ok := results.List[0].Type.(*ast.Ident)
				assert.True(t, ok && id.Name == "error", "%s: returns error", at)
			}
		}
	}
	assert.Greater(t, n, 25, "the validate methods were found")
}

// TestValidateNil checks that every pointer input's validate accepts nil,
// and says what nil means: nothing to check, or a missing requirement.
func TestValidateNil(t *testing.T) {
	t.Parallel()
	vc := validation{now: time.Now(), reservedWebhookNames: defaultReservedWebhookNames}
	for _, tc := range []struct {
		name string
		err  error
		want []string // problem paths; nil: valid
	}{
		{"BanListParams", (*BanListParams)(nil).validate(vc), nil},
		{"BanCreateParams", (*BanCreateParams)(nil).validate(vc), nil},
		{"BanBulkParams", (*BanBulkParams)(nil).validate(vc), []string{"user_ids"}},
		{"ChannelCreateParams", (*ChannelCreateParams)(nil).validate(vc), []string{"name"}},
		{"channelPositions", channelPositions(nil).validate(vc), []string{""}},
		{"GuildModifyParams", (*GuildModifyParams)(nil).validate(vc), nil},
		{"GuildIncidentActionsModifyParams", (*GuildIncidentActionsModifyParams)(nil).validate(vc), nil},
		{"GuildOnboardingModifyParams", (*GuildOnboardingModifyParams)(nil).validate(vc), nil},
		{"GuildWelcomeScreenModifyParams", (*GuildWelcomeScreenModifyParams)(nil).validate(vc), nil},
		{"GuildWidgetModifyParams", (*GuildWidgetModifyParams)(nil).validate(vc), nil},
		{"guildWidgetImageParams", (*guildWidgetImageParams)(nil).validate(vc), nil},
		{"InviteGetParams", (*InviteGetParams)(nil).validate(vc), nil},
		{"targetUserIDs", targetUserIDs(nil).validate(vc), nil},
		{"MemberListParams", (*MemberListParams)(nil).validate(vc), nil},
		{"MemberSearchParams", (*MemberSearchParams)(nil).validate(vc), []string{"query"}},
		{"MemberAddParams", (*MemberAddParams)(nil).validate(vc), []string{"access_token"}},
		{"MemberModifyParams", (*MemberModifyParams)(nil).validate(vc), nil},
		{"MemberModifyCurrentParams", (*MemberModifyCurrentParams)(nil).validate(vc), nil},
		{"MemberPruneCountParams", (*MemberPruneCountParams)(nil).validate(vc), nil},
		{"MemberPruneParams", (*MemberPruneParams)(nil).validate(vc), nil},
		{"RoleCreateParams", (*RoleCreateParams)(nil).validate(vc), nil},
		{"rolePositions", rolePositions(nil).validate(vc), []string{""}},
		{"RoleModifyParams", (*RoleModifyParams)(nil).validate(vc), nil},
		{"WebhookCreateParams", (*WebhookCreateParams)(nil).validate(vc), []string{"name"}},
		{"WebhookModifyParams", (*WebhookModifyParams)(nil).validate(vc), nil},
		{"WebhookModifyWithTokenParams", (*WebhookModifyWithTokenParams)(nil).validate(vc), nil},
		{"WebhookExecuteParams", (*WebhookExecuteParams)(nil).validate(vc), []string{""}},
		{"WebhookMessageEditParams", (*WebhookMessageEditParams)(nil).validate(vc), nil},
		{"ChatCompatPayload", (*ChatCompatPayload)(nil).validate(vc), []string{""}},
		{"repoCompatPayload", (&repoCompatPayload{}).validate(vc), []string{"event", "payload"}},
	} {
		if tc.want == nil {
			assert.NoError(t, tc.err, tc.name)
			continue
		}
		var v *ValidationError
		if assert.ErrorAs(t, tc.err, &v, tc.name) {
			var got []string
			for _, p := range v.Problems {
				got = append(got, p.Path)
			}
			assert.Equal(t, tc.want, got, tc.name)
		}
	}
}

// TestValidateClock checks that the time limits read the clock passed in,
// not the wall clock.
func TestValidateClock(t *testing.T) {
	t.Parallel()
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	vc := validation{now: now}
	in27 := &MemberModifyParams{CommunicationDisabledUntil: Some(now.Add(27 * 24 * time.Hour))}
	in29 := &MemberModifyParams{CommunicationDisabledUntil: Some(now.Add(29 * 24 * time.Hour))}
	assert.NoError(t, in27.validate(vc))
	assert.Error(t, in29.validate(vc))
	ok := &GuildIncidentActionsModifyParams{DMsDisabledUntil: Some(now.Add(23 * time.Hour))}
	late := &GuildIncidentActionsModifyParams{DMsDisabledUntil: Some(now.Add(25 * time.Hour))}
	assert.NoError(t, ok.validate(vc))
	assert.Error(t, late.validate(vc))
}

// TestValidateIDs covers the shared id-list rule: zero and repeated ids,
// with their paths.
func TestValidateIDs(t *testing.T) {
	t.Parallel()
	var v ValidationError
	validateIDs(&v, "user_ids", "", "user", []Snowflake{1, 0, 2, 1})
	validateIDs(&v, "", "id", "role", []Snowflake{3, 3})
	validateRoleIDs(&v, "roles", Some([]Snowflake{0}))
	var got []string
	for _, p := range v.Problems {
		got = append(got, p.Path+" "+p.Code)
	}
	assert.Equal(t, []string{"user_ids[1] required", "user_ids[3] duplicate", "[1].id duplicate", "roles[0] required"}, got)
}

func TestRoundDuration(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		59*time.Second + 999808572:                    "1m",
		59*time.Second + 400*time.Millisecond:         "59s",
		4*time.Minute + 10*time.Second:                "4m10s",
		5 * time.Minute:                               "5m",
		3*time.Hour + 25*time.Minute + 20*time.Second: "3h25m",
		696 * time.Hour:                               "29 days",
		49*time.Hour + 10*time.Minute:                 "2 days 1h",
		24 * time.Hour:                                "1 day",
		-90 * time.Second:                             "1m30s",
	} {
		assert.Equal(t, want, roundDuration(d), d.String())
	}
}
