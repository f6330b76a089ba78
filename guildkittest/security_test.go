package guildkittest_test

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// requireMissingPermissions asserts err is the reference platform's answer
// to a hierarchy or grant-limit refusal: 403 Missing Permissions (50013).
func requireMissingPermissions(t *testing.T, err error, msgAndArgs ...any) {
	t.Helper()
	require.ErrorIs(t, err, guildkit.ErrForbidden, msgAndArgs...)
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr, msgAndArgs...)
	assert.Equal(t, guildkit.CodeMissingPermissions, apiErr.Code, msgAndArgs...)
}

// rawDo sends one request with an Authorization header and returns the
// status and body.
func rawDo(t *testing.T, method, url, auth, contentType, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	require.NoError(t, err)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, b
}

// TestTokensCannotBeDerived: every token the server makes is 256 random
// bits, unrelated to the user it names; the forgery that worked while tokens
// were "tok.<userID>.<n>" (the bot's id is the application_id the
// unauthenticated Get Webhook with Token answers) now gets 401; and no
// answer of any operation, nor any header, shows a token or a piece of one.
func TestTokensCannotBeDerived(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "tokens"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	member := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "m"}})
	role := srv.AddRole(g.ID, guildkit.Role{Name: "r", Position: 1})
	inv := srv.AddInvite(g.ID, ch.ID, guildkit.Invite{})
	hook := srv.AddWebhook(ch.ID, "app hook", guildkittest.WebhookApplication(srv.BotID()))
	integration := srv.AddIntegration(g.ID, guildkit.Integration{Name: "i", Type: guildkit.IntegrationTypeYouTube})
	memberToken := srv.NewToken(member.User.ID)
	accessToken := srv.NewAccessToken(member.User.ID)
	secrets := map[string]string{"bot token": srv.Token(), "member token": memberToken, "access token": accessToken, "webhook token": hook.Token}

	// Shape: a bot token is the platform's (the user's id in base64, a
	// time part, a secret of 256 bits of crypto/rand, base64url); an access
	// token is the secret alone. The secret holds no user id; two tokens of
	// one user share no secret.
	again := srv.NewToken(member.User.ID)
	for name, tok := range map[string]string{"bot token": srv.Token(), "member token": memberToken, "again": again, "access token": strings.TrimPrefix(accessToken, "access.")} {
		secret := tok
		if name != "access token" {
			parts := strings.Split(tok, ".")
			require.Len(t, parts, 3, name)
			id, err := base64.RawStdEncoding.DecodeString(parts[0])
			require.NoError(t, err, name)
			if name == "bot token" {
				assert.Equal(t, srv.BotID().String(), string(id), name)
			} else {
				assert.Equal(t, member.User.ID.String(), string(id), name)
			}
			secret = parts[2]
		}
		raw, err := base64.RawURLEncoding.DecodeString(secret)
		require.NoError(t, err, name)
		assert.Len(t, raw, 32, "%s: 256 random bits", name)
		assert.NotContains(t, secret, member.User.ID.String(), name)
		assert.NotContains(t, secret, srv.BotID().String(), name)
	}
	assert.NotEqual(t, memberToken, again)
	memberSecret, againSecret := memberToken[strings.LastIndex(memberToken, ".")+1:], again[strings.LastIndex(again, ".")+1:]
	assert.NotEqual(t, memberSecret[:8], againSecret[:8], "no common prefix of the secrets")

	// What an outsider holding only the webhook URL learns: the bot's id.
	status, body := rawDo(t, "GET", srv.BaseURL()+"/webhooks/"+hook.ID.String()+"/"+hook.Token, "", "", "")
	require.Equal(t, 200, status)
	assert.Contains(t, string(body), `"application_id":"`+srv.BotID().String()+`"`)
	// The old token scheme, and guesses around it, are refused.
	for n := range 64 {
		for _, forged := range []string{fmt.Sprintf("tok.%d.%d", srv.BotID(), n), fmt.Sprintf("access.%d.%d", srv.BotID(), n)} {
			for _, scheme := range []string{"Bot ", "Bearer "} {
				status, _ := rawDo(t, "PUT", srv.BaseURL()+"/guilds/"+g.ID.String()+"/bans/"+member.User.ID.String(), scheme+forged, "application/json", "{}")
				require.Equal(t, 401, status, "%s%s", scheme, forged)
			}
		}
	}
	_, banned := srv.Ban(g.ID, member.User.ID)
	assert.False(t, banned)

	// Every reading operation's answer, as the bot, the member and an
	// outsider with the webhook URL: no token, nor 12 characters of one,
	// in any body or header. (A webhook's token is shown to those who
	// manage webhooks, as on the reference platform.)
	values := map[string]string{
		"{guild.id}": g.ID.String(), "{channel.id}": ch.ID.String(), "{user.id}": member.User.ID.String(),
		"{role.id}": role.ID.String(), "{invite.code}": inv.Code, "{webhook.id}": hook.ID.String(),
		"{webhook.token}": hook.Token, "{message.id}": "1", "{integration.id}": integration.ID.String(),
	}
	f, err := os.Open(filepath.Join("..", "testdata", "operations.txt"))
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	answers := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "\t")
		if parts[1] != http.MethodGet {
			continue
		}
		path := parts[2]
		for k, v := range values {
			path = strings.ReplaceAll(path, k, v)
		}
		for _, auth := range []string{"Bot " + srv.Token(), "Bot " + memberToken, ""} {
			req, err := http.NewRequestWithContext(t.Context(), "GET", srv.BaseURL()+path, nil)
			require.NoError(t, err)
			if auth != "" {
				req.Header.Set("Authorization", auth)
			}
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			require.NoError(t, err)
			seen := string(b) + fmt.Sprint(resp.Header)
			for name, secret := range secrets {
				if name == "webhook token" && (strings.Contains(parts[2], "{webhook.token}") || auth == "Bot "+srv.Token()) {
					continue // the caller sent it, or manages webhooks and is shown their tokens
				}
				for i := 0; i+12 <= len(secret); i += 4 {
					require.NotContains(t, seen, secret[i:i+12], "%s %s shows part of the %s", parts[1], parts[2], name)
				}
			}
			answers++
		}
	}
	require.NoError(t, sc.Err())
	assert.Greater(t, answers, 40)
}

