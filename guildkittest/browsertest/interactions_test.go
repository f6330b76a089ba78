package browsertest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/interactions"
)

// clickPage runs one step of JavaScript on the page: the page redraws its
// messages as events come, so finding a node and using it happen together.
func clickPage(ctx context.Context, js string) error {
	ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js))
	if err == nil && !ok {
		err = fmt.Errorf("the page found nothing for %s", js)
	}
	return err
}

// actAs picks the member the page acts as.
func actAs(ctx context.Context, userID guildkit.Snowflake) error {
	return clickPage(ctx, `(() => { const p = document.getElementById("acting-as"); p.value = `+strconv.Quote(userID.String())+
		`; p.dispatchEvent(new Event("change")); return p.value === `+strconv.Quote(userID.String())+`; })()`)
}

// pressButton clicks the live button labelled label.
func pressButton(ctx context.Context, label string) error {
	return clickPage(ctx, `(() => { const b = [...document.querySelectorAll("#messages button.live")].find((b) => b.textContent === `+
		strconv.Quote(label)+`); if (b) b.click(); return !!b; })()`)
}

// TestInspectorModalLoop is the component loop in a browser: a person
// acting as a member clicks a button on a bot's message, the bot (package
// interactions, behind a loopback HTTP server the emulator delivers to,
// signed) answers with a modal; the dialog shows its fields, refuses to
// send what the platform's client refuses (a required field empty, a name
// too short), and the submission reaches the bot in the platform's shape;
// the bot updates the message, and the page shows it. A choice in a select
// answered ephemerally is shown marked "Only you can see this".
func TestInspectorModalLoop(t *testing.T) {
	ctx := browser(t)
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "Loop guild"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	alice := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice", GlobalName: guildkit.Some("Alice")}})
	bob := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "bob"}})
	srv.AddApplicationMessage(ch.ID, guildkit.Message{
		Content: "Join a team",
		Components: components.List{
			components.NewActionRow(components.PrimaryButton("apply", "Apply")),
		},
	})
	srv.AddApplicationMessage(ch.ID, guildkit.Message{
		Content: "Your colour",
		Components: components.List{
			components.NewActionRow(components.NewStringSelect("color", components.NewOption("Red", "red"), components.NewOption("Blue", "blue")).WithPlaceholder("Pick a colour")),
		},
	})

	var (
		mu  sync.Mutex
		got *components.ModalSubmitData
	)
	h, err := interactions.NewHandler(srv.Application().PublicKeyHex(), srv.Client())
	require.NoError(t, err)
	h.HandleComponent("apply", func(ctx context.Context, r *interactions.Request) error {
		return r.ShowModal(ctx, "apply-form", "Application",
			components.NewLabel("Your name", components.NewTextInput("name", components.TextInputShort).WithLength(2, 20).WithPlaceholder("Name")).
				WithDescription("As the guild knows you"),
			components.NewLabel("Team", components.NewStringSelect("team", components.NewOption("Red team", "red"), components.NewOption("Blue team", "blue"))),
			components.NewLabel("Shift", components.NewRadioGroup("shift", components.NewChoice("Morning", "morning"), components.NewChoice("Evening", "evening"))),
			components.NewLabel("I agree to the rules", components.NewCheckbox("agree")),
			components.NewLabel("Why", components.NewTextInput("why", components.TextInputParagraph).WithRequired(false)),
		)
	})
	h.HandleComponent("color", func(ctx context.Context, r *interactions.Request) error {
		return r.ReplyEphemeral(ctx, "You chose "+r.Interaction.Component.Values[0])
	})
	h.HandleModal("apply-form", func(ctx context.Context, r *interactions.Request) error {
		d := r.Interaction.ModalSubmit
		mu.Lock()
		got = d
		mu.Unlock()
		name, _ := d.Text("name")
		team, _ := d.Values("team")
		shift, _, _ := d.Selected("shift")
		agreed, _ := d.Checked("agree")
		return r.Update(ctx, &guildkit.InteractionMessageParams{
			Content:    guildkit.Some(fmt.Sprintf("Application from %s: team %s, %s shift, agreed %v", name, team[0], shift, agreed)),
			Components: components.List{},
		})
	})
	bot := httptest.NewServer(h)
	t.Cleanup(bot.Close)
	srv.SetInteractionsURL(bot.URL + "/interactions")
	require.NoError(t, srv.CheckInteractionsEndpoint(t.Context()))

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+guildkittest.ControlPrefix),
		chromedp.WaitVisible(`//span[@id="status" and text()="live"]`),
		chromedp.WaitVisible(`//div[@id="endpoint-verdict" and contains(@class, "ok")]`),
		chromedp.WaitVisible(`//button[contains(@class, "live") and text()="Apply"]`),
	))
	require.NoError(t, actAs(ctx, alice.User.ID))
	require.NoError(t, pressButton(ctx, "Apply"))
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(`//dialog[@open]//h3[text()="Application"]`),
		chromedp.WaitVisible(`//dialog//div[@class="m-description" and text()="As the guild knows you"]`),
		chromedp.WaitVisible(`//dialog//input[@data-custom-id="name" and @placeholder="Name" and @maxlength="20"]`),
		chromedp.WaitVisible(`//dialog//textarea[@data-custom-id="why"]`),
	))

	// The dialog refuses what the platform's client refuses: nothing is sent.
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#modal-submit`)),
		chromedp.WaitVisible(`//dialog//div[@class="m-problem" and text()="This field is required."]`)))
	require.NoError(t, chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(`input[data-custom-id="name"]`), "A"),
		chromedp.Click(chromedp.CSS(`#modal-submit`)),
		chromedp.WaitVisible(`//dialog//div[@class="m-problem" and starts-with(text(), "Must be 2 to 20 characters long")]`)))
	assert.Len(t, srv.Deliveries(), 1, "a refused form is not delivered")

	require.NoError(t, chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS(`input[data-custom-id="name"]`), "Alice"),
		chromedp.SetValue(chromedp.CSS(`select[data-custom-id="team"]`), "blue"),
		chromedp.Click(chromedp.CSS(`input[name="radio-shift"][value="evening"]`)),
		chromedp.Click(chromedp.CSS(`input[data-custom-id="agree"]`)),
		chromedp.Click(chromedp.CSS(`#modal-submit`)),
		chromedp.WaitVisible(`//div[@id="messages"]//*[contains(text(), "Application from Alice: team blue, evening shift, agreed true")]`),
		chromedp.WaitVisible(`//div[@id="outcome" and @data-kind="updated"]`),
	))
	open, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("modal").open`))
	require.NoError(t, err)
	assert.False(t, open, "the dialog closes once the submission is answered")

	mu.Lock()
	require.NotNil(t, got, "the bot got the submission")
	assert.Equal(t, "apply-form", got.CustomID)
	why, err := got.Text("why")
	require.NoError(t, err)
	assert.Empty(t, why, "an optional field left empty is sent empty")
	mu.Unlock()
	d := srv.Deliveries()
	require.Len(t, d, 2)
	assert.Equal(t, guildkit.InteractionTypeModalSubmit, d[1].Type)
	assert.Equal(t, alice.User.ID, d[1].UserID)
	assert.Equal(t, guildkit.InteractionResponseUpdateMessage, d[1].AnswerType)
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`//ol[@id="interactions"]/li[contains(text(), "MODAL_SUBMIT apply-form")]`)))

	// An ephemeral answer: only the member who chose sees it.
	require.NoError(t, clickPage(ctx, `(() => { const s = document.querySelector('#messages select[data-custom-id="color"]'); if (!s) return false;
		s.value = "red"; s.dispatchEvent(new Event("change")); return true; })()`))
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(`//div[@id="outcome"]//div[@class="only-you"]`),
		chromedp.WaitVisible(`//div[@id="messages"]/article[contains(@class, "ephemeral")]//*[text()="You chose red"]`),
	))
	require.NoError(t, actAs(ctx, bob.User.ID))
	seen, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`[...document.querySelectorAll("#messages article")].some((a) => a.textContent.includes("You chose red"))`))
	require.NoError(t, err)
	assert.False(t, seen, "another member does not see the ephemeral message")

	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	require.NoError(t, writeArtifact(t, "inspector-interactions.png", shot))
}

