package guildkit_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
)

func TestEmbedBuilder(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	e := guildkit.NewEmbed("Ban", "<@1> was banned").
		WithURL("https://example.com/case/1").
		WithColor(0xE74C3C).
		WithTimestamp(at).
		WithAuthor("mod", "https://example.com/mod", "https://example.com/mod.png").
		WithFooter("moderation log", "attachment://logo.png").
		WithImage("https://example.com/i.png").
		WithThumbnail("attachment://t.webp").
		WithField("Reason", "spam", true).
		WithField("Case", "1", true)
	require.NoError(t, e.Validate())
	b, err := json.Marshal(e)
	require.NoError(t, err)
	assert.JSONEq(t, `{"title":"Ban","description":"<@1> was banned","url":"https://example.com/case/1",
		"timestamp":"2026-11-28T12:00:00Z","color":15158332,
		"author":{"name":"mod","url":"https://example.com/mod","icon_url":"https://example.com/mod.png"},
		"footer":{"text":"moderation log","icon_url":"attachment://logo.png"},
		"image":{"url":"https://example.com/i.png"},"thumbnail":{"url":"attachment://t.webp"},
		"fields":[{"name":"Reason","value":"spam","inline":true},{"name":"Case","value":"1","inline":true}]}`, string(b))
	assert.Equal(t, len("Ban")+len("<@1> was banned")+len("Reason")+len("spam")+len("Case")+len("1")+len("moderation log")+len("mod"), e.Len())
	var nilEmbed *guildkit.Embed
	assert.NoError(t, nilEmbed.Validate())
}

func TestEmbedValidateReportsEveryProblem(t *testing.T) {
	t.Parallel()
	e := &guildkit.Embed{
		Type:        guildkit.EmbedTypeVideo,
		Title:       strings.Repeat("t", 257),
		Description: strings.Repeat("d", 4097),
		URL:         "ftp://example.com",
		Color:       guildkit.Some(0x1000000),
		Footer:      &guildkit.EmbedFooter{Text: "  ", IconURL: "attachment://a.txt", ProxyIconURL: "x"},
		Author:      &guildkit.EmbedAuthor{Name: strings.Repeat("a", 257), IconURL: "data:x"},
		Image:       &guildkit.EmbedMedia{Width: 3},
		Thumbnail:   &guildkit.EmbedMedia{URL: "javascript:alert(1)"},
		Video:       &guildkit.EmbedMedia{URL: "https://v"},
		Provider:    &guildkit.EmbedProvider{Name: "p"},
	}
	for range 26 {
		e.WithField("n", "v", false)
	}
	e.Fields[0] = guildkit.EmbedField{Name: strings.Repeat("n", 257), Value: strings.Repeat("v", 1025)}
	e.Fields[1] = guildkit.EmbedField{Name: "", Value: " "}
	assert.ElementsMatch(t, []string{
		"type", "provider", "video", "url", "image.url", "image", "thumbnail.url", "color",
		"title", "description", "footer.text", "footer.icon_url", "footer.proxy_icon_url",
		"author.name", "author.icon_url", "fields", "fields[0].name", "fields[0].value",
		"fields[1].name", "fields[1].value",
	}, problemPaths(t, e.Validate()))
}

func TestEmbedLimitsCountTrimmedCharacters(t *testing.T) {
	t.Parallel()
	// 256 characters of three bytes each, padded with spaces the
	// platform trims: within the limit.
	title := "  " + strings.Repeat("é", 256) + "\n"
	require.NoError(t, guildkit.NewEmbed(title, "").Validate())
	require.Error(t, guildkit.NewEmbed(title+"x", "").Validate())
	// 6000 in all across one embed's texts.
	e := guildkit.NewEmbed("", strings.Repeat("d", 4096))
	e.WithField("n", strings.Repeat("v", 1024), false).WithField("n", strings.Repeat("v", 878), false)
	require.Equal(t, 6000, e.Len())
	require.NoError(t, e.Validate())
	e.WithFooter("f", "")
	assert.Equal(t, []string{""}, problemPaths(t, e.Validate()))
}
