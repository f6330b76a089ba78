package browsertest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// browserPath finds Chromium or Chrome, or skips the test outside CI.
func browserPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("GUILDKIT_BROWSER"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no Chromium found, and CI is set: .ci/run installs it (apt-get install chromium)")
	}
	t.Skip("no Chromium found (install it with apt-get install chromium, or set GUILDKIT_BROWSER); the inspector's browser test is skipped")
	return ""
}

// browser starts a headless browser for the test and returns its context.
func browser(t *testing.T) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(browserPath(t)),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1400, 900),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(t.Context(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(func() {
		cancelTimeout()
		cancelCtx()
		cancelAlloc()
	})
	return ctx
}

func artifactDir(t *testing.T) string {
	dir := os.Getenv("GUILDKIT_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "guildkit-artifacts")
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return dir
}

// TestInspectorShowsMessagesAndLiveEvents opens the inspector page, sends
// a Components V2 webhook message and a role creation, and checks what a
// person would see: the message's text and buttons, styled and disabled as
// sent, and the new event in the feed, with no reload.
func TestInspectorShowsMessagesAndLiveEvents(t *testing.T) {
	ctx := browser(t)
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "Inspector guild"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "builds", Type: guildkit.ChannelTypeGuildText})
	hook := srv.AddWebhook(ch.ID, "CI")

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+guildkittest.ControlPrefix),
		chromedp.WaitVisible(`//span[@id="status" and text()="live"]`),
		chromedp.WaitVisible(`//h3[text()="Inspector guild"]`),
	))

	open := components.LinkButton("https://ci.example.com/42", "Open build")
	retry := components.LinkButton("https://ci.example.com/42/retry", "Retry")
	retry.Disabled = true
	_, err := srv.Client().Webhooks.Execute(t.Context(), hook.ID, hook.Token, &guildkit.WebhookExecuteParams{
		Wait:           guildkit.Some(true),
		WithComponents: guildkit.Some(true),
		Flags:          guildkit.Some(guildkit.MessageFlagIsComponentsV2),
		Components: components.List{
			components.NewContainer(
				components.NewTextDisplay("## Build 42 passed\nAll 118 tests green."),
				components.NewSeparator(),
				components.NewActionRow(open, retry),
			).WithAccentColor(0x2ECC71),
		},
	})
	require.NoError(t, err)

	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(`//div[contains(@class, "c-text")]/h3[text()="Build 42 passed"]`)))
	// Read in one step each: the page redraws the messages as events come.
	text, err := textOf(ctx, ".message .c-container", false)
	require.NoError(t, err)
	openClass, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll(".c-button")].find(b => b.textContent === "Open build").className`))
	require.NoError(t, err)
	openHref, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll("a.c-button")].find(b => b.textContent === "Open build").href`))
	require.NoError(t, err)
	retryDisabled, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`[...document.querySelectorAll("button")].find(b => b.textContent === "Retry").disabled`))
	require.NoError(t, err)
	assert.Contains(t, text, "Build 42 passed", "the heading's text")
	assert.NotContains(t, text, "## Build", "markdown is rendered, not shown raw")
	assert.Contains(t, text, "All 118 tests green.")
	assert.Contains(t, openClass, "style-5", "a link button is drawn as a link button")
	assert.Equal(t, "https://ci.example.com/42", openHref, "a link button is a link")
	assert.True(t, retryDisabled, "a disabled button is drawn disabled")

	// A new event appears in the feed without a reload.
	_, err = srv.Client().Roles.Create(t.Context(), g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("Live role")})
	require.NoError(t, err)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(`//ol[@id="events"]/li[contains(text(), "GUILD_ROLE_CREATE")]`),
		chromedp.WaitVisible(`//td[text()="Live role"]`),
	))
	first, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#events li")))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(first, "GUILD_ROLE_CREATE"), "the newest event is first: %q", first)

	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	path := filepath.Join(artifactDir(t), "inspector.png")
	require.NoError(t, os.WriteFile(path, shot, 0o644))
	t.Logf("screenshot: %s", path)
}
