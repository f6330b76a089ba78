// The emulator's inspector page: the server's state (sections.js), its
// webhook messages rendered with their markdown (markdown.js), embeds,
// attachments and components, and the live event and request feeds, each
// item's detail a click away.
// Plain DOM, no framework; every piece of server data is set as text, never
// as HTML.
"use strict";

const token = new URLSearchParams(location.search).get("token") || "";
const api = (path) => "api/" + path + (token ? (path.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token) : "");

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

// ---- state ----

function table(headers, rows) {
  if (rows.length === 0) return el("p", { class: "empty", text: "none" });
  return el("table", {},
    el("thead", {}, el("tr", {}, headers.map((h) => el("th", { text: h })))),
    el("tbody", {}, rows.map((r) => el("tr", {}, r.map((c) => el("td", { text: c }))))));
}

const channelTypes = { 0: "text", 2: "voice", 4: "category", 5: "announcement", 10: "thread", 11: "thread", 12: "private thread", 13: "stage", 15: "forum", 16: "media" };

function renderState(st) {
  setMentionNames(st);
  renderPickers(st);
  const users = new Map((st.users || []).map((u) => [u.id, u]));
  const now = new Date(st.now || Date.now());
  const box = document.getElementById("guilds");
  box.replaceChildren();
  if (!st.guilds || st.guilds.length === 0) {
    box.append(el("p", { class: "empty", text: "No guilds yet." }));
  }
  for (const g of st.guilds || []) {
    box.append(el("div", { class: "guild", "data-guild": g.guild.id },
      el("h3", {}, g.guild.name, " ", idCell(g.guild.id)),
      guildSections(st, g, users, now)));
  }
  renderMessages(st);
  renderChat(st);
}

// ---- messages and components ----

function renderMessages(st) {
  const box = document.getElementById("messages");
  box.replaceChildren();
  const hooks = new Map((st.webhooks || []).map((w) => [w.id, w]));
  // An ephemeral message is seen by its user only: the member acted as.
  const msgs = (st.webhook_messages || []).filter((f) => !f.visible_to || f.visible_to === page.actingAs);
  if (msgs.length === 0) {
    box.append(el("p", { class: "empty", text: "No webhook messages yet." }));
    return;
  }
  for (const { webhook_id: wid, message: m, visible_to: only } of msgs.slice().reverse()) {
    box.append(renderMessage(m, only, hooks.get(wid)));
  }
}

// renderMessage draws a message: its author, markdown, embeds,
// attachments and components. The components of the application's
// messages are live: a click or a choice is sent as the member acted as.
// only is the user who alone sees it (an ephemeral message), or "".
function renderMessage(m, only, hook) {
  const author = (m.author && m.author.username) || (hook && hook.name) || "webhook";
  const v2 = ((m.flags || 0) & (1 << 15)) !== 0;
  // The application's messages: its webhooks' and interactions', and
  // those its bot user sent to a channel.
  const live = (!!m.application_id && m.application_id === page.appID) ||
    (!m.webhook_id && !!m.author && m.author.id === page.appID && !!page.appID);
  messageAttachments = m.attachments || [];
  currentMessage = { id: m.id, live, guild: page.guildOfChannel.get(m.channel_id) };
  const node = el("article", { class: "message" + (only ? " ephemeral" : ""), "data-message": m.id },
    el("div", {}, el("span", { class: "author", text: author }), m.application_id ? el("span", { class: "app-tag", text: "APP" }) : null,
      el("span", { class: "meta", text: m.timestamp || "" }), el("span", { class: "meta" }, idCell(m.id))),
    ((m.flags || 0) & 128) ? el("div", { class: "loading", text: (author || "The bot") + " is thinking…" }) : null,
    m.content ? renderMarkdown(m.content, "content") : null,
    (m.embeds || []).map(renderEmbed),
    v2 ? null : renderAttachments(m.attachments),
    renderComponents(m.components || []),
    only ? el("div", { class: "only-you", text: "Only you can see this" }) : null);
  messageAttachments = [];
  currentMessage = null;
  return node;
}

// currentMessage is the message being drawn, whose buttons and selects
// send interactions when it is the application's.
let currentMessage = null;

// messageAttachments are the attachments of the message being drawn, which
// its components' attachment:// media refer to.
let messageAttachments = [];

function renderComponents(list) {
  return el("div", { class: "components" }, list.map(renderComponent));
}

