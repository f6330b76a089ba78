package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/internal/jsondec"
)

// dispatch is a dispatch frame of testdata/.
type dispatch struct {
	Op int             `json:"op"`
	T  string          `json:"t"`
	S  int64           `json:"s"`
	D  json.RawMessage `json:"d"`
}

// fixtures returns every dispatch of testdata/, by file name.
func fixtures(t testing.TB) map[string]dispatch {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	require.NoError(t, err)
	out := map[string]dispatch{}
	for _, n := range names {
		if filepath.Base(n) == "member.json" {
			continue
		}
		raw, err := os.ReadFile(n)
		require.NoError(t, err)
		var d dispatch
		require.NoError(t, json.Unmarshal(raw, &d), n)
		out[filepath.Base(n)] = d
	}
	require.NotEmpty(t, out)
	return out
}

// typedEvents are a zero value of every typed event.
var typedEvents = []Event{
	(*Ready)(nil), (*Resumed)(nil), (*RateLimited)(nil), (*GuildCreate)(nil), (*GuildUpdate)(nil),
	(*GuildDelete)(nil), (*ChannelCreate)(nil), (*ChannelUpdate)(nil), (*ChannelDelete)(nil),
	(*GuildMemberAdd)(nil), (*GuildMemberUpdate)(nil), (*GuildMemberRemove)(nil),
	(*GuildMembersChunk)(nil), (*GuildBanAdd)(nil), (*GuildBanRemove)(nil), (*GuildRoleCreate)(nil),
	(*GuildRoleUpdate)(nil), (*GuildRoleDelete)(nil), (*GuildIntegrationsUpdate)(nil),
	(*IntegrationCreate)(nil), (*IntegrationUpdate)(nil), (*IntegrationDelete)(nil),
	(*InviteCreate)(nil), (*InviteDelete)(nil), (*WebhooksUpdate)(nil), (*MessageCreate)(nil), (*MessageDeleteBulk)(nil),
	(*MessageUpdate)(nil), (*MessageDelete)(nil), (*InteractionCreate)(nil),
}

// referenceDecode decodes data into a new value of e's type with
// encoding/json alone, as decodeEvent would finish it.
func referenceDecode(t testing.TB, e Event, data []byte) (Event, error) {
	t.Helper()
	ref := reflect.New(reflect.TypeOf(e).Elem()).Interface()
	if ic, ok := ref.(*InteractionCreate); ok {
		ic.Interaction = new(guildkit.Interaction)
		return ic, json.Unmarshal(data, ic.Interaction)
	}
	if err := json.Unmarshal(data, ref); err != nil {
		return nil, err
	}
	if f, ok := ref.(interface{ fill() }); ok {
		f.fill()
	}
	if n, ok := ref.(interface{ noteFields([]byte) error }); ok {
		if err := n.noteFields(data); err != nil {
			return nil, err
		}
	}
	return ref.(Event), nil
}

func TestEveryTypedEventIsDecodedAndNamed(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, e := range typedEvents {
		name := e.EventName() // on a nil pointer
		require.NotEmpty(t, name)
		assert.False(t, seen[name], "%s named twice", name)
		seen[name] = true
		assert.Contains(t, eventDecoders, name)
		assert.Equal(t, strings.ToUpper(name), name)
	}
	assert.Len(t, eventDecoders, len(typedEvents), "a decoder without a type in typedEvents")
	assert.Equal(t, "", (*RawEvent)(nil).EventName())
}

func TestFixturesDecodeAsEncodingJSON(t *testing.T) {
	t.Parallel()
	fx := fixtures(t)
	covered := map[string]bool{}
	for file, d := range fx {
		t.Run(file, func(t *testing.T) {
			buf := append([]byte(nil), d.D...)
			e, err := decodeEvent(d.T, buf)
			require.NoError(t, err)
			for i := range buf {
				buf[i] = 'x' // the caller reuses its buffer: nothing may refer to it
			}
			if _, typed := eventDecoders[d.T]; !typed {
				raw, ok := e.(*RawEvent)
				require.True(t, ok, "%T", e)
				assert.Equal(t, d.T, raw.Name)
				assert.JSONEq(t, string(d.D), string(raw.Data))
				return
			}
			covered[d.T] = true
			assert.Equal(t, d.T, e.EventName())
			ref, err := referenceDecode(t, e, d.D)
			require.NoError(t, err)
			assert.Equal(t, ref, e)
			if _, ok := e.(*InteractionCreate); !ok {
				// The SDK's decoder decoded it, not encoding/json.
				fast := reflect.New(reflect.TypeOf(e).Elem()).Interface()
				assert.True(t, jsondec.Decode(d.D, fast), "jsondec declined %s", d.T)
			}
		})
	}
	t.Cleanup(func() {
		for _, e := range typedEvents {
			assert.True(t, covered[e.EventName()], "no fixture for %s", e.EventName())
		}
	})
}

