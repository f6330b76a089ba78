// Command guildkit-emulator serves the guild interface from memory, for
// bots written in any language: point a bot at the printed base URL with
// the printed token and it runs with no network and no account.
//
//	go run github.com/seed012df1e9/guildkit/cmd/guildkit-emulator@latest
//	go run ./cmd/guildkit-emulator -seed examples/emulator-seed.json -state emulator-state.json
//
// It prints what a bot needs as shell assignments, so a script can eval
// them, and keeps serving until SIGINT or SIGTERM:
//
//	GUILDKIT_BASE_URL         the interface's base URL (an address a client can use,
//	                          127.0.0.1 when listening on 0.0.0.0)
//	GUILDKIT_GATEWAY_URL      the gateway's URL, ws://host:port with no path or query, as
//	                          GET /gateway answers it: bots connect there (any path and query a
//	                          library builds from it; v 9 or 10, json, zlib-stream or zstd-stream)
//	GUILDKIT_TOKEN            the bot's token ("Authorization: Bot <token>")
//	GUILDKIT_BOT_ID           the bot's user id
//	GUILDKIT_GUILD_ID         the first guild (the seed's first, else the lowest id)
//	GUILDKIT_CHANNEL_ID       that guild's first text channel
//	GUILDKIT_WEBHOOK_URL      a webhook no application owns (link buttons only)
//	GUILDKIT_APP_WEBHOOK_URL  a webhook the bot's application owns (every component)
//	GUILDKIT_ADMIN_TOKEN      the control API's token, when it needs one
//	GUILDKIT_APPLICATION_ID   the bot's application's id
//	GUILDKIT_PUBLIC_KEY       the application's Ed25519 public key, in hex: the key the bot's
//	                          interactions endpoint verifies X-Signature-Ed25519 with
//
// Given a command after "--", it runs it with those assignments in its
// environment, its output beside the emulator's, and stops when the
// command exits (with an error when the command failed); Ctrl-C stops
// both. A bot is tried on the emulator in one command:
//
//	go run ./cmd/guildkit-emulator -- go run ./examples/warn
//
// An OAuth2 access token, which Add Guild Member needs, comes from the seed
// ("access_tokens") or from the control API:
//
//	curl -X POST -d '{"user_id": "1001"}' $URL/_guildkit/api/access-tokens
//
// which answers {"access_token": "access....", ...}. The list of control
// routes is at /_guildkit/api/ (and on the inspector page). The emulator is stateful: it enforces
// permissions and rate limits and records the gateway events each operation
// emits. Open the printed inspector URL in a browser to watch guilds,
// members, messages and the live event and request feeds; the control API
// under /_guildkit/api/ resets, seeds, moves the clock and injects faults
// (see the guildkittest package's ControlPrefix).
//
// Flags:
//
//	-addr ADDR           listen on ADDR (default 127.0.0.1:8080; port 0 picks a free one)
//	-seed FILE           load users, guilds, roles, channels, members, invites and webhooks
//	                     from a JSON seed file (examples/emulator-seed.json shows the format)
//	-state FILE          load the whole state from FILE at start when it exists, and save it
//	                     there at shutdown (written to a temporary file, then renamed)
//	-admin-token TOKEN   the control API's token; required by the control API when -addr is
//	                     not a loopback address (a random one is made and printed when unset)
//	-global-limit N      at most N requests a second in all, as the platform's global limit
//	                     (default 50; 0 turns it off)
//	-global-window KIND  how the global limit is counted: fixed-window (default, as the
//	                     reference platform behaves), sliding-window or token-bucket
//	-route-limit SPEC    limit a route per major parameter, "GET /guilds/{guild.id}=5/1s";
//	                     repeat the flag for more routes
//	                     (Create Message is limited to 5 per 5 s per channel unless a
//	                     -route-limit names "POST /channels/{channel.id}/messages")
//	-default-route-limit N/PERIOD
//	                     limit every other route per major parameter (default 1000/1s,
//	                     roomy, so that every answer carries X-RateLimit-* bucket headers
//	                     as the platform's do; "off" sends them only on -route-limit routes)
//	-latency D           delay every answer by D, as a distant deployment would
//	-request-log N       keep the last N requests in the request log (default 4096; the log
//	                     never keeps an Authorization value)
//	-interactions-url URL
//	                     the bot's interactions endpoint: users' clicks, choices, modal
//	                     submissions and commands (from the inspector page or the control
//	                     API) are delivered there, signed with the application's key, as
//	                     the platform delivers them. It is checked at start as the platform
//	                     checks an endpoint when it is saved (a signed PING must get PONG, a
//	                     PING with a bad signature 401) and the verdict is printed; until
//	                     the endpoint answers, it is checked again every 2 seconds. Without
//	                     it, as on the platform, interactions go to the bot's gateway
//	                     sessions as INTERACTION_CREATE, answered through the callback route.
//	                     A command runs only once the bot has registered it (the
//	                     application-command routes, as on the platform); the page's
//	                     command palette offers the registered ones
//	-heartbeat-interval D
//	                     HELLO's heartbeat_interval (default 41.25s, the platform's); a
//	                     connection that sends no heartbeat for 1.5 intervals is closed (4000)
//	-max-concurrency N   session_start_limit.max_concurrency: IDENTIFYs allowed per 5 s, one per
//	                     shard_id % N (default 1); more get INVALID_SESSION
//	-guilds-per-shard N  how many guilds one session may carry before IDENTIFY is closed with
//	                     4011 (sharding required); GET /gateway/bot recommends shards by it
//	                     (default 2500; set it low to test a bot's auto-sharding)
//	-resume-window D     how long a session whose connection ended stays resumable, on the
//	                     server's clock (default 3m)
//	-send-limit N        payloads a connection may send per 60 s before it is closed with 4008
//	                     (fixed 60 s windows from the connection's start, as clients count them;
//	                     default 120, the platform's; set it lower to see which bots rely on
//	                     the margin)
//	-strict-send-window  count -send-limit over any 60 s instead (a sliding window, for testing)
//	-session-start-total N
//	                     session_start_limit.total, the IDENTIFYs of a day (default 1000); those
//	                     beyond it are counted and shown, never refused
//	-application-key HEX the application's Ed25519 private key, as its 32-byte seed in hex
//	                     (default: the state file's, else one made at start and kept in
//	                     the state file, so the printed public key stays the same)
//
// The gateway: a bot connects to GUILDKIT_GATEWAY_URL (GET /gateway and
// /gateway/bot answer it too), identifies with GUILDKIT_TOKEN and receives
// READY, a GUILD_CREATE per guild of its shard, then the events every
// operation emits, filtered by its intents and routed by its shard. The
// control API lists the sessions (GET /_guildkit/api/gateway) and injects
// faults into them (POST /_guildkit/api/gateway/faults); the inspector's
// sessions view shows each one's frames and has a button per fault.
//
// With neither a seed nor a saved state it starts with a demo guild, a
// #general channel and two webhooks in it, one of them the bot's
// application's, a plain member (alice) and a moderator (morgan, of the
// Moderators role: Moderate, Kick and Ban Members).
//
// It is meant to face real networks: every body is read within the
// reference platform's limits before it touches the state (413 past them),
// a client that takes more than 10 s to send its headers or leaves a
// connection idle for 2 minutes is disconnected, and the request and event
// logs keep only their most recent entries (see guildkittest's limits).
// An idle gateway session costs it about 14 KiB; what a session keeps for
// a resume and its frame log are bounded in bytes (GatewaySettings), and
// once a burst is over (a quiet 5 s after a busy one) the emulator gives
// the burst's memory back to the system, for a minute, as the sessions'
// heartbeats acknowledge what they got.
package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// createMessageRoute is Create Message, as -route-limit names it.
const createMessageRoute = "POST /channels/{channel.id}/messages"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	startReclaiming(ctx)
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "guildkit-emulator:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

