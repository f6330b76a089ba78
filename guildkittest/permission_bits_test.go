package guildkittest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// definedPermissions is the union of the permissions guildkit names, built
// here from the constants rather than from the server's own value.
const definedPermissions = guildkit.PermissionCreateInstantInvite | guildkit.PermissionKickMembers | guildkit.PermissionBanMembers |
	guildkit.PermissionAdministrator | guildkit.PermissionManageChannels | guildkit.PermissionManageGuild | guildkit.PermissionAddReactions |
	guildkit.PermissionViewAuditLog | guildkit.PermissionPrioritySpeaker | guildkit.PermissionStream | guildkit.PermissionViewChannel |
	guildkit.PermissionSendMessages | guildkit.PermissionSendTTSMessages | guildkit.PermissionManageMessages | guildkit.PermissionEmbedLinks |
	guildkit.PermissionAttachFiles | guildkit.PermissionReadMessageHistory | guildkit.PermissionMentionEveryone |
	guildkit.PermissionUseExternalEmojis | guildkit.PermissionViewGuildInsights | guildkit.PermissionConnect | guildkit.PermissionSpeak |
	guildkit.PermissionMuteMembers | guildkit.PermissionDeafenMembers | guildkit.PermissionMoveMembers | guildkit.PermissionUseVAD |
	guildkit.PermissionChangeNickname | guildkit.PermissionManageNicknames | guildkit.PermissionManageRoles |
	guildkit.PermissionManageWebhooks | guildkit.PermissionManageGuildExpressions | guildkit.PermissionUseApplicationCommands |
	guildkit.PermissionRequestToSpeak | guildkit.PermissionManageEvents | guildkit.PermissionManageThreads |
	guildkit.PermissionCreatePublicThreads | guildkit.PermissionCreatePrivateThreads | guildkit.PermissionUseExternalStickers |
	guildkit.PermissionSendMessagesInThreads | guildkit.PermissionUseEmbeddedActivities | guildkit.PermissionModerateMembers |
	guildkit.PermissionViewCreatorMonetizationAnalytics | guildkit.PermissionUseSoundboard | guildkit.PermissionCreateGuildExpressions |
	guildkit.PermissionCreateEvents | guildkit.PermissionUseExternalSounds | guildkit.PermissionSendVoiceMessages | guildkit.PermissionSetVoiceChannelStatus |
	guildkit.PermissionSendPolls | guildkit.PermissionUseExternalApps | guildkit.PermissionPinMessages | guildkit.PermissionBypassSlowmode

// TestPermissionsHoldOnlyDefinedBits: the owner and an ADMINISTRATOR hold
// every permission the platform defines and no undefined bit; a role
// carrying undefined bits gives none of them.
func TestPermissionsHoldOnlyDefinedBits(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "bits"})
	admin := srv.AddRole(g.ID, guildkit.Role{Name: "admin", Permissions: guildkit.PermissionAdministrator})
	odd := srv.AddRole(g.ID, guildkit.Role{Name: "odd", Permissions: guildkit.PermissionKickMembers | 1<<60 | 1<<63})
	a := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "a"}, Roles: []guildkit.Snowflake{admin.ID}})
	o := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "o"}, Roles: []guildkit.Snowflake{odd.ID}})

	assert.Equal(t, definedPermissions, srv.Permissions(g.ID, srv.BotID()), "the owner")
	assert.Equal(t, definedPermissions, srv.Permissions(g.ID, a.User.ID), "ADMINISTRATOR")
	assert.Equal(t, guildkit.Permissions(8866461766385663), definedPermissions, "bits 0-46 and 48-52")
	p := srv.Permissions(g.ID, o.User.ID)
	assert.True(t, p.Has(guildkit.PermissionKickMembers))
	assert.Zero(t, p&^definedPermissions, "no undefined bit: %v", p)
}

// TestInteractionPermissionsFitASignedInteger: the interaction an owner's
// bot receives, and an administrator's click, decode the way discordgo and
// disgo decode them — app_permissions and member.permissions as a signed
// 64-bit integer in a string — and carry every defined permission.
func TestInteractionPermissionsFitASignedInteger(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "owned by the bot"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	admin := srv.AddRole(g.ID, guildkit.Role{Name: "admin", Permissions: guildkit.PermissionAdministrator})
	a := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "a"}, Roles: []guildkit.Snowflake{admin.ID}})
	msg := srv.AddApplicationMessage(ch.ID, guildkit.Message{Content: "Pick", Components: components.List{
		components.NewActionRow(components.PrimaryButton("go", "Go"))}})
	var body []byte
	srv.SetInteractionsHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var err error
		body, err = io.ReadAll(r.Body)
		assert.NoError(t, err)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"type":6}`))
	}))
	out, err := srv.Click(t.Context(), a.User.ID, msg.ID, "go")
	require.NoError(t, err)
	require.Equal(t, guildkittest.OutcomeDeferred, out.Kind, out.String())

	var signed struct {
		AppPermissions int64 `json:"app_permissions,string"`
		Member         struct {
			Permissions int64 `json:"permissions,string"`
		} `json:"member"`
	}
	require.NoError(t, json.Unmarshal(body, &signed), "as a signed 64-bit integer: %s", body)
	assert.Equal(t, int64(definedPermissions), signed.AppPermissions)
	assert.Equal(t, int64(definedPermissions), signed.Member.Permissions)
	assert.Equal(t, definedPermissions, out.Interaction.AppPermissions)
}
