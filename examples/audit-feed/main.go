// Command audit-feed keeps a guild's audit feed: it listens on the gateway
// for bans and unbans, members joining and leaving, role and invite
// changes, and posts each as a Components V2 message through a webhook. It
// saves its gateway session to a file when it stops, and resumes it when it
// starts again: no IDENTIFY spent, and the events sent while it was down
// are replayed, so nothing is missed across a restart or a deploy.
//
// It keeps the guild's state (package state) so that its posts name
// things rather than number them: the member who left by their nickname
// and roles, the role deleted by its name, a role's permissions before and
// after a change, an invite's channel by its name. The cache applies each
// event before the feed's handlers run, and keeps what the event replaced
// or removed for them (OldMember, OldRole).
//
// With no GUILDKIT_TOKEN set, it runs against the in-memory server from
// guildkittest: it makes the changes itself, stops and starts again in the
// middle (making more changes while it is down), prints what it posted,
// and exits:
//
//	go run ./examples/audit-feed
//
// Against a real deployment it runs until interrupted (Ctrl-C), then saves
// its session (the file holds no token) for the next start:
//
//	GUILDKIT_BASE_URL=https://chat.example.com/api/v10 GUILDKIT_TOKEN=... \
//	GUILDKIT_WEBHOOK_URL=https://chat.example.com/api/v10/webhooks/123/abc \
//	GUILDKIT_SESSION_FILE=audit-feed.session go run ./examples/audit-feed
//
// The member events need the privileged GUILD_MEMBERS intent, enabled for
// the application; bans need BAN_MEMBERS or VIEW_AUDIT_LOG, invites
// MANAGE_CHANNELS, in the guild.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/state"
)

func main() {
	if err := run(context.Background(), os.Stdout, os.Getenv); err != nil {
		log.Fatal(err)
	}
}