// run serves until ctx ends, then saves the state when asked to.
func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("guildkit-emulator", flag.ContinueOnError)
	fs.SetOutput(out)
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `ADDR`; port 0 picks a free one")
	seedFile := fs.String("seed", "", "load a seed from `FILE` (JSON)")
	stateFile := fs.String("state", "", "load the state from `FILE` at start when it exists; save it there at shutdown")
	adminToken := fs.String("admin-token", "", "the control API's `TOKEN` (required off loopback; made when unset)")
	globalLimit := fs.Int("global-limit", 50, "at most `N` requests a second in all; 0 turns the global limit off")
	globalWindow := fs.String("global-window", "fixed-window", "how the global limit is counted: fixed-window, sliding-window or token-bucket")
	latency := fs.Duration("latency", 0, "delay every answer by `D`")
	requestLog := fs.Int("request-log", guildkittest.DefaultRequestLogSize, "keep the last `N` requests in the request log")
	interactionsURL := fs.String("interactions-url", "", "deliver interactions to the bot's endpoint at `URL`")
	applicationKey := fs.String("application-key", "", "the application's Ed25519 private key, its 32-byte seed in `HEX`")
	defaultRouteLimit := fs.String("default-route-limit", "1000/1s", "limit every route not named by -route-limit to `N/PERIOD` per major parameter; \"off\" for none")
	gw := guildkittest.DefaultGatewaySettings
	fs.DurationVar(&gw.HeartbeatInterval, "heartbeat-interval", gw.HeartbeatInterval, "HELLO's heartbeat_interval `D`")
	fs.IntVar(&gw.MaxConcurrency, "max-concurrency", gw.MaxConcurrency, "IDENTIFYs allowed per 5 s (session_start_limit.max_concurrency), `N`")
	fs.IntVar(&gw.GuildsPerShard, "guilds-per-shard", gw.GuildsPerShard, "guilds one session may carry before IDENTIFY is closed with 4011, `N`")
	fs.DurationVar(&gw.ResumeWindow, "resume-window", gw.ResumeWindow, "how long a disconnected session stays resumable, `D`")
	fs.IntVar(&gw.SendLimit, "send-limit", gw.SendLimit, "payloads a connection may send per 60 s before 4008, `N`")
	fs.BoolVar(&gw.StrictSendWindow, "strict-send-window", gw.StrictSendWindow, "count -send-limit over any 60 s (a sliding window) instead of fixed windows from the connection's start")
	fs.IntVar(&gw.SessionStartTotal, "session-start-total", gw.SessionStartTotal, "IDENTIFYs of a day (session_start_limit.total), `N`")
	// Create Message's per-channel budget: 5 per 5 s, the messages
	// document's emulator default (the platform publishes no numbers); a
	// -route-limit for the same route replaces it.
	routeLimits := []guildkittest.Option{guildkittest.WithRouteLimit(createMessageRoute, 5, 5*time.Second)}
	fs.Func("route-limit", "limit a route: `\"GET /guilds/{guild.id}=5/1s\"` (repeatable)", func(v string) error {
		o, err := parseRouteLimit(v)
		if err == nil {
			routeLimits = append(routeLimits, o)
		}
		return err
	})
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	command := fs.Args() // after "--": a bot to run with the assignments
	if len(command) > 0 {
		if _, err := exec.LookPath(command[0]); err != nil {
			return fmt.Errorf("%w: the command to run: %v", errUsage, err)
		}
	}

	var seed *guildkittest.Seed
	if *seedFile != "" {
		f, err := os.Open(*seedFile)
		if err != nil {
			return err
		}
		seed, err = guildkittest.ParseSeed(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %s", *seedFile, strings.TrimPrefix(err.Error(), "guildkittest: "))
		}
	}

	if problem := checkGatewaySettings(gw); problem != "" {
		return fmt.Errorf("%w: %s", errUsage, problem)
	}
	opts := append(routeLimits, guildkittest.WithGateway(gw))
	switch {
	case *globalLimit < 0:
		return fmt.Errorf("%w: -global-limit: %d is negative", errUsage, *globalLimit)
	case *globalLimit > 0:
		opts = append(opts, guildkittest.WithGlobalLimit(*globalLimit, time.Second))
	}
	window, ok := globalWindows[*globalWindow]
	if !ok {
		return fmt.Errorf("%w: -global-window: %q is not fixed-window, sliding-window or token-bucket", errUsage, *globalWindow)
	}
	opts = append(opts, guildkittest.WithGlobalWindow(window))
	if *latency < 0 {
		return fmt.Errorf("%w: -latency: %s is negative", errUsage, *latency)
	}
	if *latency > 0 {
		opts = append(opts, guildkittest.WithLatency(*latency))
	}
	if *requestLog < 0 {
		return fmt.Errorf("%w: -request-log: %d is negative", errUsage, *requestLog)
	}
	opts = append(opts, guildkittest.WithRequestLogSize(*requestLog))
	if *defaultRouteLimit != "off" {
		o, err := parseDefaultRouteLimit(*defaultRouteLimit)
		if err != nil {
			return fmt.Errorf("%w: -default-route-limit: %v", errUsage, err)
		}
		opts = append(opts, o)
	}
	var appKey ed25519.PrivateKey
	if *applicationKey != "" {
		key, err := guildkittest.ParseApplicationKey(*applicationKey)
		if err != nil {
			return fmt.Errorf("%w: -application-key: %v", errUsage, err)
		}
		appKey = key
		opts = append(opts, guildkittest.WithApplicationKey(key))
	}
	if *interactionsURL != "" {
		if problem := checkInteractionsURL(*interactionsURL, *addr); problem != "" {
			return fmt.Errorf("%w: -interactions-url: %s", errUsage, problem)
		}
	}
	loopback, err := isLoopback(*addr)
	if err != nil {
		return fmt.Errorf("%w: -addr: %v", errUsage, err)
	}
	if !loopback && *adminToken == "" {
		var b [16]byte
		_, _ = rand.Read(b[:])
		*adminToken = hex.EncodeToString(b[:])
	}
	if *adminToken != "" {
		opts = append(opts, guildkittest.WithAdminToken(*adminToken))
	}
	srv, err := guildkittest.Listen(*addr, opts...)
	if err != nil {
		return err
	}
	defer srv.Close()

	var first guildkit.Snowflake // the guild to print, when the seed names one
	loaded := false
	if *stateFile != "" {
		f, err := os.Open(*stateFile)
		switch {
		case err == nil:
			err = srv.LoadState(f)
			f.Close()
			if err != nil {
				return fmt.Errorf("%s: %s", *stateFile, strings.TrimPrefix(err.Error(), "guildkittest: "))
			}
			loaded = true
		case !errors.Is(err, os.ErrNotExist):
			return err
		}
	}
	if loaded && appKey != nil {
		guildkittest.WithApplicationKey(appKey)(srv) // the flag wins over the state file's key
	}
	switch {
	case loaded:
		if seed != nil {
			fmt.Fprintf(out, "# state loaded from %s; the seed is not applied again\n", *stateFile)
		}
	case seed != nil:
		if res := srv.ApplySeed(seed); len(res.Guilds) > 0 {
			first = res.Guilds[0].ID
		}
	default:
		demo(srv)
	}

	fmt.Fprintf(out, "# guildkit emulator listening; stop with Ctrl-C\n")
	if !loopback {
		fmt.Fprintf(out, "# listening on %s: from another machine, use this machine's address in place of the one below\n", *addr)
	}
	var assignments bytes.Buffer
	printStartup(io.MultiWriter(out, &assignments), srv, first)
	inspector := srv.URL + guildkittest.ControlPrefix
	if *adminToken != "" {
		fmt.Fprintf(out, "GUILDKIT_ADMIN_TOKEN=%s\n", *adminToken)
		inspector += "?token=" + *adminToken
	}
	fmt.Fprintf(out, "# inspector: %s\n", inspector)
	checked := make(chan struct{})
	if *interactionsURL != "" {
		srv.SetInteractionsURL(*interactionsURL)
		go checkEndpoint(ctx, srv, out, checked)
	} else {
		close(checked)
		fmt.Fprintf(out, "# no -interactions-url: clicks and commands reach the bot's gateway sessions as INTERACTION_CREATE (for HTTP delivery: POST %sapi/application {\"interactions_url\": \"...\"})\n", guildkittest.ControlPrefix)
	}

	var botErr error
	if len(command) > 0 {
		botErr = runBot(ctx, command, assignments.String(), out)
	} else {
		<-ctx.Done()
	}
	<-checked
	srv.Close() // waits for the requests in flight
	if *stateFile != "" {
		if err := saveState(srv, *stateFile); err != nil {
			return err
		}
		fmt.Fprintf(out, "# state saved to %s\n", *stateFile)
	}
	return botErr
}

