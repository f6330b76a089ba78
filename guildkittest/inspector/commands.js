// The command palette: the page offers the application's commands the way
// the platform's client does. It lists the commands registered for the
// channel's guild (the guild's and the global ones) that the member acted
// as may use, each subcommand as an entry of its own (/permissions user
// get); the chosen entry's options become form fields of their type (text,
// number, true/false, a member, role or channel of the guild, a file);
// choices are a closed list; an autocomplete option asks the bot for
// suggestions as the member types; required options, ranges and lengths
// are checked before anything is sent. USER commands are offered on each
// member of the guild (an Apps menu in the Guilds pane, and in the palette
// with a member to choose), MESSAGE commands on each message. Everything goes through the control API: GET api/commands and
// POST api/interactions (kinds "command" and "autocomplete").
"use strict";

const palette = { commands: [], chosen: null, fields: [], acTimer: null };

const optionTypes = { STRING: 3, INTEGER: 4, BOOLEAN: 5, USER: 6, CHANNEL: 7, ROLE: 8, MENTIONABLE: 9, NUMBER: 10, ATTACHMENT: 11 };

// loadCommands reads the commands the member may use in the chosen channel.
async function loadCommands() {
  const channel = document.getElementById("command-channel").value;
  if (!channel || !page.actingAs) { palette.commands = []; renderPalette(); return; }
  try {
    const r = await fetch(api("commands?user_id=" + page.actingAs + "&channel_id=" + channel));
    const list = await r.json();
    palette.commands = r.ok ? (list || []).filter((c) => !c.unusable) : [];
  } catch (err) {
    palette.commands = [];
  }
  renderPalette();
  if (page.st) renderMessages(page.st);
}

// entries lists what the palette offers: a CHAT_INPUT command's leaves
// (never a base command that has subcommands), and USER commands.
function paletteEntries() {
  const out = [];
  for (const c of palette.commands) {
    if (c.type === 2) { out.push({ label: c.name, hint: "user command", command: c, path: [], params: [], user: true }); continue; }
    if ((c.type || 1) !== 1) continue;
    const opts = c.options || [];
    const subs = opts.filter((o) => o.type === 1 || o.type === 2);
    if (subs.length === 0) { out.push({ label: "/" + c.name, hint: c.description, command: c, path: [], params: opts }); continue; }
    for (const s of subs) {
      if (s.type === 1) { out.push({ label: "/" + c.name + " " + s.name, hint: s.description, command: c, path: [s.name], params: s.options || [] }); continue; }
      for (const leaf of s.options || []) {
        out.push({ label: "/" + c.name + " " + s.name + " " + leaf.name, hint: leaf.description, command: c, path: [s.name, leaf.name], params: leaf.options || [] });
      }
    }
  }
  return out;
}

