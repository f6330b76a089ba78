package guildkit_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func TestBanCreateGetRemove(t *testing.T) {
	t.Parallel()
	f := newFixture(t, guildkit.PermissionBanMembers, guildkittest.DefaultEveryonePermissions)
	ctx := t.Context()
	troll := f.addMember(t, "troll")
	stranger := f.srv.AddUser(guildkit.User{Username: "stranger"})

	_, err := f.c.Bans.Get(ctx, f.guild.ID, troll.User.ID)
	require.ErrorIs(t, err, guildkit.ErrNotFound, "not banned is 404")
	assert.Equal(t, guildkit.CodeUnknownBan, apiCode(t, err))

	require.NoError(t, f.c.Bans.Create(ctx, f.guild.ID, troll.User.ID, &guildkit.BanCreateParams{
		DeleteMessageSeconds: guildkit.Some(3600),
	}, guildkit.WithReason("spam, again")))
	ban, err := f.c.Bans.Get(ctx, f.guild.ID, troll.User.ID)
	require.NoError(t, err)
	assert.Equal(t, troll.User.ID, ban.User.ID)
	require.NotNil(t, ban.Reason)
	assert.Equal(t, "spam, again", *ban.Reason, "the audit-log reason is the ban's reason")
	_, member := f.srv.Member(f.guild.ID, troll.User.ID)
	assert.False(t, member, "a banned member leaves the guild")
	adds := f.srv.EventsNamed(guildkit.EventGuildBanAdd)
	require.Len(t, adds, 1)
	assert.Equal(t, troll.User.ID, adds[0].Data.(guildkit.User).ID)
	assert.Len(t, f.srv.EventsNamed(guildkit.EventGuildMemberRemove), 1)

	require.NoError(t, f.c.Bans.Create(ctx, f.guild.ID, stranger.ID, nil), "a non-member can be banned")
	ban, err = f.c.Bans.Get(ctx, f.guild.ID, stranger.ID)
	require.NoError(t, err)
	assert.Nil(t, ban.Reason)

	// A banned user cannot be added back.
	_, err = f.c.Members.Add(ctx, f.guild.ID, stranger.ID, &guildkit.MemberAddParams{AccessToken: f.srv.NewAccessToken(stranger.ID)})
	require.ErrorIs(t, err, guildkit.ErrForbidden)

	require.NoError(t, f.c.Bans.Remove(ctx, f.guild.ID, troll.User.ID, guildkit.WithReason("appeal")))
	_, banned := f.srv.Ban(f.guild.ID, troll.User.ID)
	assert.False(t, banned)
	removes := f.srv.EventsNamed(guildkit.EventGuildBanRemove)
	require.Len(t, removes, 1)
	assert.Equal(t, troll.User.ID, removes[0].Data.(guildkit.User).ID)

	err = f.c.Bans.Remove(ctx, f.guild.ID, troll.User.ID)
	require.ErrorIs(t, err, guildkit.ErrNotFound)
	err = f.c.Bans.Create(ctx, f.guild.ID, 987654, nil)
	assert.Equal(t, guildkit.CodeUnknownUser, apiCode(t, err))
}

func TestBanCreateValidation(t *testing.T) {
	t.Parallel()
	c, _ := setup(t)
	ctx := t.Context()
	err := c.Bans.Create(ctx, 1, 2, &guildkit.BanCreateParams{
		DeleteMessageSeconds: guildkit.Some(604801), DeleteMessageDays: guildkit.Some(8),
	})
	assert.ElementsMatch(t, []string{"delete_message_seconds", "delete_message_days", "delete_message_days"}, problemPaths(t, err))
	err = c.Bans.Create(ctx, 1, 2, &guildkit.BanCreateParams{DeleteMessageSeconds: guildkit.Null[int]()})
	assert.Equal(t, []string{"delete_message_seconds"}, problemPaths(t, err))
}