func decodeFixture[E Event](t *testing.T, file string) E {
	t.Helper()
	d := fixtures(t)[file]
	e, err := decodeEvent(d.T, d.D)
	require.NoError(t, err)
	out, ok := e.(E)
	require.True(t, ok, "%T", e)
	return out
}

func TestGuildMemberAddKeepsEveryField(t *testing.T) {
	t.Parallel()
	e := decodeFixture[*GuildMemberAdd](t, "guild_member_add.json")
	assert.Equal(t, guildkit.Snowflake(613425648685547541), e.GuildID)
	require.NotNil(t, e.User)
	assert.Equal(t, guildkit.Snowflake(80351110224678912), e.User.ID)
	assert.Equal(t, "Nelly é 😀", e.User.DisplayName())
	assert.Equal(t, `Nelly the "Gopher"`, e.DisplayName())
	require.NotNil(t, e.Avatar)
	require.NotNil(t, e.Banner)
	require.NotNil(t, e.PremiumSince)
	require.NotNil(t, e.JoinedAt)
	assert.Equal(t, 936123000, e.JoinedAt.Nanosecond(), "microseconds kept")
	require.NotNil(t, e.CommunicationDisabledUntil)
	assert.True(t, e.TimedOut(time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)))
	require.NotNil(t, e.Pending)
	assert.False(t, *e.Pending)
	assert.Len(t, e.Roles, 4)
	assert.True(t, e.Mute)
	assert.Equal(t, guildkit.MemberFlags(11), e.Flags)
	require.NotNil(t, e.AvatarDecorationData)
}

func TestGuildCreateCarriesItsExtras(t *testing.T) {
	t.Parallel()
	e := decodeFixture[*GuildCreate](t, "guild_create.json")
	assert.Equal(t, guildkit.Snowflake(613425648685547541), e.ID)
	assert.Equal(t, "Gopher Guild 🐹", e.Name)
	assert.True(t, e.Large)
	assert.False(t, e.Unavailable)
	assert.Equal(t, 1001, e.MemberCount)
	assert.Equal(t, 678901000, e.JoinedAt.Nanosecond())
	require.Len(t, e.Members, 1)
	require.Len(t, e.Roles, 2)
	assert.Equal(t, guildkit.Permissions(1099511627775), e.Roles[1].Permissions)
	require.Len(t, e.Channels, 4)
	for _, c := range append(e.Channels, e.Threads...) {
		assert.Equal(t, e.ID, c.GuildID, "channel %s: the guild id the platform leaves out is filled in", c.ID)
	}
	require.Len(t, e.VoiceStates, 1)
	assert.Nil(t, e.VoiceStates[0].GuildID)
	require.NotNil(t, e.VoiceStates[0].Member)
	require.Len(t, e.Presences, 1)
	assert.Equal(t, guildkit.StatusOnline, e.Presences[0].Status)
	require.Len(t, e.Presences[0].Activities, 2)
	assert.Equal(t, []string{"View repository"}, e.Presences[0].Activities[1].Buttons)
	assert.Len(t, e.StageInstances, 1)
	assert.Len(t, e.GuildScheduledEvents, 1)
	assert.Len(t, e.SoundboardSounds, 1)
	assert.Len(t, e.Threads, 1)

	u := decodeFixture[*GuildCreate](t, "guild_create_unavailable.json")
	assert.True(t, u.Unavailable)
	assert.Equal(t, e.ID, u.ID)
	assert.Nil(t, u.Members)
}

