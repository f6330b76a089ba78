package guildkit_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func TestRoleListGetCounts(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 0, guildkittest.DefaultEveryonePermissions)
	ctx := t.Context()
	mods := f.srv.AddRole(f.guild.ID, guildkit.Role{Name: "mods", Position: 2})
	empty := f.srv.AddRole(f.guild.ID, guildkit.Role{Name: "empty", Position: 3})
	f.addMember(t, "a", mods.ID)
	f.addMember(t, "b", mods.ID)

	roles, err := f.c.Roles.List(ctx, f.guild.ID)
	require.NoError(t, err)
	var names []string
	for _, r := range roles {
		names = append(names, r.Name)
	}
	assert.Equal(t, []string{"@everyone", "mods", "empty", "bot"}, names, "by position")

	r, err := f.c.Roles.Get(ctx, f.guild.ID, mods.ID)
	require.NoError(t, err)
	assert.Equal(t, "mods", r.Name)
	_, err = f.c.Roles.Get(ctx, f.guild.ID, 31337)
	require.ErrorIs(t, err, guildkit.ErrNotFound)
	assert.Equal(t, guildkit.CodeUnknownRole, apiCode(t, err))

	counts, err := f.c.Roles.MemberCounts(ctx, f.guild.ID)
	require.NoError(t, err)
	assert.Equal(t, map[guildkit.Snowflake]int{mods.ID: 2, empty.ID: 0, f.botRole.ID: 1}, counts, "no @everyone")
}

func TestRoleCreate(t *testing.T) {
	t.Parallel()
	// The bot may grant only what it holds: KICK_MEMBERS, given below.
	f := newFixture(t, guildkit.PermissionManageRoles|guildkit.PermissionKickMembers, guildkit.PermissionViewChannel|guildkit.PermissionSendMessages)
	ctx := t.Context()

	r, err := f.c.Roles.Create(ctx, f.guild.ID, nil, guildkit.WithReason("new team"))
	require.NoError(t, err)
	assert.Equal(t, "new role", r.Name, "the spec's defaults")
	assert.Equal(t, guildkit.PermissionViewChannel|guildkit.PermissionSendMessages, r.Permissions, "@everyone's permissions")
	assert.Zero(t, r.Color)
	assert.Equal(t, guildkit.RoleColors{}, r.Colors)
	assert.False(t, r.Hoist)
	assert.False(t, r.Mentionable)
	assert.True(t, r.Icon.IsNull(), "no icon")
	assert.True(t, r.UnicodeEmoji.IsNull())
	stored, ok := f.srv.Role(f.guild.ID, r.ID)
	require.True(t, ok)
	assert.Equal(t, *r, stored)
	ev := f.srv.EventsNamed(guildkit.EventGuildRoleCreate)
	require.Len(t, ev, 1)
	assert.Equal(t, r.ID, ev[0].Data.(guildkit.Role).ID)

	second, third := 0x00FF00, 0x0000FF
	r, err = f.c.Roles.Create(ctx, f.guild.ID, &guildkit.RoleCreateParams{
		Name:        guildkit.Some("Gradient"),
		Permissions: guildkit.Some(guildkit.PermissionKickMembers),
		Colors:      guildkit.Some(guildkit.RoleColors{PrimaryColor: 0xFF0000, SecondaryColor: &second, TertiaryColor: &third}),
		Hoist:       guildkit.Some(true),
		Mentionable: guildkit.Some(true),
	})
	require.NoError(t, err)
	assert.Equal(t, "Gradient", r.Name)
	assert.Equal(t, 0xFF0000, r.Color, "color follows the primary colour")
	assert.Equal(t, &second, r.Colors.SecondaryColor)
	assert.True(t, r.Hoist)

	_, err = f.c.Roles.Create(ctx, f.guild.ID, &guildkit.RoleCreateParams{UnicodeEmoji: guildkit.Some("🦫")})
	require.ErrorIs(t, err, guildkit.ErrBadRequest, "icons need ROLE_ICONS")

	_, err = f.c.Roles.Create(ctx, f.guild.ID, &guildkit.RoleCreateParams{
		Name:   guildkit.Some(strings.Repeat("n", 101)),
		Hoist:  guildkit.Null[bool](),
		Color:  guildkit.Some(0x1000000),
		Colors: guildkit.Some(guildkit.RoleColors{PrimaryColor: -1}),
		Icon:   guildkit.Some(guildkit.ImageData("not an image")),
	})
	assert.ElementsMatch(t, []string{"name", "hoist", "color", "colors.primary_color", "icon"}, problemPaths(t, err))

	g := newFixture(t, 0, guildkittest.DefaultEveryonePermissions)
	_, err = g.c.Roles.Create(ctx, g.guild.ID, nil)
	require.ErrorIs(t, err, guildkit.ErrForbidden, "needs MANAGE_ROLES")
}