func TestBanCreateWire(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("PUT /guilds/1/bans/2", func(w http.ResponseWriter, r *http.Request) {
		testJSONBody(t, r, `{"delete_message_days":7}`)
		w.WriteHeader(http.StatusNoContent)
	})
	require.NoError(t, c.Bans.Create(t.Context(), 1, 2, &guildkit.BanCreateParams{DeleteMessageDays: guildkit.Some(7)}))
}

func TestBanPermissions(t *testing.T) {
	t.Parallel()
	f := newFixture(t, guildkit.PermissionKickMembers, guildkittest.DefaultEveryonePermissions)
	ctx := t.Context()
	u := f.addMember(t, "u")
	f.srv.AddBan(f.guild.ID, guildkit.Ban{User: guildkit.User{Username: "old"}})

	_, err := f.c.Bans.List(ctx, f.guild.ID, nil)
	require.ErrorIs(t, err, guildkit.ErrForbidden)
	_, err = f.c.Bans.Get(ctx, f.guild.ID, u.User.ID)
	require.ErrorIs(t, err, guildkit.ErrForbidden)
	require.ErrorIs(t, f.c.Bans.Create(ctx, f.guild.ID, u.User.ID, nil), guildkit.ErrForbidden)
	require.ErrorIs(t, f.c.Bans.Remove(ctx, f.guild.ID, u.User.ID), guildkit.ErrForbidden)

	g := newFixture(t, guildkit.PermissionBanMembers, guildkittest.DefaultEveryonePermissions)
	v := g.addMember(t, "v")
	_, err = g.c.Bans.Bulk(ctx, g.guild.ID, &guildkit.BanBulkParams{UserIDs: []guildkit.Snowflake{v.User.ID}})
	require.ErrorIs(t, err, guildkit.ErrForbidden, "bulk bans need MANAGE_GUILD too")
}

func TestBanList(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{})
	var ids []guildkit.Snowflake
	for i := range 10 {
		b := srv.AddBan(g.ID, guildkit.Ban{User: guildkit.User{Username: fmt.Sprintf("b%d", i)}})
		ids = append(ids, b.User.ID)
	}
	c := srv.Client()
	ctx := t.Context()
	userIDs := func(bans []guildkit.Ban) []guildkit.Snowflake {
		var out []guildkit.Snowflake
		for _, b := range bans {
			out = append(out, b.User.ID)
		}
		return out
	}

	bans, err := c.Bans.List(ctx, g.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, ids, userIDs(bans), "default limit 1000, ascending")

	bans, err = c.Bans.List(ctx, g.ID, &guildkit.BanListParams{After: guildkit.Some(ids[2]), Limit: guildkit.Some(3)})
	require.NoError(t, err)
	assert.Equal(t, ids[3:6], userIDs(bans))

	bans, err = c.Bans.List(ctx, g.ID, &guildkit.BanListParams{Before: guildkit.Some(ids[7]), Limit: guildkit.Some(3)})
	require.NoError(t, err)
	assert.Equal(t, ids[4:7], userIDs(bans), "the closest three below, ascending")
	req, _ := srv.LastRequest()
	assert.Equal(t, url.Values{"before": {ids[7].String()}, "limit": {"3"}}, url.Values(req.Query))

	_, err = c.Bans.List(ctx, g.ID, &guildkit.BanListParams{Before: guildkit.Some(ids[7]), After: guildkit.Some(ids[1])})
	var ve *guildkit.ValidationError
	require.ErrorAs(t, err, &ve, "both cursors are refused: the service would ignore after")
	require.Len(t, ve.Problems, 1)
	assert.Equal(t, "conflict", ve.Problems[0].Code)

	_, err = c.Bans.List(ctx, g.ID, &guildkit.BanListParams{Limit: guildkit.Some(1001)})
	assert.Equal(t, []string{"limit"}, problemPaths(t, err))
}