// TestCredentialSchemeMustMatch: a bot token counts only with "Bot", an
// OAuth2 access token only with "Bearer"; the other way round is 401, as
// on the reference platform.
func TestCredentialSchemeMustMatch(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "schemes"})
	m := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "m"}})
	bot, access := srv.NewToken(m.User.ID), srv.NewAccessToken(m.User.ID)
	url := srv.BaseURL() + "/guilds/" + g.ID.String()
	for auth, want := range map[string]int{
		"Bot " + bot:       200,
		"Bearer " + access: 200,
		"Bot " + access:    401,
		"Bearer " + bot:    401,
		"Bot  " + bot:      401,
		"bot " + bot:       401,
	} {
		status, body := rawDo(t, "GET", url, auth, "", "")
		assert.Equal(t, want, status, "%.12s...: %s", auth, body)
	}
}

// hierarchyFixture is a guild with a ladder of roles: the caller ("mod",
// position 5, every moderation permission but ADMINISTRATOR), a peer
// holding the same role, a senior above it, a junior below it, and the
// owner.
type hierarchyFixture struct {
	srv                    *guildkittest.Server
	g                      guildkit.Guild
	owner                  guildkit.User
	modRole, high, low     guildkit.Role
	bottom                 guildkit.Role // held by nobody
	mod, peer, senior, jun guildkit.Member
	c                      *guildkit.Client // as mod
}

const modPerms = guildkit.PermissionKickMembers | guildkit.PermissionBanMembers | guildkit.PermissionModerateMembers |
	guildkit.PermissionManageRoles | guildkit.PermissionManageNicknames | guildkit.PermissionManageGuild

func newHierarchy(t *testing.T, perms guildkit.Permissions) *hierarchyFixture {
	t.Helper()
	srv := guildkittest.NewServer(t)
	owner := srv.AddUser(guildkit.User{Username: "owner"})
	g := srv.AddGuild(guildkit.Guild{Name: "ladder", OwnerID: owner.ID})
	f := &hierarchyFixture{srv: srv, g: g, owner: owner}
	f.high = srv.AddRole(g.ID, guildkit.Role{Name: "high", Position: 7})
	f.modRole = srv.AddRole(g.ID, guildkit.Role{Name: "mod", Position: 5, Permissions: perms})
	f.low = srv.AddRole(g.ID, guildkit.Role{Name: "low", Position: 3})
	f.bottom = srv.AddRole(g.ID, guildkit.Role{Name: "bottom", Position: 2})
	add := func(name string, roles ...guildkit.Snowflake) guildkit.Member {
		return srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: name}, Roles: roles})
	}
	f.mod = add("mod", f.modRole.ID)
	f.peer = add("peer", f.modRole.ID)
	f.senior = add("senior", f.high.ID)
	f.jun = add("junior", f.low.ID)
	f.c = srv.ClientAs(f.mod.User.ID)
	return f
}