func TestReadyAndSessionEvents(t *testing.T) {
	t.Parallel()
	r := decodeFixture[*Ready](t, "ready.json")
	assert.Equal(t, 10, r.V)
	assert.Equal(t, "7f3b2c1d9e8a4f5b6c7d8e9f0a1b2c3d", r.SessionID)
	assert.Equal(t, "wss://gateway-us-east1-b.example.com", r.ResumeGatewayURL)
	require.NotNil(t, r.Shard)
	assert.Equal(t, [2]int{0, 1}, *r.Shard)
	assert.Len(t, r.Guilds, 2)
	assert.True(t, r.User.Bot)
	assert.Equal(t, PrivilegedIntents, r.Application.Flags.Intents(), "565248: the three LIMITED flags")

	rl := decodeFixture[*RateLimited](t, "rate_limited.json")
	assert.Equal(t, 8, rl.Opcode)
	assert.Equal(t, 27654*time.Millisecond, rl.Wait())
	assert.Equal(t, "chunk-1", rl.Meta.Nonce)

	decodeFixture[*Resumed](t, "resumed.json")
	assert.False(t, decodeFixture[*GuildDelete](t, "guild_delete_left.json").Unavailable)
	assert.True(t, decodeFixture[*GuildDelete](t, "guild_delete.json").Unavailable)
}

func TestMessageAndInviteEvents(t *testing.T) {
	t.Parallel()
	m := decodeFixture[*MessageCreate](t, "message_create.json")
	require.NotNil(t, m.GuildID)
	require.NotNil(t, m.Member)
	assert.Nil(t, m.Member.User, "the author's member comes without its user")
	require.NotNil(t, m.Author)
	require.NotNil(t, m.ChannelType)
	assert.Equal(t, guildkit.ChannelTypeGuildText, *m.ChannelType)
	assert.Len(t, m.Mentions, 1)
	assert.Equal(t, "Hello <@1100000000000000001> — see <#613425648685547550>\nThe \"build\" is green:\n\tok  \\guildkit\\ 😀", m.Content,
		"escapes, and an emoji as a surrogate pair, unquoted")

	inv := decodeFixture[*InviteCreate](t, "invite_create.json")
	assert.Equal(t, "gophers42", inv.Code)
	assert.Equal(t, guildkit.Snowflake(613425648685547550), inv.ChannelID)
	assert.True(t, inv.HasMetadata())
	assert.Equal(t, []guildkit.Snowflake{41771983423143937}, inv.RoleIDs)
	del := decodeFixture[*InviteDelete](t, "invite_delete.json")
	assert.Equal(t, "gophers42", del.Code)
}

func TestInteractionCreateHidesItsToken(t *testing.T) {
	t.Parallel()
	e := decodeFixture[*InteractionCreate](t, "interaction_create.json")
	require.NotNil(t, e.Interaction)
	require.NotNil(t, e.Interaction.Component, "the data is decoded by type, as for an HTTP delivery")
	token := string(e.Interaction.Token)
	require.NotEmpty(t, token)
	for _, s := range []string{
		e.String(), e.GoString(),
	} {
		assert.NotContains(t, s, token)
	}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
		assert.NotContains(t, sprintf(verb, e), token, verb)
	}
}

func TestUnknownEventIsRaw(t *testing.T) {
	t.Parallel()
	data := []byte(`{"id":"1","anything":[1,2,3]}`)
	e, err := decodeEvent("SOMETHING_NEW", data)
	require.NoError(t, err)
	raw, ok := e.(*RawEvent)
	require.True(t, ok)
	data[0] = 'x'
	assert.Equal(t, "SOMETHING_NEW", raw.EventName())
	assert.Equal(t, `{"id":"1","anything":[1,2,3]}`, string(raw.Data), "the data is copied")
	assert.Equal(t, "SOMETHING_NEW (29 bytes)", raw.String())
}

func TestBadBodyIsAnErrorNotAPanic(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, data string }{
		{"GUILD_MEMBER_ADD", `{"guild_id": {}}`},
		{"GUILD_MEMBER_ADD", `{"guild_id": "12x"}`},
		{"GUILD_CREATE", `{"members": [1]}`},
		{"GUILD_CREATE", `{"members": [`},
		{"INTERACTION_CREATE", `{"type": 3, "data": {"component_type": "x"}}`},
		{"INTERACTION_CREATE", `[]`},
		{"MESSAGE_CREATE", `{"timestamp": "yesterday"}`},
		{"GUILD_BAN_ADD", ``},
		{"GUILD_BAN_ADD", `{} {}`},
	} {
		e, err := decodeEvent(tc.name, []byte(tc.data))
		assert.Nil(t, e, "%s %s", tc.name, tc.data)
		var de *EventDecodeError
		require.True(t, errors.As(err, &de), "%s %s: %v", tc.name, tc.data, err)
		assert.Equal(t, tc.name, de.Name)
		assert.True(t, strings.HasPrefix(err.Error(), "gateway: decoding "+tc.name+": "), err.Error())
	}
}

