package guildkit_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/seed012df1e9/guildkit"
)

// Fuzz targets for the message decoders a bot feeds with what others
// wrote. Run one at a time:
//
//	go test -run '^$' -fuzz '^FuzzParseMention$' -fuzztime 1m -parallel 1 .
//	go test -run '^$' -fuzz '^FuzzEmbedDecode$' -fuzztime 1m -parallel 1 .

// FuzzParseMention: any text gives mentions whose Raw is the text at their
// Index, in order and not overlapping; each parses alone to itself, and
// writing it from its fields parses back to the same fields. Escaped text
// holds no mention that notifies.
func FuzzParseMention(f *testing.F) {
	for _, s := range []string{"<@80351110224678912>", "<@!1> <@&2> <#3>", "</tag get:4>", "<a:e_1:5>",
		"<t:1618953630:R> <t:-5>", "@everyone @here", "<@<@1>>", "<t:99999999999999:f>", "<:a:1:2>", "</a:b:1>", "<@123\n>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		end := 0
		for _, m := range guildkit.FindMentions(text) {
			if m.Index < end || text[m.Index:m.Index+len(m.Raw)] != m.Raw {
				t.Fatalf("mention %+v is not the text at its index (end of previous %d)", m, end)
			}
			end = m.Index + len(m.Raw)
			alone, err := guildkit.ParseMention(m.Raw)
			if err != nil {
				t.Fatalf("%q found in text does not parse alone: %v", m.Raw, err)
			}
			m.Index = 0
			if alone != m {
				t.Fatalf("%q: found %+v, parsed alone %+v", m.Raw, m, alone)
			}
			again, err := guildkit.ParseMention(m.String())
			if err != nil {
				t.Fatalf("%q written as %q does not parse: %v", m.Raw, m.String(), err)
			}
			again.Raw, m.Raw = "", ""
			if again != m {
				t.Fatalf("written and parsed again: %+v, want %+v", again, m)
			}
		}
		for _, m := range guildkit.FindMentions(guildkit.EscapeMentions(text)) {
			switch m.Kind {
			case guildkit.MentionKindUser, guildkit.MentionKindRole, guildkit.MentionKindEveryone, guildkit.MentionKindHere:
				t.Fatalf("escaped %q still mentions %q", text, m.Raw)
			}
		}
		if esc := guildkit.EscapeMarkdown(text); len(esc) < len(text) {
			t.Fatalf("escaping shortened %q to %q", text, esc)
		}
	})
}

// FuzzEmbedDecode: any JSON decodes into an embed or fails without
// panicking; a decoded embed encodes, decodes again to the same encoding
// (kept members included), and validates without panicking.
func FuzzEmbedDecode(f *testing.F) {
	for _, s := range []string{
		`{"title":"t","type":"rich","description":"d","url":"https://e","timestamp":"2026-01-02T03:04:05.123456+00:00","color":16711680}`,
		`{"footer":{"text":"f","icon_url":"attachment://a.png","x":1},"author":{"name":"a","extra":[1,{"b":null}]},"fields":[{"name":"n","value":"v","inline":true}]}`,
		`{"image":{"url":"https://i","proxy_url":"https://p","height":0,"width":10,"placeholder":"x"},"video":{"url":"v"},"provider":{"name":null}}`,
		`{"color":null,"fields":null,"unknown":"\ud83d\ude00\"\n"}`,
		`{"title":5}`, `[]`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var e guildkit.Embed
		if err := json.Unmarshal(b, &e); err != nil {
			return
		}
		_ = e.Validate()
		_ = e.Len()
		out, err := json.Marshal(e)
		if err != nil {
			if strings.Contains(err.Error(), "json: error calling MarshalJSON") {
				return // a kept member that is not valid once re-encoded (such as invalid UTF-8) is refused, not mangled
			}
			t.Fatalf("encoding a decoded embed: %v", err)
		}
		var again guildkit.Embed
		if err := json.Unmarshal(out, &again); err != nil {
			t.Fatalf("decoding %s: %v", out, err)
		}
		out2, err := json.Marshal(again)
		if err != nil {
			t.Fatalf("encoding again: %v", err)
		}
		if string(out) != string(out2) {
			t.Fatalf("not stable:\n%s\n%s", out, out2)
		}
	})
}