// TestRoleHierarchyRefusals: each moderation and role operation on a
// member or role not below the caller's highest role is refused with 403
// (50013) and changes nothing; the same operation on one below succeeds,
// and the owner is exempt.
func TestRoleHierarchyRefusals(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	soon := time.Now().Add(time.Hour)
	type op struct {
		name string
		do   func(f *hierarchyFixture, c *guildkit.Client, target guildkit.Member) error
	}
	memberOps := []op{
		{"kick", func(f *hierarchyFixture, c *guildkit.Client, m guildkit.Member) error {
			return c.Members.Remove(ctx, f.g.ID, m.User.ID)
		}},
		{"ban", func(f *hierarchyFixture, c *guildkit.Client, m guildkit.Member) error {
			return c.Bans.Create(ctx, f.g.ID, m.User.ID, nil)
		}},
		{"time out", func(f *hierarchyFixture, c *guildkit.Client, m guildkit.Member) error {
			_, err := c.Members.Timeout(ctx, f.g.ID, m.User.ID, soon)
			return err
		}},
		{"change roles", func(f *hierarchyFixture, c *guildkit.Client, m guildkit.Member) error {
			_, err := c.Members.Modify(ctx, f.g.ID, m.User.ID, &guildkit.MemberModifyParams{Roles: guildkit.Some(append(m.Roles, f.bottom.ID))})
			return err
		}},
		{"nickname", func(f *hierarchyFixture, c *guildkit.Client, m guildkit.Member) error {
			_, err := c.Members.Modify(ctx, f.g.ID, m.User.ID, &guildkit.MemberModifyParams{Nick: guildkit.Some("renamed")})
			return err
		}},
		{"add member role", func(f *hierarchyFixture, c *guildkit.Client, m guildkit.Member) error {
			return c.Members.AddRole(ctx, f.g.ID, m.User.ID, f.bottom.ID)
		}},
	}
	for _, o := range memberOps {
		t.Run(o.name, func(t *testing.T) {
			t.Parallel()
			f := newHierarchy(t, modPerms)
			for who, target := range map[string]guildkit.Member{"peer (same role)": f.peer, "senior": f.senior} {
				before, _ := f.srv.Member(f.g.ID, target.User.ID)
				requireMissingPermissions(t, o.do(f, f.c, target), "%s on the %s", o.name, who)
				after, ok := f.srv.Member(f.g.ID, target.User.ID)
				require.True(t, ok, "%s: still a member", who)
				assert.Equal(t, before, after, "%s: unchanged", who)
			}
			assert.Empty(t, f.srv.EventsNamed(guildkit.EventGuildMemberUpdate))
			assert.Empty(t, f.srv.EventsNamed(guildkit.EventGuildMemberRemove))
			assert.Empty(t, f.srv.EventsNamed(guildkit.EventGuildBanAdd))
			// Teeth: the same operation on the junior goes through, and
			// the owner may do it to anyone.
			require.NoError(t, o.do(f, f.c, f.jun), "%s on the junior", o.name)
			require.NoError(t, o.do(f, f.srv.ClientAs(f.owner.ID), f.senior), "%s by the owner", o.name)
		})
	}

	t.Run("administrator is not exempt", func(t *testing.T) {
		t.Parallel()
		f := newHierarchy(t, guildkit.PermissionAdministrator)
		requireMissingPermissions(t, f.c.Members.Remove(ctx, f.g.ID, f.senior.User.ID))
		requireMissingPermissions(t, f.c.Bans.Create(ctx, f.g.ID, f.peer.User.ID, nil))
		require.NoError(t, f.c.Members.Remove(ctx, f.g.ID, f.jun.User.ID))
	})

	t.Run("own roles and nickname", func(t *testing.T) {
		t.Parallel()
		f := newHierarchy(t, modPerms)
		_, err := f.c.Members.Modify(ctx, f.g.ID, f.mod.User.ID, &guildkit.MemberModifyParams{
			Nick: guildkit.Some("me"), Roles: guildkit.Some([]guildkit.Snowflake{f.modRole.ID, f.low.ID}),
		})
		require.NoError(t, err, "a member may change its own nickname and give itself a lower role")
		_, err = f.c.Members.Modify(ctx, f.g.ID, f.mod.User.ID, &guildkit.MemberModifyParams{
			Roles: guildkit.Some([]guildkit.Snowflake{f.modRole.ID, f.high.ID}),
		})
		requireMissingPermissions(t, err, "but not a higher role")
		requireMissingPermissions(t, f.c.Members.AddRole(ctx, f.g.ID, f.mod.User.ID, f.modRole.ID), "nor its own highest")
	})

	t.Run("roles at or above the caller's highest", func(t *testing.T) {
		t.Parallel()
		f := newHierarchy(t, modPerms)
		for name, r := range map[string]guildkit.Role{"its own highest": f.modRole, "a higher one": f.high} {
			_, err := f.c.Roles.Modify(ctx, f.g.ID, r.ID, &guildkit.RoleModifyParams{Name: guildkit.Some("x")})
			requireMissingPermissions(t, err, "edit %s", name)
			requireMissingPermissions(t, f.c.Roles.Delete(ctx, f.g.ID, r.ID), "delete %s", name)
			requireMissingPermissions(t, f.c.Members.AddRole(ctx, f.g.ID, f.jun.User.ID, r.ID), "assign %s", name)
			requireMissingPermissions(t, f.c.Members.RemoveRole(ctx, f.g.ID, f.peer.User.ID, r.ID), "remove %s", name)
			_, err = f.c.Members.Modify(ctx, f.g.ID, f.jun.User.ID, &guildkit.MemberModifyParams{Roles: guildkit.Some([]guildkit.Snowflake{f.low.ID, r.ID})})
			requireMissingPermissions(t, err, "assign %s through Modify Guild Member", name)
			_, err = f.c.Roles.ModifyPositions(ctx, f.g.ID, []guildkit.RolePositionParams{{ID: r.ID, Position: guildkit.Some(1)}})
			requireMissingPermissions(t, err, "move %s", name)
			got, _ := f.srv.Role(f.g.ID, r.ID)
			assert.Equal(t, r, got, "%s unchanged", name)
		}
		_, err := f.c.Roles.ModifyPositions(ctx, f.g.ID, []guildkit.RolePositionParams{{ID: f.low.ID, Position: guildkit.Some(6)}})
		requireMissingPermissions(t, err, "move a lower role above the caller's highest")
		jun, _ := f.srv.Member(f.g.ID, f.jun.User.ID)
		assert.Equal(t, []guildkit.Snowflake{f.low.ID}, jun.Roles)
		assert.Empty(t, f.srv.EventsNamed(guildkit.EventGuildRoleUpdate))
		assert.Empty(t, f.srv.EventsNamed(guildkit.EventGuildRoleDelete))

		// Teeth: the lower role may be edited, moved below and deleted.
		_, err = f.c.Roles.Modify(ctx, f.g.ID, f.low.ID, &guildkit.RoleModifyParams{Name: guildkit.Some("lower")})
		require.NoError(t, err)
		_, err = f.c.Roles.ModifyPositions(ctx, f.g.ID, []guildkit.RolePositionParams{{ID: f.low.ID, Position: guildkit.Some(4)}})
		require.NoError(t, err)
		require.NoError(t, f.c.Roles.Delete(ctx, f.g.ID, f.low.ID))
	})

	t.Run("bulk ban skips those not below", func(t *testing.T) {
		t.Parallel()
		f := newHierarchy(t, modPerms)
		res, err := f.c.Bans.Bulk(ctx, f.g.ID, &guildkit.BanBulkParams{UserIDs: []guildkit.Snowflake{f.senior.User.ID, f.peer.User.ID, f.owner.ID, f.jun.User.ID}})
		require.NoError(t, err)
		assert.Equal(t, []guildkit.Snowflake{f.jun.User.ID}, res.BannedUsers)
		assert.ElementsMatch(t, []guildkit.Snowflake{f.senior.User.ID, f.peer.User.ID, f.owner.ID}, res.FailedUsers)
	})
}