// TestInspectorInteractionFailed: a bot that does not answer within 3
// seconds; the page shows "This interaction failed" with the reason. And
// an endpoint that does not verify signatures, saved on the page: the
// endpoint check's verdict says so.
func TestInspectorInteractionFailed(t *testing.T) {
	ctx := browser(t)
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "Slow guild"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}})
	srv.AddApplicationMessage(ch.ID, guildkit.Message{Content: "Slow bot", Components: components.List{
		components.NewActionRow(components.SecondaryButton("slow", "Slow")),
	}})
	// It never answers: it waits until the emulator gives up.
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // the connection's end is noticed once the body is read
		<-r.Context().Done()
	}))
	t.Cleanup(slow.Close)
	srv.SetInteractionsURL(slow.URL)
	// It answers everything 200 PONG, signed or not.
	careless := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"type":1}`))
	}))
	t.Cleanup(careless.Close)

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+guildkittest.ControlPrefix),
		chromedp.WaitVisible(`//span[@id="status" and text()="live"]`),
		chromedp.WaitVisible(`//button[contains(@class, "live") and text()="Slow"]`),
	))
	require.NoError(t, pressButton(ctx, "Slow"))
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(`//div[@id="outcome"]//strong[text()="This interaction failed"]`)))
	reason, err := textOf(ctx, "#outcome .failure", false)
	require.NoError(t, err)
	assert.Equal(t, "the application did not answer within 3 seconds", reason)

	// Typed and saved in one step: the page refreshes the field from the
	// server every 3 seconds while it has no focus.
	require.NoError(t, clickPage(ctx, `(() => { const i = document.getElementById("endpoint-url"); i.value = `+
		strconv.Quote(careless.URL+"/interactions")+`; document.querySelector("#endpoint-form button").click(); return true; })()`))
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(`//div[@id="endpoint-verdict" and contains(@class, "bad") and contains(text(), "accepted an invalid signature")]`),
	))
	verdict, err := textOf(ctx, "#endpoint-verdict", false)
	require.NoError(t, err)
	assert.Contains(t, verdict, "your endpoint accepted an invalid signature — it must verify X-Signature-Ed25519")
	assert.Equal(t, careless.URL+"/interactions", srv.InteractionsURL())
}

// writeArtifact keeps a screenshot for a person to look at.
func writeArtifact(t *testing.T, name string, data []byte) error {
	path := filepath.Join(artifactDir(t), name)
	t.Logf("screenshot: %s", path)
	return os.WriteFile(path, data, 0o644)
}
