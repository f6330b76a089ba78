package guildkit

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit/internal/jsonenc"
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

// FuzzEmbedEncoding: a decoded embed, with the members it kept and with
// them dropped, encodes in a request body (internal/jsonenc, through the
// registered appendEmbed) and alone as encoding/json encodes it.
func FuzzEmbedEncoding(f *testing.F) {
	for _, s := range []string{
		`{"title":"t <&>","type":"rich","description":"d\u2028","url":"https://e","timestamp":"2026-01-02T03:04:05.123456+05:30","color":16711680}`,
		`{"footer":{"text":"f","icon_url":"attachment://a.png","x":1},"author":{"name":"a","url":"u","icon_url":"i","proxy_icon_url":"p","extra":[1]},"fields":[{"name":"n","value":"v","inline":true},{"name":"","value":""}]}`,
		`{"image":{"url":"https://i","proxy_url":"https://p","height":-3,"width":10},"thumbnail":{"url":""},"video":{"url":"v","placeholder":"x"},"provider":{"name":"n","url":"u"}}`,
		`{"provider":{},"color":null,"fields":[],"unknown":"\ud83d\ude00"}`,
		`{"color":0,"timestamp":"0001-01-01T00:00:00Z","fields":null}`,
		`{}`,
	} {
		f.Add([]byte(s))
	}
	type body struct {
		Embeds []Embed `json:"embeds,omitzero"`
		One    Embed   `json:"one"`
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var e Embed
		if err := json.Unmarshal(b, &e); err != nil {
			return
		}
		for _, e := range []Embed{e, dropKept(e)} {
			v := body{Embeds: []Embed{e, {}}, One: e}
			got, gotErr := jsonenc.Marshal(&v)
			want, wantErr := json.Marshal(&v)
			if (gotErr != nil) != (wantErr != nil) || string(got) != string(want) {
				t.Fatalf("jsonenc: %s, %v\njson:    %s, %v", got, gotErr, want, wantErr)
			}
			if e.kept != "" {
				continue
			}
			type plain Embed
			got, gotErr = json.Marshal(e)
			want, wantErr = json.Marshal(plain(e))
			if (gotErr != nil) != (wantErr != nil) || string(got) != string(want) {
				t.Fatalf("MarshalJSON: %s, %v\nplain:       %s, %v", got, gotErr, want, wantErr)
			}
		}
	})
}

// dropKept returns e without the members it and its objects kept.
func dropKept(e Embed) Embed {
	e.kept = ""
	if e.Footer != nil {
		v := *e.Footer
		v.kept, e.Footer = "", &v
	}
	for _, m := range []**EmbedMedia{&e.Image, &e.Thumbnail, &e.Video} {
		if *m != nil {
			v := **m
			v.kept, *m = "", &v
		}
	}
	if e.Provider != nil {
		v := *e.Provider
		v.kept, e.Provider = "", &v
	}
	if e.Author != nil {
		v := *e.Author
		v.kept, e.Author = "", &v
	}
	if e.Fields != nil {
		fs := make([]EmbedField, len(e.Fields))
		for i, v := range e.Fields {
			v.kept, fs[i] = "", v
		}
		e.Fields = fs
	}
	return e
}

// An embed's timestamp that encoding/json refuses (a year past 9999) makes
// the request body's encoding fail as json.Marshal's does.
func TestEmbedEncodingRefusedTimestamp(t *testing.T) {
	v := struct {
		Embeds []Embed `json:"embeds"`
	}{[]Embed{{Title: "t", Timestamp: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}}}
	if _, err := json.Marshal(v); err == nil {
		t.Fatal("json.Marshal took a year past 9999")
	}
	if _, err := jsonenc.Marshal(&v); err == nil {
		t.Fatal("jsonenc.Marshal took a year past 9999")
	}
	if _, err := v.Embeds[0].MarshalJSON(); err == nil {
		t.Fatal("MarshalJSON took a year past 9999")
	}
}

// FuzzPartialAttachmentEncoding: attachments in a request body
// (internal/jsonenc, through the registered appendPartialAttachment)
// encode as encoding/json encodes them, durations of every size included.
func FuzzPartialAttachmentEncoding(f *testing.F) {
	f.Add(uint64(0), "log.txt", "t <&>", "\xff", true, 2.5, "AAAA")
	f.Add(uint64(1<<63), "", "", "", false, 1e-7, "")
	f.Add(uint64(7), "a", "", "d\u2028", false, 1e21, "")
	f.Add(uint64(7), "a", "", "", false, -123456789.125, "")
	f.Add(uint64(7), "a", "", "", false, math.Inf(-1), "")
	f.Add(uint64(7), "a", "", "", false, math.NaN(), "")
	f.Fuzz(func(t *testing.T, id uint64, name, title, desc string, spoiler bool, dur float64, wave string) {
		v := struct {
			Attachments []PartialAttachment `json:"attachments,omitzero"`
		}{[]PartialAttachment{{ID: Snowflake(id), Filename: name, Title: title, Description: desc,
			IsSpoiler: spoiler, DurationSecs: dur, Waveform: wave}, {}}}
		got, gotErr := jsonenc.Marshal(&v)
		want, wantErr := json.Marshal(&v)
		if (gotErr != nil) != (wantErr != nil) || string(got) != string(want) {
			t.Fatalf("jsonenc: %s, %v\njson:    %s, %v", got, gotErr, want, wantErr)
		}
	})
}
