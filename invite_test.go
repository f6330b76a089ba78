package guildkit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// inviteFixture is a guild with a voice channel, an invite to it made by the
// bot, and members: alice (online) and bob.
type inviteFixture struct {
	srv        *guildkittest.Server
	guild      guildkit.Guild
	channel    guildkit.Channel
	invite     guildkit.Invite
	alice, bob guildkit.Snowflake
}

func newInviteFixture(t *testing.T, opts ...guildkittest.Option) *inviteFixture {
	t.Helper()
	srv := guildkittest.NewServer(t, opts...)
	g := srv.AddGuild(guildkit.Guild{Name: "Gophers"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "lobby", Type: guildkit.ChannelTypeGuildVoice})
	alice := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}}).User.ID
	bob := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "bob"}}).User.ID
	srv.SetOnline(g.ID, alice, true)
	inv := srv.AddInvite(g.ID, ch.ID, guildkit.Invite{
		Code:       "gophers",
		TargetType: guildkit.InviteTargetStream,
		Flags:      guildkit.InviteFlagIsGuestInvite,
		Roles:      []guildkit.InviteRole{{ID: 77, Name: "guest", Position: 1, Color: 255, Colors: guildkit.RoleColors{PrimaryColor: 255}}},
	})
	return &inviteFixture{srv: srv, guild: g, channel: ch, invite: inv, alice: alice, bob: bob}
}

func TestInviteGet(t *testing.T) {
	t.Parallel()
	f := newInviteFixture(t)
	ev := f.srv.AddScheduledEvent(f.guild.ID, guildkit.GuildScheduledEvent{Name: "Go meetup"})
	other := f.srv.AddGuild(guildkit.Guild{})
	otherEv := f.srv.AddScheduledEvent(other.ID, guildkit.GuildScheduledEvent{Name: "elsewhere"})
	ctx := t.Context()

	// A user who is in no guild at all may read the invite: a token suffices.
	stranger := f.srv.AddUser(guildkit.User{Username: "stranger"})
	c := f.srv.ClientAs(stranger.ID)

	inv, err := c.Invites.Get(ctx, "gophers", nil)
	require.NoError(t, err)
	assert.Equal(t, "gophers", inv.Code)
	assert.Equal(t, guildkit.InviteTypeGuild, inv.Type)
	require.NotNil(t, inv.Guild)
	assert.Equal(t, f.guild.ID, inv.Guild.ID)
	assert.Equal(t, "Gophers", inv.Guild.Name)
	require.NotNil(t, inv.Channel)
	assert.Equal(t, guildkit.PartialChannel{ID: f.channel.ID, Name: "lobby", Type: guildkit.ChannelTypeGuildVoice}, *inv.Channel)
	require.NotNil(t, inv.Inviter)
	assert.Equal(t, f.srv.BotID(), inv.Inviter.ID)
	assert.Equal(t, guildkit.InviteTargetStream, inv.TargetType)
	assert.True(t, inv.Flags.Has(guildkit.InviteFlagIsGuestInvite))
	require.Len(t, inv.Roles, 1)
	assert.Equal(t, "guest", inv.Roles[0].Name)
	assert.True(t, inv.ExpiresAt.IsNull(), "the invite never expires")
	assert.False(t, inv.HasMetadata(), "Get Invite carries no metadata")
	assert.Nil(t, inv.ApproximateMemberCount, "no counts without with_counts")
	assert.Nil(t, inv.GuildScheduledEvent)

	inv, err = c.Invites.Get(ctx, "gophers", &guildkit.InviteGetParams{
		WithCounts:            guildkit.Some(true),
		GuildScheduledEventID: guildkit.Some(ev.ID),
	})
	require.NoError(t, err)
	require.NotNil(t, inv.ApproximateMemberCount)
	assert.Equal(t, 3, *inv.ApproximateMemberCount, "the bot (owner), alice and bob")
	assert.Equal(t, 1, *inv.ApproximatePresenceCount, "only alice is online")
	require.NotNil(t, inv.GuildScheduledEvent)
	assert.Equal(t, ev.ID, inv.GuildScheduledEvent.ID)
	assert.Equal(t, "Go meetup", inv.GuildScheduledEvent.Name)
	req, ok := f.srv.LastRequest()
	require.True(t, ok)
	assert.Equal(t, "GET /invites/{invite.code}", req.Method+" "+req.Route)
	assert.Equal(t, []string{"true"}, req.Query["with_counts"])
	assert.Equal(t, []string{ev.ID.String()}, req.Query["guild_scheduled_event_id"])

	// An event of another guild, or no event at all, is left out.
	for _, id := range []guildkit.Snowflake{otherEv.ID, 12345} {
		inv, err = c.Invites.Get(ctx, "gophers", &guildkit.InviteGetParams{GuildScheduledEventID: guildkit.Some(id)})
		require.NoError(t, err)
		assert.Nil(t, inv.GuildScheduledEvent, "event %d", id)
	}
}