func TestBanListBothCursorsOnTheServer(t *testing.T) {
	t.Parallel()
	// The client refuses both cursors; the server still applies only before,
	// as the spec says, for programs that send both.
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{})
	var ids []guildkit.Snowflake
	for range 5 {
		ids = append(ids, srv.AddBan(g.ID, guildkit.Ban{User: guildkit.User{}}).User.ID)
	}
	var bans []guildkit.Ban
	route := fmt.Sprintf("/guilds/{guild.id}/bans?before=%s&after=%s", ids[3], ids[0])
	_, err := guildkit.ExportDo(srv.Client(), t.Context(), "GET", route, nil, &bans, g.ID)
	require.NoError(t, err)
	require.Len(t, bans, 3)
	assert.Equal(t, ids[0], bans[0].User.ID, "after was ignored")
}

func TestBanAll(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{})
	var ids []guildkit.Snowflake
	for i := range 2500 {
		ids = append(ids, srv.AddBan(g.ID, guildkit.Ban{User: guildkit.User{Username: fmt.Sprintf("b%04d", i)}}).User.ID)
	}
	c := srv.Client()
	ctx := t.Context()
	countRequests := func() int { return len(srv.Requests()) }

	seq := c.Bans.All(ctx, g.ID, nil)
	assert.Zero(t, countRequests(), "no request before ranging")
	var got []guildkit.Snowflake
	for b, err := range seq {
		require.NoError(t, err)
		got = append(got, b.User.ID)
	}
	assert.Equal(t, ids, got, "every ban exactly once, ascending")
	assert.Equal(t, 3, countRequests(), "pages of 1000, 1000 and 500")

	before := countRequests()
	n := 0
	for _, err := range c.Bans.All(ctx, g.ID, nil) {
		require.NoError(t, err)
		if n++; n == 10 {
			break
		}
	}
	assert.Equal(t, 1, countRequests()-before, "breaking in the first page fetches no second")

	// Backward from the end with before: descending order, each once.
	got = got[:0]
	before = countRequests()
	for b, err := range c.Bans.All(ctx, g.ID, &guildkit.BanListParams{Before: guildkit.Some(ids[2499] + 1), Limit: guildkit.Some(1000)}) {
		require.NoError(t, err)
		got = append(got, b.User.ID)
	}
	require.Len(t, got, 2500)
	for i := range got {
		require.Equal(t, ids[2499-i], got[i])
	}
	assert.Equal(t, 3, countRequests()-before)

	// A failure is yielded once, then the iterator stops.
	n = 0
	for b, err := range c.Bans.All(ctx, 5555, nil) {
		n++
		assert.Zero(t, b)
		require.ErrorIs(t, err, guildkit.ErrNotFound)
	}
	assert.Equal(t, 1, n)
}

func TestBanBulk(t *testing.T) {
	t.Parallel()
	f := newFixture(t, guildkit.PermissionBanMembers|guildkit.PermissionManageGuild, guildkittest.DefaultEveryonePermissions)
	ctx := t.Context()
	a := f.addMember(t, "a")
	b := f.srv.AddUser(guildkit.User{Username: "b"})
	old := f.srv.AddBan(f.guild.ID, guildkit.Ban{User: guildkit.User{Username: "old"}})

	res, err := f.c.Bans.Bulk(ctx, f.guild.ID, &guildkit.BanBulkParams{
		UserIDs:              []guildkit.Snowflake{a.User.ID, b.ID, old.User.ID, 1234},
		DeleteMessageSeconds: guildkit.Some(60),
	}, guildkit.WithReason("raid"))
	require.NoError(t, err)
	assert.Equal(t, []guildkit.Snowflake{a.User.ID, b.ID}, res.BannedUsers)
	assert.Equal(t, []guildkit.Snowflake{old.User.ID, 1234}, res.FailedUsers, "already banned and unknown users fail")
	assert.Len(t, f.srv.EventsNamed(guildkit.EventGuildBanAdd), 2)
	ban, ok := f.srv.Ban(f.guild.ID, a.User.ID)
	require.True(t, ok)
	assert.Equal(t, "raid", *ban.Reason)

	_, err = f.c.Bans.Bulk(ctx, f.guild.ID, &guildkit.BanBulkParams{UserIDs: []guildkit.Snowflake{a.User.ID, old.User.ID}})
	require.Error(t, err, "nobody could be banned")
	assert.ErrorIs(t, err, guildkit.ErrBulkBanFailed)
	var apiErr *guildkit.APIError
	require.True(t, errors.As(err, &apiErr))
	assert.Equal(t, guildkit.CodeFailedToBanUsers, apiErr.Code)
	assert.Equal(t, guildkit.ErrorCode(500000), apiErr.Code)
	assert.NotErrorIs(t, err, guildkit.ErrNotFound)
	assert.NotErrorIs(t, &guildkit.APIError{Status: 400, Code: guildkit.CodeInvalidFormBody}, guildkit.ErrBulkBanFailed)
}

