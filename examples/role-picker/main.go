// Command role-picker is a bot that lets members pick their own roles. Its
// /roles command answers with a message holding a role select and a button;
// a choice in the select adds and removes the chosen roles (Members.AddRole,
// Members.RemoveRole) and answers with an ephemeral message only the member
// sees; the button opens a modal asking which role is missing, and the
// submission is answered too. Whatever arrives — an unknown custom_id, a
// guild it does not know, a failed REST call — it answers with an ephemeral
// message saying what went wrong, never with silence.
//
// A role is self-assignable when it grants no permissions and is not
// managed by an integration. When the bot keeps the guild's state (package
// state, fed by a gateway connection: the demo and the gateway mode), it
// checks from that cache, without a REST call, that the clicking member
// may post in the channel (a timed-out or muted member may not pick), that
// it holds Manage Roles itself, and that each role sits below its own
// highest role, which the platform requires of anyone giving a role.
//
// With no GUILDKIT_PUBLIC_KEY set, it runs the whole loop against the
// in-memory server from guildkittest, as a member would use it, and prints
// what the member saw:
//
//	go run ./examples/role-picker
//
// With GUILDKIT_PUBLIC_KEY (the application's public key) set, it serves
// its interactions endpoint at http://$GUILDKIT_INTERACTIONS_ADDR/interactions
// (default 127.0.0.1:8080) for the platform to call. Its REST calls go to
// GUILDKIT_BASE_URL with GUILDKIT_TOKEN, or, with no token, to an in-memory
// server it starts, so the endpoint can be tried alone:
//
//	GUILDKIT_PUBLIC_KEY=... GUILDKIT_BASE_URL=https://chat.example.com/api/v10 GUILDKIT_TOKEN=... go run ./examples/role-picker
//
// At start it registers /roles (declared once, beside its handler) with
// the platform, globally or in GUILDKIT_GUILD_ID's guild, writing only
// when the declaration changed (GUILDKIT_APPLICATION_ID names the
// application; by default the token's own).
//
// With GUILDKIT_TOKEN but no GUILDKIT_PUBLIC_KEY (an application without an
// interactions endpoint URL), it receives its interactions over the
// gateway instead, with the same functions, until interrupted:
//
//	GUILDKIT_BASE_URL=https://chat.example.com/api/v10 GUILDKIT_TOKEN=... go run ./examples/role-picker
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/interactions"
	"github.com/seed012df1e9/guildkit/state"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch {
	case os.Getenv("GUILDKIT_PUBLIC_KEY") != "":
		err = serve(ctx, os.Stdout, os.Getenv)
	case os.Getenv("GUILDKIT_TOKEN") != "":
		err = serveGateway(ctx, os.Stdout, os.Getenv)
	default:
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		err = demo(ctx, os.Stdout)
	}
	if err != nil {
		log.Fatal(err)
	}
}

// Custom ids of the bot's components and modal.
const (
	pickID     = "roles:pick"
	missingID  = "roles:missing"
	feedbackID = "roles:feedback"
)

// bot holds what the bot's functions need.
type bot struct {
	client *guildkit.Client // REST calls with the bot's token
	// cache is the guilds' state when a gateway connection keeps it; nil
	// for the endpoint alone, which reads the roles through REST.
	cache *state.Cache
}

// rolesCommand declares /roles; register routes it to b.roles, and Sync
// registers it with the platform (only when it changed).
var rolesCommand = guildkit.CommandCreateParams{
	Name:              "roles",
	NameLocalizations: map[string]string{"fr": "rôles", "de": "rollen"},
	Description:       "Pick the roles you want in this server",
	Options: []guildkit.CommandOptionDefinition{{
		Type: guildkit.CommandOptionBoolean, Name: "private", Description: "Show the picker to you only",
	}},
	Contexts: []guildkit.InteractionContextType{guildkit.InteractionContextGuild},
}

// register adds the bot's functions to h.
func (b *bot) register(h *interactions.Handler) {
	h.Command(rolesCommand, b.roles)
	h.HandleComponent(pickID, b.pick)
	h.HandleComponent(missingID, b.askMissing)
	h.HandleModal(feedbackID, b.feedback)
	h.HandleFallback(func(ctx context.Context, r *interactions.Request) error {
		return r.ReplyEphemeral(ctx, "This button belongs to an older version of the bot; run /roles again.")
	})
}