func TestRoleIcons(t *testing.T) {
	t.Parallel()
	f := newFixture(t, guildkit.PermissionManageRoles, guildkittest.DefaultEveryonePermissions, guildkit.FeatureRoleIcons)
	ctx := t.Context()
	r, err := f.c.Roles.Create(ctx, f.guild.ID, &guildkit.RoleCreateParams{
		Icon: guildkit.Some(guildkit.ImageData("data:image/png;base64,iVBORw0KGgo=")), UnicodeEmoji: guildkit.Some("🦫"),
	})
	require.NoError(t, err)
	assert.True(t, r.Icon.IsSet())
	assert.Equal(t, guildkit.Some("🦫"), r.UnicodeEmoji)

	r, err = f.c.Roles.Modify(ctx, f.guild.ID, r.ID, &guildkit.RoleModifyParams{
		Icon: guildkit.Null[guildkit.ImageData](), UnicodeEmoji: guildkit.Null[string](),
	})
	require.NoError(t, err)
	assert.True(t, r.Icon.IsNull())
	assert.True(t, r.UnicodeEmoji.IsNull())
}

func TestRoleModifyAndDelete(t *testing.T) {
	t.Parallel()
	f := newFixture(t, guildkit.PermissionManageRoles, guildkittest.DefaultEveryonePermissions)
	ctx := t.Context()
	role := f.srv.AddRole(f.guild.ID, guildkit.Role{Name: "old", Hoist: true, Position: 2})
	m := f.addMember(t, "m", role.ID)

	r, err := f.c.Roles.Modify(ctx, f.guild.ID, role.ID, &guildkit.RoleModifyParams{
		Name: guildkit.Some("new"), Hoist: guildkit.Null[bool](), Color: guildkit.Some(0xABCDEF),
	}, guildkit.WithReason("rename"))
	require.NoError(t, err)
	assert.Equal(t, "new", r.Name)
	assert.False(t, r.Hoist, "null resets to the default")
	assert.Equal(t, 0xABCDEF, r.Colors.PrimaryColor)
	assert.Equal(t, 2, r.Position)
	ev := f.srv.EventsNamed(guildkit.EventGuildRoleUpdate)
	require.Len(t, ev, 1)
	assert.Equal(t, "new", ev[0].Data.(guildkit.Role).Name)

	_, err = f.c.Roles.Modify(ctx, f.guild.ID, 999, nil)
	require.ErrorIs(t, err, guildkit.ErrNotFound)

	require.NoError(t, f.c.Roles.Delete(ctx, f.guild.ID, role.ID, guildkit.WithReason("unused")))
	_, ok := f.srv.Role(f.guild.ID, role.ID)
	assert.False(t, ok)
	stored, _ := f.srv.Member(f.guild.ID, m.User.ID)
	assert.Empty(t, stored.Roles, "the role is taken from its members")
	del := f.srv.EventsNamed(guildkit.EventGuildRoleDelete)
	require.Len(t, del, 1)
	assert.Equal(t, role.ID, del[0].Data)

	err = f.c.Roles.Delete(ctx, f.guild.ID, role.ID)
	require.ErrorIs(t, err, guildkit.ErrNotFound)
	err = f.c.Roles.Delete(ctx, f.guild.ID, f.guild.ID)
	require.ErrorIs(t, err, guildkit.ErrBadRequest, "@everyone cannot be deleted")

	g := newFixture(t, 0, guildkittest.DefaultEveryonePermissions)
	_, err = g.c.Roles.Modify(ctx, g.guild.ID, g.botRole.ID, &guildkit.RoleModifyParams{Name: guildkit.Some("x")})
	require.ErrorIs(t, err, guildkit.ErrForbidden)
	require.ErrorIs(t, g.c.Roles.Delete(ctx, g.guild.ID, g.botRole.ID), guildkit.ErrForbidden)
}

