package thirdparty

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// TestDiscordJSSendWindow: discord.js paces its sends as every client
// library does, 114 a window of 60 s from the moment its connection
// opened. Asked for 200 presence updates at once, 50 s after it is ready,
// it sends the first in the last seconds of its first window and the rest
// as its second begins. The server's default
// (fixed windows from the connection's start) lets all of them through on
// one connection; the strict sliding window closes it with 4008 once the
// second burst meets the first, which the platform does not do. It takes
// a little over a minute of real time: discord.js's windows are its own.
func TestDiscordJSSendWindow(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a minute of real time")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		need(t, "node is not installed (Debian: apt-get install nodejs npm)")
	}
	if _, err := os.Stat(filepath.Join("discordjs", "node_modules", "discord.js", "package.json")); err != nil {
		need(t, "discord.js is not installed: run npm ci in guildkittest/thirdparty/discordjs")
	}
	const updates = 200
	for _, strict := range []bool{false, true} {
		t.Run(fmt.Sprintf("strict=%t", strict), func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(t.Context(), scenarioTimeout)
			defer cancel()
			srv := guildkittest.NewServer(t, guildkittest.WithGateway(guildkittest.GatewaySettings{StrictSendWindow: strict}))
			srv.AddGuild(guildkit.Guild{Name: "send window"})
			b := startBot(t, "discord.js", exec.Command(node, filepath.Join("discordjs", "bot.js")), map[string]string{
				"GUILDKIT_BASE_URL": srv.BaseURL(), "GUILDKIT_TOKEN": srv.Token(),
				"GUILDKIT_PRESENCE_UPDATES": fmt.Sprint(updates),
				// The first burst in the last seconds of discord.js's first
				// window, the second at the start of its next.
				"GUILDKIT_PRESENCE_AFTER_MS": "50000",
			})
			b.await(ctx, t, "ready", func(lines []line) bool { return count(lines, ofKind("ready")) > 0 })
			session := onlySession(t, srv)
			// Until the updates are sent, or the server has closed the
			// connection with 4008 (discord.js then connects again, and
			// prints the dispatches it reads).
			closedWith := ""
			closed := func() bool {
				for _, f := range srv.GatewayFrames(session.ID) {
					if f.Op == -1 && strings.Contains(f.Note, "4008") {
						closedWith = f.Note
						return true
					}
				}
				return false
			}
			b.await(ctx, t, "the presence updates sent or a 4008", func(lines []line) bool { return count(lines, ofKind("sent")) > 0 || closed() })
			closed()
			var s guildkittest.GatewaySession
			for _, x := range srv.GatewaySessions() {
				if x.ID == session.ID {
					s = x
				}
			}
			switch {
			case !strict && (closedWith != "" || s.Resumes != 0 || s.Identifies != 1 || len(srv.GatewaySessions()) != 1):
				t.Errorf("fixed windows: discord.js was closed (%q), or its session %+v resumed or identified again", closedWith, s)
			case strict && closedWith == "":
				t.Errorf("strict window: %d updates went through without a 4008; the test no longer bursts across discord.js's windows", updates)
			}
			t.Logf("strict=%t: %s; session %d resumes, %d identifies", strict, closedWith, s.Resumes, s.Identifies)
		})
	}
}
