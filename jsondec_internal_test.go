package guildkit

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/internal/jsondec"
)

// Answers are decoded by internal/jsondec. These tests check it against
// encoding/json: every golden answer, and every object and array found in
// one, decoded into every answer type both ways gives the same error or the
// same value.

// answerTypes are the types answers decode into, as values and as lists.
var answerTypes = []any{
	Ban{}, BulkBanResult{}, Channel{}, ActiveThreads{}, Guild{}, GuildPreview{}, GuildVanityURL{},
	VoiceRegion{}, Integration{}, Onboarding{}, WelcomeScreen{}, GuildWidgetSettings{}, GuildWidget{},
	Invite{}, TargetUsersJobStatus{}, Member{}, MemberAddResult{}, Message{}, Role{}, User{}, Webhook{},
	[]Ban{}, []Channel{}, []Member{}, []Role{}, []Invite{}, []Webhook{}, []Integration{}, []VoiceRegion{},
}

func checkAnswerDecoding(t *testing.T, data []byte) {
	t.Helper()
	checkAnswerDecodingAs(t, data, answerTypes...)
}

// checkAnswerDecodingAs decodes data into each of the types of values
// both ways and fails unless they agree.
func checkAnswerDecodingAs(t *testing.T, data []byte, values ...any) {
	t.Helper()
	for _, v := range values {
		typ := reflect.TypeOf(v)
		fast, ref := reflect.New(typ), reflect.New(typ)
		buf := append([]byte(nil), data...)
		ok := jsondec.Decode(buf, fast.Interface())
		for i := range buf {
			buf[i] = 'x' // the input may be reused once Decode returns: nothing refers to it
		}
		errRef := json.Unmarshal(data, ref.Interface())
		switch {
		case ok && errRef != nil:
			t.Fatalf("%s: jsondec accepted what encoding/json refuses (%v)\ninput: %.300s", typ, errRef, data)
		case ok && !reflect.DeepEqual(fast.Interface(), ref.Interface()):
			t.Fatalf("%s: jsondec gives %+v\nencoding/json gives %+v\ninput: %.300s", typ, fast.Elem().Interface(), ref.Elem().Interface(), data)
		case !ok && !fast.Elem().IsZero():
			t.Fatalf("%s: jsondec declined but left %+v\ninput: %.300s", typ, fast.Elem().Interface(), data)
		}
	}
}

