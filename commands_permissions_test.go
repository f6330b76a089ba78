package guildkit_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

var (
	_ = registerLedger("Get Guild Application Command Permissions", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, err := c.Commands.ListPermissions(ctx, srv.Application().ID, 1)
		return err
	})
	_ = registerLedger("Get Application Command Permissions", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, err := c.Commands.GetPermissions(ctx, srv.Application().ID, 1, 2)
		return err
	})
	_ = registerLedger("Edit Application Command Permissions", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, err := c.Commands.EditPermissions(ctx, srv.Application().ID, 1, 2, &guildkit.CommandPermissionsParams{})
		return err
	})
)

// apiError returns the *APIError in err.
func apiError(t *testing.T, err error) *guildkit.APIError {
	t.Helper()
	var e *guildkit.APIError
	require.ErrorAs(t, err, &e)
	return e
}

// TestCommandPermissions: a command's overwrites, through the in-memory
// server: none at first (10066), replaced with a user's access token
// (a bot token is refused), read back one by one and for the guild, and
// dropped with the command.
func TestCommandPermissions(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "g"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	mods := srv.AddRole(g.ID, guildkit.Role{Name: "mods"})
	admin := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "admin"}, Roles: []guildkit.Snowflake{srv.AddRole(g.ID, guildkit.Role{
		Name: "admins", Permissions: guildkit.PermissionManageGuild | guildkit.PermissionManageRoles}).ID}})
	plain := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "plain"}})
	bot := srv.Client()
	app := srv.Application().ID
	ctx := t.Context()
	cmd, _, err := bot.Commands.CreateGuild(ctx, app, g.ID, &guildkit.CommandCreateParams{Name: "ban", Description: "Ban someone"})
	require.NoError(t, err)

	_, err = bot.Commands.GetPermissions(ctx, app, g.ID, cmd.ID)
	assert.Equal(t, guildkit.CodeUnknownCommandPermissions, apiError(t, err).Code)
	assert.ErrorIs(t, err, guildkit.ErrNotFound)
	list, err := bot.Commands.ListPermissions(ctx, app, g.ID)
	require.NoError(t, err)
	assert.Empty(t, list)

	perms := &guildkit.CommandPermissionsParams{Permissions: []guildkit.CommandPermission{
		{ID: g.ID, Type: guildkit.CommandPermissionRole, Permission: false},
		{ID: mods.ID, Type: guildkit.CommandPermissionRole, Permission: true},
		{ID: guildkit.AllChannels(g.ID), Type: guildkit.CommandPermissionChannel, Permission: false},
		{ID: ch.ID, Type: guildkit.CommandPermissionChannel, Permission: true},
	}}
	_, err = bot.Commands.EditPermissions(ctx, app, g.ID, cmd.ID, perms)
	assert.Equal(t, http.StatusForbidden, apiError(t, err).Status, "a bot token is refused")
	asPlain, err := guildkit.New(guildkit.BearerToken(srv.NewAccessToken(plain.User.ID)), guildkit.WithBaseURL(srv.BaseURL()))
	require.NoError(t, err)
	_, err = asPlain.Commands.EditPermissions(ctx, app, g.ID, cmd.ID, perms)
	assert.Equal(t, guildkit.CodeMissingPermissions, apiError(t, err).Code)

	asAdmin, err := guildkit.New(guildkit.BearerToken(srv.NewAccessToken(admin.User.ID)), guildkit.WithBaseURL(srv.BaseURL()))
	require.NoError(t, err)
	got, err := asAdmin.Commands.EditPermissions(ctx, app, g.ID, cmd.ID, perms)
	require.NoError(t, err)
	assert.Equal(t, guildkit.GuildCommandPermissions{ID: cmd.ID, ApplicationID: app, GuildID: g.ID, Permissions: perms.Permissions}, *got)
	one, err := bot.Commands.GetPermissions(ctx, app, g.ID, cmd.ID)
	require.NoError(t, err)
	assert.Equal(t, got, one)
	appWide, err := asAdmin.Commands.EditPermissions(ctx, app, g.ID, app, &guildkit.CommandPermissionsParams{Permissions: []guildkit.CommandPermission{
		{ID: plain.User.ID, Type: guildkit.CommandPermissionUser, Permission: true}}})
	require.NoError(t, err)
	assert.Equal(t, app, appWide.ID)
	list, err = bot.Commands.ListPermissions(ctx, app, g.ID)
	require.NoError(t, err)
	require.Len(t, list, 2)
	assert.ElementsMatch(t, []guildkit.Snowflake{cmd.ID, app}, []guildkit.Snowflake{list[0].ID, list[1].ID})

	// An unknown target is 50035 at its path; an unknown command 10063.
	_, err = asAdmin.Commands.EditPermissions(ctx, app, g.ID, cmd.ID, &guildkit.CommandPermissionsParams{Permissions: []guildkit.CommandPermission{
		{ID: 12345, Type: guildkit.CommandPermissionRole, Permission: true}}})
	e := apiError(t, err)
	require.Equal(t, guildkit.CodeInvalidFormBody, e.Code)
	require.NotEmpty(t, e.Errors)
	assert.Equal(t, "permissions[0].id", e.Errors[0].Path)
	_, err = bot.Commands.GetPermissions(ctx, app, g.ID, 999)
	assert.Equal(t, guildkit.CodeUnknownApplicationCommand, apiError(t, err).Code)

	// Deleting the command drops its overwrites.
	require.NoError(t, bot.Commands.DeleteGuild(ctx, app, g.ID, cmd.ID))
	list, err = bot.Commands.ListPermissions(ctx, app, g.ID)
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, app, list[0].ID)
}

// TestCommandPermissionsValidation: overwrites are checked before sending.
func TestCommandPermissionsValidation(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("nothing may be sent: %s %s", r.Method, r.URL.Path)
	}))
	defer ts.Close()
	c, err := guildkit.New(guildkit.BearerToken("t"), guildkit.WithBaseURL(ts.URL))
	require.NoError(t, err)
	many := make([]guildkit.CommandPermission, 101)
	for i := range many {
		many[i] = guildkit.CommandPermission{ID: guildkit.Snowflake(i + 1), Type: guildkit.CommandPermissionUser}
	}
	for _, tc := range []struct {
		params *guildkit.CommandPermissionsParams
		path   string
	}{
		{nil, ""},
		{&guildkit.CommandPermissionsParams{Permissions: many}, "permissions"},
		{&guildkit.CommandPermissionsParams{Permissions: []guildkit.CommandPermission{{Type: guildkit.CommandPermissionRole}}}, "permissions[0].id"},
		{&guildkit.CommandPermissionsParams{Permissions: []guildkit.CommandPermission{{ID: 1, Type: 4}}}, "permissions[0].type"},
		{&guildkit.CommandPermissionsParams{Permissions: []guildkit.CommandPermission{{ID: 1, Type: 1}, {ID: 1, Type: 1, Permission: true}}}, "permissions[1].id"},
	} {
		_, err := c.Commands.EditPermissions(t.Context(), 1, 2, 3, tc.params)
		var ve *guildkit.ValidationError
		require.ErrorAs(t, err, &ve)
		assert.Equal(t, tc.path, ve.Problems[0].Path, "%v", ve)
	}
}
