package guildkit

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/seed012df1e9/guildkit/internal/jsonenc"
	"github.com/seed012df1e9/guildkit/internal/optstate"
)

// Request bodies are encoded by internal/jsonenc. This test holds it to
// json.Marshal: every params type (and the payload_json of a message with
// files, which embeds its params), filled at random many times over with
// every Opt omitted, null or set, strings that need escaping (quotes,
// control characters, HTML characters, U+2028, invalid UTF-8), and nested
// values, gives the same bytes both ways.

var paramsTypes = []any{
	BanListParams{}, BanCreateParams{}, BanBulkParams{}, ChannelCreateParams{}, PermissionOverwriteParams{},
	ChannelPositionParams{}, GuildGetParams{}, GuildModifyParams{}, GuildIncidentActionsModifyParams{},
	GuildOnboardingModifyParams{}, OnboardingPromptParams{}, OnboardingPromptOptionParams{},
	GuildWelcomeScreenModifyParams{}, GuildWidgetModifyParams{}, InviteGetParams{}, MemberListParams{},
	MemberSearchParams{}, MemberAddParams{}, MemberModifyParams{}, MemberModifyCurrentParams{},
	MemberModifyCurrentNickParams{}, MemberPruneCountParams{}, MemberPruneParams{}, RoleCreateParams{},
	RolePositionParams{}, RoleModifyParams{}, WebhookCreateParams{}, WebhookModifyParams{},
	WebhookModifyWithTokenParams{}, WebhookCompatParams{}, WebhookExecuteParams{}, WebhookMessageGetParams{},
	WebhookMessageEditParams{}, WebhookMessageDeleteParams{},
	struct {
		*WebhookExecuteParams
		Attachments []PartialAttachment `json:"attachments,omitzero"`
	}{},
}

var fillStrings = []string{"", "build log", `say "hi" \ there`, "<b>&amp;</b>", "line\nbreak\ttab\r\x01\x1f",
	"caf\u00e9 \u2028 \u2029 \U0001F600", "bad \xff\xfe utf-8", "0", "null"}

// fill sets v, addressable, to a random value of its type, depth levels
// deep at most.
func fill(r *rand.Rand, v reflect.Value, depth int) {
	t := v.Type()
	if t.Kind() == reflect.Struct && t.NumField() == 2 && t.Field(1).Type == reflect.TypeFor[optstate.State]() {
		state := optstate.State(r.IntN(3))
		if state == optstate.Value {
			fill(r, reflect.NewAt(t.Field(0).Type, unsafe.Pointer(v.Field(0).UnsafeAddr())).Elem(), depth)
		}
		*(*optstate.State)(unsafe.Pointer(v.Field(1).UnsafeAddr())) = state
		return
	}
	if t == reflect.TypeFor[time.Time]() {
		v.Set(reflect.ValueOf(time.Unix(r.Int64N(4e9), r.Int64N(1e9)).UTC()))
		return
	}
	switch t.Kind() {
	case reflect.String:
		v.SetString(fillStrings[r.IntN(len(fillStrings))])
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(r.IntN(2000)) - 1000)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(r.Uint64() >> uint(64-t.Bits()+r.IntN(t.Bits())))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(r.Float64() * 1000)
	case reflect.Pointer:
		if depth > 0 && r.IntN(2) == 0 {
			p := reflect.New(t.Elem())
			fill(r, p.Elem(), depth-1)
			v.Set(p)
		}
	case reflect.Slice:
		if depth > 0 && r.IntN(3) > 0 {
			n := r.IntN(3)
			s := reflect.MakeSlice(t, n, n)
			for i := range n {
				fill(r, s.Index(i), depth-1)
			}
			v.Set(s)
		}
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && r.IntN(4) > 0 {
				fill(r, v.Field(i), depth-1)
			}
		}
	}
}

func TestBodyEncodingMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for _, p := range paramsTypes {
		typ := reflect.TypeOf(p)
		for range 300 {
			v := reflect.New(typ)
			fill(r, v.Elem(), 4)
			for _, x := range []any{v.Interface(), v.Elem().Interface()} {
				want, errWant := json.Marshal(x)
				got, err := jsonenc.Marshal(x)
				if (err == nil) != (errWant == nil) || string(got) != string(want) && !sameJSONValue(got, want) {
					t.Fatalf("%s: jsonenc gives %s (%v)\nencoding/json gives %s (%v)", typ, got, err, want, errWant)
				}
			}
		}
	}
}

// sameJSONValue reports whether a and b hold the same JSON value with the
// same members in the same order. Go 1.27's encoding/json writes invalid
// UTF-8 as a raw U+FFFD where earlier releases (and jsonenc) write
// \ufffd; on Go 1.26 the bytes are the same.
func sameJSONValue(a, b []byte) bool {
	norm := func(b []byte) string {
		var v any
		if json.Unmarshal(b, &v) != nil {
			return "invalid"
		}
		return strings.ReplaceAll(string(b), "\uFFFD", `\ufffd`)
	}
	return norm(a) != "invalid" && norm(a) == norm(b)
}
