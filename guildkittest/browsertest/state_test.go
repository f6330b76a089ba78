package browsertest

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// textOf returns the text of the first element a CSS selector (or an
// XPath) finds, read in one step: the page redraws its state as events
// come, so a node found in one step may be gone in the next.
func textOf(ctx context.Context, selector string, xpath bool) (string, error) {
	find := "document.querySelector(" + strconv.Quote(selector) + ")"
	if xpath {
		find = "document.evaluate(" + strconv.Quote(selector) + ", document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue"
	}
	return chromedp.Run(ctx, chromedp.Evaluate[string]("((n) => n ? n.textContent : '')("+find+")"))
}

// pngImage is a w×h image, for an attachment the page must draw inline.
func pngImage(t *testing.T, w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		for y := range h {
			img.Set(x, y, color.RGBA{R: 0x58, G: 0x65, B: 0xF2, A: 0xFF})
		}
	}
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, img))
	return b.Bytes()
}

// TestInspectorShowsTheWholeState opens the inspector page and, as a bot
// changes the state, checks what a person debugging it sees: ids, roles by
// position with permission names, a member's timeout, the ban, invite and
// webhook just made, a message's markdown and mentions rendered, its embed
// and its image attachment drawn (the image loaded), an event's payload
// and a request's detail (with no token in it) opened by a click, and the
// control API's routes.
func TestInspectorShowsTheWholeState(t *testing.T) {
	ctx := browser(t)
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "State guild"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "ops", Type: guildkit.ChannelTypeGuildText})
	srv.AddRole(g.ID, guildkit.Role{Name: "Moderator", Position: 2, Permissions: guildkit.PermissionBanMembers | guildkit.PermissionKickMembers})
	srv.AddRole(g.ID, guildkit.Role{Name: "Helper", Position: 1, Permissions: guildkit.PermissionManageMessages})
	ada := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "ada"}})
	spammer := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "spammer"}})
	muted := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "muted"}})
	hook := srv.AddWebhook(ch.ID, "CI")

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+guildkittest.ControlPrefix),
		chromedp.WaitVisible(`//span[@id="status" and text()="live"]`),
		chromedp.WaitVisible(`//h3[text()="State guild"]`),
	))

	// Ids are shown: the guild's, a user's, a role's.
	page, err := textOf(ctx, `div.guild`, false)
	require.NoError(t, err)
	assert.Contains(t, page, g.ID.String(), "the guild's id")
	assert.Contains(t, page, ada.User.ID.String(), "a user's id")
	// Roles by position, highest first, with permission names.
	roleNames, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("table.roles tbody tr td:nth-child(2)")].map(td => td.textContent)`))
	require.NoError(t, err)
	assert.Equal(t, []string{"Moderator", "Helper", "@everyone"}, roleNames)
	perms, err := textOf(ctx, `table.roles tbody tr:first-child .perms`, false)
	require.NoError(t, err)
	assert.Equal(t, "KICK_MEMBERS, BAN_MEMBERS", perms)

	// A timeout, a ban, a webhook (through the interface) and an invite
	// (seeded, then the Refresh button).
	c := srv.Client()
	until := srv.Now().Add(time.Hour)
	_, err = c.Members.Modify(t.Context(), g.ID, muted.User.ID, &guildkit.MemberModifyParams{CommunicationDisabledUntil: guildkit.Some(until)})
	require.NoError(t, err)
	require.NoError(t, c.Bans.Create(t.Context(), g.ID, spammer.User.ID, nil, guildkit.WithReason("spam links")))
	made, err := c.Webhooks.Create(t.Context(), ch.ID, &guildkit.WebhookCreateParams{Name: "Deploys"})
	require.NoError(t, err)
	inv := srv.AddInvite(g.ID, ch.ID, guildkit.Invite{})
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(`//table[contains(@class, "bans")]//td[text()="spam links"]`),
		chromedp.WaitVisible(`//table[contains(@class, "webhooks")]//td[text()="Deploys"]`),
		chromedp.Click(`#refresh`),
		chromedp.WaitVisible(`//table[contains(@class, "invites")]//code[text()="`+inv.Code+`"]`),
		chromedp.WaitVisible(`//span[contains(@class, "timeout") and contains(text(), "timed out until")]`),
	))
	hookRow, err := textOf(ctx, `table.webhooks`, false)
	require.NoError(t, err)
	assert.Contains(t, hookRow, made.ID.String())
	assert.NotContains(t, hookRow, made.Token, "a webhook's token is never shown")
	assert.NotContains(t, hookRow, hook.Token)

	// A message with markdown, a mention, an embed and an image.
	img := pngImage(t, 40, 24)
	_, err = c.Webhooks.Execute(t.Context(), hook.ID, hook.Token, &guildkit.WebhookExecuteParams{
		Wait: guildkit.Some(true),
		// <t:99999999999999> is out of Date's range: shown as written, the
		// page still draws.
		Content: guildkit.Some("**Deploy 7** is out, thanks <@" + ada.User.ID.String() + "> <t:99999999999999>"),
		Embeds: []guildkit.Embed{{
			Title: "Release notes", Description: "Fixed *everything*", Color: guildkit.Some(0x2ECC71),
			Fields: []guildkit.EmbedField{{Name: "Version", Value: "v1.2.3", Inline: true}},
			Footer: &guildkit.EmbedFooter{Text: "deploy bot"},
		}},
		Files: []guildkit.File{{Name: "graph.png", ContentType: "image/png", Reader: bytes.NewReader(img)}},
	})
	require.NoError(t, err)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(`//article[contains(@class, "message")]//strong[text()="Deploy 7"]`),
		chromedp.WaitVisible(`//div[contains(@class, "embed-title") and text()="Release notes"]`),
		chromedp.WaitVisible(`//figure[contains(@class, "attachment")]/img`),
	))
	mention, err := textOf(ctx, `.message .mention-user`, false)
	require.NoError(t, err)
	assert.Equal(t, "@ada", mention, "a mention is drawn with the user's name")
	body, err := textOf(ctx, `//article[contains(@class, "message")][.//strong[text()="Deploy 7"]]`, true)
	require.NoError(t, err)
	assert.Contains(t, body, "<t:99999999999999>", "a timestamp out of range is shown as written")
	embed, err := textOf(ctx, `.message .embed`, false)
	require.NoError(t, err)
	assert.Contains(t, embed, "Version")
	assert.Contains(t, embed, "v1.2.3")
	assert.Contains(t, embed, "deploy bot")
	italic, err := textOf(ctx, `.message .embed em`, false)
	require.NoError(t, err)
	assert.Equal(t, "everything", italic)
	// The image is loaded from the server and drawn at its size.
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`(() => { const i = document.querySelector("figure.attachment img"); return i && i.complete && i.naturalWidth > 0; })()`))
	require.NoError(t, err)
	width, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelector("figure.attachment img").naturalWidth`))
	require.NoError(t, err)
	assert.Equal(t, 40, width)

	// An event's payload, on a click.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(`//ol[@id="events"]/li[starts-with(text(), "GUILD_BAN_ADD")]`),
		chromedp.WaitVisible(`//ol[@id="events"]/li[starts-with(text(), "GUILD_BAN_ADD")]/pre[contains(@class, "payload")]`),
	))
	payload, err := textOf(ctx, `//ol[@id="events"]/li[starts-with(text(), "GUILD_BAN_ADD")]/pre`, true)
	require.NoError(t, err)
	assert.Contains(t, payload, `"name": "GUILD_BAN_ADD"`)
	assert.Contains(t, payload, spammer.User.ID.String())

	// A request's detail, on a click, with no credential in it.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(`//ol[@id="requests"]/li[contains(text(), "POST /webhooks/{webhook.id}/{webhook.token}")]`),
		chromedp.WaitVisible(`//ol[@id="requests"]/li[contains(text(), "POST /webhooks/{webhook.id}/{webhook.token}")]/pre`),
	))
	detail, err := textOf(ctx, `//ol[@id="requests"]/li[contains(text(), "POST /webhooks/{webhook.id}/{webhook.token}")]/pre`, true)
	require.NoError(t, err)
	assert.Contains(t, detail, `"method": "POST"`)
	assert.Contains(t, detail, "[redacted]")
	assert.NotContains(t, detail, hook.Token, "the webhook token is redacted")
	assert.NotContains(t, detail, srv.Token())

	// The welcome screen, onboarding and widget, as a bot sets them.
	_, err = c.Guilds.ModifyWelcomeScreen(t.Context(), g.ID, &guildkit.GuildWelcomeScreenModifyParams{
		Enabled: guildkit.Some(true), Description: guildkit.Some("Welcome to ops"),
		WelcomeChannels: guildkit.Some([]guildkit.WelcomeChannel{{ChannelID: ch.ID, Description: "chat here"}}),
	})
	require.NoError(t, err)
	_, err = c.Guilds.ModifyOnboarding(t.Context(), g.ID, &guildkit.GuildOnboardingModifyParams{
		Prompts: guildkit.Some([]guildkit.OnboardingPromptParams{{Title: "What brings you here?",
			Options: []guildkit.OnboardingPromptOptionParams{{Title: "Deploys", ChannelIDs: guildkit.Some([]guildkit.Snowflake{ch.ID})}}}}),
	})
	require.NoError(t, err)
	_, err = c.Guilds.ModifyWidget(t.Context(), g.ID, &guildkit.GuildWidgetModifyParams{Enabled: guildkit.Some(true), ChannelID: guildkit.Some(ch.ID)})
	require.NoError(t, err)
	_, err = c.Guilds.GetWidget(t.Context(), g.ID) // makes the widget's invite
	require.NoError(t, err)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(`#refresh`),
		chromedp.WaitVisible(`//div[contains(@class, "onboarding")]//strong[text()="What brings you here?"]`),
		chromedp.WaitVisible(`//div[contains(@class, "widget")]/a[contains(@href, "/invite/")]`),
	))
	welcome, err := textOf(ctx, `div.welcome`, false)
	require.NoError(t, err)
	assert.Contains(t, welcome, "enabled: Welcome to ops")
	assert.Contains(t, welcome, "chat here")
	linkStatus, err := chromedp.Run(ctx, chromedp.Evaluate[int](`fetch(document.querySelector("div.widget a").href).then(r => r.status)`,
		chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	assert.Equal(t, 200, linkStatus, "the widget's invite link is served")

	// The control API's routes.
	routes, err := textOf(ctx, `table.control-routes`, false)
	require.NoError(t, err)
	assert.Contains(t, routes, guildkittest.ControlPrefix+"api/access-tokens")

	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	path := filepath.Join(artifactDir(t), "inspector-state.png")
	require.NoError(t, os.WriteFile(path, shot, 0o644))
	t.Logf("screenshot: %s", path)
}
