// The inspector's views of the state beyond channels and members: a
// guild's overview, roles by position with their permissions by name,
// members with their timeouts, bans, invites, webhooks, the welcome
// screen, onboarding and the widget; and, in messages, embeds and
// attachments (images inline). Every value is set as text or as an
// attribute, never as HTML. Webhook tokens are never shown.
"use strict";

// permissionNames maps a bit number to its name; loaded from the control
// API (GET api/permissions) once.
let permissionNames = new Map();

async function loadPermissionNames() {
  const bits = await fetch(api("permissions")).then((r) => r.json());
  permissionNames = new Map(bits.map((b) => [b.bit, b.name]));
}

function permissionList(value) {
  let p;
  try { p = BigInt(value || "0"); } catch { return String(value); }
  const names = [];
  for (let i = 0n; p > 0n; i++, p >>= 1n) {
    if (p & 1n) names.push(permissionNames.get(Number(i)) || "1<<" + i);
  }
  return names;
}

function idCell(id) { return el("code", { class: "id", text: id || "" }); }

// cellTable is table() with cells that may be nodes.
function cellTable(cls, headers, rows) {
  if (rows.length === 0) return el("p", { class: "empty " + cls, text: "none" });
  return el("table", { class: cls },
    el("thead", {}, el("tr", {}, headers.map((h) => el("th", { text: h })))),
    el("tbody", {}, rows.map((r) => el("tr", {}, r.map((c) => el("td", {}, c instanceof Node ? c : String(c ?? "")))))));
}

function userName(users, u) {
  if (!u) return "";
  const known = users.get(u.id) || u;
  return known.global_name || known.username || u.id;
}

function when(t) {
  if (!t) return "";
  const d = new Date(t);
  return isNaN(d) ? String(t) : d.toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z");
}

