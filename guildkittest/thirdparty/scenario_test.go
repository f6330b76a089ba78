package thirdparty

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// library is one third-party library's bot, as the scenario runs it.
type library struct {
	// name is the library's name, which its bot puts first in its answer
	// to the button ("discord.js: press clicked by 123").
	name string
	// command returns the command that runs the bot, or skips the test
	// (fails it in CI) when the runtime it needs is missing.
	command func(t *testing.T) *exec.Cmd
	// answer is how the bot answers the button: an ephemeral message
	// (OutcomeMessage) or an update of the message (OutcomeUpdated).
	answer guildkittest.OutcomeKind
	// embedOnly is set when the bot's answer is an embed whose title is
	// the text, with no content (discord.py then sends "content": null).
	embedOnly bool
	// reportsAvailable is set when the bot's ready line lists the guilds
	// the library holds available.
	reportsAvailable bool
	// restError is set when the bot, once ready, sends a body with a
	// wrongly typed field (options[0].type a string) through its library's
	// REST client and prints the error the library reports.
	restError bool
	// quietInReplay names the events the library receives, but does not
	// hand to its typed handlers, when they come in a resume's replay
	// (before RESUMED); the package doc says why for discord.js.
	quietInReplay []string
	// wire is how the library uses the connection, as the server's session
	// list shows it: each library exercises a different part of the server.
	wire wire
}

// wire is what the server sees of a library's connection.
type wire struct {
	version     string   // the URL's v
	compression []string // any of: zlib-stream, zstd-stream, payload (IDENTIFY's compress), none ("")
	resumesTo   string   // where it resumes: "resume" (resume_gateway_url) or "gateway" (the ordinary URL)
}

// scenarioTimeout bounds a whole scenario; a library that hangs fails the
// test rather than holding up CI.
const scenarioTimeout = 2 * time.Minute

// world is what the scenario seeds: a guild the bot owns, a text channel,
// a member who clicks, and the application's message with a button.
type world struct {
	srv     *guildkittest.Server
	client  *guildkit.Client
	guild   guildkit.Guild
	clicker guildkit.Member
	message guildkit.Message
}

const buttonID = "press"

func seed(t *testing.T) *world {
	t.Helper()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "third-party libraries"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	clicker := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "clicker"}})
	msg := srv.AddApplicationMessage(ch.ID, guildkit.Message{
		Content:    "Press the button",
		Components: components.List{components.NewActionRow(components.PrimaryButton(buttonID, "Press"))},
	})
	return &world{srv: srv, client: srv.Client(), guild: g, clicker: clicker, message: msg}
}

