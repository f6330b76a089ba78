"""A discord.py bot with no guildkit code, run against the emulator.

discord.py takes its REST base from ``discord.http.Route.BASE`` and
hard-codes the gateway's host in ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``
(it never asks GET /gateway when it is not auto-sharded, and returns to that
URL after an INVALID_SESSION), so both are set before the client starts.
Written for the discord.py that Debian ships (python3-discord, 2.2), and
for later 2.x releases.

Environment (the names the emulator prints):

    GUILDKIT_BASE_URL     the interface's base URL, http://127.0.0.1:PORT/api/v10
    GUILDKIT_GATEWAY_URL  the gateway's WebSocket URL, ws://127.0.0.1:PORT
    GUILDKIT_TOKEN        the bot's token

It answers the prefix command "!ping" with a reply "pong" (printing a
"replied" line). It prints one JSON object per line on standard output,
the line protocol the Go tests in the parent folder read (see bot.js for
the list), and exits when its standard input ends.
"""

import asyncio
import json
import logging
import os
import sys
import threading

import yarl

import discord
import discord.gateway
import discord.http


def emit(**line):
    sys.stdout.write(json.dumps(line) + "\n")
    sys.stdout.flush()


def subject(d):
    """The subject of a dispatch: its role, its user, or itself."""
    if not isinstance(d, dict):
        return None
    for key in ("role", "user"):
        if isinstance(d.get(key), dict) and "id" in d[key]:
            return d[key]["id"]
    return d.get("id")


def main():
    base = os.environ.get("GUILDKIT_BASE_URL")
    gateway = os.environ.get("GUILDKIT_GATEWAY_URL")
    token = os.environ.get("GUILDKIT_TOKEN")
    if not base or not gateway or not token:
        print("bot.py: GUILDKIT_BASE_URL, GUILDKIT_GATEWAY_URL and GUILDKIT_TOKEN must be set", file=sys.stderr)
        sys.exit(2)

    # The two overrides discord.py needs.
    discord.http.Route.BASE = base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)

    intents = discord.Intents.none()
    intents.guilds = True
    intents.members = True
    intents.moderation = True
    # For the prefix command: the messages of guild channels, with their
    # content (a privileged intent).
    intents.guild_messages = True
    intents.message_content = True
    # Debug events give the raw payloads, for their sequence numbers.
    client = discord.Client(intents=intents, enable_debug_events=True)
    ready = False

    @client.event
    async def on_socket_raw_receive(msg):
        payload = json.loads(msg)
        if payload.get("op") == 0:
            emit(kind="dispatch", t=payload.get("t"), s=payload.get("s"), id=subject(payload.get("d")))

    @client.event
    async def on_ready():
        nonlocal ready
        if ready:
            return
        ready = True
        emit(kind="ready", user_id=str(client.user.id), guild_ids=[str(g.id) for g in client.guilds],
             available_guild_ids=[str(g.id) for g in client.guilds if not g.unavailable])

    @client.event
    async def on_resumed():
        emit(kind="resumed")

    @client.event
    async def on_member_join(member):
        emit(kind="event", t="GUILD_MEMBER_ADD", guild_id=str(member.guild.id), user_id=str(member.id))

    @client.event
    async def on_member_ban(guild, user):
        emit(kind="event", t="GUILD_BAN_ADD", guild_id=str(guild.id), user_id=str(user.id))

    @client.event
    async def on_guild_role_create(role):
        emit(kind="event", t="GUILD_ROLE_CREATE", guild_id=str(role.guild.id), role_id=str(role.id))

    @client.event
    async def on_interaction(interaction):
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = interaction.data.get("custom_id")
        emit(kind="interaction", id=str(interaction.id), custom_id=custom_id, user_id=str(interaction.user.id))
        content = f"discord.py: {custom_id} clicked by {interaction.user.id}"
        try:
            # An embed-only reply: discord.py sends "content": null with it.
            await interaction.response.send_message(embed=discord.Embed(title=content), ephemeral=True)
        except discord.DiscordException as exc:
            emit(kind="error", message=f"send_message: {exc}")
            return
        emit(kind="answered", id=str(interaction.id), content=content)

    @client.event
    async def on_message(message):
        # A prefix command, as bots wrote them before slash commands.
        if message.author.bot or message.content != "!ping":
            return
        try:
            reply = await message.reply("pong")
        except discord.DiscordException as exc:
            emit(kind="error", message=f"reply: {exc}")
            return
        emit(kind="replied", id=str(reply.id), content=reply.content, channel_id=str(reply.channel.id))

    @client.event
    async def on_error(event, *args, **kwargs):
        emit(kind="error", message=f"{event}: {sys.exc_info()[1]!r}")

    async def run():
        loop = asyncio.get_running_loop()
        stopped = loop.create_future()

        def watch_stdin():
            sys.stdin.buffer.read()
            loop.call_soon_threadsafe(lambda: stopped.done() or stopped.set_result(None))

        threading.Thread(target=watch_stdin, daemon=True).start()
        async with client:
            bot = asyncio.create_task(client.start(token))
            done, _ = await asyncio.wait({bot, stopped}, return_when=asyncio.FIRST_COMPLETED)
            if bot in done:
                exc = bot.exception()
                if exc is not None:
                    emit(kind="error", message=f"start: {exc!r}")
                    sys.exit(1)
                return
            await client.close()

    discord.utils.setup_logging(
        handler=logging.StreamHandler(sys.stderr),
        formatter=logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"),
        level=logging.INFO,
        root=False,
    )
    asyncio.run(run())


if __name__ == "__main__":
    main()