// TestOwnerIsProtected: the bypasses found with KICK_MEMBERS,
// BAN_MEMBERS and MANAGE_NICKNAMES (each alone, on a member with no role
// and on one with the highest role, even with ADMINISTRATOR) are refused.
func TestOwnerIsProtected(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	for _, perms := range []guildkit.Permissions{
		guildkit.PermissionKickMembers, guildkit.PermissionBanMembers, guildkit.PermissionManageNicknames,
		guildkit.PermissionAdministrator,
	} {
		for _, top := range []bool{false, true} {
			srv := guildkittest.NewServer(t)
			owner := srv.AddUser(guildkit.User{Username: "owner"})
			g := srv.AddGuild(guildkit.Guild{Name: "owned", OwnerID: owner.ID, Roles: []guildkit.Role{
				{ID: 0, Name: "@everyone", Permissions: perms},
			}})
			var roles []guildkit.Snowflake
			if top {
				roles = append(roles, srv.AddRole(g.ID, guildkit.Role{Name: "top", Position: 99, Permissions: perms}).ID)
			}
			m := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "m"}, Roles: roles})
			c := srv.ClientAs(m.User.ID)
			what := fmt.Sprintf("%v, top role %v", perms, top)
			if perms.Has(guildkit.PermissionKickMembers) {
				requireMissingPermissions(t, c.Members.Remove(ctx, g.ID, owner.ID), "kick: %s", what)
			}
			if perms.Has(guildkit.PermissionBanMembers) {
				requireMissingPermissions(t, c.Bans.Create(ctx, g.ID, owner.ID, nil), "ban: %s", what)
			}
			if perms.Has(guildkit.PermissionManageNicknames) {
				_, err := c.Members.Modify(ctx, g.ID, owner.ID, &guildkit.MemberModifyParams{Nick: guildkit.Some("pwned")})
				requireMissingPermissions(t, err, "nickname: %s", what)
			}
			o, ok := srv.Member(g.ID, owner.ID)
			require.True(t, ok, "the owner is still a member: %s", what)
			assert.Nil(t, o.Nick, what)
			_, banned := srv.Ban(g.ID, owner.ID)
			assert.False(t, banned, what)
		}
	}
}