// runBot runs command with the printed assignments (NAME=value lines) in
// its environment, its output beside the emulator's, until it exits; when
// ctx ends first (Ctrl-C, SIGTERM) it is interrupted and waited for, 10 s
// at most.
func runBot(ctx context.Context, command []string, assignments string, out io.Writer) error {
	cmd := exec.CommandContext(ctx, command[0], command[1:]...)
	cmd.Env = os.Environ()
	for _, line := range strings.Split(assignments, "\n") {
		if k, _, ok := strings.Cut(line, "="); ok && strings.HasPrefix(k, "GUILDKIT_") && !strings.ContainsAny(k, " #") {
			cmd.Env = append(cmd.Env, line)
		}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, out, os.Stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	fmt.Fprintf(out, "# running %s with the assignments above; the emulator stops when it does\n", strings.Join(command, " "))
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil // stopped by the signal, as the emulator is
	}
	if err != nil {
		return fmt.Errorf("%s: %w", command[0], err)
	}
	return nil
}

var globalWindows = map[string]guildkittest.GlobalWindow{
	"fixed-window":   guildkittest.FixedWindow,
	"sliding-window": guildkittest.SlidingWindow,
	"token-bucket":   guildkittest.TokenBucket,
}

// parseRouteLimit reads "GET /guilds/{guild.id}=5/1s".
func parseRouteLimit(v string) (guildkittest.Option, error) {
	route, limit, ok := strings.Cut(v, "=")
	n, per, ok2 := strings.Cut(limit, "/")
	method, tmpl, ok3 := strings.Cut(route, " ")
	if !ok || !ok2 || !ok3 || method == "" || !strings.HasPrefix(tmpl, "/") {
		return nil, fmt.Errorf("%q is not of the form \"GET /guilds/{guild.id}=5/1s\"", v)
	}
	count, err := strconv.Atoi(n)
	if err != nil || count < 1 {
		return nil, fmt.Errorf("%q: the count must be a whole number of at least 1", v)
	}
	d, err := time.ParseDuration(per)
	if err != nil || d <= 0 {
		return nil, fmt.Errorf("%q: the period must be a positive duration such as 1s", v)
	}
	return guildkittest.WithRouteLimit(route, count, d), nil
}