func TestInviteGetErrors(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	srv := guildkittest.NewServer(t, guildkittest.WithClock(func() time.Time { return now }))
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general"})
	srv.AddInvite(g.ID, ch.ID, guildkit.Invite{Code: "expired", ExpiresAt: guildkit.Some(now.Add(-time.Minute))})
	srv.AddInvite(g.ID, ch.ID, guildkit.Invite{Code: "fresh", ExpiresAt: guildkit.Some(now.Add(time.Hour))})
	c := srv.Client()
	ctx := t.Context()

	inv, err := c.Invites.Get(ctx, "fresh", nil)
	require.NoError(t, err)
	got, _ := inv.ExpiresAt.Get()
	assert.True(t, now.Add(time.Hour).Equal(got))

	for _, code := range []string{"nope", "expired"} {
		_, err := c.Invites.Get(ctx, code, nil)
		require.ErrorIs(t, err, guildkit.ErrNotFound, code)
		var apiErr *guildkit.APIError
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, guildkit.CodeUnknownInvite, apiErr.Code)
		assert.Equal(t, "/invites/{invite.code}", apiErr.Route)
	}

	bad, err := guildkit.New(guildkit.BotToken("not-a-token"), guildkit.WithBaseURL(srv.BaseURL()))
	require.NoError(t, err)
	_, err = bad.Invites.Get(ctx, "fresh", nil)
	assert.ErrorIs(t, err, guildkit.ErrUnauthorized, "a valid token is needed")

	before := len(srv.Requests())
	_, err = c.Invites.Get(ctx, "", &guildkit.InviteGetParams{
		WithCounts:            guildkit.Null[bool](),
		GuildScheduledEventID: guildkit.Some[guildkit.Snowflake](0),
	})
	var ve *guildkit.ValidationError
	require.ErrorAs(t, err, &ve)
	var paths []string
	for _, p := range ve.Problems {
		paths = append(paths, p.Path)
	}
	assert.ElementsMatch(t, []string{"with_counts", "guild_scheduled_event_id"}, paths, "params are checked first")
	_, err = c.Invites.Get(ctx, "", nil)
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "invite.code", ve.Problems[0].Path)
	_, err = c.Invites.Get(ctx, "fresh", nil, guildkit.WithReason("no"))
	require.ErrorAs(t, err, &ve, "Get Invite takes no audit-log reason")
	assert.Len(t, srv.Requests(), before, "nothing was sent")
}

func TestInviteGetWire(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("GET /invites/{code}", func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "a/b c", r.PathValue("code"), "the code is escaped in the path")
		testQuery(t, r, url.Values{"with_counts": {"false"}, "guild_scheduled_event_id": {"42"}})
		testHeader(t, r, "Authorization", "Bot "+testToken)
		b, err := os.ReadFile(filepath.Join("testdata", "invite.json"))
		assert.NoError(t, err)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
	})
	inv, err := c.Invites.Get(t.Context(), "a/b c", &guildkit.InviteGetParams{
		WithCounts: guildkit.Some(false), GuildScheduledEventID: guildkit.Some[guildkit.Snowflake](42),
	})
	require.NoError(t, err)
	assert.Equal(t, "gophers", inv.Code)
	assert.True(t, inv.HasMetadata())
}

// TestInviteRoundTrip decodes a full invite with its metadata and encodes it
// again: nothing is lost.
func TestInviteRoundTrip(t *testing.T) {
	t.Parallel()
	want, err := os.ReadFile(filepath.Join("testdata", "invite.json"))
	require.NoError(t, err)
	var inv guildkit.Invite
	require.NoError(t, json.Unmarshal(want, &inv))
	assert.Equal(t, guildkit.InviteTargetStream, inv.TargetType)
	assert.Equal(t, "IS_GUEST_INVITE", inv.Flags.String())
	require.NotNil(t, inv.StageInstance)
	assert.Equal(t, "Q&A", inv.StageInstance.Topic)
	require.NotNil(t, inv.MaxAge)
	assert.Equal(t, 86400, *inv.MaxAge)
	got, err := json.Marshal(inv)
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(got))
}

func TestInviteEnums(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "GROUP_DM", guildkit.InviteTypeGroupDM.String())
	assert.Equal(t, "InviteType(9)", guildkit.InviteType(9).String())
	assert.Equal(t, "EMBEDDED_APPLICATION", guildkit.InviteTargetEmbeddedApplication.String())
	assert.Equal(t, "IS_GUEST_INVITE|1<<3", (guildkit.InviteFlagIsGuestInvite | 1<<3).String())
	for s, name := range map[guildkit.TargetUsersJobState]string{
		guildkit.TargetUsersJobUnspecified: "UNSPECIFIED",
		guildkit.TargetUsersJobProcessing:  "PROCESSING",
		guildkit.TargetUsersJobCompleted:   "COMPLETED",
		guildkit.TargetUsersJobFailed:      "FAILED",
		guildkit.TargetUsersJobState(4):    "TargetUsersJobState(4)",
	} {
		assert.Equal(t, name, s.String())
	}
	assert.True(t, guildkit.TargetUsersJobFailed.Done())
	assert.False(t, guildkit.TargetUsersJobProcessing.Done())
}

func TestInviteDelete(t *testing.T) {
	t.Parallel()
	f := newInviteFixture(t)
	c := f.srv.Client()
	ctx := t.Context()

	inv, err := c.Invites.Delete(ctx, "gophers", guildkit.WithReason("spam wave: 100%"))
	require.NoError(t, err)
	assert.Equal(t, "gophers", inv.Code)
	require.NotNil(t, inv.Channel)
	assert.Equal(t, f.channel.ID, inv.Channel.ID)
	req, ok := f.srv.LastRequest()
	require.True(t, ok)
	assert.Equal(t, "DELETE /invites/{invite.code}", req.Method+" "+req.Route)
	assert.Equal(t, "spam%20wave:%20100%25", req.Header.Get("X-Audit-Log-Reason"))

	_, ok = f.srv.Invite("gophers")
	assert.False(t, ok, "the invite is gone")
	evs := f.srv.EventsNamed(guildkit.EventInviteDelete)
	require.Len(t, evs, 1)
	assert.Equal(t, f.guild.ID, evs[0].GuildID)
	assert.Equal(t, guildkit.InviteDeleteEvent{ChannelID: f.channel.ID, GuildID: f.guild.ID, Code: "gophers"}, evs[0].Data)

	_, err = c.Invites.Delete(ctx, "gophers")
	assert.ErrorIs(t, err, guildkit.ErrNotFound)
}