func TestBanBulkValidation(t *testing.T) {
	t.Parallel()
	c, _ := setup(t)
	ctx := t.Context()
	_, err := c.Bans.Bulk(ctx, 1, nil)
	assert.Equal(t, []string{"user_ids"}, problemPaths(t, err))

	ids := make([]guildkit.Snowflake, 201)
	for i := range ids {
		ids[i] = guildkit.Snowflake(i + 1)
	}
	ids[5], ids[7] = 0, 1
	_, err = c.Bans.Bulk(ctx, 1, &guildkit.BanBulkParams{UserIDs: ids, DeleteMessageSeconds: guildkit.Some(-1)})
	assert.ElementsMatch(t, []string{"user_ids", "user_ids[5]", "user_ids[7]", "delete_message_seconds"}, problemPaths(t, err))
}

func TestBanBulkServerLimit(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{})
	ids := make([]guildkit.Snowflake, 201)
	for i := range ids {
		ids[i] = guildkit.Snowflake(i + 1)
	}
	_, err := guildkit.ExportDo(srv.Client(), t.Context(), "POST", "/guilds/{guild.id}/bulk-ban",
		map[string]any{"user_ids": ids}, nil, g.ID)
	require.ErrorIs(t, err, guildkit.ErrBadRequest)
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr)
	require.Len(t, apiErr.Errors, 1)
	assert.Equal(t, "user_ids", apiErr.Errors[0].Path)
}

// Ledger calls for the ban operations.
var (
	_ = registerLedger("Get Guild Bans", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		g := srv.AddGuild(guildkit.Guild{})
		_, err := c.Bans.List(ctx, g.ID, nil)
		return err
	})
	_ = registerLedger("Get Guild Ban", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		g := srv.AddGuild(guildkit.Guild{})
		b := srv.AddBan(g.ID, guildkit.Ban{User: guildkit.User{}})
		_, err := c.Bans.Get(ctx, g.ID, b.User.ID)
		return err
	})
	_ = registerLedger("Create Guild Ban", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		g := srv.AddGuild(guildkit.Guild{})
		u := srv.AddUser(guildkit.User{})
		return c.Bans.Create(ctx, g.ID, u.ID, nil)
	})
	_ = registerLedger("Remove Guild Ban", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		g := srv.AddGuild(guildkit.Guild{})
		b := srv.AddBan(g.ID, guildkit.Ban{User: guildkit.User{}})
		return c.Bans.Remove(ctx, g.ID, b.User.ID)
	})
	_ = registerLedger("Bulk Guild Ban", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		g := srv.AddGuild(guildkit.Guild{})
		u := srv.AddUser(guildkit.User{})
		_, err := c.Bans.Bulk(ctx, g.ID, &guildkit.BanBulkParams{UserIDs: []guildkit.Snowflake{u.ID}})
		return err
	})
)