// roles answers /roles with the picker: a role select and a button; with
// private:true only the member sees it.
func (b *bot) roles(ctx context.Context, r *interactions.Request) error {
	var flags guildkit.Opt[guildkit.MessageFlags]
	if private, _ := r.Options().Bool("private"); private {
		flags = guildkit.Some(guildkit.MessageFlagEphemeral)
	}
	return r.Reply(ctx, &guildkit.InteractionMessageParams{
		Flags:   flags,
		Content: guildkit.Some("Pick your roles. Choose none to drop them all."),
		Components: components.List{
			components.NewActionRow(components.NewRoleSelect(pickID).WithPlaceholder("Your roles").WithValues(0, 10)),
			components.NewActionRow(components.SecondaryButton(missingID, "A role is missing")),
		},
	})
}

// pick adds the chosen self-assignable roles and removes the others.
func (b *bot) pick(ctx context.Context, r *interactions.Request) error {
	it := r.Interaction
	guildID, inGuild := it.GuildID.Get()
	if !inGuild || it.Member == nil || it.Member.User == nil {
		return r.ReplyEphemeral(ctx, "Roles can only be picked in a server.")
	}
	chosen, err := it.Component.Snowflakes()
	if err != nil {
		return r.ReplyEphemeral(ctx, "That choice could not be read: "+err.Error())
	}
	if b.cache != nil {
		if msg := b.check(ctx, guildID, it); msg != "" {
			return r.ReplyEphemeral(ctx, msg)
		}
	}
	roles, err := b.guildRoles(ctx, guildID)
	if err != nil {
		return r.ReplyEphemeral(ctx, "I could not read this server's roles: "+explain(err))
	}
	var added, removed, refused []string
	for _, role := range roles {
		has, wants := slices.Contains(it.Member.Roles, role.ID), slices.Contains(chosen, role.ID)
		switch {
		case has == wants:
			continue
		case !selfAssignable(role) || !b.below(guildID, role.ID):
			if wants {
				refused = append(refused, role.Name)
			}
			continue
		case wants:
			err = b.client.Members.AddRole(ctx, guildID, it.Member.User.ID, role.ID, guildkit.WithReason("role picker"))
			added = append(added, role.Name)
		default:
			err = b.client.Members.RemoveRole(ctx, guildID, it.Member.User.ID, role.ID, guildkit.WithReason("role picker"))
			removed = append(removed, role.Name)
		}
		if err != nil {
			return r.ReplyEphemeral(ctx, fmt.Sprintf("I could not change %s: %s", role.Name, explain(err)))
		}
	}
	return r.ReplyEphemeral(ctx, summary(added, removed, refused))
}

// check reads from the cache whether the member may pick roles here and
// the bot may give them; "" when both may, else what to answer.
func (b *bot) check(ctx context.Context, guildID guildkit.Snowflake, it *guildkit.Interaction) string {
	// The interaction's member is fresher than nothing: the cache learns
	// it (its roles, its timeout) before computing.
	_ = state.Learn(ctx, b.cache, guildID, it)
	if ch, ok := it.ChannelID.Get(); ok {
		p, err := b.cache.MemberPermissionsIn(ch, it.Member.User.ID)
		if err == nil && !p.Has(guildkit.PermissionSendMessages) {
			return "You cannot pick roles while you cannot post here (timed out or muted)."
		}
	}
	me, err := b.cache.CurrentUser()
	if err != nil {
		return ""
	}
	if p, err := b.cache.MemberPermissions(guildID, me.ID); err == nil && !p.Has(guildkit.PermissionManageRoles) {
		return "I am missing the Manage Roles permission here."
	}
	return ""
}

// guildRoles returns the guild's roles: from the cache when it holds the
// guild, else through REST.
func (b *bot) guildRoles(ctx context.Context, guildID guildkit.Snowflake) ([]guildkit.Role, error) {
	if b.cache != nil {
		if _, err := b.cache.Guild(guildID); err == nil {
			var out []guildkit.Role
			for r, err := range b.cache.Roles(guildID) {
				if err != nil {
					break
				}
				out = append(out, guildkit.Role{ID: r.ID, Name: r.Name, Permissions: r.Permissions, Managed: r.Managed, Position: r.Position})
			}
			slices.SortFunc(out, func(a, b guildkit.Role) int { return b.Position - a.Position })
			return out, nil
		}
	}
	return b.client.Roles.List(ctx, guildID)
}

// below reports whether the bot may give roleID by the role hierarchy
// (the role is below the bot's highest role); true when the cache cannot
// say, and the platform will.
func (b *bot) below(guildID, roleID guildkit.Snowflake) bool {
	if b.cache == nil {
		return true
	}
	me, err := b.cache.CurrentUser()
	if err != nil {
		return true
	}
	ok, err := state.CanManageRole(b.cache, guildID, me.ID, roleID)
	return err != nil || ok
}