// demo seeds a guild with a #general channel and two webhooks in it: one
// no application owns and one the bot's application owns; a plain member,
// alice, and a moderator, morgan (the Moderators role: Moderate, Kick and
// Ban Members), to act as on the inspector page, so that a moderation
// command can be tried at once; and two roles anyone may take. The bot
// owns the guild: it may do anything in it.
func demo(srv *guildkittest.Server) {
	g := srv.AddGuild(guildkit.Guild{Name: "Emulator guild", OwnerID: srv.BotID()})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice", GlobalName: guildkit.Some("Alice")}})
	mods := srv.AddRole(g.ID, guildkit.Role{Name: "Moderators", Position: 3, Hoist: true,
		Permissions: guildkit.PermissionModerateMembers | guildkit.PermissionKickMembers | guildkit.PermissionBanMembers})
	srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "morgan", GlobalName: guildkit.Some("Morgan")}, Roles: []guildkit.Snowflake{mods.ID}})
	srv.AddRole(g.ID, guildkit.Role{Name: "red", Position: 1})
	srv.AddRole(g.ID, guildkit.Role{Name: "blue", Position: 2})
	srv.AddWebhook(ch.ID, "Emulator")
	srv.AddWebhook(ch.ID, "Emulator app", guildkittest.WebhookApplication(srv.BotID()))
}

