// Command discordgo is a bot written with github.com/bwmarrin/discordgo and
// no guildkit code, run against the emulator by the tests of package
// thirdparty.
//
// discordgo computes its endpoint variables from its base URL when the
// program starts, so pointing it elsewhere means reassigning every one of
// them (pointAt below); it then finds the gateway with GET /gateway.
//
// Environment (the names the emulator prints):
//
//	GUILDKIT_BASE_URL  the interface's base URL, http://127.0.0.1:PORT/api/v10
//	GUILDKIT_TOKEN     the bot's token
//
// With GUILDKIT_HISTORY_CHANNEL_ID set, once ready it reads that channel's
// history and deletes the messages that say "delete me".
//
// It prints one JSON object per line on standard output, the line protocol
// described in package thirdparty, and exits when its standard input ends.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/bwmarrin/discordgo"
)

// pointAt points discordgo's REST endpoints at base, the interface's base
// URL with its version ("http://127.0.0.1:PORT/api/v10"). The variables
// built from others when the package loaded are reassigned too; those
// that are functions read the base variables when called.
func pointAt(base string) {
	api := strings.TrimSuffix(base, "/") + "/"
	discordgo.EndpointAPI = api
	discordgo.EndpointGuilds = api + "guilds/"
	discordgo.EndpointChannels = api + "channels/"
	discordgo.EndpointUsers = api + "users/"
	discordgo.EndpointGateway = api + "gateway"
	discordgo.EndpointGatewayBot = discordgo.EndpointGateway + "/bot"
	discordgo.EndpointWebhooks = api + "webhooks/"
	discordgo.EndpointStickers = api + "stickers/"
	discordgo.EndpointStageInstances = api + "stage-instances"
	discordgo.EndpointSKUs = api + "skus"
	discordgo.EndpointVoice = api + "voice/"
	discordgo.EndpointVoiceRegions = discordgo.EndpointVoice + "regions"
	discordgo.EndpointNitroStickersPacks = api + "sticker-packs"
	discordgo.EndpointGuildCreate = api + "guilds"
	discordgo.EndpointApplications = api + "applications"
	discordgo.EndpointOAuth2 = api + "oauth2/"
	discordgo.EndpointOAuth2Applications = discordgo.EndpointOAuth2 + "applications"
}

// out writes the line protocol; handlers run on several goroutines.
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
func subject(d []byte) string {
	var v struct {
		ID   string `json:"id"`
		Role *struct {
			ID string `json:"id"`
		} `json:"role"`
		User *struct {
			ID string `json:"id"`
		} `json:"user"`
	}
	_ = json.Unmarshal(d, &v)
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
		fmt.Fprintln(os.Stderr, "discordgo bot: GUILDKIT_BASE_URL and GUILDKIT_TOKEN must be set")
		os.Exit(2)
	}
	pointAt(base)
	o := &out{enc: json.NewEncoder(os.Stdout)}

	s, err := discordgo.New("Bot " + token)
	if err != nil {
		o.emit(map[string]any{"kind": "error", "message": "new session: " + err.Error()})
		os.Exit(1)
	}
	s.LogLevel = discordgo.LogWarning
	// Handlers run one at a time, in the order the events came, so the
	// lines this bot prints keep that order.
	s.SyncEvents = true
	s.Identify.Intents = discordgo.IntentsGuilds | discordgo.IntentsGuildMembers | discordgo.IntentGuildModeration

	s.AddHandler(func(_ *discordgo.Session, e *discordgo.Event) {
		o.emit(map[string]any{"kind": "dispatch", "t": e.Type, "s": e.Sequence, "id": subject(e.RawData)})
	})
	var once sync.Once
	s.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) {
		once.Do(func() {
			ids := make([]string, 0, len(r.Guilds))
			for _, g := range r.Guilds {
				ids = append(ids, g.ID)
			}
			o.emit(map[string]any{"kind": "ready", "user_id": r.User.ID, "guild_ids": ids})
			if ch := os.Getenv("GUILDKIT_HISTORY_CHANNEL_ID"); ch != "" {
				go moderate(s, o, ch)
			}
		})
	})
	s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Resumed) {
		o.emit(map[string]any{"kind": "resumed"})
	})
	s.AddHandler(func(_ *discordgo.Session, m *discordgo.GuildMemberAdd) {
		o.emit(map[string]any{"kind": "event", "t": "GUILD_MEMBER_ADD", "guild_id": m.GuildID, "user_id": m.User.ID})
	})
	s.AddHandler(func(_ *discordgo.Session, b *discordgo.GuildBanAdd) {
		o.emit(map[string]any{"kind": "event", "t": "GUILD_BAN_ADD", "guild_id": b.GuildID, "user_id": b.User.ID})
	})
	s.AddHandler(func(_ *discordgo.Session, r *discordgo.GuildRoleCreate) {
		o.emit(map[string]any{"kind": "event", "t": "GUILD_ROLE_CREATE", "guild_id": r.GuildID, "role_id": r.Role.ID})
	})
	s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		if i.Type != discordgo.InteractionMessageComponent {
			return
		}
		customID := i.MessageComponentData().CustomID
		user := i.User
		if i.Member != nil {
			user = i.Member.User
		}
		o.emit(map[string]any{"kind": "interaction", "id": i.ID, "custom_id": customID, "user_id": user.ID})
		content := "discordgo: " + customID + " clicked by " + user.ID
		err := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseUpdateMessage,
			Data: &discordgo.InteractionResponseData{Content: content},
		})
		if err != nil {
			o.emit(map[string]any{"kind": "error", "message": "respond: " + err.Error()})
			return
		}
		o.emit(map[string]any{"kind": "answered", "id": i.ID, "content": content})
	})

	if err := s.Open(); err != nil {
		o.emit(map[string]any{"kind": "error", "message": "open: " + err.Error()})
		os.Exit(1)
	}
	_, _ = io.Copy(io.Discard, os.Stdin)
	_ = s.Close()
}

// moderate reads the channel's history and deletes the messages that say
// "delete me", as a moderation bot does with its library's ordinary calls;
// it prints a "history" line with how many it read and a "deleted" line
// for each.
func moderate(s *discordgo.Session, o *out, channelID string) {
	msgs, err := s.ChannelMessages(channelID, 50, "", "", "")
	if err != nil {
		o.emit(map[string]any{"kind": "error", "message": "history: " + err.Error()})
		return
	}
	o.emit(map[string]any{"kind": "history", "channel_id": channelID, "content": fmt.Sprint(len(msgs))})
	for _, m := range msgs {
		if m.Content != "delete me" {
			continue
		}
		if err := s.ChannelMessageDelete(channelID, m.ID); err != nil {
			o.emit(map[string]any{"kind": "error", "message": "delete: " + err.Error()})
			continue
		}
		o.emit(map[string]any{"kind": "deleted", "id": m.ID, "channel_id": channelID})
	}
}
