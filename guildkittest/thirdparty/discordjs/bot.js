// A discord.js 14 bot with no guildkit code: it runs against the emulator
// only because its REST base URL points there. discord.js asks that REST
// base for GET /gateway/bot and connects to the URL the answer gives, so no
// other override is needed.
//
// Environment (the names the emulator prints):
//
//	GUILDKIT_BASE_URL  the interface's base URL, http://127.0.0.1:PORT/api/v10
//	GUILDKIT_TOKEN     the bot's token
//
// It prints one JSON object per line on standard output, the line protocol
// the Go tests in the parent folder read:
//
//	{"kind": "dispatch", "t": "GUILD_CREATE", "s": 2, "id": "…"}  every dispatch, as received
//	{"kind": "ready", "user_id": "…", "guild_ids": ["…"], "available_guild_ids": ["…"]}
//	                                                          the library is ready
//	{"kind": "rest_error", "code": 50035, "message": "…"}    a wrongly typed body's answer
//	{"kind": "event", "t": "GUILD_MEMBER_ADD", "guild_id": "…", "user_id": "…"}
//	{"kind": "event", "t": "GUILD_BAN_ADD", "guild_id": "…", "user_id": "…"}
//	{"kind": "event", "t": "GUILD_ROLE_CREATE", "guild_id": "…", "role_id": "…"}
//	{"kind": "interaction", "id": "…", "custom_id": "…", "user_id": "…"}
//	{"kind": "answered", "id": "…", "content": "…"}          its answer was accepted
//	{"kind": "resumed", "replayed": 3}                       the session resumed
//	{"kind": "error", "message": "…"}
//
// It exits when its standard input ends, so it never outlives the test
// that started it.
'use strict';

const { Client, EmbedBuilder, Events, GatewayIntentBits, MessageFlags } = require('discord.js');

function emit(line) {
  process.stdout.write(JSON.stringify(line) + '\n');
}

const base = process.env.GUILDKIT_BASE_URL;
const token = process.env.GUILDKIT_TOKEN;
if (!base || !token) {
  console.error('bot.js: GUILDKIT_BASE_URL and GUILDKIT_TOKEN must be set');
  process.exit(2);
}
// discord.js builds its REST URLs as `${api}/v${version}${route}`.
const parts = /^(.*)\/v(\d+)\/?$/.exec(base);
if (!parts) {
  console.error(`bot.js: GUILDKIT_BASE_URL ${base} does not end in /v<version>`);
  process.exit(2);
}

const client = new Client({
  intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers, GatewayIntentBits.GuildModeration],
  rest: { api: parts[1], version: parts[2] },
});

// The subject of a dispatch: its role, its user, or itself.
function subject(d) {
  return d?.role?.id ?? d?.user?.id ?? d?.id;
}

client.on(Events.Raw, (packet) => {
  emit({ kind: 'dispatch', t: packet.t, s: packet.s, id: subject(packet.d) });
});

// GUILDKIT_PRESENCE_UPDATES=N: once ready, the bot sends N presence updates
// at once (what setPresence sends, through the same queue, awaited) and
// leaves the pacing to discord.js, which sends at most 114 payloads per 60 s
// window from the moment its connection opened and holds the rest until its
// next window. Then it fetches the guild's members (op 8, answered after
// the server has read every update) and prints {"kind": "sent"}.
// GUILDKIT_PRESENCE_AFTER_MS delays them, to place the burst at the end of
// discord.js's first window.
const presenceUpdates = Number(process.env.GUILDKIT_PRESENCE_UPDATES || 0);
const presenceAfter = Number(process.env.GUILDKIT_PRESENCE_AFTER_MS || 0);

async function sendPresenceUpdates(c) {
  await new Promise((resolve) => setTimeout(resolve, presenceAfter));
  const sends = [];
  for (let i = 0; i < presenceUpdates; i++) {
    const d = { since: null, status: 'online', afk: false, activities: [{ name: `update ${i + 1} of ${presenceUpdates}`, type: 0 }] };
    sends.push(c.ws._ws.send(0, { op: 3, d }));
  }
  await Promise.all(sends);
  await c.guilds.cache.first().members.fetch();
  emit({ kind: 'sent', message: `${presenceUpdates} presence updates` });
}

