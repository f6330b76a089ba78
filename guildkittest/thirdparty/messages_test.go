package thirdparty

import (
	"context"
	"os/exec"
	"testing"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// The message scenarios: each library's bot, with its ordinary calls,
// answers a member's prefix command (discord.py), posts an embed and a DM
// (discord.js), and reads a channel's history and deletes a message
// (discordgo). The members' messages come from Server.Post.

// chat is the message scenarios' world: a guild the bot owns, #general,
// and a member.
type chat struct {
	srv     *guildkittest.Server
	guild   guildkit.Guild
	general guildkit.Channel
	member  guildkit.Member
}

func newChat(t *testing.T) *chat {
	t.Helper()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "messages"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	m := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "member"}})
	return &chat{srv: srv, guild: g, general: ch, member: m}
}

// start starts the bot cmd with the emulator's variables and extra ones,
// and waits until it is ready.
func (c *chat) start(ctx context.Context, t *testing.T, name string, cmd *exec.Cmd, extra map[string]string) *bot {
	t.Helper()
	w := &world{srv: c.srv}
	env := map[string]string{
		"GUILDKIT_BASE_URL":    c.srv.BaseURL(),
		"GUILDKIT_GATEWAY_URL": w.gatewayURL(ctx, t),
		"GUILDKIT_TOKEN":       c.srv.Token(),
	}
	for k, v := range extra {
		env[k] = v
	}
	b := startBot(t, name, cmd, env)
	b.await(ctx, t, "ready", func(lines []line) bool { return count(lines, ofKind("ready")) > 0 })
	return b
}

// message returns message id of channelID as the server holds it, failing
// the test when there is none.
func (c *chat) message(t *testing.T, channelID guildkit.Snowflake, id string) guildkit.Message {
	t.Helper()
	for _, m := range c.srv.ChannelMessages(channelID, c.member.User.ID) {
		if m.ID.String() == id {
			return m
		}
	}
	t.Fatalf("the server holds no message %s in channel %s", id, channelID)
	return guildkit.Message{}
}

// done is an await condition: n lines of kind, or an error line (which
// fails the test at once rather than at the deadline).
func done(kind string, n int) func([]line) bool {
	return func(lines []line) bool {
		return count(lines, ofKind(kind)) >= n || count(lines, ofKind("error")) > 0
	}
}

// noErrors fails the test when the bot printed an error line.
func noErrors(t *testing.T, b *bot) {
	t.Helper()
	for _, l := range b.snapshot() {
		if l.Kind == "error" {
			t.Fatalf("%s: %s", b.name, l.Message)
		}
	}
}

// lineOf returns the first line of kind, which await has seen.
func lineOf(b *bot, kind string) line {
	for _, l := range b.snapshot() {
		if l.Kind == kind {
			return l
		}
	}
	return line{}
}

// TestDiscordPyPrefixCommand: a member types "!ping"; the discord.py bot,
// reading content with MESSAGE_CONTENT, replies "pong" with
// message.reply.
func TestDiscordPyPrefixCommand(t *testing.T) {
	t.Parallel()
	cmd := discordPyCommand(t)
	ctx, cancel := context.WithTimeout(t.Context(), scenarioTimeout)
	defer cancel()
	c := newChat(t)
	b := c.start(ctx, t, "discord.py", cmd, nil)
	ping, err := c.srv.Post(ctx, c.member.User.ID, c.general.ID, "!ping")
	if err != nil {
		t.Fatalf("Post: %v", err)
	}
	b.await(ctx, t, "the reply to !ping", done("replied", 1))
	noErrors(t, b)
	reply := c.message(t, c.general.ID, lineOf(b, "replied").ID)
	if reply.Content != "pong" || reply.Type != guildkit.MessageTypeReply || reply.Author == nil || reply.Author.ID != c.srv.BotID() {
		t.Errorf("the reply is %+v, want the bot's reply (type 19) \"pong\"", reply)
	}
	if reply.MessageReference == nil || reply.MessageReference.MessageID != ping.ID {
		t.Errorf("the reply's reference is %+v, want message %s", reply.MessageReference, ping.ID)
	}
}

// TestDiscordJSEmbedAndDM: the discord.js bot sends an embed to a channel
// (channel.send) and a DM to a member (user.send, which opens the DM).
func TestDiscordJSEmbedAndDM(t *testing.T) {
	t.Parallel()
	cmd := discordJSCommand(t)
	ctx, cancel := context.WithTimeout(t.Context(), scenarioTimeout)
	defer cancel()
	c := newChat(t)
	b := c.start(ctx, t, "discord.js", cmd, map[string]string{
		"GUILDKIT_SEND_CHANNEL_ID": c.general.ID.String(),
		"GUILDKIT_DM_USER_ID":      c.member.User.ID.String(),
	})
	b.await(ctx, t, "the embed and the DM", done("sent", 2))
	noErrors(t, b)
	var sent []line
	for _, l := range b.snapshot() {
		if l.Kind == "sent" {
			sent = append(sent, l)
		}
	}
	embed := c.message(t, c.general.ID, sent[0].ID)
	if len(embed.Embeds) != 1 || embed.Embeds[0].Title != "Report" || len(embed.Embeds[0].Fields) != 1 {
		t.Errorf("the channel message's embeds are %+v, want the report", embed.Embeds)
	}
	dm := c.srv.DMChannel(c.member.User.ID)
	if sent[1].ChannelID != dm.String() {
		t.Errorf("the DM went to channel %s, want the member's DM %s", sent[1].ChannelID, dm)
	}
	if got := c.message(t, dm, sent[1].ID); got.Content != "hello from discord.js" {
		t.Errorf("the DM says %q", got.Content)
	}
}

// TestDiscordGoHistoryAndDelete: members post; the discordgo bot reads the
// channel's history (ChannelMessages) and deletes the message that says
// "delete me" (ChannelMessageDelete).
func TestDiscordGoHistoryAndDelete(t *testing.T) {
	t.Parallel()
	cmd := goBot("./discordgo")(t)
	ctx, cancel := context.WithTimeout(t.Context(), scenarioTimeout)
	defer cancel()
	c := newChat(t)
	var spam guildkit.Message
	for _, text := range []string{"hello", "delete me", "bye"} {
		m, err := c.srv.Post(ctx, c.member.User.ID, c.general.ID, text)
		if err != nil {
			t.Fatalf("Post: %v", err)
		}
		if text == "delete me" {
			spam = m
		}
	}
	b := c.start(ctx, t, "discordgo", cmd, map[string]string{"GUILDKIT_HISTORY_CHANNEL_ID": c.general.ID.String()})
	b.await(ctx, t, "the deletion", done("deleted", 1))
	noErrors(t, b)
	if h := lineOf(b, "history"); h.Content != "3" {
		t.Errorf("the bot read %s messages, want 3", h.Content)
	}
	if d := lineOf(b, "deleted"); d.ID != spam.ID.String() {
		t.Errorf("the bot deleted %s, want %s", d.ID, spam.ID)
	}
	left := c.srv.ChannelMessages(c.general.ID, c.member.User.ID)
	if len(left) != 2 {
		t.Errorf("%d messages left, want 2", len(left))
	}
	if evs := c.srv.EventsNamed(guildkit.EventMessageDelete); len(evs) != 1 {
		t.Errorf("%d MESSAGE_DELETE events, want 1", len(evs))
	}
}
