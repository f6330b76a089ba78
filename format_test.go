package guildkit_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
)

func TestMentionHelpers(t *testing.T) {
	t.Parallel()
	const id guildkit.Snowflake = 80351110224678912
	u := guildkit.User{ID: id}
	assert.Equal(t, "<@80351110224678912>", u.Mention())
	assert.Equal(t, "<@80351110224678912>", (&guildkit.Member{User: &u}).Mention())
	assert.Empty(t, (&guildkit.Member{}).Mention(), "a message event's member has no user")
	assert.Equal(t, "<@&80351110224678912>", (&guildkit.Role{ID: id}).Mention())
	assert.Equal(t, "<#80351110224678912>", (&guildkit.Channel{ID: id}).Mention())
	assert.Equal(t, "</tag get:80351110224678912>", guildkit.MentionCommand("tag get", id))
	assert.Equal(t, (&guildkit.Command{ID: id, Name: "tag"}).Mention("get"), guildkit.MentionCommand("tag get", id))
	assert.Equal(t, "<:blob:80351110224678912>", guildkit.MentionEmoji("blob", id, false))
	assert.Equal(t, "<a:blob:80351110224678912>", guildkit.MentionEmoji("blob", id, true))
}

func TestFormatTimestamp(t *testing.T) {
	t.Parallel()
	at := time.Unix(1618953630, 999_000_000)
	for style, want := range map[guildkit.TimestampStyle]string{
		guildkit.TimestampDefault:       "<t:1618953630>",
		guildkit.TimestampShortTime:     "<t:1618953630:t>",
		guildkit.TimestampLongTime:      "<t:1618953630:T>",
		guildkit.TimestampShortDate:     "<t:1618953630:d>",
		guildkit.TimestampLongDate:      "<t:1618953630:D>",
		guildkit.TimestampShortDateTime: "<t:1618953630:f>",
		guildkit.TimestampLongDateTime:  "<t:1618953630:F>",
		guildkit.TimestampRelative:      "<t:1618953630:R>",
		guildkit.TimestampStyle('x'):    "<t:1618953630>",
	} {
		assert.Equal(t, want, guildkit.FormatTimestamp(at, style), "style %v", style)
	}
	assert.Equal(t, "R", guildkit.TimestampRelative.String())
	assert.Equal(t, "TimestampStyle(120)", guildkit.TimestampStyle('x').String())
	assert.False(t, guildkit.TimestampStyle('x').Valid())
}

func TestEscapeMarkdown(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"plain text":                      "plain text",
		"*bold* _it_ ~~s~~ `c` ||sp||":    `\*bold\* \_it\_ \~\~s\~\~ \` + "`c\\`" + ` \|\|sp\|\|`,
		`back\slash`:                      `back\\slash`,
		"[x](https://e.com/a_b)":          `\[x\]\(https://e.com/a_b)`,
		"see https://e.com/a_b*c please":  "see https://e.com/a_b*c please",
		"> quote\n# head\n- item\n1. one": "\\> quote\n\\# head\n\\- item\n1\\. one",
		"a > b - c # d 2. e":              "a > b - c # d 2. e",
		"  - indented":                    `  \- indented`,
		"héllo *wörld*":                   `héllo \*wörld\*`,
	} {
		assert.Equal(t, want, guildkit.EscapeMarkdown(in), "%q", in)
	}
}

func TestEscapeMentions(t *testing.T) {
	t.Parallel()
	const zw = "\u200b"
	for in, want := range map[string]string{
		"hi @everyone and @here":        "hi @" + zw + "everyone and @" + zw + "here",
		"<@123> <@!123> <@&123> <#123>": "<@" + zw + "123> <@" + zw + "!123> <@" + zw + "&123> <#123>",
		"mail@example.com <@abc> <@12":  "mail@example.com <@abc> <@12",
		"</cmd:1> <t:5:R> <:e:1>":       "</cmd:1> <t:5:R> <:e:1>",
	} {
		got := guildkit.EscapeMentions(in)
		assert.Equal(t, want, got, "%q", in)
		for _, m := range guildkit.FindMentions(got) {
			assert.NotContains(t, []guildkit.MentionKind{guildkit.MentionKindUser, guildkit.MentionKindRole,
				guildkit.MentionKindEveryone, guildkit.MentionKindHere}, m.Kind, "%q still mentions %v", got, m)
		}
	}
}