client.once(Events.ClientReady, async (c) => {
  // guild.available is what discord.js tells bots to check before touching
  // a guild: false unless GUILD_CREATE said "unavailable": false.
  const available = c.guilds.cache.filter((g) => g.available);
  emit({ kind: 'ready', user_id: c.user.id, guild_ids: [...c.guilds.cache.keys()], available_guild_ids: [...available.keys()] });
  if (presenceUpdates > 0) {
    sendPresenceUpdates(c).catch((err) => emit({ kind: 'error', message: `presence updates: ${err}` }));
    return;
  }
  // A body with a wrongly typed field (an option's type as a string), sent
  // through discord.js's own REST client: the server's answer, as
  // discord.js reports it, names the field.
  try {
    await c.rest.post(`/applications/${c.application.id}/commands`, {
      body: { name: 'typed', description: 'a wrongly typed option', options: [{ type: 'z', name: 'o', description: 'o' }] },
    });
    emit({ kind: 'rest_error', code: 0, message: 'accepted' });
  } catch (err) {
    emit({ kind: 'rest_error', code: err.code ?? 0, message: `${err.message}` });
  }
  // With GUILDKIT_SEND_CHANNEL_ID and GUILDKIT_DM_USER_ID, it posts an
  // embed to the channel and a DM to the user, as a bot's ordinary calls.
  const channelId = process.env.GUILDKIT_SEND_CHANNEL_ID;
  const userId = process.env.GUILDKIT_DM_USER_ID;
  if (!channelId || !userId) {
    return;
  }
  try {
    const channel = await c.channels.fetch(channelId);
    const sent = await channel.send({ embeds: [new EmbedBuilder().setTitle('Report').setDescription('All quiet').setColor(0x2ecc71).addFields({ name: 'members', value: '3', inline: true })] });
    emit({ kind: 'sent', id: sent.id, channel_id: sent.channelId, content: sent.embeds[0]?.title ?? '' });
    const user = await c.users.fetch(userId);
    const dm = await user.send('hello from discord.js');
    emit({ kind: 'sent', id: dm.id, channel_id: dm.channelId, content: dm.content });
  } catch (err) {
    emit({ kind: 'error', message: `send: ${err}` });
  }
});

client.on(Events.GuildMemberAdd, (member) => {
  emit({ kind: 'event', t: 'GUILD_MEMBER_ADD', guild_id: member.guild.id, user_id: member.id });
});

client.on(Events.GuildBanAdd, (ban) => {
  emit({ kind: 'event', t: 'GUILD_BAN_ADD', guild_id: ban.guild.id, user_id: ban.user.id });
});

client.on(Events.GuildRoleCreate, (role) => {
  emit({ kind: 'event', t: 'GUILD_ROLE_CREATE', guild_id: role.guild.id, role_id: role.id });
});

client.on(Events.InteractionCreate, async (interaction) => {
  if (!interaction.isButton()) {
    return;
  }
  emit({ kind: 'interaction', id: interaction.id, custom_id: interaction.customId, user_id: interaction.user.id });
  const content = `discord.js: ${interaction.customId} clicked by ${interaction.user.id}`;
  try {
    await interaction.reply({ content, flags: MessageFlags.Ephemeral });
    emit({ kind: 'answered', id: interaction.id, content });
  } catch (err) {
    emit({ kind: 'error', message: `reply: ${err}` });
  }
});

client.on(Events.ShardResume, (shardId, replayed) => {
  emit({ kind: 'resumed', shard: shardId, replayed });
});

client.on(Events.ShardError, (err, shardId) => {
  emit({ kind: 'error', message: `shard ${shardId}: ${err}` });
});

client.on(Events.Error, (err) => {
  emit({ kind: 'error', message: `${err}` });
});

process.stdin.on('end', () => {
  client.destroy().finally(() => process.exit(0));
});
process.stdin.resume();

client.login(token).catch((err) => {
  emit({ kind: 'error', message: `login: ${err}` });
  process.exit(1);
});