function renderPalette() {
  const box = document.getElementById("command-palette");
  if (!box) return;
  const typed = document.getElementById("command-name").value.trim().replace(/^\//, "").toLowerCase();
  const entries = paletteEntries().filter((e) => e.label.toLowerCase().replace(/^\//, "").startsWith(typed) || typed === "");
  if (entries.length === 0) {
    box.replaceChildren(el("p", { class: "empty", text: palette.commands.length ? "No command matches." : "No commands registered for this guild." }));
    return;
  }
  box.replaceChildren(...entries.map((e) => {
    const item = el("button", { type: "button", class: "palette-entry" + (palette.chosen && palette.chosen.label === e.label ? " chosen" : ""), "data-command": e.label },
      el("span", { class: "palette-name", text: e.label }), " ", el("span", { class: "meta", text: e.hint || "" }));
    item.addEventListener("click", () => chooseEntry(e));
    return item;
  }));
}

// chooseEntry shows the entry's options as fields.
function chooseEntry(e) {
  palette.chosen = e;
  document.getElementById("command-name").value = e.label;
  renderPalette();
  const box = document.getElementById("command-options");
  const guild = page.guildOfChannel.get(document.getElementById("command-channel").value);
  palette.fields = [];
  if (e.user) {
    const users = guild ? (guild.members || []).map((m) => m.member.user).filter(Boolean) : [];
    const s = el("select", { "data-option": "target", "aria-label": "Member" }, el("option", { value: "", text: "Choose a member" }),
      users.map((u) => el("option", { value: u.id, text: "@" + (u.global_name || u.username) })));
    palette.fields.push({ target: true, read: () => s.value, check: () => (s.value ? "" : "Choose the member to run it on.") });
    box.replaceChildren(el("div", { class: "m-field" }, el("label", { class: "m-label", text: "On member" }), s));
    return;
  }
  box.replaceChildren(...e.params.map((o) => optionField(o, guild)));
}

// optionField draws one option's field and records how to read and check it.
function optionField(o, guild) {
  const wrap = el("div", { class: "m-field" }, el("label", { class: "m-label", text: o.name + (o.required ? " *" : "") }),
    o.description ? el("div", { class: "m-description", text: o.description }) : null);
  const problem = el("div", { class: "m-problem", role: "alert" });
  const f = { option: o, problem };
  const attrs = { "data-option": o.name, "aria-label": o.name };
  const pick = (items) => {
    const s = el("select", attrs, el("option", { value: "", text: o.required ? "Choose…" : "(none)" }),
      items.map((i) => el("option", { value: i.value, text: i.label })));
    wrap.append(s);
    return s;
  };
  switch (o.type) {
    case optionTypes.STRING: case optionTypes.INTEGER: case optionTypes.NUMBER: {
      if (o.choices && o.choices.length) {
        const s = pick(o.choices.map((c) => ({ value: JSON.stringify(c.value), label: c.name })));
        f.read = () => (s.value === "" ? undefined : JSON.parse(s.value));
        break;
      }
      const text = o.type === optionTypes.STRING;
      const input = el("input", Object.assign({ type: text ? "text" : "number", autocomplete: "off" }, attrs,
        text ? { maxlength: o.max_length !== undefined ? o.max_length : 6000 } : { min: o.min_value, max: o.max_value, step: o.type === optionTypes.INTEGER ? 1 : "any" }));
      wrap.append(input);
      f.read = () => {
        if (input.value === "") return undefined;
        return text ? input.value : Number(input.value);
      };
      f.raw = () => input.value;
      if (o.autocomplete) {
        const list = el("div", { class: "ac-choices", "data-choices-for": o.name });
        wrap.append(list);
        input.addEventListener("input", () => {
          clearTimeout(palette.acTimer);
          palette.acTimer = setTimeout(() => suggest(f, input, list), 150);
        });
      }
      f.check = () => {
        const v = f.read();
        if (v === undefined) return "";
        if (text) {
          const n = [...v].length;
          const lo = o.min_length || 0, hi = o.max_length !== undefined ? o.max_length : 6000;
          if (n < lo || n > hi) return "Must be " + lo + " to " + hi + " characters long (now " + n + ").";
          return "";
        }
        if (Number.isNaN(v) || (o.type === optionTypes.INTEGER && !Number.isInteger(v))) return "Must be a " + (o.type === optionTypes.INTEGER ? "whole number" : "number") + ".";
        if (o.min_value !== undefined && v < o.min_value) return "Must be at least " + o.min_value + ".";
        if (o.max_value !== undefined && v > o.max_value) return "Must be at most " + o.max_value + ".";
        return "";
      };
      break;
    }
    case optionTypes.BOOLEAN: {
      const s = pick([{ value: "true", label: "True" }, { value: "false", label: "False" }]);
      f.read = () => (s.value === "" ? undefined : s.value === "true");
      break;
    }
    case optionTypes.USER: case optionTypes.ROLE: case optionTypes.MENTIONABLE: case optionTypes.CHANNEL: {
      const items = [];
      if (guild && (o.type === optionTypes.USER || o.type === optionTypes.MENTIONABLE)) {
        for (const m of guild.members || []) if (m.member.user) items.push({ value: m.member.user.id, label: "@" + (m.member.user.global_name || m.member.user.username) });
      }
      if (guild && (o.type === optionTypes.ROLE || o.type === optionTypes.MENTIONABLE)) {
        for (const r of guild.roles || []) items.push({ value: r.id, label: "@" + r.name });
      }
      if (guild && o.type === optionTypes.CHANNEL) {
        for (const ch of guild.channels || []) if (!o.channel_types || o.channel_types.includes(ch.type)) items.push({ value: ch.id, label: "#" + ch.name });
      }
      const s = pick(items);
      f.read = () => (s.value === "" ? undefined : s.value);
      break;
    }
    case optionTypes.ATTACHMENT: {
      const input = el("input", Object.assign({ type: "file" }, attrs));
      if (o.file_types) input.accept = o.file_types.map((t) => (t.startsWith(".") ? t : t + "/*")).join(",");
      wrap.append(input);
      f.file = () => input.files[0];
      f.read = () => (input.files.length ? "" : undefined);
      break;
    }
    default:
      wrap.append(el("div", { class: "c-unknown", text: "option type " + o.type }));
      f.read = () => undefined;
  }
  if (!f.check) f.check = () => "";
  palette.fields.push(f);
  wrap.append(problem);
  return wrap;
}

// buildOptions nests the leaf's values under the chosen group and
// subcommand, as the platform's client sends them; focused marks the
// option being typed in an autocomplete.
function buildOptions(focused) {
  const e = palette.chosen;
  let leaf = [];
  for (const f of palette.fields) {
    if (f.target) continue;
    if (f === focused) { leaf.push({ name: f.option.name, type: f.option.type, value: f.raw(), focused: true }); continue; }
    const v = f.read();
    if (v === undefined) continue;
    const o = { name: f.option.name, type: f.option.type };
    if (f.option.type !== optionTypes.ATTACHMENT) o.value = v;
    leaf.push(o);
  }
  for (let i = e.path.length - 1; i >= 0; i--) leaf = [{ name: e.path[i], options: leaf }];
  return leaf;
}

// suggest asks the bot for suggestions for what is typed in f.
async function suggest(f, input, list) {
  const body = { kind: "autocomplete", user_id: page.actingAs, channel_id: document.getElementById("command-channel").value,
    name: palette.chosen.command.name, options: buildOptions(f) };
  const r = await fetch(api("interactions"), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const out = await r.json();
  if (!r.ok) { list.replaceChildren(el("div", { class: "m-problem", text: out.error || ("HTTP " + r.status) })); return; }
  const choices = (out.response && out.response.data && out.response.data.choices) || [];
  list.replaceChildren(...choices.map((c) => {
    const b = el("button", { type: "button", class: "ac-choice", text: c.name, "data-value": String(c.value) });
    b.addEventListener("click", () => { input.value = String(c.value); list.replaceChildren(); });
    return b;
  }));
  if (choices.length === 0) list.append(el("span", { class: "meta", text: "no suggestions" }));
}

// runChosen checks the fields as the platform's client does and runs the
// command.
async function runChosen() {
  const e = palette.chosen;
  const typed = document.getElementById("command-name").value.trim();
  if (!e || e.label !== typed) {
    showOutcome({ refused: typed ? "no command " + typed + " is registered for this guild (or you may not use it)" : "choose a command" });
    return;
  }
  let bad = false;
  for (const f of palette.fields) {
    let p = f.check();
    if (!p && f.option && f.option.required && f.read() === undefined) p = "This option is required.";
    if (f.problem) f.problem.textContent = p;
    if (p) { bad = true; if (!f.problem) showOutcome({ refused: p }); }
  }
  if (bad) { showOutcome({ refused: "fix the options marked above" }); return; }
  const body = { kind: "command", channel_id: document.getElementById("command-channel").value, name: e.command.name };
  if (e.user) {
    body.command_type = 2;
    body.target_id = palette.fields[0].read();
  } else {
    body.options = buildOptions(null);
    const files = {};
    for (const f of palette.fields) {
      if (!f.file || !f.file()) continue;
      const file = f.file();
      files[f.option.name] = { filename: file.name, content_type: file.type || "application/octet-stream", data: await fileData(file) };
    }
    if (Object.keys(files).length) body.files = files;
  }
  await act(body);
}

// messageCommandsFor adds an "Apps" menu to a message: the MESSAGE
// commands the member may use.
function messageCommandsFor(article) {
  const cmds = palette.commands.filter((c) => c.type === 3);
  if (cmds.length === 0 || article.querySelector(".apps-menu")) return;
  const id = article.getAttribute("data-message");
  const s = el("select", { class: "apps-menu", "aria-label": "Apps", "data-message-id": id }, el("option", { value: "", text: "Apps…" }),
    cmds.map((c) => el("option", { value: c.name, text: c.name })));
  s.addEventListener("change", () => {
    if (!s.value) return;
    act({ kind: "command", command_type: 3, name: s.value, target_id: id });
    s.value = "";
  });
  article.append(s);
}

// userCommandsFor adds an "Apps" menu to each member of the channel's
// guild in the Guilds pane: the USER commands the member acted as may use.
function userCommandsFor() {
  const cmds = palette.commands.filter((c) => c.type === 2);
  const guild = page.guildOfChannel.get(document.getElementById("command-channel").value);
  if (cmds.length === 0 || !guild) return;
  const box = document.querySelector('#guilds .guild[data-guild="' + guild.guild.id + '"]');
  if (!box) return;
  for (const row of box.querySelectorAll("table.members tbody tr")) {
    const id = row.querySelector("code.id");
    if (!id || row.querySelector(".apps-menu")) continue;
    const s = el("select", { class: "apps-menu", "aria-label": "Apps", "data-user-id": id.textContent }, el("option", { value: "", text: "Apps…" }),
      cmds.map((c) => el("option", { value: c.name, text: c.name })));
    s.addEventListener("change", () => {
      if (!s.value) return;
      act({ kind: "command", command_type: 2, name: s.value, target_id: id.textContent, channel_id: document.getElementById("command-channel").value });
      s.value = "";
    });
    row.firstChild.append(" ", s);
  }
}

// The hooks: the palette follows the channel and the member, and the
// messages and members get their Apps menus each time they are drawn.
const drawMessages = renderMessages;
renderMessages = function (st) { // eslint-disable-line no-global-assign
  drawMessages(st);
  for (const a of document.querySelectorAll("#messages article[data-message]")) messageCommandsFor(a);
  userCommandsFor();
};
const drawPickers = renderPickers;
renderPickers = function (st) { // eslint-disable-line no-global-assign
  drawPickers(st);
  loadCommands();
};
document.getElementById("command-channel").addEventListener("change", loadCommands);
document.getElementById("acting-as").addEventListener("change", loadCommands);
document.getElementById("command-name").addEventListener("input", () => {
  if (palette.chosen && document.getElementById("command-name").value.trim() !== palette.chosen.label) {
    palette.chosen = null;
    palette.fields = [];
    document.getElementById("command-options").replaceChildren();
  }
  renderPalette();
});
document.getElementById("command-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  runChosen();
});
