package browsertest

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/interactions"
)

// TestInspectorCommandPalette is the command loop in a browser: the bot
// declares /fruit (a required option with autocomplete, a bounded integer)
// and syncs it in the guild; the page's palette lists it with its options
// as fields, shows the bot's suggestions as the member types, refuses to
// send a value out of range, and runs it, showing the bot's answer. A
// command that is not registered is not offered and cannot be run.
func TestInspectorCommandPalette(t *testing.T) {
	ctx := browser(t)
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "Fruit guild"})
	srv.AddChannel(g.ID, guildkit.Channel{Name: "market", Type: guildkit.ChannelTypeGuildText})
	alice := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}})
	srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{ID: srv.BotID()}})

	h, err := interactions.NewHandler(srv.Application().PublicKeyHex(), srv.Client())
	require.NoError(t, err)
	fruits := []string{"apple", "apricot", "banana", "cherry"}
	h.Command(guildkit.CommandCreateParams{Name: "fruit", Description: "Buy fruit", Options: []guildkit.CommandOptionDefinition{
		{Type: guildkit.CommandOptionString, Name: "name", Description: "Which fruit", Required: true, Autocomplete: true},
		{Type: guildkit.CommandOptionInteger, Name: "count", Description: "How many", MinValue: guildkit.Some(1.0), MaxValue: guildkit.Some(10.0)},
	}}, func(ctx context.Context, r *interactions.Request) error {
		name, _ := r.Options().String("name")
		count, ok := r.Options().Int("count")
		if !ok {
			count = 1
		}
		return r.ReplyEphemeral(ctx, fmt.Sprintf("You bought %d %s", count, name))
	})
	h.HandleAutocomplete("fruit", func(ctx context.Context, r *interactions.Request) error {
		_, _, typed, _ := r.Options().Focused()
		var out []guildkit.CommandOptionChoice
		for _, f := range fruits {
			if strings.HasPrefix(f, typed) {
				out = append(out, guildkit.CommandOptionChoice{Name: strings.ToUpper(f[:1]) + f[1:], Value: f})
			}
		}
		return r.Suggest(ctx, out...)
	})
	h.Command(guildkit.CommandCreateParams{Type: guildkit.Some(guildkit.CommandTypeUser), Name: "High Five"}, func(ctx context.Context, r *interactions.Request) error {
		target := r.Interaction.Resolved.Users[r.Interaction.Command.TargetID.Or(0)]
		return r.ReplyEphemeral(ctx, "High five to "+target.Username)
	})
	res, err := h.Sync(t.Context(), srv.Application().ID, g.ID)
	require.NoError(t, err)
	require.True(t, res.Wrote)
	bot := httptest.NewServer(h)
	t.Cleanup(bot.Close)
	srv.SetInteractionsURL(bot.URL + "/interactions")
	require.NoError(t, srv.CheckInteractionsEndpoint(t.Context()))

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+guildkittest.ControlPrefix),
		chromedp.WaitVisible(`//span[@id="status" and text()="live"]`),
	))
	require.NoError(t, actAs(ctx, alice.User.ID))
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(`//button[@data-command="/fruit"]`),
		chromedp.Click(`//button[@data-command="/fruit"]`),
		chromedp.WaitVisible(`//div[@id="command-options"]//input[@data-option="name" and @type="text"]`),
		chromedp.WaitVisible(`//div[@id="command-options"]//input[@data-option="count" and @type="number" and @min="1" and @max="10"]`),
		chromedp.WaitVisible(`//div[@id="command-options"]//label[text()="name *"]`),
	))

	// Autocomplete: the bot's suggestions for what is typed.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS(`input[data-option="name"]`), "ap"),
		chromedp.WaitVisible(`//div[@data-choices-for="name"]/button[text()="Apricot"]`),
	))
	choices, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('[data-choices-for="name"] button')].map((b) => b.textContent)`))
	require.NoError(t, err)
	assert.Equal(t, []string{"Apple", "Apricot"}, choices)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(`//div[@data-choices-for="name"]/button[text()="Apple"]`)))

	// Out of range: the page does not send it.
	delivered := len(srv.Deliveries())
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS(`input[data-option="count"]`), "11"),
		chromedp.Click(`//form[@id="command-form"]/button`),
		chromedp.WaitVisible(`//div[@id="command-options"]//div[@class="m-problem" and text()="Must be at most 10."]`),
	))
	assert.Equal(t, delivered, len(srv.Deliveries()), "a value out of range is not sent")

	require.NoError(t, chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS(`input[data-option="count"]`), "3"),
		chromedp.Click(`//form[@id="command-form"]/button`),
		chromedp.WaitVisible(`//div[@id="outcome" and @data-kind="message"]//*[text()="You bought 3 apple"]`),
	))
	d := srv.Deliveries()
	require.NotEmpty(t, d)
	assert.Equal(t, guildkit.InteractionTypeApplicationCommand, d[len(d)-1].Type)
	assert.Equal(t, alice.User.ID, d[len(d)-1].UserID)

	// A command that is not registered is not offered, and not sent.
	delivered = len(srv.Deliveries())
	require.NoError(t, clickPage(ctx, `(() => { const i = document.getElementById("command-name"); i.value = "/nope";
		i.dispatchEvent(new Event("input")); return true; })()`))
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(`//div[@id="command-palette"]/p[text()="No command matches."]`),
		chromedp.Click(`//form[@id="command-form"]/button`),
		chromedp.WaitVisible(`//div[@id="outcome" and contains(@class, "refused")]`),
	))
	refusal, err := textOf(ctx, "#outcome", false)
	require.NoError(t, err)
	assert.Contains(t, refusal, "no command /nope is registered")
	assert.Equal(t, delivered, len(srv.Deliveries()), "an unregistered command is not delivered")

	// A USER command, from a member's Apps menu.
	bob := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "bob"}})
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#refresh`)),
		chromedp.WaitVisible(`//select[@data-user-id="`+bob.User.ID.String()+`"]`)))
	require.NoError(t, clickPage(ctx, `(() => { const s = document.querySelector('select[data-user-id="`+bob.User.ID.String()+`"]'); if (!s) return false;
		s.value = "High Five"; s.dispatchEvent(new Event("change")); return true; })()`))
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`//div[@id="outcome"]//*[text()="High five to bob"]`)))

	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	require.NoError(t, writeArtifact(t, "inspector-commands.png", shot))
}