// run does the work of the program, writing to out and reading its settings
// through getenv, so that a test can run it.
func run(ctx context.Context, out io.Writer, getenv func(string) string) error {
	out = &syncWriter{w: out} // the handlers print from the shard's goroutine
	if token := getenv("GUILDKIT_TOKEN"); token != "" {
		ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
		defer stop()
		return live(ctx, out, token, getenv)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return inMemory(ctx, out)
}

// feed posts what happens in the guild through a webhook.
type feed struct {
	cache  *state.Cache // the guilds' state, kept across restarts of the shard
	hook   *guildkit.WebhookClient
	out    io.Writer
	posted chan string // the title of each post, for the in-memory run to wait on
	seen   int         // posts waited for; the in-memory run's goroutine only
}

// register adds the feed's handlers to shard. Each needs an intent, which
// the shard asks for because of it: GUILD_MODERATION for the bans,
// GUILD_MEMBERS (privileged) for joins and leaves, GUILDS for roles and
// GUILD_INVITES for invites.
func (f *feed) register(shard *gateway.Shard) {
	if f.cache == nil {
		// Members are kept whole (the feed has GUILD_MEMBERS anyway), so
		// that a member who leaves can be named.
		pol := state.DefaultPolicies()
		pol.Members = state.All()
		f.cache = state.NewCache(&state.Options{Policies: &pol})
	}
	f.cache.Attach(shard, nil)
	gateway.On(shard, func(ctx context.Context, e *gateway.GuildBanAdd) {
		f.post(ctx, "Member banned", fmt.Sprintf("%s was banned.", who(&e.User)), 0xE74C3C)
	})
	gateway.On(shard, func(ctx context.Context, e *gateway.GuildBanRemove) {
		f.post(ctx, "Ban lifted", fmt.Sprintf("%s was unbanned.", who(&e.User)), 0x95A5A6)
	})
	gateway.On(shard, func(ctx context.Context, e *gateway.GuildMemberAdd) {
		f.post(ctx, "Member joined", fmt.Sprintf("%s joined.", who(e.User)), 0x2ECC71)
	})
	gateway.On(shard, func(ctx context.Context, e *gateway.GuildMemberRemove) {
		text := fmt.Sprintf("%s left or was removed.", who(&e.User))
		if m, ok := f.cache.OldMember(ctx); ok {
			text = fmt.Sprintf("%s left or was removed (known here as %s, roles: %s).", who(&e.User), m.DisplayName(), f.roleNames(e.GuildID, m.Roles))
		}
		f.post(ctx, "Member left", text, 0xE67E22)
	})
	gateway.On(shard, func(ctx context.Context, e *gateway.GuildRoleCreate) {
		f.post(ctx, "Role created", fmt.Sprintf("Role **%s** was created.", e.Role.Name), 0x3498DB)
	})
	gateway.On(shard, func(ctx context.Context, e *gateway.GuildRoleUpdate) {
		text := fmt.Sprintf("Role **%s** was changed (permissions %s).", e.Role.Name, e.Role.Permissions)
		if old, ok := f.cache.OldRole(ctx); ok && old.Permissions != e.Role.Permissions {
			text = fmt.Sprintf("Role **%s** was changed (permissions %s, were %s).", e.Role.Name, e.Role.Permissions, old.Permissions)
		}
		f.post(ctx, "Role changed", text, 0x3498DB)
	})
	gateway.On(shard, func(ctx context.Context, e *gateway.GuildRoleDelete) {
		name := e.RoleID.String()
		if old, ok := f.cache.OldRole(ctx); ok {
			name = "**" + old.Name + "**"
		}
		f.post(ctx, "Role deleted", fmt.Sprintf("Role %s was deleted.", name), 0x3498DB)
	})
	gateway.On(shard, func(ctx context.Context, e *gateway.InviteCreate) {
		where := "<#" + e.ChannelID.String() + ">"
		if ch, err := f.cache.Channel(e.ChannelID); err == nil {
			where = "#" + ch.Name
		}
		text := fmt.Sprintf("Invite **%s** to %s was created", e.Code, where)
		if e.Inviter != nil {
			text += " by " + who(e.Inviter)
		}
		f.post(ctx, "Invite created", text+".", 0x9B59B6)
	})
	gateway.On(shard, func(ctx context.Context, e *gateway.InviteDelete) {
		f.post(ctx, "Invite deleted", fmt.Sprintf("Invite **%s** was deleted.", e.Code), 0x9B59B6)
	})
	// A saved session too old to resume: the shard identified anew, and
	// the events in between are lost. Say so in the feed.
	gateway.On(shard, func(ctx context.Context, e *gateway.SessionLost) {
		f.post(ctx, "Gap in the feed", fmt.Sprintf("Events after %s were missed (%s): check the guild's audit log.",
			e.Time.UTC().Format(time.RFC3339), e.Reason), 0x7F8C8D)
	})
}

// roleNames names the roles from the cache, "none" for none.
func (f *feed) roleNames(guildID guildkit.Snowflake, ids state.IDs) string {
	if ids.Len() == 0 {
		return "none"
	}
	var names []string
	for id := range ids.All() {
		if r, err := f.cache.Role(guildID, id); err == nil {
			names = append(names, r.Name)
		}
	}
	return strings.Join(names, ", ")
}

// who names a user for the feed: a mention (which notifies nobody: the
// posts allow no mentions) and the username.
func who(u *guildkit.User) string {
	if u == nil {
		return "someone"
	}
	return fmt.Sprintf("<@%s> (%s)", u.ID, u.Username)
}

// post sends one entry: a Components V2 message, a coloured container with
// a heading and the text. It runs on the shard's dispatch goroutine, one
// event at a time and in order; the connection keeps its heartbeat while it
// waits for the webhook.
func (f *feed) post(ctx context.Context, title, text string, color int) {
	msg, err := f.hook.Execute(ctx, &guildkit.WebhookExecuteParams{
		Wait:            guildkit.Some(true),
		WithComponents:  guildkit.Some(true),
		Flags:           guildkit.Some(guildkit.MessageFlagIsComponentsV2),
		AllowedMentions: guildkit.Some(guildkit.AllowedMentions{Parse: []guildkit.AllowedMentionType{}}),
		Components: components.List{
			components.NewContainer(
				components.NewTextDisplay("### "+title),
				components.NewTextDisplay(text),
			).WithAccentColor(color),
		},
	})
	if err != nil {
		fmt.Fprintf(f.out, "could not post %q: %v\n", title, err)
		return
	}
	fmt.Fprintf(f.out, "posted %s: %s: %s\n", msg.ID, title, text)
	if f.posted != nil {
		f.posted <- title
	}
}

// run runs the feed's shard for token until ctx ends, resuming the session
// saved in sessionFile if there is one and saving it there when it stops.
// ready is called once the shard is connected.
func (f *feed) run(ctx context.Context, token, sessionFile string, ready func(), opts ...gateway.Option) error {
	saved, err := loadSession(sessionFile)
	if err != nil {
		return err
	}
	if saved != nil {
		fmt.Fprintf(f.out, "resuming %s\n", saved)
		opts = append(opts, gateway.WithSession(saved))
	}
	shard, err := gateway.NewShard(token, opts...)
	if err != nil {
		return err
	}
	f.register(shard)
	return shard.Run(ctx, &gateway.RunOptions{
		Ready: func() {
			if saved == nil {
				fmt.Fprintln(f.out, "identified: a new session")
			}
			ready()
		},
		// Closed resumably (the session stays alive on the platform for a
		// few minutes): save it for the next start.
		Save: func(s []gateway.Session) error {
			if err := saveSession(sessionFile, &s[0]); err != nil {
				return err
			}
			fmt.Fprintf(f.out, "saved %s\n", &s[0])
			return nil
		},
	})
}

// start runs the feed in the background until the stop it returns is
// called: it returns once the shard is connected.
func (f *feed) start(ctx context.Context, token, sessionFile string, opts ...gateway.Option) (stop func() error, err error) {
	ctx, cancel := context.WithCancel(ctx)
	ready, done := make(chan struct{}), make(chan error, 1)
	go func() { done <- f.run(ctx, token, sessionFile, func() { close(ready) }, opts...) }()
	select {
	case <-ready:
		return func() error { cancel(); return <-done }, nil
	case err := <-done:
		cancel()
		return nil, err
	}
}

// loadSession reads a session saved by saveSession; nil when there is none.
func loadSession(path string) (*gateway.Session, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var s gateway.Session
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &s, nil
}

// saveSession writes s to path; it holds no token.
func saveSession(path string, s *gateway.Session) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}

