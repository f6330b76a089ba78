// Package thirdparty runs bots written with other people's client
// libraries, with no guildkit code, against the emulator's gateway: a
// discord.js 14 bot (discordjs/bot.js), a discord.py bot (discordpy/bot.py),
// a discordgo bot (discordgo/main.go) and a disgo bot (disgo/main.go). Each
// library is the judge of the server: if the emulator leaves out a field a
// library needs, or closes with a code it mishandles, that library's bot
// fails here. Between them they use every compression the server offers
// (none: discord.js; zlib-stream: discord.py; per-payload zlib: discordgo;
// zstd-stream: disgo), API v10 and v9, and resume on resume_gateway_url or,
// as discordgo does, on the ordinary URL.
//
// Each test starts the in-memory server on loopback with a guild the bot
// is in and a message from the application with a button, starts the bot
// as a child process with the server's addresses and token in the
// environment variables the emulator prints (GUILDKIT_BASE_URL,
// GUILDKIT_GATEWAY_URL, GUILDKIT_TOKEN), and reads what the bot prints.
// Then, with guildkit's own client on the test's side, it:
//
//   - waits for the library's ready state;
//   - adds a member, bans a user and creates a role, and waits for the bot to
//     receive GUILD_MEMBER_ADD, GUILD_BAN_ADD and GUILD_ROLE_CREATE;
//   - checks that discord.js and discord.py hold the guild available
//     (GUILD_CREATE's "unavailable": false), and that the server answers a
//     wrongly typed field 50035 naming its path, as discord.js reports it;
//   - clicks the button ([guildkittest.Server.Click]): the click reaches the
//     bot as INTERACTION_CREATE, the bot answers through the callback route
//     with its library's own reply (discord.py's an embed-only one, which
//     it sends with "content": null), and the click's Outcome shows it;
//   - injects a reconnect (op 7) and then a dropped connection, causing
//     events while the bot is away, and checks that it resumed (a RESUME,
//     not a new IDENTIFY, on the server's side) and received every event
//     exactly once, with sequence numbers that neither skip nor repeat.
//
// Three more tests give the bots a message scenario each, through their
// libraries' ordinary calls (messages_test.go): a member's "!ping"
// ([guildkittest.Server.Post]) reaches the discord.py bot, which reads its
// content (MESSAGE_CONTENT) and answers with message.reply; the discord.js
// bot sends an embed with channel.send and a DM with user.send
// (GUILDKIT_SEND_CHANNEL_ID, GUILDKIT_DM_USER_ID); the discordgo bot reads
// a channel's history with ChannelMessages and deletes the message that
// says "delete me" with ChannelMessageDelete (GUILDKIT_HISTORY_CHANNEL_ID).
//
// # The line protocol
//
// A bot prints one JSON object per line on its standard output:
//
//	{"kind": "dispatch", "t": "GUILD_ROLE_CREATE", "s": 5, "id": "…"}  every dispatch the library received
//	                                                          (id: d.role.id, else d.user.id, else d.id)
//	{"kind": "ready", "user_id": "…", "guild_ids": ["…"]}     the library is ready (printed once); discord.js's and
//	                                                          discord.py's add "available_guild_ids", the guilds
//	                                                          the library holds available
//	{"kind": "rest_error", "code": 50035, "message": "…"}     discord.js's bot only: the error its REST client reports
//	                                                          for a body with a wrongly typed field
//	{"kind": "event", "t": "GUILD_MEMBER_ADD", "guild_id": "…", "user_id": "…"}
//	{"kind": "event", "t": "GUILD_BAN_ADD", "guild_id": "…", "user_id": "…"}
//	{"kind": "event", "t": "GUILD_ROLE_CREATE", "guild_id": "…", "role_id": "…"}
//	{"kind": "interaction", "id": "…", "custom_id": "…", "user_id": "…"}
//	{"kind": "answered", "id": "…", "content": "…"}           the callback route accepted the answer
//	{"kind": "replied", "id": "…", "content": "pong", "channel_id": "…"}  the bot replied to "!ping"
//	{"kind": "sent", "id": "…", "content": "…", "channel_id": "…"}      the bot sent a message (an embed's title)
//	{"kind": "history", "content": "3", "channel_id": "…"}    how many messages the bot read
//	{"kind": "deleted", "id": "…", "channel_id": "…"}         the bot deleted a message
//	{"kind": "resumed"}                                       the library resumed its session
//	{"kind": "error", "message": "…"}                         the library reported an error
//
// "dispatch" lines are what the library read off the connection, in order;
// "event" lines come from the library's own typed events (discord.js's
// guildMemberAdd, discord.py's on_member_join, discordgo's
// *discordgo.GuildMemberAdd), so an event the library failed to parse is
// missing. The test wants every event it caused once among the dispatches
// and once among the typed events, with one exception a library's own
// source explains: discord.js emits guildMemberAdd only while its shard is
// ready, and its shard is "resuming" until RESUMED, which the platform
// sends after the replay, so a member added while the bot was away reaches
// its cache but not its guildMemberAdd handler. A bot exits when its standard input ends, so it never outlives
// the test that started it.
//
// # Running
//
// It is a module of its own so that discordgo and disgo are not
// dependencies of guildkit:
//
//	cd guildkittest/thirdparty/discordjs && npm ci    # once: discord.js, as package-lock.json pins it
//	cd guildkittest/thirdparty && go test ./...
//
// discord.js needs Node.js 18 or later (Debian: apt-get install nodejs npm);
// discord.py is the operating system's package (Debian: apt-get install
// python3-discord), run with /usr/bin/python3, or the interpreter in
// GUILDKIT_PYTHON; discordgo and disgo come from the module proxy. Outside CI a test
// whose runtime is missing skips and says what to install; in CI
// (CI=true) it fails.
package thirdparty