func TestDecodeEventHoldsNoTokenInItsErrors(t *testing.T) {
	t.Parallel()
	const token = "aW50ZXJhY3Rpb246c2VjcmV0LXRva2Vu"
	_, err := decodeEvent("INTERACTION_CREATE", []byte(`{"token":"`+token+`","type":"three"}`))
	require.Error(t, err)
	assert.NotContains(t, err.Error(), token)
}

// realisticMembers returns a members array of n copies of testdata's
// member (every nullable field set), each with its own ids and names.
func realisticMembers(t testing.TB, n int) []json.RawMessage {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "member.json"))
	require.NoError(t, err)
	var compact bytes.Buffer
	require.NoError(t, json.Compact(&compact, raw))
	tmpl := compact.String()
	out := make([]json.RawMessage, n)
	for i := range n {
		s := strings.ReplaceAll(tmpl, "80351110224678912", itoa(80351110224678912+i))
		s = strings.ReplaceAll(s, `"nelly"`, `"nelly`+itoa(i)+`"`)
		s = strings.ReplaceAll(s, `Nelly the \"Gopher\"`, `Nelly the \"Gopher\" #`+itoa(i))
		out[i] = json.RawMessage(s)
	}
	return out
}

// realisticGuildCreate returns testdata's GUILD_CREATE data with n members
// whose nullable fields are all set.
func realisticGuildCreate(t testing.TB, n int) []byte {
	t.Helper()
	var g map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(fixtures(t)["guild_create.json"].D, &g))
	members, err := json.Marshal(realisticMembers(t, n))
	require.NoError(t, err)
	g["members"] = members
	g["member_count"] = json.RawMessage(itoa(n))
	b, err := json.Marshal(g)
	require.NoError(t, err)
	return b
}

func TestRealisticGuildCreateDecodesAsEncodingJSON(t *testing.T) {
	t.Parallel()
	data := realisticGuildCreate(t, 1000)
	e, err := decodeEvent("GUILD_CREATE", data)
	require.NoError(t, err)
	ref, err := referenceDecode(t, e, data)
	require.NoError(t, err)
	require.Equal(t, ref, e)
	require.Len(t, e.(*GuildCreate).Members, 1000)
	assert.Equal(t, `Nelly the "Gopher" #999`, *e.(*GuildCreate).Members[999].Nick)
}

// TestFixtureVariantsDecodeAsEncodingJSON sets every member of every
// object of every fixture to null in turn, and drops it in turn, and checks
// that the SDK's decoder still agrees with encoding/json (value or error).
func TestFixtureVariantsDecodeAsEncodingJSON(t *testing.T) {
	t.Parallel()
	for file, d := range fixtures(t) {
		if _, typed := eventDecoders[d.T]; !typed || d.T == "INTERACTION_CREATE" {
			continue
		}
		var tree any
		require.NoError(t, json.Unmarshal(d.D, &tree))
		n := 0
		forEachVariant(tree, func() {
			n++
			b, err := json.Marshal(tree)
			require.NoError(t, err)
			e, err := decodeEvent(d.T, b)
			zero := typedEventOf(d.T)
			ref, refErr := referenceDecode(t, zero, b)
			if refErr != nil {
				assert.Error(t, err, "%s: encoding/json refuses %s", file, b)
				return
			}
			require.NoError(t, err, "%s: %s", file, b)
			assert.Equal(t, ref, e, "%s: %s", file, b)
		})
		assert.Positive(t, n, file)
	}
}

// forEachVariant calls f with v changed in one place at a time: each object
// member set to null, then removed, then restored.
func forEachVariant(v any, f func()) {
	switch v := v.(type) {
	case map[string]any:
		for k, old := range v {
			v[k] = nil
			f()
			delete(v, k)
			f()
			v[k] = old
			forEachVariant(old, f)
		}
	case []any:
		for _, e := range v {
			forEachVariant(e, f)
		}
	}
}

func typedEventOf(name string) Event {
	for _, e := range typedEvents {
		if e.EventName() == name {
			return e
		}
	}
	return nil
}

// Every event the interface's operations emit has a typed event.
func TestEveryEmittedEventIsTyped(t *testing.T) {
	t.Parallel()
	names := append([]guildkit.EventName{guildkit.EventMessageCreate, guildkit.EventMessageUpdate, guildkit.EventMessageDelete}, guildkit.Events...)
	for _, name := range names {
		assert.Contains(t, eventDecoders, name.String())
		assert.Contains(t, eventNames, name.String())
	}
}