// printStartup prints the assignments a bot needs (see the package
// comment): first is the guild to name, or 0 for the lowest id.
func printStartup(out io.Writer, srv *guildkittest.Server, first guildkit.Snowflake) {
	fmt.Fprintf(out, "GUILDKIT_BASE_URL=%s\n", srv.BaseURL())
	fmt.Fprintf(out, "GUILDKIT_GATEWAY_URL=%s\n", srv.GatewayURL())
	fmt.Fprintf(out, "GUILDKIT_TOKEN=%s\n", srv.Token())
	fmt.Fprintf(out, "GUILDKIT_BOT_ID=%s\n", srv.BotID())
	application := srv.Application()
	fmt.Fprintf(out, "GUILDKIT_APPLICATION_ID=%s\n", application.ID)
	fmt.Fprintf(out, "GUILDKIT_PUBLIC_KEY=%s\n", application.PublicKeyHex())
	guilds := srv.Guilds()
	if first == 0 && len(guilds) > 0 {
		first = guilds[0].ID
	}
	if first != 0 {
		fmt.Fprintf(out, "GUILDKIT_GUILD_ID=%s\n", first)
		for _, ch := range srv.Channels(first) {
			if ch.Type == guildkit.ChannelTypeGuildText {
				fmt.Fprintf(out, "GUILDKIT_CHANNEL_ID=%s\n", ch.ID)
				break
			}
		}
	}
	var plain, app *guildkit.Webhook
	hooks := srv.Webhooks()
	for i, h := range hooks {
		if h.Token == "" {
			continue
		}
		switch {
		case h.ApplicationID == nil && plain == nil:
			plain = &hooks[i]
		case h.ApplicationID != nil && app == nil:
			app = &hooks[i]
		}
	}
	if plain != nil {
		fmt.Fprintf(out, "# GUILDKIT_WEBHOOK_URL: owned by no application; may send link buttons, not interactive components\n")
		fmt.Fprintf(out, "GUILDKIT_WEBHOOK_URL=%s/webhooks/%s/%s\n", srv.BaseURL(), plain.ID, plain.Token)
	}
	if app != nil {
		fmt.Fprintf(out, "# GUILDKIT_APP_WEBHOOK_URL: owned by the bot's application; may send every kind of component\n")
		fmt.Fprintf(out, "GUILDKIT_APP_WEBHOOK_URL=%s/webhooks/%s/%s\n", srv.BaseURL(), app.ID, app.Token)
	}
	fmt.Fprintf(out, "# access tokens for Add Guild Member: POST %s%sapi/access-tokens {\"user_id\": \"...\"}\n", srv.URL, guildkittest.ControlPrefix)
}

