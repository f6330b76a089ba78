package browsertest

import (
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// TestInspectorSceneVerbs sets a scene up from the page alone: a role
// with a permission named as the page lists it, a user joining, the role
// given to them, then taken, and the member leaving; each shows in the
// state and emits the platform's event.
func TestInspectorSceneVerbs(t *testing.T) {
	ctx := browser(t)
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "Scene guild"})
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+guildkittest.ControlPrefix),
		chromedp.WaitVisible(`//span[@id="status" and text()="live"]`),
		chromedp.WaitVisible(`//h3[text()="Scene guild"]`),
	))
	submit := func(form string, values map[string]string) error {
		js := `(() => { const f = document.querySelector("form.` + form + `"); if (!f) return false;`
		for sel, v := range values {
			js += `f.querySelector("` + sel + `").value = ` + strconv.Quote(v) + `;`
		}
		return clickPage(ctx, js+`f.requestSubmit(); return true; })()`)
	}
	require.NoError(t, submit("scene-create-role", map[string]string{".scene-role-name": "Moderators", ".scene-role-perms": "moderate_members, KICK_MEMBERS"}))
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`//table[contains(@class,"roles")]//td[text()="Moderators"]`)))
	require.NoError(t, submit("scene-join", map[string]string{".scene-join-name": "zoe"}))
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`//table[contains(@class,"members")]//td[text()="zoe"]`)))

	// Give zoe the role: pick her and it in one step, as the page redraws.
	member := func(button string) error {
		return clickPage(ctx, `(() => { const d = document.querySelector("div.scene-member-actions");
			const m = d.querySelector(".scene-member"), r = d.querySelector(".scene-role");
			m.value = [...m.options].find((o) => o.textContent === "zoe").value;
			r.value = [...r.options].find((o) => o.textContent === "Moderators").value;
			d.querySelector(".scene-`+button+`").click(); return true; })()`)
	}
	require.NoError(t, member("give"))
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`//table[contains(@class,"members")]//tr[td[text()="zoe"]]/td[text()="Moderators"]`)))
	var zoe guildkit.Snowflake
	members, err := srv.Client().Members.List(ctx, g.ID, &guildkit.MemberListParams{Limit: guildkit.Some(100)})
	require.NoError(t, err)
	for _, m := range members {
		if m.User.Username == "zoe" {
			zoe = m.User.ID
		}
	}
	require.NotZero(t, zoe)
	assert.True(t, srv.Permissions(g.ID, zoe).Has(guildkit.PermissionModerateMembers|guildkit.PermissionKickMembers))

	require.NoError(t, member("take"))
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitNotPresent(`//table[contains(@class,"members")]//tr[td[text()="zoe"]]/td[text()="Moderators"]`)))
	require.NoError(t, member("leave"))
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitNotPresent(`//table[contains(@class,"members")]//td[text()="zoe"]`)))

	// An unknown permission name is refused on the page, before any call.
	require.NoError(t, submit("scene-create-role", map[string]string{".scene-role-name": "x", ".scene-role-perms": "FLY"}))
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`//div[contains(@class,"verdict") and contains(text(),"unknown permission name")]`)))

	var names []guildkit.EventName
	for _, e := range srv.Events() {
		names = append(names, e.Name)
	}
	assert.Equal(t, []guildkit.EventName{guildkit.EventGuildRoleCreate, guildkit.EventGuildMemberAdd, guildkit.EventGuildMemberUpdate,
		guildkit.EventGuildMemberUpdate, guildkit.EventGuildMemberRemove}, names)
}
