package guildkit

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The gateway-only objects decode with the SDK's decoder exactly as with
// encoding/json, with every nullable field set and with each null.
func TestGatewayTypesDecodingMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, body := range []string{
		`{"channel_id":"613425648685547551","user_id":"80351110224678912","member":{"user":{"id":"1","username":"u"},"roles":["2"],"joined_at":"2015-04-26T06:26:56.936123+00:00","deaf":false,"mute":true,"flags":1},"session_id":"f8d2","deaf":false,"mute":true,"self_deaf":false,"self_mute":true,"self_stream":true,"self_video":false,"suppress":false,"request_to_speak_timestamp":"2026-11-26T09:00:00.123456+00:00"}`,
		`{"channel_id":null,"user_id":"1","session_id":"s","deaf":true,"mute":false,"self_deaf":true,"self_mute":false,"self_video":true,"suppress":true,"request_to_speak_timestamp":null,"guild_id":"3"}`,
		`{"user":{"id":"80351110224678912"},"status":"online","client_status":{"desktop":"online","mobile":"idle"},"activities":[{"name":"Custom Status","type":4,"state":"Writing Go","emoji":{"name":"🐹"},"created_at":1764140000000},{"name":"Code","type":0,"application_id":"383226320970055681","details":"Editing","state":null,"url":null,"timestamps":{"start":1764139000000},"assets":{"large_image":"1","large_text":"t"},"buttons":["View"],"party":{"id":"p1","size":[1,4]},"secrets":{"join":"j"},"instance":true,"flags":1}]}`,
		`{"id":"1","guild_id":"2","channel_id":"3","topic":"Office hours","privacy_level":2,"discoverable_disabled":false,"guild_scheduled_event_id":null}`,
		`{"name":"quack","sound_id":"1","volume":0.75,"emoji_id":null,"emoji_name":"🦆","guild_id":"2","available":true,"user":{"id":"3","username":"u"}}`,
	} {
		checkAnswerDecodingAs(t, []byte(body), VoiceState{}, Presence{}, StageInstance{}, SoundboardSound{}, Activity{})
	}
}

func TestActivityTypeString(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "PLAYING", ActivityTypePlaying.String())
	assert.Equal(t, "COMPETING", ActivityTypeCompeting.String())
	assert.Contains(t, ActivityType(9).String(), "9")
}
