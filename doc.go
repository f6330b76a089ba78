// Package guildkit is a client for a chat platform's guild interface:
// guilds, channels, members, bans, roles, prune, widget, welcome screen,
// onboarding, incident actions, invites and webhooks.
//
// # Quick start
//
//	client, err := guildkit.New(guildkit.BotToken(token), guildkit.WithBaseURL(baseURL))
//	guild, err := client.Guilds.Get(ctx, guildID, nil)
//
// The client's services ([Client].Guilds, Channels, Messages, Users,
// Members, Bans, Roles, Invites, Webhooks) group the operations by resource. Every method takes a
// context first and returns a typed result and an error. Each method's
// documentation says what the interface requires of the caller (the
// permission, whether it accepts [WithReason], the events it emits, its
// limits) and ends with a line naming the operation it serves:
//
//	Spec: "Get Guild" — GET /guilds/{guild.id}
//
// # Optional fields
//
// Request parameters are ...Params structs. Required fields are plain
// values; optional ones are [Opt] values with three states: omitted (the zero
// Opt), [Some] (send a value) and [Null] (send JSON null, which usually
// clears the field). A nil params pointer means "no parameters".
//
// Response objects use one of three shapes per field, by what the interface
// says of it, and each field's comment names its shape:
//
//   - a plain value (string, bool, []T) when the service always sends it;
//   - a pointer (*T) when the service may send null ("nil when null") or
//     leave the field out ("nil when absent"), and the two need not be told
//     apart;
//   - an [Opt] when the field may be absent as well as null and the two mean
//     different things: the zero Opt is absent, [wire.Opt.IsNull] tells null,
//     [wire.Opt.Get] the value.
//
// So a decoded object re-encodes to what the service sent. Helpers cover
// the questions users ask most: [Member.DisplayName], [Member.TimedOut].
//
// # The primitives and their methods
//
// A few types of this package are aliases of types of package
// [github.com/seed012df1e9/guildkit/wire], which the components package
// shares, so one value serves both. go doc lists their methods under wire,
// not here; they are:
//
//   - [Opt]: [Some] and [Null] make one; [wire.Opt.Get] (the value and
//     whether there is one),
//     [wire.Opt.Or] (the value or a default), [wire.Opt.IsSet] (made with
//     Some), [wire.Opt.IsNull] (made with Null, or null in an answer),
//     [wire.Opt.IsZero] (omitted, or absent from an answer),
//     [wire.Opt.String] ("<omitted>", "null" or the value), and
//     [wire.Opt.MarshalJSON], [wire.Opt.UnmarshalJSON] and
//     [wire.Opt.EncodeValues] (query strings, where Null is an error).
//   - [Snowflake]: [wire.Snowflake.Time] (when the id was made, from its top
//     bits), [wire.Snowflake.IsZero], [wire.Snowflake.String], and its JSON
//     and text encodings ([wire.Snowflake.MarshalJSON],
//     [wire.Snowflake.UnmarshalJSON], [wire.Snowflake.MarshalText],
//     [wire.Snowflake.UnmarshalText]) so a Snowflake may key a JSON object.
//     [ParseSnowflake] and [SnowflakeFromTime] make one.
//   - [ChannelType]: [wire.ChannelType.String] (the platform's name),
//     [wire.ChannelType.Known] and [wire.ChannelType.IsThread].
//   - [ValidationError]: the field [wire.ValidationError.Problems] (every
//     problem), [wire.ValidationError.Error] (one problem a line when there
//     are several), [wire.ValidationError.Unwrap] (so
//     errors.As reaches a [FieldError]), and [wire.ValidationError.Add],
//     [wire.ValidationError.Merge] and [wire.ValidationError.Err] for code
//     that builds one.
//   - [FieldError]: the fields [wire.FieldError.Path], [wire.FieldError.Code]
//     (one of [wire.CodeRequired], [wire.CodeLength], [wire.CodeRange],
//     [wire.CodeInvalid], [wire.CodeNotNull], [wire.CodeConflict],
//     [wire.CodeDuplicate], [wire.CodePlacement], [wire.CodeNotAllowed]) and
//     [wire.FieldError.Message], and [wire.FieldError.Error] ("path:
//     message").
//
// The examples of [Opt], [Snowflake], [ParseSnowflake], [ChannelType],
// [ValidationError] and [FieldError] use them.
//
// # Names
//
// The parameters of a method are in a struct named Resource + Verb +
// Params: [MemberModifyParams] for [MemberService.Modify],
// [GuildWidgetModifyParams] for [GuildService.ModifyWidget]. A part of a
// request that is a list of objects is Resource + Params
// ([PermissionOverwriteParams], [RolePositionParams]). Methods are verbs on
// their service (Get, List, Create, Modify, Delete), a sub-resource named
// after the verb (GetWidget, ModifyWelcomeScreen); All iterates what List
// pages through.
//
// # Errors
//
// A request the client can tell is wrong is not sent: the method returns a
// [*ValidationError] listing every problem with its path. An error answer is
// an [*APIError] with the status, the interface's error code, the message and
// the field problems of the body flattened to paths ("roles[0]"); match the
// kind with errors.Is and [ErrNotFound], [ErrForbidden], [ErrUnauthorized],
// [ErrBadRequest], [ErrRateLimited] or [ErrServer]. A call that got no answer
// is a [*RequestError]; a rate limit the client did not wait out is a
// [*RateLimitError]. Errors and log records name route templates
// ("/webhooks/{webhook.id}/{webhook.token}"), never URLs, so a token in a
// path never leaks.
//
// # Pagination
//
// A List method returns one page. Its All sibling ([MemberService.All],
// [BanService.All]) returns an iter.Seq2 that walks every page by the
// snowflake cursor the interface names (after for members; after or before
// for bans):
//
//	for ban, err := range client.Bans.All(ctx, guildID, nil) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(ban.User.Username)
//	}
//
// All sends no request until the loop starts and fetches a page only when
// the loop needs an item from it, so a break stops fetching. A failure is
// yielded once, with the zero item, and ends the loop.
//
// # Retries and rate limits
//
// A 429 is retried after the wait the service asks for (the body's
// retry_after, X-RateLimit-Reset-After or Retry-After). 408, 502, 503, 504 and
// lost connections are retried with backoff only for GET, HEAD, PUT and
// DELETE: a POST or PATCH that may have taken effect is never sent twice. A
// file upload from an io.ReadSeeker is rewound for a retry; one from a plain
// io.Reader is never retried. Every wait ends when the context does, and a
// wait that would outlast the context's deadline fails at once. See
// [WithRetry], [WithMaxRateLimitWait] and [WithoutRateLimitRetry].
//
// Below the retries, the client keeps the service's rate limits before it is
// told: it learns each route's bucket from the X-RateLimit-* headers (per
// guild, channel or webhook), lets as many requests into a bucket at once as
// it has remaining and holds the rest until its reset, pauses every request
// after a global 429, and sends at most 50 requests in any one second
// ([WithGlobalRateLimit]; a sliding window with a margin for the time
// requests take to travel). A wait for a bucket that would outlast the
// context's deadline fails at once with a [*RateLimitError] whose NotSent is
// true. [WithRateLimitObserver] is told of every 429 and every wait.
//
// # Running many processes
//
// The service's limits belong to the token, not to a process, so processes
// (shards, workers, serverless functions) that send with one token must keep
// them together, or together they overrun them: many 429s, and after 10,000
// invalid requests in 10 minutes the reference platform bans the address
// for a while. Three set-ups:
//
//   - One process (the default). The client keeps the limits in its own
//     memory. Several clients in one process share them by sharing one
//     store: WithRateLimitStore(ratelimit.NewMemoryStore(ratelimit.MemoryOptions{})).
//   - A proxy. A rate-limiting HTTP proxy in front of the service keeps the
//     limits for every process: point [WithBaseURL] at it and turn the
//     client's own limiter off with [WithoutRateLimiter]. A 429 the proxy
//     passes on is still retried after its wait; a 408 or a lost connection
//     only for GET, HEAD, PUT and DELETE, never for a POST or PATCH.
//   - A shared store. Every process keeps the limits in one store through
//     [WithRateLimitStore]: the Redis store of the module
//     github.com/seed012df1e9/guildkit/ratelimit/redisstore (one Lua script
//     per step, the Redis server's clock, keys named by a hash of the token).
//     When Redis cannot be reached, or refuses for its own state (out of
//     memory, a read-only replica), a process keeps to a local share of the
//     global rate and of each bucket's limit (a quarter by default), says so
//     once through the observer ([RateLimitStoreDown]) and the logger, and
//     goes back to the store when it serves again ([RateLimitStoreUp]). A
//     store that fails to record an answer is told of too
//     ([RateLimitStoreError]), at most once every 10 seconds.
//
// [Client.InvalidRequests] tells how many invalid requests (401, 403, 429)
// the token made in the last 10 minutes, as its store counted them.
//
// # Secrets
//
// The bot token, a bearer token, an OAuth2 access token given in a body and
// every webhook token stay in the client: errors and log records name route
// templates, not URLs; text the server sends back (an error's message and
// body, a bucket id) is cleared of them before it reaches an error, a log
// record or an observer; [Client], [WebhookClient] and credentials print as
// a redacted form under every fmt verb, nested or not, and through slog and
// encoding/json. A redirect is never followed (the interface does not
// redirect): a 3xx answer is a [*RedirectError] naming the target's host.
//
// Go's default transport honours HTTP_PROXY and HTTPS_PROXY: with an
// http:// base URL the proxy sees the Authorization header in clear, and New
// logs a warning when such a base URL names another machine. SECURITY.md
// says what is promised and how it is tested.
//
// # Interactions
//
// The platform delivers the clicks, select choices and modal submissions
// of a bot's components (and its commands) as interactions. Package
// interactions receives them at the bot's endpoint (signature checked,
// routed by custom_id, answered once, deferred for it when slow); the
// [Interaction] type holds one with its data decoded, [InteractionResponse]
// is an answer (checked by [InteractionResponse.Validate] before it
// leaves), and [InteractionService] answers over REST: the callback route,
// the original response and follow-ups, which take no bot token and are
// not held back by the global rate limit. The interface's documents only
// say that these interactions are delivered; the rest follows the
// reference platform's v10 interactions API.
//
// # Commands
//
// [CommandService] (c.Commands) registers an application's commands,
// globally or in a guild: list, create (an upsert: 201 for a new command,
// 200 for one replaced), get, edit, delete and bulk overwrite. A command
// is a [CommandCreateParams] with [CommandOptionDefinition] options of
// every type (subcommands and groups, strings, integers, booleans, users,
// channels, roles, mentionables, numbers, attachments), choices, bounds,
// lengths, channel and file types, autocomplete and localizations. Every
// rule of the platform is checked before anything is sent
// ([CommandCreateParams.Validate], [ValidateCommands]): names (the pattern
// and the lower-case rule of CHAT_INPUT), lengths, 25 options and 25
// choices, the nesting of subcommands and groups, required before optional,
// choices against autocomplete, bounds on the right types, locales, and
// the 8000-character total; a mistake is a [*ValidationError] with its path
// ("options[2].choices[25]: at most 25 choices"), not a 400 at start-up.
// Package interactions declares commands beside their handlers and syncs
// them (writing only when they changed); [Interaction.CommandOptions] reads
// a command's options typed, with the chosen subcommand resolved. The
// interface's documents do not cover commands; this follows the reference
// platform's v10 application commands.
//
// # Messages
//
// [MessageService] (c.Messages) posts, reads, edits and deletes the
// messages of channels and DMs: List and All (history, newest first, by
// the before cursor), Get, Create (content, embeds, allowed mentions,
// replies and forwards, components including V2, stickers, streamed
// files, flags, a nonce with EnforceNonce for a Create that is safe to
// repeat), Edit, Delete, BulkDelete (2 to 100 messages, none older than 14
// days, refused before sending), and the bot's own reactions (React,
// Unreact). [UserService.CreateDM] opens a DM channel, which Create then
// sends to; [ChannelService.TriggerTyping] shows the bot typing. Every rule
// of the platform that the client can check is checked before sending and
// reported all at once ([MessageCreateParams]); the codes a bot meets have
// sentinels: [ErrUnknownChannel], [ErrUnknownMessage],
// [ErrMissingPermissions], [ErrCannotSendToUser], [ErrMessageTooOld]. Each
// channel's message routes have their own rate-limit bucket.
//
// The services follow the API map of the design: one service for
// messages, as for every other resource, rather than more methods on
// [ChannelService], which holds the channels themselves. [NewEmbed] builds
// an embed and [Embed.Validate] checks it with every problem's path;
// [User.Mention], [Role.Mention], [Channel.Mention], [MentionCommand],
// [FormatTimestamp] write mentions and timestamps, [EscapeMarkdown] and
// [EscapeMentions] make user-provided text safe to show, and
// [FindMentions] reads mentions back.
//
// There is no prefix-command helper ("!ping") on purpose: the platform's
// commands (package interactions' router, [CommandService]) are how a bot
// takes commands, with typed options, permissions and no need for the
// privileged MESSAGE_CONTENT intent. A bot that must read messages
// registers its gateway handler with gateway.ReadsContent, which makes the
// shard ask for that intent.
//
// # Testing
//
// Package guildkittest is an in-memory implementation of the interface:
// guildkittest.NewServer(t) gives a server, seeded through its methods, and
// its Client method a *Client pointed at it.
//
// The rate-limit headers and the token header syntax are not shown by the
// interface's documents; guildkit follows the reference platform's public
// conventions ("Authorization: Bot <token>", X-RateLimit-* headers).
package guildkit