func TestParseMention(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want guildkit.Mention
	}{
		{"<@80351110224678912>", guildkit.Mention{Kind: guildkit.MentionKindUser, ID: 80351110224678912}},
		{"<@!80351110224678912>", guildkit.Mention{Kind: guildkit.MentionKindUser, ID: 80351110224678912}},
		{"<@&165511591545143296>", guildkit.Mention{Kind: guildkit.MentionKindRole, ID: 165511591545143296}},
		{"<#103735883630395392>", guildkit.Mention{Kind: guildkit.MentionKindChannel, ID: 103735883630395392}},
		{"</airhorn:816437322781949972>", guildkit.Mention{Kind: guildkit.MentionKindCommand, ID: 816437322781949972, Name: "airhorn"}},
		{"</tag get:1>", guildkit.Mention{Kind: guildkit.MentionKindCommand, ID: 1, Name: "tag get"}},
		{"<:mmLol:216154654256398347>", guildkit.Mention{Kind: guildkit.MentionKindEmoji, ID: 216154654256398347, Name: "mmLol"}},
		{"<a:b1nzy:392938283556143104>", guildkit.Mention{Kind: guildkit.MentionKindEmoji, ID: 392938283556143104, Name: "b1nzy", Animated: true}},
		{"<t:1618953630:R>", guildkit.Mention{Kind: guildkit.MentionKindTimestamp, Time: time.Unix(1618953630, 0).UTC(), Style: guildkit.TimestampRelative}},
		{"<t:1618953630>", guildkit.Mention{Kind: guildkit.MentionKindTimestamp, Time: time.Unix(1618953630, 0).UTC()}},
		{"@everyone", guildkit.Mention{Kind: guildkit.MentionKindEveryone}},
		{"@here", guildkit.Mention{Kind: guildkit.MentionKindHere}},
	}
	for _, c := range cases {
		got, err := guildkit.ParseMention(c.in)
		require.NoError(t, err, c.in)
		c.want.Raw = c.in
		assert.Equal(t, c.want, got, c.in)
	}
	for _, bad := range []string{"", "<@>", "<@0>", "<@12a>", "<@123", " <@123>", "<@123> ", "<@99999999999999999999>",
		"<t:12:x>", "<t:>", "<t:1:RR>", "</:1>", "</a b c d:1>", "<:bad name:1>", "<x123>", "@everyonex", "<#-1>"} {
		_, err := guildkit.ParseMention(bad)
		assert.Error(t, err, "%q", bad)
	}
	assert.Equal(t, "<@1>", guildkit.Mention{Kind: guildkit.MentionKindUser, ID: 1, Raw: "<@!1>"}.String())
	assert.Equal(t, "USER", guildkit.MentionKindUser.String())
}

func TestFindMentions(t *testing.T) {
	t.Parallel()
	text := "hey <@1>, see <#2> <@&3> at <t:60:R> <@x> @here </ping:4> <a:e:5> <"
	ms := guildkit.FindMentions(text)
	var raws []string
	for _, m := range ms {
		raws = append(raws, m.Raw)
		assert.Equal(t, m.Raw, text[m.Index:m.Index+len(m.Raw)])
	}
	assert.Equal(t, []string{"<@1>", "<#2>", "<@&3>", "<t:60:R>", "@here", "</ping:4>", "<a:e:5>"}, raws)
	assert.Nil(t, guildkit.FindMentions("no mentions here"))
}
