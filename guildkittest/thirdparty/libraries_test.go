package thirdparty

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/seed012df1e9/guildkit/guildkittest"
)

// TestDiscordJS runs the discord.js 14 bot (discordjs/bot.js) on Node.js.
func TestDiscordJS(t *testing.T) {
	t.Parallel()
	run(t, library{
		name:             "discord.js",
		answer:           guildkittest.OutcomeMessage,
		reportsAvailable: true,
		restError:        true,
		// node_modules/discord.js/src/client/websocket/handlers/GUILD_MEMBER_ADD.js
		// emits guildMemberAdd only when the shard's status is Ready.
		quietInReplay: []string{"GUILD_MEMBER_ADD"},
		// No compression without the optional zlib-sync package.
		wire:    wire{version: "10", compression: []string{""}, resumesTo: "resume"},
		command: discordJSCommand,
	})
}

// TestDiscordPy runs the discord.py bot (discordpy/bot.py) with the
// operating system's discord.py: Debian's python3-discord, for
// /usr/bin/python3. GUILDKIT_PYTHON names another interpreter.
func TestDiscordPy(t *testing.T) {
	t.Parallel()
	run(t, library{
		name:             "discord.py",
		answer:           guildkittest.OutcomeMessage,
		embedOnly:        true,
		reportsAvailable: true,
		// zlib-stream always (and IDENTIFY's compress true, which the
		// server must ignore then); zstd-stream from 2.7 when a zstd
		// module is importable.
		wire:    wire{version: "10", compression: []string{"zlib-stream", "zstd-stream"}, resumesTo: "resume"},
		command: discordPyCommand,
	})
}

// TestDiscordGo builds and runs the discordgo bot (discordgo/main.go).
func TestDiscordGo(t *testing.T) {
	t.Parallel()
	run(t, library{
		name:   "discordgo",
		answer: guildkittest.OutcomeUpdated,
		// API v9 by default, IDENTIFY's compress true (each binary frame
		// a zlib stream of its own), and resumes on the URL it connected
		// to: it does not read resume_gateway_url.
		wire:    wire{version: "9", compression: []string{"payload"}, resumesTo: "gateway"},
		command: goBot("./discordgo"),
	})
}

// TestDisgo builds and runs the disgo bot (disgo/main.go).
func TestDisgo(t *testing.T) {
	t.Parallel()
	run(t, library{
		name:   "disgo",
		answer: guildkittest.OutcomeMessage,
		// zstd-stream by default, refusing text frames on it.
		wire:    wire{version: "10", compression: []string{"zstd-stream"}, resumesTo: "resume"},
		command: goBot("./disgo"),
	})
}

// goBot returns a command that builds the Go bot in pkg and runs it.
func goBot(pkg string) func(t *testing.T) *exec.Cmd {
	return func(t *testing.T) *exec.Cmd {
		bin := filepath.Join(t.TempDir(), "bot")
		// go test puts the go command that runs it first on PATH.
		if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
		return exec.Command(bin)
	}
}

// discordJSCommand runs discordjs/bot.js on Node.js, or skips (fails in
// CI) when Node.js or discord.js is missing.
func discordJSCommand(t *testing.T) *exec.Cmd {
	node, err := exec.LookPath("node")
	if err != nil {
		need(t, "node is not installed (Debian: apt-get install nodejs npm)")
	}
	if _, err := os.Stat(filepath.Join("discordjs", "node_modules", "discord.js", "package.json")); err != nil {
		need(t, "discord.js is not installed: run npm ci in guildkittest/thirdparty/discordjs")
	}
	return exec.Command(node, filepath.Join("discordjs", "bot.js"))
}

// discordPyCommand runs discordpy/bot.py with the operating system's
// discord.py (GUILDKIT_PYTHON names another interpreter), or skips (fails
// in CI) when it cannot import discord.
func discordPyCommand(t *testing.T) *exec.Cmd {
	python := os.Getenv("GUILDKIT_PYTHON")
	if python == "" {
		python = "/usr/bin/python3"
	}
	if out, err := exec.Command(python, "-c", "import discord").CombinedOutput(); err != nil {
		need(t, "%s cannot import discord (Debian: apt-get install python3-discord): %s", python, bytes.TrimSpace(append([]byte(err.Error()+" "), out...)))
	}
	return exec.Command(python, filepath.Join("discordpy", "bot.py"))
}