func TestRoleModifyPositions(t *testing.T) {
	t.Parallel()
	f := newFixture(t, guildkit.PermissionManageRoles, guildkittest.DefaultEveryonePermissions)
	ctx := t.Context()
	a := f.srv.AddRole(f.guild.ID, guildkit.Role{Name: "a", Position: 2})
	b := f.srv.AddRole(f.guild.ID, guildkit.Role{Name: "b", Position: 3})

	roles, err := f.c.Roles.ModifyPositions(ctx, f.guild.ID, []guildkit.RolePositionParams{
		{ID: a.ID, Position: guildkit.Some(3)},
		{ID: b.ID, Position: guildkit.Some(2)},
		{ID: f.botRole.ID}, // no position: unchanged
	}, guildkit.WithReason("reorder"))
	require.NoError(t, err)
	var names []string
	for _, r := range roles {
		names = append(names, r.Name)
	}
	assert.Equal(t, []string{"@everyone", "b", "a", "bot"}, names, "all roles, by their new positions")
	assert.Len(t, f.srv.EventsNamed(guildkit.EventGuildRoleUpdate), 2, "one per role moved")

	_, err = f.c.Roles.ModifyPositions(ctx, f.guild.ID, []guildkit.RolePositionParams{{ID: 12345, Position: guildkit.Some(1)}})
	require.ErrorIs(t, err, guildkit.ErrBadRequest)

	_, err = f.c.Roles.ModifyPositions(ctx, f.guild.ID, []guildkit.RolePositionParams{
		{ID: a.ID}, {ID: a.ID}, {Position: guildkit.Some(-1)},
	})
	assert.ElementsMatch(t, []string{"[1].id", "[2].id", "[2].position"}, problemPaths(t, err))
	_, err = f.c.Roles.ModifyPositions(ctx, f.guild.ID, nil)
	require.Error(t, err)
}