// askMissing opens the modal asking which role is missing.
func (b *bot) askMissing(ctx context.Context, r *interactions.Request) error {
	return r.ShowModal(ctx, feedbackID, "Which role is missing?",
		components.NewLabel("Role name", components.NewTextInput("name", components.TextInputShort).WithLength(2, 50)),
		components.NewLabel("Why do you need it?",
			components.NewTextInput("why", components.TextInputParagraph).WithLength(0, 500).WithRequired(false)),
	)
}

// feedback answers the modal's submission.
func (b *bot) feedback(ctx context.Context, r *interactions.Request) error {
	name, err := r.Interaction.ModalSubmit.Text("name")
	if err != nil {
		return r.ReplyEphemeral(ctx, "That form could not be read: "+err.Error())
	}
	return r.ReplyEphemeral(ctx, fmt.Sprintf("Thanks! The moderators will look at adding %q.", name))
}

// selfAssignable: a role that grants nothing and no integration manages.
func selfAssignable(role guildkit.Role) bool {
	return role.Permissions == 0 && !role.Managed && role.Name != "@everyone"
}

func summary(added, removed, refused []string) string {
	var parts []string
	if len(added) > 0 {
		parts = append(parts, "added "+strings.Join(added, ", "))
	}
	if len(removed) > 0 {
		parts = append(parts, "removed "+strings.Join(removed, ", "))
	}
	if len(refused) > 0 {
		parts = append(parts, "not self-assignable: "+strings.Join(refused, ", "))
	}
	if len(parts) == 0 {
		return "Nothing changed."
	}
	return "Done: " + strings.Join(parts, "; ") + "."
}

// explain says what went wrong in a REST call in a member's words.
func explain(err error) string {
	switch {
	case errors.Is(err, guildkit.ErrForbidden):
		return "I am missing a permission (Manage Roles, or my role is too low)."
	case errors.Is(err, guildkit.ErrNotFound):
		return "this server or role is unknown to me."
	case errors.Is(err, guildkit.ErrRateLimited):
		return "I am being rate limited; try again in a moment."
	}
	return "the request failed; try again later."
}

// demo runs the loop against the in-memory server: a member runs /roles,
// picks roles, opens the modal and submits it.
func demo(ctx context.Context, out io.Writer) error {
	srv := guildkittest.New()
	defer srv.Close()
	owner := srv.AddUser(guildkit.User{Username: "owner"})
	g := srv.AddGuild(guildkit.Guild{Name: "Makers", OwnerID: owner.ID})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "roles", Type: guildkit.ChannelTypeGuildText})
	botRole := srv.AddRole(g.ID, guildkit.Role{Name: "Role Picker", Permissions: guildkit.PermissionManageRoles, Position: 10})
	srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{ID: srv.BotID()}, Roles: []guildkit.Snowflake{botRole.ID}})
	artist := srv.AddRole(g.ID, guildkit.Role{Name: "Artist", Position: 3})
	legend := srv.AddRole(g.ID, guildkit.Role{Name: "Legend", Position: 11}) // above the bot's role
	writer := srv.AddRole(g.ID, guildkit.Role{Name: "Writer", Position: 2})
	mod := srv.AddRole(g.ID, guildkit.Role{Name: "Moderator", Permissions: guildkit.PermissionKickMembers, Position: 5})
	ada := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "ada"}, Roles: []guildkit.Snowflake{writer.ID}}).User

	// The bot: its handler verifies deliveries with the application's
	// public key; its REST calls use the server's bot client; a gateway
	// connection keeps the guild's state for its checks.
	b := &bot{client: srv.Client(), cache: state.NewCache(nil)}
	shard, err := keepState(ctx, b.cache, srv.Token(), gateway.WithClient(srv.Client()), gateway.WithURL(srv.GatewayURL()),
		gateway.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		return err
	}
	defer func() { _ = shard.End(context.WithoutCancel(ctx)) }()
	fmt.Fprintln(out, "keeping the guild's state from the gateway")
	h, err := interactions.NewHandler(srv.Application().PublicKeyHex(), srv.Client(),
		interactions.WithClock(srv), interactions.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		return err
	}
	b.register(h)
	srv.SetInteractionsHandler(h)
	if err := srv.CheckInteractionsEndpoint(ctx); err != nil {
		return fmt.Errorf("the endpoint check failed: %w", err)
	}
	fmt.Fprintln(out, "endpoint check: PING answered, bad signature refused")
	// Register /roles in the guild: the first sync writes it; another one
	// (as at the next start) finds it unchanged and writes nothing.
	for range 2 {
		res, err := h.Sync(ctx, srv.Application().ID, g.ID)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "commands synced: %s\n", res)
	}

	say := func(what string, o *guildkittest.Outcome) { fmt.Fprintf(out, "%-34s → %s\n", what, o) }
	picker, err := srv.RunCommand(ctx, ada.ID, ch.ID, "roles")
	if err != nil {
		return err
	}
	say("ada runs /roles", picker)
	picked, err := srv.Select(ctx, ada.ID, picker.Message.ID, pickID, artist.ID.String(), mod.ID.String(), legend.ID.String())
	if err != nil {
		return err
	}
	say("ada picks Artist, Moderator, Legend", picked)
	m, err := srv.Client().Members.Get(ctx, g.ID, ada.ID)
	if err != nil {
		return err
	}
	names := map[guildkit.Snowflake]string{artist.ID: "Artist", writer.ID: "Writer", mod.ID: "Moderator"}
	var now []string
	for _, id := range m.Roles {
		now = append(now, names[id])
	}
	fmt.Fprintf(out, "ada's roles now: %s\n", strings.Join(now, ", "))

	opened, err := srv.Click(ctx, ada.ID, picker.Message.ID, missingID)
	if err != nil {
		return err
	}
	say(`ada clicks "A role is missing"`, opened)
	if opened.Modal == nil {
		return fmt.Errorf("no modal opened: %s", opened)
	}
	submitted, err := srv.SubmitModal(ctx, ada.ID, opened.Modal, guildkittest.ModalValues{"name": "Musician", "why": "We have a band channel."})
	if err != nil {
		return err
	}
	say("ada submits the form", submitted)
	fmt.Fprintf(out, "messages ada sees in #roles: %d; another member sees: %d\n",
		len(srv.ChannelMessages(ch.ID, ada.ID)), len(srv.ChannelMessages(ch.ID, srv.BotID())))
	return nil
}