// TestGrantLimit: the escalation found with MANAGE_ROLES alone (create a
// role with ADMINISTRATOR, take it, ban someone; or give @everyone
// ADMINISTRATOR) is refused at its first step: a caller may not grant a
// permission it does not hold.
func TestGrantLimit(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f := newHierarchy(t, guildkit.PermissionManageRoles)

	_, err := f.c.Roles.Create(ctx, f.g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("root"), Permissions: guildkit.Some(guildkit.PermissionAdministrator)})
	requireMissingPermissions(t, err, "create a role with ADMINISTRATOR")
	_, err = f.c.Roles.Modify(ctx, f.g.ID, f.g.ID, &guildkit.RoleModifyParams{Permissions: guildkit.Some(guildkit.PermissionAdministrator)})
	requireMissingPermissions(t, err, "give @everyone ADMINISTRATOR")
	_, err = f.c.Roles.Modify(ctx, f.g.ID, f.low.ID, &guildkit.RoleModifyParams{Permissions: guildkit.Some(guildkit.PermissionBanMembers)})
	requireMissingPermissions(t, err, "give a lower role BAN_MEMBERS")
	assert.Empty(t, f.srv.EventsNamed(guildkit.EventGuildRoleCreate))
	assert.Empty(t, f.srv.EventsNamed(guildkit.EventGuildRoleUpdate))
	assert.Equal(t, guildkit.PermissionManageRoles, f.srv.Permissions(f.g.ID, f.mod.User.ID)&^guildkittest.DefaultEveryonePermissions)
	requireMissingPermissions(t, f.c.Bans.Create(ctx, f.g.ID, f.jun.User.ID, nil), "and so no ban")

	// Teeth: what the caller holds may be granted; a bit the role already
	// has may stay while another field changes.
	r, err := f.c.Roles.Create(ctx, f.g.ID, &guildkit.RoleCreateParams{Permissions: guildkit.Some(guildkit.PermissionManageRoles | guildkit.PermissionViewChannel)})
	require.NoError(t, err)
	assert.Equal(t, guildkit.PermissionManageRoles|guildkit.PermissionViewChannel, r.Permissions)
	kicker := f.srv.AddRole(f.g.ID, guildkit.Role{Name: "kicker", Position: 2, Permissions: guildkit.PermissionKickMembers})
	_, err = f.c.Roles.Modify(ctx, f.g.ID, kicker.ID, &guildkit.RoleModifyParams{Name: guildkit.Some("kickers"), Permissions: guildkit.Some(guildkit.PermissionKickMembers)})
	require.NoError(t, err)
}