// goldenBody returns the body of the golden answer in testdata/answers/name.
func goldenBody(t testing.TB, name string) json.RawMessage {
	raw, err := os.ReadFile(filepath.Join("testdata", "answers", name))
	if err != nil {
		t.Fatal(err)
	}
	var a struct {
		Body json.RawMessage `json:"body"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatal(err)
	}
	return a.Body
}

// goldenBodies returns every golden answer's body and every object and
// array inside one.
func goldenBodies(t testing.TB) [][]byte {
	names, err := filepath.Glob(filepath.Join("testdata", "answers", "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no golden answers: %v", err)
	}
	var out [][]byte
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			b, _ := json.Marshal(v)
			out = append(out, b)
			for _, e := range v {
				walk(e)
			}
		case []any:
			b, _ := json.Marshal(v)
			out = append(out, b)
			for _, e := range v {
				walk(e)
			}
		}
	}
	for _, n := range names {
		body := goldenBody(t, filepath.Base(n))
		if len(body) == 0 {
			continue
		}
		out = append(out, body)
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			t.Fatal(err)
		}
		walk(v)
	}
	return out
}

func TestAnswerDecodingMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	bodies := goldenBodies(t)
	for _, b := range bodies {
		checkAnswerDecoding(t, b)
	}
	for _, b := range []string{
		`{"id":"1","name":"caf\u00e9 \"x\"","roles":null,"features":[],"afk_timeout":1.5}`,
		`{"id":12,"username":"u","global_name":null,"avatar":"a","bot":"yes"}`,
		`{"user":{"id":"1","username":"u"},"nick":null,"roles":["1","2"],"joined_at":"2024-01-02T03:04:05.123Z","deaf":false}`,
		`{"user":{"id":"1"},"User":{"username":"later"},"roles":[],"ROLES":["3"]}`,
		"{\"name\":\"bad \xff utf-8\",\"position\":-1,\"permissions\":\"8\"}",
		`[{"id":"1"},null,{"id":"2","flags":99999999999999999999}]`,
		`{"id":"1","type":0,"permission_overwrites":[{"id":"2","type":1,"allow":"1024","deny":"0"}],"nsfw":true}`,
		`null`, `[]`, `{}`, `"x"`, `1`,
		// Not JSON, or not only one value: jsondec declines.
		``, ` `, `{"id":"1",}`, `{"id":tru}`, `{"id":"1"} {}`, `{"name":"a\x"}`, "{\"name\":\"a\x01\"}",
		`[1,]`, `{"id" "1"}`, `01`, `-`, `1.`, `1e`, `{"a":[1,2}`, `"\u12"`, `{"a":1}x`,
		`{"id":"1","zzz":tru}`, `{"id":"1","zzz":1.}`, "{\"id\":\"1\",\"zzz\":\"\x01\"}", `{"id":"1","zzz":[1,]}`,
		`{"afk_timeout":01}`, `{"afk_timeout":-}`, `{"name":"\q"}`, `{"id":"1","zzz":{"a" 1}}`, `{"id":"1",,}`,
	} {
		checkAnswerDecoding(t, []byte(b))
	}
	for _, b := range escapedAnswers {
		checkAnswerDecoding(t, []byte(b))
	}
	// The golden Get Guild answer decodes by jsondec, not by the fallback.
	var g Guild
	if !jsondec.Decode(goldenBody(t, "get-guild.json"), &g) || g.ID == 0 {
		t.Fatal("the golden Get Guild answer did not decode by jsondec")
	}
}

// escapedAnswers hold strings with every kind of escape: quotes, lines,
// surrogate pairs whole and broken, invalid UTF-8, escaped keys.
var escapedAnswers = []string{
	`{"user":{"id":"1","username":"a\\b\/c","global_name":"\ud83d\ude00 \ud83d \ude00 \ud83d\u0041 \uD83D\uDE00"},"nick":"Nelly the \"Gopher\""}`,
	`{"id":"1","content":"line one\nline two\r\n\ttabbed \u00e9\u2028\u0000","author":{"username":"\b\f"},"n\u006fnce":"x"}`,
	"{\"name\":\"bad \xff\xfe \xed\xa0\x80 \\\"q\\\"\",\"description\":\"\\ud800\\udc00\\udbff\\udfff\"}",
	`[{"nick":"\"","roles":["1"]},{"nick":"\\"},{"nick":"\u005c"}]`,
	`{"id":"\u0031"}`, `{"permissions":"\u0038"}`,
}

// realisticAnswers are the twin benchmarks' realistic answers, by the
// type they decode into: every nullable field set, timestamps with
// microseconds, members guildkit does not model.
func realisticAnswers() []struct {
	data []byte
	as   any
} {
	guild, members, member, message := twinBodies(true)
	return []struct {
		data []byte
		as   any
	}{{guild, Guild{}}, {members, []Member{}}, {member, Member{}}, {message, Message{}}, {embedMessage, Message{}}}
}

// embedMessage is a message with embeds as the reference platform sends
// them: members guildkit does not model, explicit zero values, every
// embed object.
var embedMessage = []byte(`{"id":"300000000000000001","channel_id":"100000000000000005","content":"","timestamp":"2024-01-02T03:04:05.678901+00:00",` +
	`"edited_timestamp":null,"tts":false,"mention_everyone":false,"mentions":[],"mention_roles":[],"attachments":[],"pinned":false,"type":0,"flags":0,"components":[],` +
	`"embeds":[{"type":"rich","title":"Build #42","description":"All green","url":"https://ci.example/42","timestamp":"2024-01-02T03:04:05.678901+00:00",` +
	`"color":5763719,"content_scan_version":2,"footer":{"text":"ci","icon_url":"","proxy_icon_url":"https://media.example/ci.png","flags":0},` +
	`"image":{"url":"https://ci.example/chart.png","proxy_url":"https://media.example/chart.png","width":640,"height":480,"content_type":"image/png","placeholder":"x1b","placeholder_version":1,"flags":0},` +
	`"thumbnail":{"url":"https://ci.example/t.png","width":0,"height":0},"provider":{"name":"CI","url":null},` +
	`"author":{"name":"gopher","url":"https://ci.example/u/gopher","icon_url":"https://ci.example/a.png","proxy_icon_url":""},` +
	`"fields":[{"name":"tests","value":"1234","inline":true},{"name":"time","value":"3m","inline":false,"extra":{"a":[1,2]}}]},` +
	`{"type":"link","url":"https://example.com","video":{"url":"https://example.com/v.mp4","width":1280,"height":720}}]}`)

// answerVariants returns, for every member of every object in data, data
// with that member's value replaced by null and by values of every JSON
// type (numbers that fit and that do not, decimal strings, other strings,
// booleans, arrays, objects). Arrays are cut to their first two elements
// first, so that a long list does not multiply the variants.
func answerVariants(t testing.TB, data []byte) [][]byte {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		t.Fatal(err)
	}
	var cut func(v any) any
	cut = func(v any) any {
		switch v := v.(type) {
		case []any:
			v = v[:min(len(v), 2)]
			for i := range v {
				v[i] = cut(v[i])
			}
			return v
		case map[string]any:
			for k, e := range v {
				v[k] = cut(e)
			}
		}
		return v
	}
	root = cut(root)
	replacements := []any{nil, json.Number("1"), json.Number("-1"), json.Number("1.5"), json.Number("18446744073709551616"),
		"123", "x", "2024-01-02T03:04:05.678901+00:00", true, []any{}, []any{"1"}, map[string]any{}}
	var out [][]byte
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for k, e := range v {
				for _, r := range replacements {
					v[k] = r
					b, err := json.Marshal(root)
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, b)
				}
				v[k] = e
				walk(e)
			}
		}
	}
	walk(root)
	return out
}

// TestRealisticAnswerDecodingMatchesEncodingJSON holds jsondec to
// encoding/json on answers shaped like the reference platform's: each
// realistic answer as it is, into every answer type, and with each of its
// members set to null or to a value of the wrong JSON type, into its own.
func TestRealisticAnswerDecodingMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, a := range realisticAnswers() {
		checkAnswerDecoding(t, a.data)
		// The answer as it is decodes by jsondec, not by the fallback.
		v := reflect.New(reflect.TypeOf(a.as))
		if !jsondec.Decode(a.data, v.Interface()) {
			t.Fatalf("the realistic %T answer did not decode by jsondec", a.as)
		}
		variants := answerVariants(t, a.data)
		declined := 0
		for _, b := range variants {
			checkAnswerDecodingAs(t, b, a.as)
			if !jsondec.Decode(b, reflect.New(reflect.TypeOf(a.as)).Interface()) {
				declined++
			}
		}
		t.Logf("%T: %d variants, %d left to encoding/json", a.as, len(variants), declined)
		if declined == 0 || declined == len(variants) {
			t.Errorf("%T: %d of %d variants left to encoding/json: the variants do not exercise both paths", a.as, declined, len(variants))
		}
	}
}

func FuzzAnswerDecodingMatchesEncodingJSON(f *testing.F) {
	for _, b := range goldenBodies(f) {
		f.Add(b)
	}
	for _, a := range realisticAnswers() {
		f.Add(a.data)
	}
	_, _, member, _ := twinBodies(true)
	for _, b := range answerVariants(f, member) {
		f.Add(b)
	}
	for _, b := range escapedAnswers {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkAnswerDecoding(t, data)
	})
}

// TestAnswerDecodingAllocationBound keeps the allocations of decoding a
// list of 1000 members from growing unnoticed: the values its pointer
// fields point to come from slabs, its strings share the answer's buffer.
func TestAnswerDecodingAllocationBound(t *testing.T) {
	var members []json.RawMessage
	if err := json.Unmarshal(goldenBody(t, "list-guild-members.json"), &members); err != nil || len(members) == 0 {
		t.Fatalf("no member in the golden answer: %v", err)
	}
	list := []byte{'['}
	for i := range 1000 {
		if i > 0 {
			list = append(list, ',')
		}
		list = append(list, members[i%len(members)]...)
	}
	list = append(list, ']')
	allocs := testing.AllocsPerRun(20, func() {
		var ms []Member
		if !jsondec.Decode(list, &ms) || len(ms) != 1000 {
			t.Fatalf("%d members decoded by jsondec", len(ms))
		}
	})
	t.Logf("1000 members: %.0f allocations", allocs)
	if allocs > 80 {
		t.Errorf("decoding 1000 members: %.0f allocations, want at most 80", allocs)
	}
	// Realistic members, every nullable field set: their Opt fields and
	// timestamps decode without encoding/json.
	_, realistic, _, _ := twinBodies(true)
	allocs = testing.AllocsPerRun(20, func() {
		var ms []Member
		if !jsondec.Decode(realistic, &ms) || len(ms) != 1000 {
			t.Fatalf("%d realistic members decoded by jsondec", len(ms))
		}
	})
	t.Logf("1000 realistic members: %.0f allocations", allocs)
	if allocs > 160 {
		t.Errorf("decoding 1000 realistic members: %.0f allocations, want at most 160", allocs)
	}
}

// BenchmarkAnswerDecode decodes the twin benchmarks' answers (realistic and
// all-null) with jsondec and with encoding/json alone, the measure of what
// jsondec saves on the Go release at hand:
//
//	go test -run '^$' -bench '^BenchmarkAnswerDecode$' -benchmem .
//	GOTOOLCHAIN=go1.27.0 go test -run '^$' -bench '^BenchmarkAnswerDecode$' -benchmem .
func BenchmarkAnswerDecode(b *testing.B) {
	for _, realistic := range []bool{true, false} {
		guild, members, _, message := twinBodies(realistic)
		kind := "realistic"
		if !realistic {
			kind = "allnull"
		}
		for _, a := range []struct {
			name string
			data []byte
			new  func() any
		}{
			{"Guild", guild, func() any { return new(Guild) }},
			{"Members1000", members, func() any { return new([]Member) }},
			{"Message", message, func() any { return new(Message) }},
		} {
			b.Run(a.name+"/"+kind+"/jsondec", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(a.data)))
				for b.Loop() {
					if !jsondec.Decode(a.data, a.new()) {
						b.Fatal("declined")
					}
				}
			})
			b.Run(a.name+"/"+kind+"/encoding_json", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(a.data)))
				for b.Loop() {
					if err := json.Unmarshal(a.data, a.new()); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// interactionTypes are the types an interaction decodes into.
var interactionTypes = []any{
	interactionFields{}, components.InteractionData{}, components.ModalSubmitData{}, CommandData{}, ResolvedData{},
	CommandOption{}, InteractionGuild{}, []CommandOption{},
}

// TestInteractionDecodingMatchesEncodingJSON: realistic deliveries (every
// nullable field set, members and components the SDK does not model), and
// every object and array inside one, decode into every interaction type
// the same way by jsondec and by encoding/json; and Interaction's own
// decoding, which takes jsondec's way, gives encoding/json's value.
func TestInteractionDecodingMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	names, err := filepath.Glob(filepath.Join("testdata", "interactions", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, names)
	for _, n := range names {
		body, err := os.ReadFile(n)
		require.NoError(t, err)
		var v any
		require.NoError(t, json.Unmarshal(body, &v))
		var walk func(v any)
		walk = func(v any) {
			b, _ := json.Marshal(v)
			checkAnswerDecodingAs(t, b, interactionTypes...)
			switch v := v.(type) {
			case map[string]any:
				for _, e := range v {
					walk(e)
				}
			case []any:
				for _, e := range v {
					walk(e)
				}
			}
		}
		walk(v)

		var direct interactionFields
		assert.True(t, jsondec.Decode(body, &direct), "%s: decoded by jsondec, not by the fallback", n)
		var fast Interaction
		require.NoError(t, fast.UnmarshalJSON(body), n)
		var ref interactionFields
		require.NoError(t, json.Unmarshal(body, &ref), n)
		assert.Equal(t, Interaction(ref).Message, fast.Message, n)
		assert.Equal(t, Interaction(ref).Member, fast.Member, n)
		var data struct {
			Data struct {
				Resolved *ResolvedData `json:"resolved"`
			} `json:"data"`
		}
		require.NoError(t, json.Unmarshal(body, &data))
		assert.Equal(t, data.Data.Resolved, fast.Resolved, n)
	}
}