// TestInviteDeletePermissions checks Delete Invite's rule: MANAGE_CHANNELS
// on the invite's channel, with the channel's overwrites applied in the
// platform's order (@everyone, then the member's roles together, then the
// member), or MANAGE_GUILD.
func TestInviteDeletePermissions(t *testing.T) {
	t.Parallel()
	const mc, mg = guildkit.PermissionManageChannels, guildkit.PermissionManageGuild
	type ow = guildkit.PermissionOverwrite
	// In each case the member holds the role "mod" with guildPerms.
	cases := []struct {
		name       string
		guildPerms guildkit.Permissions
		overwrites func(guild, role, user guildkit.Snowflake) []ow
		allowed    bool
	}{
		{"no permission", 0, nil, false},
		{"MANAGE_CHANNELS in the guild", mc, nil, true},
		{"MANAGE_GUILD", mg, nil, true},
		{"ADMINISTRATOR", guildkit.PermissionAdministrator, nil, true},
		{"MANAGE_GUILD even with MANAGE_CHANNELS denied on the channel", mg | mc, func(g, r, u guildkit.Snowflake) []ow {
			return []ow{{ID: u, Type: 1, Deny: mc}}
		}, true},
		{"role overwrite allows", 0, func(g, r, u guildkit.Snowflake) []ow {
			return []ow{{ID: r, Type: 0, Allow: mc}}
		}, true},
		{"member overwrite denies a guild-level grant", mc, func(g, r, u guildkit.Snowflake) []ow {
			return []ow{{ID: u, Type: 1, Deny: mc}}
		}, false},
		{"@everyone overwrite denies, role overwrite allows", mc, func(g, r, u guildkit.Snowflake) []ow {
			return []ow{{ID: g, Type: 0, Deny: mc}, {ID: r, Type: 0, Allow: mc}}
		}, true},
		{"@everyone overwrite allows, role overwrite denies", 0, func(g, r, u guildkit.Snowflake) []ow {
			return []ow{{ID: g, Type: 0, Allow: mc}, {ID: r, Type: 0, Deny: mc}}
		}, false},
		{"role allow beats another role's deny", 0, func(g, r, u guildkit.Snowflake) []ow {
			return []ow{{ID: r, Type: 0, Allow: mc}, {ID: r + 1, Type: 0, Deny: mc}}
		}, true},
		{"member overwrite allows over a role deny", mc, func(g, r, u guildkit.Snowflake) []ow {
			return []ow{{ID: r, Type: 0, Deny: mc}, {ID: u, Type: 1, Allow: mc}}
		}, true},
		{"an overwrite for someone else changes nothing", 0, func(g, r, u guildkit.Snowflake) []ow {
			return []ow{{ID: u + 1, Type: 1, Allow: mc}}
		}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := guildkittest.NewServer(t)
			g := srv.AddGuild(guildkit.Guild{})
			mod := srv.AddRole(g.ID, guildkit.Role{Name: "mod", Permissions: tc.guildPerms})
			srv.AddRole(g.ID, guildkit.Role{ID: mod.ID + 1, Name: "other"})
			u := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{}, Roles: []guildkit.Snowflake{mod.ID, mod.ID + 1}}).User.ID
			var ows []ow
			if tc.overwrites != nil {
				ows = tc.overwrites(g.ID, mod.ID, u)
			}
			ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "lobby", PermissionOverwrites: ows})
			inv := srv.AddInvite(g.ID, ch.ID, guildkit.Invite{})

			_, err := srv.ClientAs(u).Invites.Delete(t.Context(), inv.Code)
			if tc.allowed {
				require.NoError(t, err)
				_, ok := srv.Invite(inv.Code)
				assert.False(t, ok)
				return
			}
			require.ErrorIs(t, err, guildkit.ErrForbidden)
			var apiErr *guildkit.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, guildkit.CodeMissingPermissions, apiErr.Code)
			_, ok := srv.Invite(inv.Code)
			assert.True(t, ok, "the invite is still there")
			assert.Empty(t, srv.EventsNamed(guildkit.EventInviteDelete))
		})
	}
}

