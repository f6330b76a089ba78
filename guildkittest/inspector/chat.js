// The channel view: a channel of a guild, or one of the bot's DMs, read as
// the member the page acts as reads it (its permissions applied by the
// server): its messages oldest first, newest
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

// renderChatMessages draws the channel as the member acted as reads it
// (GET api/channels/{id}/messages?user_id=): what it may see, oldest
// first, or why it cannot.
async function renderChatMessages(st) {
  const box = document.getElementById("chat-messages");
  const channel = chat.channel;
  const user = page.actingAs;
  let view = { messages: [], refused: channel ? "" : "No channel to show.", can_send: false };
  if (channel && user) {
    try {
      const r = await fetch(api("channels/" + encodeURIComponent(channel) + "/messages?user_id=" + encodeURIComponent(user)));
      view = r.ok ? await r.json() : { messages: [], refused: "HTTP " + r.status };
    } catch (err) {
      view = { messages: [], refused: "The emulator could not be reached: " + err };
    }
  } else if (channel) {
    view.refused = "Pick a member to act as: the channel is shown as that member reads it.";
  }
  if (channel !== chat.channel || user !== page.actingAs) return; // a newer drawing is on its way
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  box.replaceChildren();
  const hooks = new Map((st.webhooks || []).map((w) => [w.id, w]));
  if (view.refused) box.append(el("p", { class: "empty", text: view.refused }));
  else if (view.messages.length === 0) box.append(el("p", { class: "empty", text: "No messages in this channel yet." }));
  for (const m of view.messages) box.append(renderMessage(m, ((m.flags || 0) & 64) ? user : "", hooks.get(m.webhook_id)));
  document.getElementById("chat-input").placeholder = view.can_send
    ? "Message as the member acted as (Enter sends)" : "The member acted as cannot post here";
  if (atBottom || box.dataset.channel !== channel) box.scrollTop = box.scrollHeight;
  box.dataset.channel = channel;
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
