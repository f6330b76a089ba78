package guildkit

import (
	"encoding/json"
	"testing"
)

// FuzzEmbedFieldAndFooterEncoding: the hand-written encodings of a field
// and a footer without kept members are json.Marshal's, byte for byte
// (escapes, HTML characters, invalid UTF-8 included).
func FuzzEmbedFieldAndFooterEncoding(f *testing.F) {
	f.Add("name", "value <b> & \"q\"\n", "https://e/i.png?a=1&b=2", true)
	f.Add("", "", "", false)
	f.Add("\xff\u2028", "\\", "\x00", true)
	f.Fuzz(func(t *testing.T, a, b, c string, inline bool) {
		type plainField EmbedField
		type plainFooter EmbedFooter
		for _, tc := range []struct{ got, want any }{
			{EmbedField{Name: a, Value: b, Inline: inline}, plainField{Name: a, Value: b, Inline: inline}},
			{EmbedFooter{Text: a, IconURL: b, ProxyIconURL: c}, plainFooter{Text: a, IconURL: b, ProxyIconURL: c}},
			{EmbedFooter{Text: a}, plainFooter{Text: a}},
		} {
			got, err := json.Marshal(tc.got)
			if err != nil {
				t.Fatal(err)
			}
			want, err := json.Marshal(tc.want)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Fatalf("got  %s\nwant %s", got, want)
			}
		}
	})
}