func TestRoleWire(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("PATCH /guilds/1/roles", func(w http.ResponseWriter, r *http.Request) {
		testJSONBody(t, r, `[{"id":"5","position":2},{"id":"6"}]`)
		writeJSON(w, http.StatusOK, []any{})
	})
	mux.HandleFunc("PATCH /guilds/1/roles/5", func(w http.ResponseWriter, r *http.Request) {
		testJSONBody(t, r, `{"name":"x","icon":null,"colors":{"primary_color":1,"secondary_color":null,"tertiary_color":null}}`)
		writeJSON(w, http.StatusOK, map[string]any{"id": "5", "name": "x", "permissions": "0", "colors": map[string]any{"primary_color": 1}})
	})
	mux.HandleFunc("GET /guilds/1/roles/member-counts", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"5": 3, "6": 0}`))
	})
	ctx := t.Context()
	_, err := c.Roles.ModifyPositions(ctx, 1, []guildkit.RolePositionParams{{ID: 5, Position: guildkit.Some(2)}, {ID: 6}})
	require.NoError(t, err)
	r, err := c.Roles.Modify(ctx, 1, 5, &guildkit.RoleModifyParams{
		Name: guildkit.Some("x"), Icon: guildkit.Null[guildkit.ImageData](), Colors: guildkit.Some(guildkit.RoleColors{PrimaryColor: 1}),
	})
	require.NoError(t, err)
	assert.Equal(t, "x", r.Name)
	counts, err := c.Roles.MemberCounts(ctx, 1)
	require.NoError(t, err)
	assert.Equal(t, map[guildkit.Snowflake]int{5: 3, 6: 0}, counts)
}

func TestRoleRoundTrip(t *testing.T) {
	t.Parallel()
	const in = `{"id":"41771983423143936","name":"WE DEM BOYZZ!!!!!!","color":3447003,` +
		`"colors":{"primary_color":3447003,"secondary_color":null,"tertiary_color":null},"hoist":true,` +
		`"icon":"cf3ced8600b777c9486c2f0f3a9b5b3e","unicode_emoji":null,"position":1,"permissions":"66321471",` +
		`"managed":false,"mentionable":false,"tags":{"bot_id":"1234","premium_subscriber":null},"flags":1}`
	var r guildkit.Role
	require.NoError(t, json.Unmarshal([]byte(in), &r))
	assert.True(t, r.Flags.Has(guildkit.RoleFlagInPrompt))
	assert.True(t, r.Tags.PremiumSubscriber.IsNull(), "present as null")
	assert.True(t, r.Tags.GuildConnections.IsZero())
	out, err := json.Marshal(r)
	require.NoError(t, err)
	assert.JSONEq(t, in, string(out))
}

// Ledger calls for the role operations.
var (
	_ = registerLedger("Get Guild Roles", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		g := srv.AddGuild(guildkit.Guild{})
		_, err := c.Roles.List(ctx, g.ID)
		return err
	})
	_ = registerLedger("Get Guild Role", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		g := srv.AddGuild(guildkit.Guild{})
		_, err := c.Roles.Get(ctx, g.ID, g.ID)
		return err
	})
	_ = registerLedger("Get Guild Role Member Counts", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		g := srv.AddGuild(guildkit.Guild{})
		_, err := c.Roles.MemberCounts(ctx, g.ID)
		return err
	})
	_ = registerLedger("Create Guild Role", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		g := srv.AddGuild(guildkit.Guild{})
		_, err := c.Roles.Create(ctx, g.ID, nil)
		return err
	})
	_ = registerLedger("Modify Guild Role Positions", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		g := srv.AddGuild(guildkit.Guild{})
		r := srv.AddRole(g.ID, guildkit.Role{Name: "r", Position: 1})
		_, err := c.Roles.ModifyPositions(ctx, g.ID, []guildkit.RolePositionParams{{ID: r.ID, Position: guildkit.Some(2)}})
		return err
	})
	_ = registerLedger("Modify Guild Role", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		g := srv.AddGuild(guildkit.Guild{})
		r := srv.AddRole(g.ID, guildkit.Role{Name: "r"})
		_, err := c.Roles.Modify(ctx, g.ID, r.ID, &guildkit.RoleModifyParams{Name: guildkit.Some("s")})
		return err
	})
	_ = registerLedger("Delete Guild Role", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		g := srv.AddGuild(guildkit.Guild{})
		r := srv.AddRole(g.ID, guildkit.Role{Name: "r"})
		return c.Roles.Delete(ctx, g.ID, r.ID)
	})
)

// TestRoleCreateRefusesEmptyName: an explicit empty name would quietly
// become "new role"; it is refused, and an unset one still gets the default.
func TestRoleCreateRefusesEmptyName(t *testing.T) {
	t.Parallel()
	f := newFixture(t, guildkit.PermissionManageRoles, guildkit.PermissionViewChannel)
	for _, name := range []string{"", "   "} {
		_, err := f.c.Roles.Create(t.Context(), f.guild.ID, &guildkit.RoleCreateParams{Name: guildkit.Some(name)})
		assert.Equal(t, []string{"name"}, problemPaths(t, err), "%q", name)
	}
	r, err := f.c.Roles.Create(t.Context(), f.guild.ID, &guildkit.RoleCreateParams{})
	require.NoError(t, err)
	assert.Equal(t, "new role", r.Name)
}