func TestInviteTargetUsers(t *testing.T) {
	t.Parallel()
	f := newInviteFixture(t, guildkittest.WithTargetUsersJobPolls(-1))
	// carol made an invite and has no permission; dave may read the audit
	// log; bob has nothing.
	g := f.guild.ID
	auditor := f.srv.AddRole(g, guildkit.Role{Name: "auditor", Permissions: guildkit.PermissionViewAuditLog})
	carol := f.srv.AddMember(g, guildkit.Member{User: &guildkit.User{Username: "carol"}}).User.ID
	dave := f.srv.AddMember(g, guildkit.Member{User: &guildkit.User{Username: "dave"}, Roles: []guildkit.Snowflake{auditor.ID}}).User.ID
	inv := f.srv.AddInvite(g, f.channel.ID, guildkit.Invite{Code: "carols", Inviter: &guildkit.User{ID: carol}})
	ctx := t.Context()
	asCarol, asDave, asBob := f.srv.ClientAs(carol), f.srv.ClientAs(dave), f.srv.ClientAs(f.bob)

	ids := []guildkit.Snowflake{f.alice, f.bob, 175928847299117063}
	require.NoError(t, asCarol.Invites.UpdateTargetUsers(ctx, inv.Code, ids), "the inviter may update")
	req, _ := f.srv.LastRequest()
	assert.Equal(t, "PUT /invites/{invite.code}/target-users", req.Method+" "+req.Route)
	assert.Equal(t, http.StatusAccepted, req.Status)

	st, err := asDave.Invites.TargetUsersJobStatus(ctx, inv.Code)
	require.NoError(t, err, "VIEW_AUDIT_LOG may read the job")
	assert.Equal(t, guildkit.TargetUsersJobProcessing, st.Status)
	assert.Equal(t, 3, st.TotalUsers)
	assert.Nil(t, st.CompletedAt)
	assert.Empty(t, f.srv.TargetUsers(inv.Code), "nothing applies before the job completes")

	f.srv.CompleteTargetUsersJob(inv.Code)
	st, err = asCarol.Invites.TargetUsersJobStatus(ctx, inv.Code)
	require.NoError(t, err)
	assert.Equal(t, guildkit.TargetUsersJobCompleted, st.Status)
	assert.Equal(t, 3, st.ProcessedUsers)
	assert.NotNil(t, st.CompletedAt)
	assert.Equal(t, ids, f.srv.TargetUsers(inv.Code))

	var got []guildkit.Snowflake
	for id, err := range asDave.Invites.TargetUsers(ctx, inv.Code) {
		require.NoError(t, err)
		got = append(got, id)
	}
	assert.Equal(t, ids, got)
	req, _ = f.srv.LastRequest()
	assert.Equal(t, "GET /invites/{invite.code}/target-users", req.Method+" "+req.Route)

	file, err := asCarol.Invites.TargetUsersFile(ctx, inv.Code)
	require.NoError(t, err)
	raw, err := io.ReadAll(file)
	require.NoError(t, err)
	require.NoError(t, file.Close())
	assert.Equal(t, fmt.Sprintf("user_id\n%d\n%d\n175928847299117063\n", f.alice, f.bob), string(raw))

	// Permissions: bob may do nothing; dave may read but not update.
	for _, err := range asBob.Invites.TargetUsers(ctx, inv.Code) {
		assert.ErrorIs(t, err, guildkit.ErrForbidden)
	}
	_, err = asBob.Invites.TargetUsersJobStatus(ctx, inv.Code)
	assert.ErrorIs(t, err, guildkit.ErrForbidden)
	err = asDave.Invites.UpdateTargetUsers(ctx, inv.Code, ids)
	assert.ErrorIs(t, err, guildkit.ErrForbidden, "VIEW_AUDIT_LOG is not enough to update")
	// The bot owns the guild: MANAGE_GUILD.
	require.NoError(t, f.srv.Client().Invites.UpdateTargetUsersCSV(ctx, inv.Code, strings.NewReader("user_id\n42\n")))
	job, ok := f.srv.TargetUsersJob(inv.Code)
	require.True(t, ok)
	assert.Equal(t, guildkit.TargetUsersJobProcessing, job.Status)

	// An invite with no upload yet: an empty file and an UNSPECIFIED job.
	n := 0
	for _, err := range asCarol.Invites.TargetUsers(ctx, "gophers") {
		n++
		assert.ErrorIs(t, err, guildkit.ErrForbidden, "carol did not make this one")
	}
	assert.Equal(t, 1, n, "a failure is yielded once")
	for id, err := range f.srv.Client().Invites.TargetUsers(ctx, "gophers") {
		t.Errorf("unexpected %v, %v", id, err)
	}
	st, err = f.srv.Client().Invites.TargetUsersJobStatus(ctx, "gophers")
	require.NoError(t, err)
	assert.Equal(t, guildkit.TargetUsersJobUnspecified, st.Status)

	for _, err := range asCarol.Invites.TargetUsers(ctx, "missing") {
		assert.ErrorIs(t, err, guildkit.ErrNotFound)
	}
}

// TestInviteTargetUsersIteratorStops checks that breaking out of the loop
// stops reading and that no request is made before ranging.
func TestInviteTargetUsersIteratorStops(t *testing.T) {
	t.Parallel()
	f := newInviteFixture(t)
	f.srv.SetTargetUsers("gophers", []guildkit.Snowflake{1, 2, 3})
	c := f.srv.Client()
	before := len(f.srv.Requests())
	seq := c.Invites.TargetUsers(t.Context(), "gophers")
	assert.Len(t, f.srv.Requests(), before, "no request until ranged")
	var got []guildkit.Snowflake
	for id, err := range seq {
		require.NoError(t, err)
		got = append(got, id)
		if len(got) == 2 {
			break
		}
	}
	assert.Equal(t, []guildkit.Snowflake{1, 2}, got)
	assert.Len(t, f.srv.Requests(), before+1)
}