// checkGatewaySettings says what is wrong with the gateway flags; "" when
// nothing is.
func checkGatewaySettings(g guildkittest.GatewaySettings) string {
	var problems []string
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{{"-heartbeat-interval", g.HeartbeatInterval}, {"-resume-window", g.ResumeWindow}} {
		if d.v <= 0 {
			problems = append(problems, fmt.Sprintf("%s: %s is not a positive duration", d.flag, d.v))
		}
	}
	for _, n := range []struct {
		flag string
		v    int
	}{{"-max-concurrency", g.MaxConcurrency}, {"-guilds-per-shard", g.GuildsPerShard}, {"-send-limit", g.SendLimit}, {"-session-start-total", g.SessionStartTotal}} {
		if n.v < 1 {
			problems = append(problems, fmt.Sprintf("%s: %d is less than 1", n.flag, n.v))
		}
	}
	if g.HeartbeatInterval > 0 && g.HeartbeatInterval < time.Millisecond {
		problems = append(problems, fmt.Sprintf("-heartbeat-interval: %s is shorter than the 1 ms HELLO can say", g.HeartbeatInterval))
	}
	return strings.Join(problems, "; ")
}

// parseDefaultRouteLimit reads "1000/1s".
func parseDefaultRouteLimit(v string) (guildkittest.Option, error) {
	n, per, ok := strings.Cut(v, "/")
	count, err := strconv.Atoi(n)
	if !ok || err != nil || count < 1 {
		return nil, fmt.Errorf("%q is not of the form \"1000/1s\" (a count of at least 1, a period)", v)
	}
	d, err := time.ParseDuration(per)
	if err != nil || d <= 0 {
		return nil, fmt.Errorf("%q: the period must be a positive duration such as 1s", v)
	}
	return guildkittest.WithDefaultRouteLimit(count, d), nil
}