// live runs the feed against a real deployment until ctx ends.
func live(ctx context.Context, out io.Writer, token string, getenv func(string) string) error {
	hookURL := getenv("GUILDKIT_WEBHOOK_URL")
	if hookURL == "" {
		return errors.New("GUILDKIT_WEBHOOK_URL is required with GUILDKIT_TOKEN")
	}
	var opts []guildkit.Option
	if base := getenv("GUILDKIT_BASE_URL"); base != "" {
		opts = append(opts, guildkit.WithBaseURL(base))
	}
	rest, err := guildkit.New(guildkit.BotToken(token), opts...)
	if err != nil {
		return err
	}
	hook, err := guildkit.NewWebhookClient(hookURL, opts...)
	if err != nil {
		return err
	}
	sessionFile := getenv("GUILDKIT_SESSION_FILE")
	if sessionFile == "" {
		sessionFile = "audit-feed.session"
	}
	f := &feed{hook: hook, out: out}
	return f.run(ctx, token, sessionFile, func() { fmt.Fprintln(out, "listening; Ctrl-C stops and saves the session") }, gateway.WithClient(rest))
}

// inMemory runs the feed against the in-memory server: it makes changes,
// restarts the feed in the middle, and makes more while it is down.
func inMemory(ctx context.Context, out io.Writer) error {
	fmt.Fprintln(out, "GUILDKIT_TOKEN is not set: running against the in-memory server")
	srv := guildkittest.New()
	defer srv.Close()
	guild := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild", OwnerID: srv.BotID()})
	auditLog := srv.AddChannel(guild.ID, guildkit.Channel{Name: "audit-log", Type: guildkit.ChannelTypeGuildText})
	general := srv.AddChannel(guild.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	webhook := srv.AddWebhook(auditLog.ID, "Audit feed")
	regulars := srv.AddRole(guild.ID, guildkit.Role{Name: "Regulars", Position: 1})
	trollNick := "Troll King"
	troll := srv.AddMember(guild.ID, guildkit.Member{User: &guildkit.User{Username: "troll"}, Nick: &trollNick,
		Roles: []guildkit.Snowflake{regulars.ID}})
	newcomer := srv.AddUser(guildkit.User{Username: "newcomer"})
	rest := srv.Client()

	hook, err := guildkit.NewWebhookClient(srv.BaseURL()+"/webhooks/"+webhook.ID.String()+"/"+webhook.Token, guildkit.WithBaseURL(srv.BaseURL()))
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "audit-feed")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	sessionFile := filepath.Join(dir, "session")

	f := &feed{hook: hook, out: out, posted: make(chan string, 16)}
	opts := []gateway.Option{gateway.WithClient(rest), gateway.WithURL(srv.GatewayURL())}
	stop, err := f.start(ctx, srv.Token(), sessionFile, opts...)
	if err != nil {
		return err
	}

	// Changes while the feed runs: six events.
	if _, err := rest.Members.Add(ctx, guild.ID, newcomer.ID, &guildkit.MemberAddParams{AccessToken: srv.NewAccessToken(newcomer.ID)}); err != nil {
		return err
	}
	role, err := rest.Roles.Create(ctx, guild.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("Moderators")})
	if err != nil {
		return err
	}
	if _, err := rest.Roles.Modify(ctx, guild.ID, role.ID, &guildkit.RoleModifyParams{Permissions: guildkit.Some(guildkit.PermissionBanMembers | guildkit.PermissionKickMembers)}); err != nil {
		return err
	}
	if err := rest.Bans.Create(ctx, guild.ID, troll.User.ID, nil, guildkit.WithReason("spam")); err != nil {
		return err // GUILD_BAN_ADD, and GUILD_MEMBER_REMOVE: the troll was a member
	}
	if _, err := rest.Guilds.ModifyWidget(ctx, guild.ID, &guildkit.GuildWidgetModifyParams{Enabled: guildkit.Some(true), ChannelID: guildkit.Some(general.ID)}); err != nil {
		return err
	}
	widget, err := rest.Guilds.GetWidget(ctx, guild.ID) // makes the widget's invite: INVITE_CREATE
	if err != nil {
		return err
	}
	if err := f.wait(ctx, 6); err != nil {
		return err
	}

	// A restart: the session is saved, and changes happen while the feed
	// is down.
	fmt.Fprintln(out, "stopping the feed")
	if err := stop(); err != nil {
		return err
	}
	if err := rest.Bans.Remove(ctx, guild.ID, troll.User.ID); err != nil {
		return err
	}
	if widget.InstantInvite != nil {
		if code := inviteCode(*widget.InstantInvite); code != "" {
			if _, err := rest.Invites.Delete(ctx, code); err != nil {
				return err
			}
		}
	}
	if err := rest.Roles.Delete(ctx, guild.ID, role.ID); err != nil {
		return err
	}
	fmt.Fprintln(out, "changed three things while the feed was down; starting it again")
	stop, err = f.start(ctx, srv.Token(), sessionFile, opts...)
	if err != nil {
		return err
	}
	if err := f.wait(ctx, 3); err != nil {
		return err
	}
	if err := stop(); err != nil {
		return err
	}
	fmt.Fprintf(out, "posted %d entries to #%s\n", f.seen, auditLog.Name)
	return nil
}

// syncWriter serializes writes to w.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// wait waits for n posts.
func (f *feed) wait(ctx context.Context, n int) error {
	for range n {
		select {
		case <-f.posted:
			f.seen++
		case <-ctx.Done():
			return fmt.Errorf("waiting for the feed's posts: %w", ctx.Err())
		}
	}
	return nil
}

// inviteCode returns the code at the end of an invite URL.
func inviteCode(u string) string {
	for i := len(u) - 1; i >= 0; i-- {
		if u[i] == '/' {
			return u[i+1:]
		}
	}
	return u
}