function renderComponent(c) {
  switch (c.type) {
    case 1: return el("div", { class: "c-row" }, (c.components || []).map(renderComponent));
    case 2: {
      const text = [c.emoji && c.emoji.name, c.label].filter(Boolean).join(" ") || " ";
      if (c.style === 5 && !c.disabled && safeURL(c.url)) {
        return el("a", { class: "c-button style-5", href: safeURL(c.url), target: "_blank", rel: "noopener noreferrer", title: c.url, text });
      }
      const msg = currentMessage;
      const b = el("button", { class: "c-button style-" + (c.style || 1), type: "button", disabled: !!c.disabled,
        title: c.url || c.custom_id || "", text, "data-custom-id": c.custom_id });
      if (msg && msg.live && c.custom_id && !c.disabled && c.style !== 5 && c.style !== 6) {
        b.classList.add("live");
        b.addEventListener("click", () => clickButton(msg.id, c.custom_id));
      }
      return b;
    }
    case 3: case 5: case 6: case 7: case 8: {
      const msg = currentMessage;
      const live = msg && msg.live && c.custom_id;
      return renderSelect(c, msg && msg.guild, live ? (values) => chooseInSelect(msg.id, c.custom_id, values) : null);
    }
    case 9: return el("div", { class: "c-section" },
      el("div", { class: "c-body" }, (c.components || []).map(renderComponent)),
      c.accessory ? renderComponent(c.accessory) : null);
    case 10: return renderMarkdown(c.content || "", "c-text");
    case 11: return mediaBox("c-media c-thumb", c.media, c.description);
    case 12: return el("div", { class: "c-gallery" }, (c.items || []).map((it) => mediaBox("c-media", it.media, it.description)));
    case 13: {
      const url = mediaURL(c.file, messageAttachments);
      const name = c.name || mediaName(c.file);
      return el("div", { class: "c-file" }, url ? link(url, [document.createTextNode(name)]) : name,
        c.size !== undefined ? el("span", { class: "meta", text: " " + sizeText(c.size) }) : null);
    }
    case 14: return el("hr", { class: "c-separator spacing-" + (c.spacing || 1) + (c.divider === false ? "" : " divider") });
    case 17: {
      const box = el("div", { class: "c-container" + (c.spoiler ? " spoiler" : "") }, (c.components || []).map(renderComponent));
      if (typeof c.accent_color === "number") box.style.borderLeftColor = "#" + c.accent_color.toString(16).padStart(6, "0");
      return box;
    }
    default: return el("div", { class: "c-unknown", text: "component type " + c.type });
  }
}

// mediaBox draws an unfurled media item: the image when its URL resolves,
// else its name.
function mediaBox(cls, media, description) {
  const url = mediaURL(media, messageAttachments);
  if (url) return el("div", { class: cls, title: description || "" }, el("img", { src: url, alt: description || mediaName(media) }));
  return el("div", { class: cls, title: description || "", text: mediaName(media) });
}

function mediaName(m) {
  if (!m || !m.url) return "media";
  const u = m.url;
  return u.startsWith("attachment://") ? u.slice("attachment://".length) : u.split("/").pop() || u;
}

// ---- feeds ----

function addFeedItem(listID, text, cls, detail) {
  const list = document.getElementById(listID);
  const li = el("li", { class: "fresh " + (cls || ""), text, title: "click for the detail" });
  if (detail !== undefined) li.addEventListener("click", () => toggleDetail(li, detail));
  list.prepend(li);
  setTimeout(() => li.classList.remove("fresh"), 1500);
  while (list.children.length > 200) list.lastChild.remove();
}

function eventText(e) { return e.name + (e.guild_id ? "  guild " + e.guild_id : ""); }
function requestText(r) { return r.status + "  " + r.method + " " + (r.route || r.path); }

let refreshTimer = null;
function scheduleRefresh() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(refresh, 150);
}

async function refresh() {
  const [st, clock] = await Promise.all([fetch(api("state")).then((r) => r.json()), fetch(api("clock")).then((r) => r.json()), loadApplication(), loadDMs()]);
  st.now = clock.now;
  renderState(st);
  document.getElementById("clock").textContent = "server clock " + clock.now;
}

async function loadLogs() {
  const [events, requests] = await Promise.all([fetch(api("events")).then((r) => r.json()), fetch(api("requests")).then((r) => r.json())]);
  for (const e of (events || []).slice(-200)) addFeedItem("events", eventText(e), "", e);
  for (const r of (requests || []).slice(-200)) addFeedItem("requests", requestText(r), "s" + String(r.status)[0], r);
}

function connect() {
  const status = document.getElementById("status");
  const es = new EventSource(api("feed"));
  es.onopen = () => { status.textContent = "live"; status.classList.add("live"); };
  es.onerror = () => { status.textContent = "reconnecting…"; status.classList.remove("live"); };
  es.addEventListener("event", (m) => {
    const e = JSON.parse(m.data);
    addFeedItem("events", eventText(e), "", e);
    scheduleRefresh();
  });
  es.addEventListener("interaction", (m) => addDelivery(JSON.parse(m.data)));
  es.addEventListener("request", (m) => {
    const r = JSON.parse(m.data);
    addFeedItem("requests", requestText(r), "s" + String(r.status)[0], r);
    if (r.method !== "GET") scheduleRefresh();
  });
}

document.getElementById("refresh").addEventListener("click", refresh);
setInterval(() => loadApplication().catch(() => {}), 3000); // the emulator checks the endpoint again until it answers
loadPermissionNames().then(refresh).then(loadLogs).then(loadDeliveries).then(connect).then(renderControlRoutes).catch((err) => {
  document.getElementById("status").textContent = "error: " + err;
});
