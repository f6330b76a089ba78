// The channel view: a channel of a guild, or one of the bot's DMs, read as
// the member the page acts as reads it: its messages oldest first, newest
// at the bottom, drawn as the messages pane draws them (author, time,
// markdown with mentions, embeds, attachments, components; the buttons and
// selects of the bot's messages live), redrawn when an event comes, and a
// composer that posts as that member (POST api/messages), so a prefix
// command is one Enter away.
"use strict";

const chat = { channel: "", dms: [] };

async function loadDMs() {
  try {
    const r = await fetch(api("dms"));
    chat.dms = r.ok ? await r.json() : [];
  } catch (err) {
    chat.dms = [];
  }
}

// textChannel reports whether a channel holds messages: text, voice chat,
// announcement, threads, stage.
function textChannel(ch) { return [0, 2, 5, 10, 11, 12, 13].includes(ch.type); }

function compareIDs(a, b) {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

function renderChat(st) {
  const pick = document.getElementById("chat-channel");
  const keep = chat.channel || pick.value;
  pick.replaceChildren();
  for (const g of st.guilds || []) {
    const group = el("optgroup", { label: g.guild.name });
    const chans = (g.channels || []).filter(textChannel).sort((a, b) => (a.position || 0) - (b.position || 0) || compareIDs(a.id, b.id));
    for (const ch of chans) group.append(el("option", { value: ch.id, text: "#" + ch.name }));
    if (group.children.length) pick.append(group);
  }
  if (chat.dms.length) {
    const group = el("optgroup", { label: "The bot's direct messages" });
    for (const dm of chat.dms) {
      const u = (dm.recipients || [])[0] || {};
      group.append(el("option", { value: dm.id, text: "@" + (u.global_name || u.username || u.id) }));
    }
    pick.append(group);
  }
  if ([...pick.options].some((o) => o.value === keep)) pick.value = keep;
  chat.channel = pick.value;
  renderChatMessages(st);
}

function renderChatMessages(st) {
  const box = document.getElementById("chat-messages");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  box.replaceChildren();
  const hooks = new Map((st.webhooks || []).map((w) => [w.id, w]));
  const msgs = (st.webhook_messages || [])
    .filter((f) => f.message.channel_id === chat.channel && (!f.visible_to || f.visible_to === page.actingAs))
    .sort((a, b) => compareIDs(a.message.id, b.message.id));
  if (msgs.length === 0) {
    box.append(el("p", { class: "empty", text: chat.channel ? "No messages in this channel yet." : "No channel to show." }));
  }
  for (const { webhook_id: wid, message: m, visible_to: only } of msgs) {
    box.append(renderMessage(m, only, hooks.get(wid)));
  }
  if (atBottom || box.dataset.channel !== chat.channel) box.scrollTop = box.scrollHeight;
  box.dataset.channel = chat.channel;
}

document.getElementById("chat-channel").addEventListener("change", (ev) => {
  chat.channel = ev.target.value;
  if (page.st) renderChatMessages(page.st);
});

document.getElementById("chat-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const input = document.getElementById("chat-input");
  const error = document.getElementById("chat-error");
  const content = input.value;
  if (!content.trim()) return;
  error.textContent = "";
  if (!page.actingAs) { error.textContent = "Pick a member to act as first."; return; }
  let r, out;
  try {
    r = await fetch(api("messages"), { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ user_id: page.actingAs, channel_id: chat.channel, content }) });
    out = await r.json();
  } catch (err) {
    error.textContent = "The emulator could not be reached: " + err;
    return;
  }
  if (!r.ok) {
    error.textContent = "Not sent: " + (out.error || ("HTTP " + r.status));
    return;
  }
  input.value = "";
  refresh();
});