// gatewayURL asks GET /gateway, as a library does.
func (w *world) gatewayURL(ctx context.Context, t *testing.T) string {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, w.srv.BaseURL()+"/gateway", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET /gateway: %v", err)
	}
	defer resp.Body.Close()
	var body struct {
		URL string `json:"url"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || resp.StatusCode != http.StatusOK || body.URL == "" {
		t.Fatalf("GET /gateway: %s, %v, url %q", resp.Status, err, body.URL)
	}
	return body.URL
}

// caused is an event the test caused through REST, as the bot reports it.
type caused struct {
	t     string // GUILD_MEMBER_ADD, GUILD_BAN_ADD or GUILD_ROLE_CREATE
	id    string // the user's or the role's id
	guild string // the guild's id, as the library's typed event gives it
	fault int    // caused during the n-th fault (from 1); 0 for none
}

func (c caused) String() string { return c.t + " " + c.id }

// dispatched reports whether a "dispatch" line is c's.
func (c caused) dispatched(l line) bool {
	return l.Kind == "dispatch" && l.T == c.t && l.ID == c.id
}

// matches reports whether an "event" line is c's.
func (c caused) matches(l line) bool {
	if l.Kind != "event" || l.T != c.t || l.GuildID != c.guild {
		return false
	}
	if c.t == "GUILD_ROLE_CREATE" {
		return l.RoleID == c.id
	}
	return l.UserID == c.id
}

// cause makes the three REST calls of one round with guildkit's client: a
// user joins the guild (GUILD_MEMBER_ADD), another is banned
// (GUILD_BAN_ADD), and a role is created (GUILD_ROLE_CREATE).
func (w *world) cause(ctx context.Context, t *testing.T, round string) []caused {
	t.Helper()
	joiner := w.srv.AddUser(guildkit.User{Username: "joiner-" + round})
	if _, err := w.client.Members.Add(ctx, w.guild.ID, joiner.ID, &guildkit.MemberAddParams{AccessToken: w.srv.NewAccessToken(joiner.ID)}); err != nil {
		t.Fatalf("round %s: Add Guild Member: %v", round, err)
	}
	banned := w.srv.AddUser(guildkit.User{Username: "banned-" + round})
	if err := w.client.Bans.Create(ctx, w.guild.ID, banned.ID, nil); err != nil {
		t.Fatalf("round %s: Create Guild Ban: %v", round, err)
	}
	role, err := w.client.Roles.Create(ctx, w.guild.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("role-" + round)})
	if err != nil {
		t.Fatalf("round %s: Create Guild Role: %v", round, err)
	}
	guild := w.guild.ID.String()
	return []caused{
		{t: "GUILD_MEMBER_ADD", id: joiner.ID.String(), guild: guild},
		{t: "GUILD_BAN_ADD", id: banned.ID.String(), guild: guild},
		{t: "GUILD_ROLE_CREATE", id: role.ID.String(), guild: guild},
	}
}

// awaitEvents waits until the bot has read every event of evs (a
// dispatch line) and, when typed is set, handed it to its handler (an
// event line).
func awaitEvents(ctx context.Context, t *testing.T, b *bot, round string, evs []caused, typed bool) {
	t.Helper()
	for _, ev := range evs {
		b.await(ctx, t, fmt.Sprintf("%s (round %s)", ev, round), func(lines []line) bool {
			return count(lines, ev.dispatched) > 0 && (!typed || count(lines, ev.matches) > 0)
		})
	}
}

// run is the whole scenario for one library.
func run(t *testing.T, lib library) {
	cmd := lib.command(t)
	ctx, cancel := context.WithTimeout(t.Context(), scenarioTimeout)
	defer cancel()
	w := seed(t)
	b := startBot(t, lib.name, cmd, map[string]string{
		"GUILDKIT_BASE_URL":    w.srv.BaseURL(),
		"GUILDKIT_GATEWAY_URL": w.gatewayURL(ctx, t),
		"GUILDKIT_TOKEN":       w.srv.Token(),
	})

	// Ready, with the seeded guild.
	b.await(ctx, t, "ready", func(lines []line) bool { return count(lines, ofKind("ready")) > 0 })
	lines := b.snapshot()
	ready := lines[slices.IndexFunc(lines, ofKind("ready"))]
	if ready.UserID != w.srv.BotID().String() {
		t.Errorf("ready: the bot's user is %s, want %s", ready.UserID, w.srv.BotID())
	}
	if !slices.Contains(ready.GuildIDs, w.guild.ID.String()) {
		t.Errorf("ready: guilds %v, want %s among them", ready.GuildIDs, w.guild.ID)
	}
	if lib.reportsAvailable && !slices.Contains(ready.AvailableGuildIDs, w.guild.ID.String()) {
		t.Errorf("ready: the library holds guilds %v available, want %s among them (GUILD_CREATE's \"unavailable\": false)", ready.AvailableGuildIDs, w.guild.ID)
	}
	if lib.restError {
		b.await(ctx, t, "the wrongly typed body's answer", func(lines []line) bool { return count(lines, ofKind("rest_error")) > 0 })
		l := b.snapshot()[slices.IndexFunc(b.snapshot(), ofKind("rest_error"))]
		if l.Code != int(guildkit.CodeInvalidFormBody) || !strings.Contains(l.Message, "options[0].type") {
			t.Errorf("a wrongly typed option's type: %s reports %d %q, want 50035 naming options[0].type", lib.name, l.Code, l.Message)
		}
	}
	session := onlySession(t, w.srv)

	// Events caused by REST calls.
	var all []caused
	evs := w.cause(ctx, t, "first")
	awaitEvents(ctx, t, b, "first", evs, true)
	all = append(all, evs...)

	// Faults: each time, events are caused at once, while the bot is
	// reconnecting, and must arrive once, after a resume.
	for i, kind := range []guildkittest.FaultKind{guildkittest.FaultReconnect, guildkittest.FaultDrop} {
		injectFault(ctx, t, w.srv, session, kind)
		round := string(kind)
		evs := w.cause(ctx, t, round)
		for j := range evs {
			evs[j].fault = i + 1
		}
		b.await(ctx, t, "a resume after "+round, func(lines []line) bool {
			return count(lines, ofKind("resumed")) > i
		})
		awaitEvents(ctx, t, b, round, evs, false)
		all = append(all, evs...)
		checkResumed(t, w.srv, session, kind, i+1, lib.wire)
	}

	// A click on the resumed session, delivered over the gateway and
	// answered through the callback route with the library's own reply.
	clickCtx, clickCancel := context.WithTimeout(ctx, 10*time.Second)
	out, err := w.srv.Click(clickCtx, w.clicker.User.ID, w.message.ID, buttonID)
	clickCancel()
	if err != nil {
		t.Fatalf("Click: %v", err)
	}
	want := fmt.Sprintf("%s: %s clicked by %s", lib.name, buttonID, w.clicker.User.ID)
	switch {
	case out.Kind != lib.answer:
		t.Errorf("the click's outcome is %v, want kind %v with %q", out, lib.answer, want)
	case lib.embedOnly && (out.Message == nil || out.Message.Content != "" || len(out.Message.Embeds) != 1 || out.Message.Embeds[0].Title != want):
		t.Errorf("the click's outcome is %v, want a message with no content and one embed titled %q", out, want)
	case !lib.embedOnly && (out.Message == nil || out.Message.Content != want):
		t.Errorf("the click's outcome is %v, want the message %q", out, want)
	case lib.answer == guildkittest.OutcomeMessage && !out.Ephemeral:
		t.Errorf("the click's outcome is %v, want an ephemeral message", out)
	}
	b.await(ctx, t, "the answer's acknowledgement", func(lines []line) bool {
		return count(lines, func(l line) bool { return l.Kind == "answered" && l.Content == want }) > 0
	})
	if n := count(b.snapshot(), ofKind("interaction")); n != 1 {
		t.Errorf("the bot received %d interactions, want 1", n)
	}

	// A last round after the faults; once it has been handled, anything
	// the resumes replayed twice would have come before it.
	evs = w.cause(ctx, t, "last")
	awaitEvents(ctx, t, b, "last", evs, true)
	all = append(all, evs...)

	lines = b.snapshot()
	for _, ev := range all {
		if n := count(lines, ev.dispatched); n != 1 {
			t.Errorf("%s read %s %d times, want once", lib.name, ev, n)
		}
		n := count(lines, ev.matches)
		if n == 0 && slices.Contains(lib.quietInReplay, ev.t) && inReplay(lines, ev) {
			t.Logf("%s received %s in a resume's replay and, as its source says it does, did not hand it to its handler", lib.name, ev)
			continue
		}
		if n != 1 {
			t.Errorf("%s handed %s to its handler %d times, want once", lib.name, ev, n)
		}
	}
	for i, kind := range []string{"reconnect", "drop"} {
		replayed := 0
		for _, ev := range all {
			if ev.fault == i+1 && inReplay(lines, ev) {
				replayed++
			}
		}
		t.Logf("of the 3 events caused during the %s, %d came in the resume's replay, the rest after RESUMED", kind, replayed)
	}
	if n := count(lines, ofKind("ready")); n != 1 {
		t.Errorf("the bot was ready %d times, want once (a new session instead of a resume?)", n)
	}
	checkSequence(t, lines)
	for _, l := range lines {
		if l.Kind == "error" {
			t.Logf("%s reported: %s", lib.name, l.Message)
		}
	}
}

// inReplay reports whether ev, caused during the n-th fault (n from 1),
// was read before the n-th RESUMED: in that resume's replay.
func inReplay(lines []line, ev caused) bool {
	if ev.fault == 0 {
		return false
	}
	at := slices.IndexFunc(lines, ev.dispatched)
	resumed := 0
	for i, l := range lines {
		if l.Kind == "dispatch" && l.T == "RESUMED" {
			resumed++
			if resumed == ev.fault {
				return at >= 0 && at < i
			}
		}
	}
	return false
}

// checkSequence checks the dispatches the library received: one session
// (one READY, numbered 1), every sequence number once and in order, each
// the previous plus one, so no dispatch was lost or received twice across
// the resumes; and a RESUMED after each.
func checkSequence(t *testing.T, lines []line) {
	t.Helper()
	var seqs []int64
	var names []string
	for _, l := range lines {
		if l.Kind == "dispatch" {
			seqs = append(seqs, l.S)
			names = append(names, l.T)
		}
	}
	if len(seqs) == 0 {
		t.Error("the bot printed no dispatches")
		return
	}
	if names[0] != "READY" || seqs[0] != 1 {
		t.Errorf("the first dispatch is %s %d, want READY 1", names[0], seqs[0])
	}
	for i := 1; i < len(seqs); i++ {
		if seqs[i] != seqs[i-1]+1 {
			t.Errorf("dispatch %s %d follows %s %d: a sequence number skipped or repeated", names[i], seqs[i], names[i-1], seqs[i-1])
		}
	}
	if n := count(lines, func(l line) bool { return l.Kind == "dispatch" && l.T == "READY" }); n != 1 {
		t.Errorf("%d READY dispatches, want 1", n)
	}
	if n := count(lines, func(l line) bool { return l.Kind == "dispatch" && l.T == "RESUMED" }); n != 2 {
		t.Errorf("%d RESUMED dispatches, want 2 (one per fault)", n)
	}
	t.Logf("dispatches received: %s", strings.Join(names, " "))
}