// TestInviteUpdateTargetUsersInvalidCSV uploads a file with two bad lines:
// the 400 comes back as an APIError with one FieldError per line.
func TestInviteUpdateTargetUsersInvalidCSV(t *testing.T) {
	t.Parallel()
	f := newInviteFixture(t)
	c := f.srv.Client()
	ctx := t.Context()
	file := "user_id\n1234\nabc\n\n5678,9\n99\n"
	err := c.Invites.UpdateTargetUsersCSV(ctx, "gophers", strings.NewReader(file))
	require.ErrorIs(t, err, guildkit.ErrBadRequest)
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusBadRequest, apiErr.Status)
	assert.Equal(t, "PUT", apiErr.Method)
	assert.Equal(t, "/invites/{invite.code}/target-users", apiErr.Route)
	assert.Equal(t, []guildkit.FieldError{
		{Path: "target_users_file", Message: `Line 3: "abc" is not a valid user id.`},
		{Path: "target_users_file", Message: "Line 5: Expected one column, got 2."},
	}, apiErr.Errors)
	assert.JSONEq(t, `{"target_users_file": ["Line 3: \"abc\" is not a valid user id.", "Line 5: Expected one column, got 2."]}`, string(apiErr.Body))
	assert.Contains(t, err.Error(), "Line 3")
	_, ok := f.srv.TargetUsersJob("gophers")
	assert.False(t, ok, "no job was started")

	err = c.Invites.UpdateTargetUsersCSV(ctx, "gophers", strings.NewReader("id\n1\n"))
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, []guildkit.FieldError{{Path: "target_users_file", Message: `Line 1: Expected the header "user_id", got "id".`}}, apiErr.Errors)

	// Checked before sending.
	var ve *guildkit.ValidationError
	err = c.Invites.UpdateTargetUsers(ctx, "gophers", []guildkit.Snowflake{1, 0, 3, 0})
	require.ErrorAs(t, err, &ve)
	require.Len(t, ve.Problems, 2)
	assert.Equal(t, "ids[1]", ve.Problems[0].Path)
	assert.Equal(t, "ids[3]", ve.Problems[1].Path)
	err = c.Invites.UpdateTargetUsersCSV(ctx, "gophers", nil)
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "target_users_file", ve.Problems[0].Path)
	err = c.Invites.UpdateTargetUsers(ctx, "gophers", nil, guildkit.WithReason("x"))
	require.ErrorAs(t, err, &ve, "Update Target Users takes no audit-log reason")
}

// TestInviteUpdateTargetUsersWire checks the exact multipart form: one file
// part target_users_file, target_users.csv, text/csv, no payload_json, and
// a Content-Length (the generated file knows its size).
func TestInviteUpdateTargetUsersWire(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("PUT /invites/{code}/target-users", func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "gophers", r.PathValue("code"))
		assert.Positive(t, r.ContentLength)
		mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		assert.NoError(t, err)
		assert.Equal(t, "multipart/form-data", mt)
		mr := multipart.NewReader(r.Body, params["boundary"])
		var fields []string
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if !assert.NoError(t, err) {
				break
			}
			fields = append(fields, p.FormName())
			assert.Equal(t, "target_users.csv", p.FileName())
			assert.Equal(t, "text/csv", p.Header.Get("Content-Type"))
			b, _ := io.ReadAll(p)
			assert.Equal(t, "user_id\n1\n18446744073709551615\n", string(b))
		}
		assert.Equal(t, []string{"target_users_file"}, fields)
		w.WriteHeader(http.StatusNoContent)
	})
	require.NoError(t, c.Invites.UpdateTargetUsers(t.Context(), "gophers", []guildkit.Snowflake{1, 18446744073709551615}))
}