// serve runs the interactions endpoint until ctx ends.
func serve(ctx context.Context, out io.Writer, getenv func(string) string) error {
	client, appID, closeREST, err := restClient(out, getenv)
	if err != nil {
		return err
	}
	defer closeREST()
	b := &bot{client: client}
	h, err := interactions.NewHandler(getenv("GUILDKIT_PUBLIC_KEY"), client)
	if err != nil {
		return err
	}
	b.register(h)
	if err := syncCommands(ctx, out, h, appID, getenv); err != nil {
		return err
	}
	addr := getenv("GUILDKIT_INTERACTIONS_ADDR")
	if addr == "" {
		addr = "127.0.0.1:8080"
	}
	mux := http.NewServeMux()
	mux.Handle("/interactions", h)
	hs := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "interactions endpoint: http://%s/interactions\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil {
		return err
	}
	return h.Wait(shutdown) // let functions still answering finish
}

// syncCommands registers the declared commands at start for the
// application appID (0: the token's own, which Sync looks up): globally,
// or in GUILDKIT_GUILD_ID's guild (where they take effect at once). It
// writes only when they changed.
func syncCommands(ctx context.Context, out io.Writer, h *interactions.Handler, appID guildkit.Snowflake, getenv func(string) string) error {
	var guildID guildkit.Snowflake
	if v := getenv("GUILDKIT_GUILD_ID"); v != "" {
		var err error
		if guildID, err = guildkit.ParseSnowflake(v); err != nil {
			return fmt.Errorf("GUILDKIT_GUILD_ID: %w", err)
		}
	}
	res, err := h.Sync(ctx, appID, guildID)
	if err != nil {
		return fmt.Errorf("registering the commands: %w", err)
	}
	fmt.Fprintf(out, "commands synced: %s\n", res)
	return nil
}

// restClient returns the bot's REST client and its application's id:
// GUILDKIT_BASE_URL with GUILDKIT_TOKEN and GUILDKIT_APPLICATION_ID, or an
// in-memory server when no token is set.
func restClient(out io.Writer, getenv func(string) string) (*guildkit.Client, guildkit.Snowflake, func(), error) {
	if token := getenv("GUILDKIT_TOKEN"); token != "" {
		var appID guildkit.Snowflake
		if v := getenv("GUILDKIT_APPLICATION_ID"); v != "" {
			id, err := guildkit.ParseSnowflake(v)
			if err != nil {
				return nil, 0, nil, fmt.Errorf("GUILDKIT_APPLICATION_ID: %w", err)
			}
			appID = id
		}
		c, err := guildkit.New(guildkit.BotToken(token), guildkit.WithBaseURL(getenv("GUILDKIT_BASE_URL")))
		return c, appID, func() {}, err
	}
	srv := guildkittest.New()
	fmt.Fprintf(out, "no GUILDKIT_TOKEN: REST calls go to an in-memory server at %s\n", srv.BaseURL())
	return srv.Client(), srv.Application().ID, srv.Close, nil
}
