package guildkit_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
)

func TestPermissions(t *testing.T) {
	t.Parallel()
	p := guildkit.PermissionKickMembers | guildkit.PermissionBanMembers
	assert.True(t, p.Has(guildkit.PermissionKickMembers))
	assert.False(t, p.Has(guildkit.PermissionKickMembers|guildkit.PermissionManageGuild))
	assert.True(t, p.HasAny(guildkit.PermissionManageGuild|guildkit.PermissionBanMembers))
	assert.Equal(t, "KICK_MEMBERS|BAN_MEMBERS", p.String())
	assert.Equal(t, "0", guildkit.Permissions(0).String())
	assert.Equal(t, "MODERATE_MEMBERS|1<<60", (guildkit.PermissionModerateMembers | 1<<60).String())

	b, err := json.Marshal(guildkit.PermissionAdministrator | guildkit.PermissionModerateMembers)
	require.NoError(t, err)
	assert.Equal(t, `"1099511627784"`, string(b))
	var back guildkit.Permissions
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, guildkit.PermissionAdministrator|guildkit.PermissionModerateMembers, back)
	require.NoError(t, json.Unmarshal([]byte(`8`), &back))
	assert.Equal(t, guildkit.PermissionAdministrator, back)
	assert.Error(t, json.Unmarshal([]byte(`"eight"`), &back))
}

func TestImageData(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	require.NoError(t, png.Encode(&buf, img))
	d, err := guildkit.NewImageData(buf.Bytes())
	require.NoError(t, err)
	assert.Equal(t, "image/png", d.ContentType())
	assert.True(t, strings.HasPrefix(string(d), "data:image/png;base64,"))
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(string(d), "data:image/png;base64,"))
	require.NoError(t, err)
	assert.Equal(t, buf.Bytes(), raw)
	assert.Equal(t, fmt.Sprintf("image/png, %d bytes", len(raw)), d.String(), "String does not print the whole URI")

	r, err := guildkit.ReadImageData(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	assert.Equal(t, d, r)

	_, err = guildkit.NewImageData([]byte("plain text, not an image"))
	assert.ErrorContains(t, err, "text/plain")

	gif := []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;")
	g, err := guildkit.NewImageData(gif)
	require.NoError(t, err)
	assert.Equal(t, "image/gif", g.ContentType())
}

func TestTimestampsWithAndWithoutFraction(t *testing.T) {
	t.Parallel()
	var m guildkit.Member
	require.NoError(t, json.Unmarshal([]byte(`{"roles":[],"joined_at":"2015-04-26T06:26:56.936000+00:00","premium_since":"2019-05-01T12:00:00Z","communication_disabled_until":null}`), &m))
	require.NotNil(t, m.JoinedAt)
	assert.Equal(t, time.Date(2015, 4, 26, 6, 26, 56, 936000000, time.UTC), m.JoinedAt.UTC())
	assert.Equal(t, time.Date(2019, 5, 1, 12, 0, 0, 0, time.UTC), m.PremiumSince.UTC())
	assert.Nil(t, m.CommunicationDisabledUntil)
	assert.False(t, m.TimedOut(time.Now()))
}

func TestMemberFlags(t *testing.T) {
	t.Parallel()
	f := guildkit.MemberFlagDidRejoin | guildkit.MemberFlagIsGuest
	assert.True(t, f.Has(guildkit.MemberFlagIsGuest))
	assert.Equal(t, "DID_REJOIN|IS_GUEST", f.String())
	assert.Equal(t, "AUTOMOD_QUARANTINED_GUILD_TAG", guildkit.MemberFlagAutomodQuarantinedGuildTag.String())
}

func TestEventNames(t *testing.T) {
	t.Parallel()
	assert.Len(t, guildkit.Events, 16)
	seen := map[guildkit.EventName]bool{}
	for _, e := range guildkit.Events {
		assert.False(t, seen[e], "duplicate %s", e)
		seen[e] = true
		assert.Equal(t, strings.ToUpper(string(e)), e.String())
	}
}

// TestDisplayName: the name the platform shows, from the member and user
// objects as the service sends them.
func TestDisplayName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, member, want string
	}{
		{"nickname first", `{"nick":"Nicky","user":{"id":"1","username":"nick_u","global_name":"Nick G"}}`, "Nicky"},
		{"display name next", `{"nick":null,"user":{"id":"1","username":"nick_u","global_name":"Nick G"}}`, "Nick G"},
		{"empty nickname is no nickname", `{"nick":"","user":{"id":"1","username":"nick_u","global_name":"Nick G"}}`, "Nick G"},
		{"username last", `{"nick":null,"user":{"id":"1","username":"nick_u","global_name":null}}`, "nick_u"},
		{"no global_name field", `{"user":{"id":"1","username":"nick_u"}}`, "nick_u"},
		{"no user (message events)", `{"nick":null,"roles":[]}`, ""},
		{"no user but a nickname", `{"nick":"Nicky","roles":[]}`, "Nicky"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m guildkit.Member
			require.NoError(t, json.Unmarshal([]byte(tt.member), &m))
			assert.Equal(t, tt.want, m.DisplayName())
			if m.User != nil && (m.Nick == nil || *m.Nick == "") {
				assert.Equal(t, tt.want, m.User.DisplayName())
			}
		})
	}
}

// TestAllPermissionsIsEveryNamedBit: AllPermissions holds exactly the
// bits that have a permission's name (none past them, bit 47 not).
func TestAllPermissionsIsEveryNamedBit(t *testing.T) {
	for n := range 64 {
		bit := guildkit.Permissions(1) << n
		named := !strings.HasPrefix(bit.String(), "1<<")
		if named != guildkit.AllPermissions.Has(bit) {
			t.Errorf("bit %d (%s): named %v, in AllPermissions %v", n, bit, named, guildkit.AllPermissions.Has(bit))
		}
	}
	if guildkit.AllPermissions != 8866461766385663 {
		t.Errorf("AllPermissions = %d, want 8866461766385663 (permissions.md §2)", guildkit.AllPermissions)
	}
}