// TestInviteUpdateTargetUsersRetries checks that a rate-limited upload is
// sent again whole: the generated file is replayable, and so is a seekable
// file the caller gives; a plain reader is not.
func TestInviteUpdateTargetUsersRetries(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	var bodies [][]byte
	c, mux := setup(t)
	mux.HandleFunc("PUT /invites/{code}/target-users", func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		assert.NoError(t, err)
		bodies = append(bodies, b) // the client sends one attempt at a time
		if calls.Add(1)%2 == 1 {
			w.Header().Set("Retry-After", "0")
			writeJSON(w, http.StatusTooManyRequests, map[string]any{"message": "slow down", "retry_after": 0.001, "global": false})
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	ctx := t.Context()
	ids := make([]guildkit.Snowflake, 1000)
	for i := range ids {
		ids[i] = guildkit.Snowflake(1 << 40 * (i + 1))
	}
	require.NoError(t, c.Invites.UpdateTargetUsers(ctx, "gophers", ids))
	require.Len(t, bodies, 2)
	assert.Equal(t, bodies[0], bodies[1], "the retry sends the same file again")
	assert.Contains(t, string(bodies[1]), "\r\n\r\nuser_id\n1099511627776\n")

	file := strings.NewReader("ignored line that is skipped by Seek\nuser_id\n7\n")
	_, err := file.Seek(37, io.SeekStart) // the caller's offset is where the file starts
	require.NoError(t, err)
	require.NoError(t, c.Invites.UpdateTargetUsersCSV(ctx, "gophers", file))
	require.Len(t, bodies, 4)
	assert.Equal(t, bodies[2], bodies[3])
	assert.Contains(t, string(bodies[3]), "\r\n\r\nuser_id\n7\n\r\n")

	err = c.Invites.UpdateTargetUsersCSV(ctx, "gophers", io.MultiReader(strings.NewReader("user_id\n7\n")))
	var rl *guildkit.RateLimitError
	require.ErrorAs(t, err, &rl, "a plain reader cannot be sent twice")
	assert.Contains(t, rl.Reason, "cannot be sent again")
}

// TestWaitTargetUsersJob follows jobs to COMPLETED and to FAILED.
func TestWaitTargetUsersJob(t *testing.T) {
	t.Parallel()
	ctx := t.Context()

	t.Run("completed", func(t *testing.T) {
		t.Parallel()
		f := newInviteFixture(t, guildkittest.WithTargetUsersJobPolls(3))
		c := f.srv.Client()
		require.NoError(t, c.Invites.UpdateTargetUsers(ctx, "gophers", []guildkit.Snowflake{f.alice}))
		st, err := c.Invites.WaitTargetUsersJob(ctx, "gophers", time.Millisecond)
		require.NoError(t, err)
		assert.Equal(t, guildkit.TargetUsersJobCompleted, st.Status)
		assert.Equal(t, 1, st.ProcessedUsers)
		assert.Equal(t, []guildkit.Snowflake{f.alice}, f.srv.TargetUsers("gophers"))
		reads := 0
		for _, r := range f.srv.Requests() {
			if r.Route == "/invites/{invite.code}/target-users/job-status" {
				reads++
			}
		}
		assert.Equal(t, 4, reads, "three PROCESSING answers, then COMPLETED")
	})

	t.Run("failed", func(t *testing.T) {
		t.Parallel()
		f := newInviteFixture(t, guildkittest.WithTargetUsersJobPolls(-1))
		f.srv.SetTargetUsers("gophers", []guildkit.Snowflake{9})
		c := f.srv.Client()
		require.NoError(t, c.Invites.UpdateTargetUsers(ctx, "gophers", []guildkit.Snowflake{f.alice, f.bob}))
		f.srv.FailTargetUsersJob("gophers", "2 users could not be resolved")
		st, err := c.Invites.WaitTargetUsersJob(ctx, "gophers", 0)
		var jobErr *guildkit.TargetUsersJobError
		require.ErrorAs(t, err, &jobErr)
		assert.Equal(t, "2 users could not be resolved", jobErr.Message)
		assert.Equal(t, "gophers", jobErr.Code)
		assert.Equal(t, guildkit.TargetUsersJobFailed, jobErr.Job.Status)
		assert.Equal(t, "guildkit: target-users job of invite gophers failed: 2 users could not be resolved", err.Error())
		require.NotNil(t, st)
		assert.Equal(t, guildkit.TargetUsersJobFailed, st.Status)
		assert.Equal(t, "2 users could not be resolved", st.ErrorMessage)
		assert.Equal(t, []guildkit.Snowflake{9}, f.srv.TargetUsers("gophers"), "a failed job changes nothing")
	})

	t.Run("status error", func(t *testing.T) {
		t.Parallel()
		f := newInviteFixture(t)
		st, err := f.srv.Client().Invites.WaitTargetUsersJob(ctx, "missing", time.Millisecond)
		assert.Nil(t, st)
		assert.ErrorIs(t, err, guildkit.ErrNotFound)
	})
}

// TestWaitTargetUsersJobCancelled cancels the context while the job is
// still PROCESSING: the wait returns the context's error and the last
// status, and leaves no goroutine or timer behind (TestMain runs goleak).
func TestWaitTargetUsersJobCancelled(t *testing.T) {
	t.Parallel()
	f := newInviteFixture(t, guildkittest.WithTargetUsersJobPolls(-1))
	// read is told when a status read has returned its answer, decoded: the
	// server's request log may list the request before the client has read
	// the answer, and a cancel then would end the read itself.
	read := make(chan struct{}, 16)
	c := f.srv.Client(guildkit.WithObserver(guildkit.Observer{CallEnd: func(_ context.Context, e guildkit.CallEvent) {
		if e.Call.Route == "/invites/{invite.code}/target-users/job-status" && e.Err == nil {
			select {
			case read <- struct{}{}:
			default:
			}
		}
	}}))
	require.NoError(t, c.Invites.UpdateTargetUsers(t.Context(), "gophers", []guildkit.Snowflake{f.alice}))

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	type result struct {
		st  *guildkit.TargetUsersJobStatus
		err error
	}
	done := make(chan result, 1)
	go func() {
		st, err := c.Invites.WaitTargetUsersJob(ctx, "gophers", time.Hour)
		done <- result{st, err}
	}()
	// Cancel once the first status read has been answered: the wait is then
	// on its timer, an hour long.
	select {
	case <-read:
	case res := <-done:
		t.Fatalf("the wait ended before a status read: %v", res.err)
	}
	cancel()
	res := <-done
	require.ErrorIs(t, res.err, context.Canceled)
	require.NotNil(t, res.st, "the last status read is returned")
	assert.Equal(t, guildkit.TargetUsersJobProcessing, res.st.Status)

	// A deadline ends it the same way.
	dctx, dcancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer dcancel()
	_, err := c.Invites.WaitTargetUsersJob(dctx, "gophers", 2*time.Millisecond)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

func TestParseTargetUsersCSV(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in string
		want     []guildkit.Snowflake
		errLine  int
	}{
		{"plain", "user_id\n1\n2\n", []guildkit.Snowflake{1, 2}, 0},
		{"no final newline", "user_id\n1\n2", []guildkit.Snowflake{1, 2}, 0},
		{"blank lines, CRLF, spaces, quotes, BOM", "\ufeffuser_id\r\n\r\n 1 \r\n\n\"2\"\r\n", []guildkit.Snowflake{1, 2}, 0},
		{"header only", "user_id\n", nil, 0},
		{"empty file", "", nil, 0},
		{"max snowflake", "user_id\n18446744073709551615\n", []guildkit.Snowflake{18446744073709551615}, 0},
		{"bad id", "user_id\n1\n\nx2\n3\n", []guildkit.Snowflake{1}, 4},
		{"zero", "user_id\n0\n", nil, 2},
		{"overflow", "user_id\n18446744073709551616\n", nil, 2},
		{"two columns", "user_id\n1,2\n", nil, 2},
		{"missing header", "\n1\n2\n", nil, 2},
		{"line too long", "user_id\n" + strings.Repeat("1", 70000) + "\n", nil, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got []guildkit.Snowflake
			var gotErr error
			n := 0
			for id, err := range guildkit.ParseTargetUsersCSV(strings.NewReader(tc.in)) {
				n++
				if err != nil {
					gotErr = err
					continue
				}
				got = append(got, id)
			}
			assert.Equal(t, tc.want, got)
			if tc.errLine == 0 {
				assert.NoError(t, gotErr)
				return
			}
			var pe *guildkit.TargetUsersParseError
			require.ErrorAs(t, gotErr, &pe)
			assert.Equal(t, tc.errLine, pe.Line)
			assert.Contains(t, pe.Error(), fmt.Sprintf("line %d:", tc.errLine))
			assert.Equal(t, len(tc.want)+1, n, "the error is the last value")
		})
	}
	var pe *guildkit.TargetUsersParseError
	for _, err := range guildkit.ParseTargetUsersCSV(iotest.ErrReader(errors.New("boom"))) {
		require.ErrorAs(t, err, &pe)
		assert.ErrorContains(t, err, "boom")
	}
}

func TestTargetUsersCSVReader(t *testing.T) {
	t.Parallel()
	ids := []guildkit.Snowflake{1, 22, 333, 18446744073709551615, 5}
	want := "user_id\n1\n22\n333\n18446744073709551615\n5\n"
	f := guildkit.NewTargetUsersCSV(ids)
	assert.Equal(t, int64(len(want)), f.Size())
	// iotest.TestReader reads it whole, in small pieces, and seeks about.
	require.NoError(t, iotest.TestReader(f, []byte(want)))

	f = guildkit.NewTargetUsersCSV(ids)
	b, err := io.ReadAll(iotest.OneByteReader(f))
	require.NoError(t, err)
	assert.Equal(t, want, string(b))
	for _, off := range []int64{0, 3, 8, 9, 12, 20, int64(len(want)) - 1, int64(len(want)), int64(len(want)) + 5} {
		pos, err := f.Seek(off, io.SeekStart)
		require.NoError(t, err)
		assert.Equal(t, off, pos)
		rest, err := io.ReadAll(f)
		require.NoError(t, err)
		assert.Equal(t, want[min(off, int64(len(want))):], string(rest), "from %d", off)
	}
	end, err := f.Seek(-2, io.SeekEnd)
	require.NoError(t, err)
	assert.Equal(t, int64(len(want)-2), end)
	_, err = f.Seek(-1, io.SeekStart)
	assert.Error(t, err)

	var buf bytes.Buffer
	_, err = io.Copy(&buf, guildkit.NewTargetUsersCSV(nil))
	require.NoError(t, err)
	assert.Equal(t, "user_id\n", buf.String())

	// What it writes, the parser reads back.
	var back []guildkit.Snowflake
	for id, err := range guildkit.ParseTargetUsersCSV(guildkit.NewTargetUsersCSV(ids)) {
		require.NoError(t, err)
		back = append(back, id)
	}
	assert.Equal(t, ids, back)
}

// millionIDs returns n distinct snowflake-sized ids.
func millionIDs(n int) []guildkit.Snowflake {
	ids := make([]guildkit.Snowflake, n)
	for i := range ids {
		ids[i] = guildkit.Snowflake(175928847299117063 + uint64(i)*4194304)
	}
	return ids
}

// discardServer answers uploads after reading and discarding the body,
// adding its length to *received, and serves a target-users file of the ids
// for downloads.
func discardServer(t testing.TB, ids []guildkit.Snowflake, received *atomic.Int64) *guildkit.Client {
	mux := http.NewServeMux()
	mux.HandleFunc("PUT /invites/{code}/target-users", func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		received.Add(n)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /invites/{code}/target-users", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/csv")
		_, _ = io.Copy(w, guildkit.NewTargetUsersCSV(ids))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	c, err := guildkit.New(guildkit.BotToken("t"), guildkit.WithBaseURL(srv.URL))
	require.NoError(t, err)
	return c
}

// TestTargetUsersMillionMemory uploads and downloads 1,000,000 ids (about
// 20 MB of CSV each way) and checks the client allocated less than 8 MiB
// for each. It does not call t.Parallel: runtime.MemStats.TotalAlloc counts
// the whole process, so the measurement is taken while no parallel test
// runs (the sequential tests finish before any parallel one resumes).
func TestTargetUsersMillionMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads 20 MB")
	}
	ids := millionIDs(1_000_000)
	var received atomic.Int64
	c := discardServer(t, ids, &received)
	ctx := t.Context()
	fileSize := guildkit.NewTargetUsersCSV(ids).Size()

	up := allocDuring(func() {
		require.NoError(t, c.Invites.UpdateTargetUsers(ctx, "gophers", ids))
	})
	t.Logf("upload of %d ids (%d bytes of CSV): %d bytes allocated", len(ids), fileSize, up)
	assert.Less(t, up, uint64(8<<20), "upload allocations")
	assert.Greater(t, received.Load(), fileSize, "the whole file and the multipart framing arrived")

	n := 0
	down := allocDuring(func() {
		for _, err := range c.Invites.TargetUsers(ctx, "gophers") {
			require.NoError(t, err)
			n++
		}
	})
	assert.Equal(t, len(ids), n)
	t.Logf("download of %d ids: %d bytes allocated", n, down)
	assert.Less(t, down, uint64(8<<20), "download allocations")
}