// saveState writes the state next to path and renames it into place, so a
// crash while writing never leaves a half-written state file.
func saveState(srv *guildkittest.Server, path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("saving state: %w", err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing to remove
	if err := srv.SaveState(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o600); err != nil { // it holds every token
		tmp.Close()
		return fmt.Errorf("saving state: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("saving state: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("saving state: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("saving state: %w", err)
	}
	return nil
}

// isLoopback reports whether addr's host is a loopback address or name.
func isLoopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, err
	}
	if host == "localhost" {
		return true, nil
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback(), nil
}

// checkInteractionsURL says what is wrong with the endpoint URL; "" when
// nothing is. An endpoint at the emulator's own address would deliver the
// interactions to the emulator.
func checkInteractionsURL(raw, addr string) string {
	u, err := guildkittest.ParseInteractionsURL(raw)
	if err != nil {
		return err.Error()
	}
	if u.Host == addr {
		return fmt.Sprintf("%s is the emulator's own address (-addr); give the emulator another one, such as -addr 127.0.0.1:8090", addr)
	}
	return ""
}

// checkEndpoint checks the interactions endpoint and prints the verdict;
// while the endpoint cannot be reached (the bot not started yet) it checks
// again every 2 seconds, printing the verdict when it changes, until the
// endpoint answers or ctx ends. It closes done when it returns.
func checkEndpoint(ctx context.Context, srv *guildkittest.Server, out io.Writer, done chan<- struct{}) {
	defer close(done)
	last := ""
	for {
		err := srv.CheckInteractionsEndpoint(ctx)
		if ctx.Err() != nil {
			return
		}
		verdict, _ := srv.EndpointCheck()
		if verdict.Verdict != last {
			last = verdict.Verdict
			mark := "ok"
			if !verdict.OK {
				mark = "FAILED"
			}
			fmt.Fprintf(out, "# interactions endpoint %s: %s: %s\n", verdict.URL, mark, verdict.Verdict)
		}
		if err == nil {
			return
		}
		if !strings.Contains(err.Error(), "got no answer") {
			fmt.Fprintf(out, "# once the endpoint is fixed, check it again: the inspector's \"Save and check\", or POST %sapi/application {}\n", guildkittest.ControlPrefix)
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(2 * time.Second):
		}
	}
}
