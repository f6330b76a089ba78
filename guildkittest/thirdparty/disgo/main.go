// Command disgo is a bot written with github.com/disgoorg/disgo and no
// guildkit code, run against the emulator by the tests of package
// thirdparty.
//
// disgo needs only its REST base URL (rest.WithURL): it asks GET /gateway
// for the WebSocket URL. It reads the application's id from the token,
// asks for zstd-stream compression by default, and refuses text frames on
// a compressed stream, so it checks parts of the server the other bots do
// not.
//
// Environment (the names the emulator prints):
//
//	GUILDKIT_BASE_URL  the interface's base URL, http://127.0.0.1:PORT/api/v10
//	GUILDKIT_TOKEN     the bot's token
//
// It prints one JSON object per line on standard output, the line protocol
// described in package thirdparty, and exits when its standard input ends.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/disgoorg/disgo"
	"github.com/disgoorg/disgo/bot"
	"github.com/disgoorg/disgo/discord"
	"github.com/disgoorg/disgo/events"
	"github.com/disgoorg/disgo/gateway"
	"github.com/disgoorg/disgo/rest"
)

// out writes the line protocol.
type out struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func (o *out) emit(line map[string]any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	_ = o.enc.Encode(line)
}

// subject returns the subject of a dispatch: its role, its user, or
// itself.
func subject(r io.Reader) string {
	var v struct {
		ID   string `json:"id"`
		Role *struct {
			ID string `json:"id"`
		} `json:"role"`
		User *struct {
			ID string `json:"id"`
		} `json:"user"`
	}
	_ = json.NewDecoder(r).Decode(&v)
	switch {
	case v.Role != nil:
		return v.Role.ID
	case v.User != nil:
		return v.User.ID
	}
	return v.ID
}

func main() {
	base, token := os.Getenv("GUILDKIT_BASE_URL"), os.Getenv("GUILDKIT_TOKEN")
	if base == "" || token == "" {
		fmt.Fprintln(os.Stderr, "disgo bot: GUILDKIT_BASE_URL and GUILDKIT_TOKEN must be set")
		os.Exit(2)
	}
	o := &out{enc: json.NewEncoder(os.Stdout)}
	var once sync.Once

	client, err := disgo.New(token,
		bot.WithLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))),
		bot.WithRestClientConfigOpts(rest.WithURL(base)),
		bot.WithGatewayConfigOpts(
			gateway.WithIntents(gateway.IntentGuilds, gateway.IntentGuildMembers, gateway.IntentGuildModeration),
			gateway.WithEnableRawEvents(true),
		),
		bot.WithEventListenerFunc(func(e *events.Raw) {
			o.emit(map[string]any{"kind": "dispatch", "t": string(e.EventType), "s": e.SequenceNumber(), "id": subject(e.Payload)})
		}),
		bot.WithEventListenerFunc(func(e *events.Ready) {
			once.Do(func() {
				ids := make([]string, 0, len(e.Guilds))
				for _, g := range e.Guilds {
					ids = append(ids, g.ID.String())
				}
				o.emit(map[string]any{"kind": "ready", "user_id": e.User.ID.String(), "guild_ids": ids})
			})
		}),
		bot.WithEventListenerFunc(func(*events.Resumed) {
			o.emit(map[string]any{"kind": "resumed"})
		}),
		bot.WithEventListenerFunc(func(e *events.GuildMemberJoin) {
			o.emit(map[string]any{"kind": "event", "t": "GUILD_MEMBER_ADD", "guild_id": e.GuildID.String(), "user_id": e.Member.User.ID.String()})
		}),
		bot.WithEventListenerFunc(func(e *events.GuildBan) {
			o.emit(map[string]any{"kind": "event", "t": "GUILD_BAN_ADD", "guild_id": e.GuildID.String(), "user_id": e.User.ID.String()})
		}),
		bot.WithEventListenerFunc(func(e *events.RoleCreate) {
			o.emit(map[string]any{"kind": "event", "t": "GUILD_ROLE_CREATE", "guild_id": e.GuildID.String(), "role_id": e.RoleID.String()})
		}),
		bot.WithEventListenerFunc(func(e *events.ComponentInteractionCreate) {
			customID, user := e.Data.CustomID(), e.User().ID.String()
			o.emit(map[string]any{"kind": "interaction", "id": e.ID().String(), "custom_id": customID, "user_id": user})
			content := "disgo: " + customID + " clicked by " + user
			if err := e.CreateMessage(discord.MessageCreate{Content: content, Flags: discord.MessageFlagEphemeral}); err != nil {
				o.emit(map[string]any{"kind": "error", "message": "create message: " + err.Error()})
				return
			}
			o.emit(map[string]any{"kind": "answered", "id": e.ID().String(), "content": content})
		}),
	)
	if err != nil {
		o.emit(map[string]any{"kind": "error", "message": "new client: " + err.Error()})
		os.Exit(1)
	}
	if err := client.OpenGateway(context.Background()); err != nil {
		o.emit(map[string]any{"kind": "error", "message": "open gateway: " + err.Error()})
		os.Exit(1)
	}
	_, _ = io.Copy(io.Discard, os.Stdin)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	client.Close(ctx)
}