func allocDuring(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func BenchmarkInviteUpdateTargetUsers(b *testing.B) {
	ids := millionIDs(1_000_000)
	c := discardServer(b, ids, new(atomic.Int64))
	ctx := b.Context()
	b.SetBytes(guildkit.NewTargetUsersCSV(ids).Size())
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Invites.UpdateTargetUsers(ctx, "gophers", ids); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkInviteTargetUsers(b *testing.B) {
	ids := millionIDs(1_000_000)
	c := discardServer(b, ids, new(atomic.Int64))
	ctx := b.Context()
	b.SetBytes(guildkit.NewTargetUsersCSV(ids).Size())
	b.ReportAllocs()
	for b.Loop() {
		for _, err := range c.Invites.TargetUsers(ctx, "gophers") {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

var _ = registerLedger("Get Invite", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general"})
	inv := srv.AddInvite(g.ID, ch.ID, guildkit.Invite{})
	_, err := c.Invites.Get(ctx, inv.Code, &guildkit.InviteGetParams{WithCounts: guildkit.Some(true)})
	return err
})

var _ = registerLedger("Delete Invite", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general"})
	inv := srv.AddInvite(g.ID, ch.ID, guildkit.Invite{})
	_, err := c.Invites.Delete(ctx, inv.Code, guildkit.WithReason("ledger"))
	return err
})

var _ = registerLedger("Get Target Users", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general"})
	inv := srv.AddInvite(g.ID, ch.ID, guildkit.Invite{})
	srv.SetTargetUsers(inv.Code, []guildkit.Snowflake{1})
	for _, err := range c.Invites.TargetUsers(ctx, inv.Code) {
		if err != nil {
			return err
		}
	}
	return nil
})

var _ = registerLedger("Update Target Users", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general"})
	inv := srv.AddInvite(g.ID, ch.ID, guildkit.Invite{})
	return c.Invites.UpdateTargetUsers(ctx, inv.Code, []guildkit.Snowflake{1, 2})
})

var _ = registerLedger("Get Target Users Job Status", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general"})
	inv := srv.AddInvite(g.ID, ch.ID, guildkit.Invite{})
	_, err := c.Invites.TargetUsersJobStatus(ctx, inv.Code)
	return err
})