// guildSections returns the nodes that show one guild g of the state st.
function guildSections(st, g, users, now) {
  const guild = g.guild;
  const channels = new Map((g.channels || []).map((c) => [c.id, c]));
  const chan = (id) => (channels.get(id) ? "#" + channels.get(id).name : "") + (id ? " " : "");
  const roleByID = new Map((g.roles || []).map((r) => [r.id, r]));
  const out = [];

  out.push(el("h4", { text: "Overview" }), cellTable("overview", ["field", "value"], [
    ["id", idCell(guild.id)],
    ["owner", el("span", {}, userName(users, { id: guild.owner_id }) + " ", idCell(guild.owner_id))],
    ["features", (guild.features || []).join(", ") || "none"],
    ["verification level", guild.verification_level ?? 0],
    ["system channel", el("span", {}, chan(guild.system_channel_id), idCell(guild.system_channel_id))],
  ]));

  out.push(...sceneControls(g));

  // Members, with their timeouts.
  out.push(el("h4", { text: "Members" }), cellTable("members", ["user", "user id", "nick", "roles", "joined", "timeout"],
    (g.members || []).map((ms) => {
      const m = ms.member, u = m.user || {};
      const until = m.communication_disabled_until;
      const timedOut = until && new Date(until) > now;
      return [
        userName(users, u) + (u.bot || (users.get(u.id) || {}).bot ? " [bot]" : "") + (ms.online ? " ●" : ""),
        idCell(u.id), m.nick || "",
        (m.roles || []).map((id) => (roleByID.get(id) || {}).name || id).join(", "),
        when(m.joined_at),
        timedOut ? el("span", { class: "timeout", text: "timed out until " + when(until) }) : "",
      ];
    })));

  // Roles by position, highest first, as the client lists them.
  const roles = (g.roles || []).slice().sort((a, b) => (b.position ?? 0) - (a.position ?? 0) || (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  out.push(el("h4", { text: "Roles" }), cellTable("roles", ["position", "name", "id", "colour", "permissions"],
    roles.map((r) => {
      const color = (r.colors && r.colors.primary_color) || r.color || 0;
      const swatch = el("span", { class: "swatch", title: "#" + color.toString(16).padStart(6, "0") });
      swatch.style.background = color ? "#" + color.toString(16).padStart(6, "0") : "transparent";
      const perms = permissionList(r.permissions);
      return [String(r.position ?? 0), r.name, idCell(r.id), swatch,
        el("span", { class: "perms", title: String(r.permissions) }, perms.length ? perms.join(", ") : "none")];
    })));

  out.push(el("h4", { text: "Channels" }), cellTable("channels", ["name", "type", "id", "parent"],
    (g.channels || []).map((c) => [(c.type === 4 ? "" : "#") + c.name, channelTypes[c.type] || String(c.type), idCell(c.id), c.parent_id ? chan(c.parent_id) : ""])));

  out.push(el("h4", { text: "Bans" }), cellTable("bans", ["user", "user id", "reason"],
    (g.bans || []).map((b) => [userName(users, b.user), idCell(b.user && b.user.id), b.reason || ""])));

  const invites = (st.invites || []).filter((i) => i.guild_id === guild.id);
  out.push(el("h4", { text: "Invites" }), cellTable("invites", ["code", "channel", "inviter", "uses", "expires"],
    invites.map((i) => {
      const inv = i.invite || {};
      const uses = (inv.uses ?? 0) + (inv.max_uses ? " / " + inv.max_uses : "");
      return [el("code", { text: inv.code }), el("span", {}, chan(i.channel_id), idCell(i.channel_id)),
        i.inviter_id ? userName(users, { id: i.inviter_id }) : "", uses, inv.expires_at ? when(inv.expires_at) : "never"];
    })));

  const hooks = (st.webhooks || []).filter((w) => w.guild_id === guild.id);
  out.push(el("h4", { text: "Webhooks" }), cellTable("webhooks", ["name", "id", "channel", "owner", "token"],
    hooks.map((w) => [w.name || "", idCell(w.id), el("span", {}, chan(w.channel_id), idCell(w.channel_id)),
      w.application_id ? el("span", {}, "application ", idCell(w.application_id)) : "no application",
      w.token ? "[redacted]" : ""])));

  const ws = g.welcome_screen || {};
  const wsEnabled = (guild.features || []).includes("WELCOME_SCREEN_ENABLED");
  out.push(el("h4", { text: "Welcome screen" }), el("div", { class: "welcome" },
    el("p", { text: (wsEnabled ? "enabled" : "disabled") + (ws.description ? ": " + ws.description : "") }),
    cellTable("welcome-channels", ["channel", "description", "emoji"],
      (ws.welcome_channels || []).map((c) => [el("span", {}, chan(c.channel_id), idCell(c.channel_id)), c.description || "", c.emoji_name || c.emoji_id || ""]))));

  const ob = g.onboarding || {};
  const onboarding = el("div", { class: "onboarding" },
    el("p", { text: (ob.enabled ? "enabled" : "disabled") + ", mode " + (ob.mode ?? 0) +
      "; default channels: " + ((ob.default_channel_ids || []).map((id) => chan(id).trim() || id).join(", ") || "none") }));
  for (const p of ob.prompts || []) {
    onboarding.append(el("div", { class: "prompt" },
      el("strong", { text: p.title }), " ", idCell(p.id),
      el("ul", {}, (p.options || []).map((o) => el("li", {},
        (o.emoji && o.emoji.name ? o.emoji.name + " " : "") + o.title + (o.description ? " — " + o.description : "") + " ",
        idCell(o.id))))));
  }
  out.push(el("h4", { text: "Onboarding" }), onboarding);

  const widget = el("div", { class: "widget" },
    el("span", { text: guild.widget_enabled ? "enabled" : "disabled" }),
    guild.widget_channel_id ? el("span", {}, ", invites to " + chan(guild.widget_channel_id), idCell(guild.widget_channel_id)) : null);
  if (g.widget_invite) {
    const url = location.origin + "/invite/" + encodeURIComponent(g.widget_invite);
    widget.append(", instant invite ", el("a", { href: url, target: "_blank", rel: "noopener noreferrer", text: url }));
  }
  out.push(el("h4", { text: "Widget" }), widget);
  return out;
}

// ---- embeds and attachments ----

function colorHex(n) { return "#" + Number(n).toString(16).padStart(6, "0"); }

function safeURL(u) {
  try {
    const url = new URL(u, location.href);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : "";
  } catch { return ""; }
}

function renderEmbed(e) {
  const box = el("div", { class: "embed" });
  if (typeof e.color === "number") box.style.borderLeftColor = colorHex(e.color);
  const body = el("div", { class: "embed-body" });
  if (e.author && e.author.name) {
    const author = el("div", { class: "embed-author" });
    if (e.author.icon_url && safeURL(e.author.icon_url)) author.append(el("img", { src: safeURL(e.author.icon_url), alt: "" }));
    author.append(e.author.url && safeURL(e.author.url) ? link(safeURL(e.author.url), [document.createTextNode(e.author.name)]) : e.author.name);
    body.append(author);
  }
  if (e.title) {
    const title = el("div", { class: "embed-title" });
    title.append(...(e.url && safeURL(e.url) ? [link(safeURL(e.url), inlineMarkdown(e.title))] : inlineMarkdown(e.title)));
    body.append(title);
  }
  if (e.description) body.append(renderMarkdown(e.description, "embed-description"));
  if (e.fields && e.fields.length) {
    body.append(el("div", { class: "embed-fields" }, e.fields.map((f) => el("div", { class: "embed-field" + (f.inline ? " inline" : "") },
      el("div", { class: "embed-field-name" }, inlineMarkdown(f.name || "")), renderMarkdown(f.value || "", "embed-field-value")))));
  }
  if (e.image && safeURL(e.image.url)) body.append(el("img", { class: "embed-image", src: safeURL(e.image.url), alt: "embed image" }));
  if (e.footer || e.timestamp) {
    body.append(el("div", { class: "embed-footer", text: [e.footer && e.footer.text, e.timestamp && when(e.timestamp)].filter(Boolean).join(" • ") }));
  }
  box.append(body);
  if (e.thumbnail && safeURL(e.thumbnail.url)) box.append(el("img", { class: "embed-thumbnail", src: safeURL(e.thumbnail.url), alt: "thumbnail" }));
  return box;
}

function isImage(a) {
  return (a.content_type || "").startsWith("image/") || /\.(png|jpe?g|gif|webp)$/i.test(a.filename || "");
}

function renderAttachments(list) {
  if (!list || list.length === 0) return null;
  return el("div", { class: "attachments" }, list.map((a) => {
    const url = safeURL(a.url);
    if (isImage(a) && url) {
      return el("figure", { class: "attachment image" },
        el("img", { src: url, alt: a.description || a.filename }),
        el("figcaption", { text: a.filename }));
    }
    const box = el("div", { class: "attachment file" });
    box.append(url ? link(url, [document.createTextNode(a.filename)]) : a.filename, " ", el("span", { class: "meta", text: sizeText(a.size) }));
    return box;
  }));
}

function sizeText(n) {
  if (!(n >= 0)) return "";
  return n < 1024 ? n + " B" : n < 1 << 20 ? (n / 1024).toFixed(1) + " KiB" : (n / (1 << 20)).toFixed(1) + " MiB";
}

// mediaURL resolves an unfurled media item's URL against the message's
// attachments (attachment://name), for showing it inline.
function mediaURL(media, attachments) {
  if (!media || !media.url) return "";
  const ref = media.url.startsWith("attachment://") ? media.url.slice("attachment://".length) : "";
  if (ref) {
    const a = (attachments || []).find((x) => x.filename === ref);
    return a ? safeURL(a.url) : "";
  }
  return safeURL(media.url);
}

// ---- feed details ----

// toggleDetail shows or hides, under a feed item, the JSON of what it is
// (an event's payload, a request's detail as the control API gives it,
// with no credential in it).
function toggleDetail(li, value) {
  const open = li.querySelector("pre.payload");
  if (open) { open.remove(); li.classList.remove("open"); return; }
  li.classList.add("open");
  li.append(el("pre", { class: "payload", text: JSON.stringify(value, null, 2) }));
}

// ---- control routes ----

async function renderControlRoutes() {
  const routes = await fetch(api("")).then((r) => r.json());
  const box = document.getElementById("control-routes");
  if (!box) return;
  box.replaceChildren(cellTable("control-routes", ["method", "path", "what"],
    routes.map((r) => [r.method, el("code", { text: r.path }), r.description])));
}