// rawClient is an HTTP client whose connections close when the test ends.
func rawClient(t *testing.T) *http.Client {
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// rawUpload sends body as the target_users_file part (or as a part named
// field) with the bot's token and returns the status and the decoded body.
func rawUpload(t *testing.T, srv *guildkittest.Server, code, field, body string) (int, map[string]any) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, err := mw.CreateFormFile(field, "target_users.csv")
	require.NoError(t, err)
	_, _ = io.WriteString(fw, body)
	require.NoError(t, mw.Close())
	req, err := http.NewRequest(http.MethodPut, srv.BaseURL()+"/invites/"+code+"/target-users", &buf)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bot "+srv.Token())
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := rawClient(t).Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// TestInviteServerTargetUsersRules covers what the in-memory server does
// with odd uploads and its default job progression.
func TestInviteServerTargetUsersRules(t *testing.T) {
	t.Parallel()
	f := newInviteFixture(t)
	ctx := t.Context()

	status, body := rawUpload(t, f.srv, "gophers", "other_field", "user_id\n1\n")
	assert.Equal(t, http.StatusBadRequest, status, "the file part is required")
	assert.Contains(t, body, "errors")

	var file strings.Builder
	file.WriteString("user_id\n")
	for i := range 150 {
		fmt.Fprintf(&file, "bad%d\n", i)
	}
	status, body = rawUpload(t, f.srv, "gophers", "target_users_file", file.String())
	assert.Equal(t, http.StatusBadRequest, status)
	lines, _ := body["target_users_file"].([]any)
	require.Len(t, lines, 100, "at most 100 problems are listed")
	assert.Equal(t, `Line 2: "bad0" is not a valid user id.`, lines[0])
	assert.Equal(t, "And 51 more bad lines.", lines[99])

	status, body = rawUpload(t, f.srv, "gophers", "target_users_file", "")
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, []any{`Line 1: Expected the header "user_id", got an empty file.`}, body["target_users_file"])

	// Duplicates are dropped; by default a job answers PROCESSING once,
	// then COMPLETED.
	status, _ = rawUpload(t, f.srv, "gophers", "target_users_file", "user_id\n5\n5\n6\n")
	assert.Equal(t, http.StatusAccepted, status)
	c := f.srv.Client()
	st, err := c.Invites.TargetUsersJobStatus(ctx, "gophers")
	require.NoError(t, err)
	assert.Equal(t, guildkit.TargetUsersJobProcessing, st.Status)
	assert.Equal(t, 2, st.TotalUsers)
	st, err = c.Invites.TargetUsersJobStatus(ctx, "gophers")
	require.NoError(t, err)
	assert.Equal(t, guildkit.TargetUsersJobCompleted, st.Status)
	assert.Equal(t, []guildkit.Snowflake{5, 6}, f.srv.TargetUsers("gophers"))

	req, err := http.NewRequest(http.MethodGet, f.srv.BaseURL()+"/invites/gophers?with_counts=maybe&guild_scheduled_event_id=x", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bot "+f.srv.Token())
	resp, err := rawClient(t).Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)

	assert.Panics(t, func() { f.srv.CompleteTargetUsersJob("gophers") }, "no job is PROCESSING")
	assert.Panics(t, func() { f.srv.TargetUsers("nope") })
}
