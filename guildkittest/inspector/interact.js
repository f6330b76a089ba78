// The inspector page as the platform's client: a person acts as a member
// (the "Acting as" picker), clicks buttons, chooses in selects, runs slash
// commands and fills modals, and sees what the member would see. Every
// action goes through the control API (POST api/interactions), which
// delivers the interaction to the bot's endpoint and answers the outcome.
// The modal dialog checks what the platform's client checks before it
// sends (required fields, text lengths, how many values), as the server's
// SubmitModal does.
"use strict";

// page is what the page knows of the server's state, for the pickers and
// the selects: set by renderState.
const page = { st: null, appID: "", actingAs: "", guildOfChannel: new Map() };

// ---- the application and its endpoint ----

async function loadApplication() {
  const app = await fetch(api("application")).then((r) => r.json());
  page.appID = app.id || "";
  const info = document.getElementById("app-info");
  info.replaceChildren("application ", idCell(app.id), " · public key ", el("code", { class: "public-key", text: app.public_key || "" }));
  const input = document.getElementById("endpoint-url");
  if (document.activeElement !== input) input.value = app.interactions_url || "";
  renderVerdict(app);
}

function renderVerdict(app) {
  const box = document.getElementById("endpoint-verdict");
  const c = app.endpoint_check;
  if (!app.interactions_url) {
    box.className = "verdict";
    box.textContent = "No interactions endpoint URL: clicks and commands go to the bot's gateway sessions as INTERACTION_CREATE, as on the platform. To receive them over HTTP instead, give the bot's URL above (or start the emulator with -interactions-url).";
  } else if (!c) {
    box.className = "verdict";
    box.textContent = "Endpoint " + app.interactions_url + ": not checked yet.";
  } else {
    box.className = "verdict " + (c.ok ? "ok" : "bad");
    box.textContent = (c.ok ? "Endpoint check passed: " : "Endpoint check failed: ") + c.verdict;
  }
}

document.getElementById("endpoint-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const box = document.getElementById("endpoint-verdict");
  box.className = "verdict";
  box.textContent = "checking…";
  const r = await fetch(api("application"), { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ interactions_url: document.getElementById("endpoint-url").value.trim() }) });
  const app = await r.json();
  if (!r.ok) { box.className = "verdict bad"; box.textContent = app.error || ("HTTP " + r.status); return; }
  renderVerdict(app);
});

// ---- acting as ----

// members lists the guilds' members who are not bots, for the picker.
function pickableMembers(st) {
  const out = [];
  const seen = new Set();
  for (const g of st.guilds || []) {
    for (const mf of g.members || []) {
      const u = mf.member && mf.member.user;
      if (!u || u.bot || u.id === st.bot_id || seen.has(u.id)) continue;
      seen.add(u.id);
      out.push(u);
    }
  }
  return out;
}

function renderPickers(st) {
  page.st = st;
  page.guildOfChannel = new Map();
  for (const g of st.guilds || []) for (const ch of g.channels || []) page.guildOfChannel.set(ch.id, g);
  const picker = document.getElementById("acting-as");
  const members = pickableMembers(st);
  if (!members.some((u) => u.id === page.actingAs)) page.actingAs = members.length ? members[0].id : "";
  picker.replaceChildren(...(members.length ? members.map((u) => el("option", { value: u.id, text: (u.global_name || u.username) + " (" + u.id + ")" }))
    : [el("option", { value: "", text: "(no member)" })]));
  picker.value = page.actingAs;
  const chans = document.getElementById("command-channel");
  const keep = chans.value;
  chans.replaceChildren();
  for (const g of st.guilds || []) {
    for (const ch of g.channels || []) {
      if (ch.type === 0 || ch.type === 5) chans.append(el("option", { value: ch.id, text: "#" + ch.name + " · " + g.guild.name }));
    }
  }
  if ([...chans.options].some((o) => o.value === keep)) chans.value = keep;
}

document.getElementById("acting-as").addEventListener("change", (ev) => {
  page.actingAs = ev.target.value;
  if (page.st) renderMessages(page.st);
  if (page.st) renderChatMessages(page.st);
});

// ---- actions ----

// act sends a user's action to the control API and shows the outcome.
async function act(body) {
  body.user_id = page.actingAs;
  showOutcome({ pending: true });
  let r, out;
  try {
    r = await fetch(api("interactions"), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    out = await r.json();
  } catch (err) {
    showOutcome({ refused: "the emulator could not be reached: " + err });
    return null;
  }
  if (!r.ok) {
    showOutcome({ refused: out.error || ("HTTP " + r.status) });
    return null;
  }
  showOutcome(out);
  if (out.kind === "modal" && out.modal) openModal(out.modal, body.message_id);
  refresh();
  return out;
}

function clickButton(messageID, customID) { act({ kind: "click", message_id: messageID, custom_id: customID }); }
function chooseInSelect(messageID, customID, values) { act({ kind: "select", message_id: messageID, custom_id: customID, values }); }

// The command form is the command palette: commands.js.

// showOutcome shows what the member saw.
function showOutcome(o) {
  const box = document.getElementById("outcome");
  box.hidden = false;
  box.className = "outcome";
  if (o.pending) { box.replaceChildren(el("span", { class: "meta", text: "sending…" })); return; }
  if (o.refused) {
    box.classList.add("refused");
    box.replaceChildren(el("strong", { text: "Not sent: " }), o.refused);
    return;
  }
  box.dataset.kind = o.kind;
  const parts = [];
  switch (o.kind) {
    case "failed":
      box.classList.add("failed");
      parts.push(el("strong", { class: "failed-title", text: "This interaction failed" }), el("div", { class: "failure", text: o.failure || "" }));
      break;
    case "message": parts.push(el("div", { class: "meta", text: "The bot answered:" })); break;
    case "updated": parts.push(el("div", { class: "meta", text: "The bot updated the message:" })); break;
    case "deferred": parts.push(el("div", { class: "meta", text: o.message && (o.message.flags & 128) ? "The bot is thinking…" : "The bot acknowledged; it may edit the message later." })); break;
    case "modal": parts.push(el("div", { class: "meta", text: "A modal opened: " + (o.modal ? o.modal.title : "") })); break;
    default: parts.push(el("div", { class: "meta", text: o.summary || o.kind }));
  }
  if (o.message && o.kind !== "failed") parts.push(renderMessage(o.message, o.ephemeral ? page.actingAs : ""));
  if (o.delivery) parts.push(el("div", { class: "meta", text: deliveryText(o.delivery) }));
  box.replaceChildren(...parts);
}

function deliveryText(d) {
  return d.type_name + " " + (d.custom_id || "") + " → " + (d.failure ? "failed" : (d.answer_name || "?")) +
    (d.callback ? " (callback)" : "") + " · " + (d.via === "gateway" ? "gateway" : d.status) + " · " + d.duration_ms + " ms";
}

function addDelivery(d) {
  addFeedItem("interactions", deliveryText(d), d.failure ? "s5" : "s2", d);
}

async function loadDeliveries() {
  const list = await fetch(api("interactions")).then((r) => r.json());
  for (const d of (list || []).slice(-200)) addDelivery(d);
}

// ---- selects ----

// selectOptions lists what a select offers: its options, or the guild's
// members, roles or channels for an auto-populated select.
function selectOptions(c, guild) {
  const defaults = new Set((c.default_values || []).map((d) => d.id));
  switch (c.type) {
    case 3: return (c.options || []).map((o) => ({ value: o.value, label: [o.emoji && o.emoji.name, o.label].filter(Boolean).join(" "), selected: !!o.default, description: o.description }));
    case 5: case 7: {
      const users = guild ? (guild.members || []).map((m) => m.member.user).filter(Boolean) : [];
      const out = users.map((u) => ({ value: u.id, label: "@" + (u.global_name || u.username), selected: defaults.has(u.id) }));
      if (c.type === 7 && guild) for (const r of guild.roles || []) out.push({ value: r.id, label: "@" + r.name, selected: defaults.has(r.id) });
      return out;
    }
    case 6: return guild ? (guild.roles || []).filter((r) => r.id !== guild.guild.id).map((r) => ({ value: r.id, label: "@" + r.name, selected: defaults.has(r.id) })) : [];
    case 8: return guild ? (guild.channels || []).filter((ch) => !c.channel_types || c.channel_types.includes(ch.type))
      .map((ch) => ({ value: ch.id, label: "#" + ch.name, selected: defaults.has(ch.id) })) : [];
  }
  return [];
}

// selectBounds are a select's min and max values, as the platform counts
// them (default 1 and 1).
function selectBounds(c) {
  const lo = c.min_values === undefined ? 1 : c.min_values;
  const hi = c.max_values === undefined ? 1 : c.max_values;
  return [lo, hi];
}

// renderSelect draws a select; with onChoose it is live: a single choice
// is sent when made, several with the Choose button.
function renderSelect(c, guild, onChoose) {
  const [lo, hi] = selectBounds(c);
  const multiple = hi > 1;
  const s = el("select", { class: "c-select", disabled: !!c.disabled, multiple, "aria-label": c.placeholder || "Make a selection", "data-custom-id": c.custom_id });
  if (!multiple) s.append(el("option", { value: "", text: c.placeholder || "Make a selection", disabled: true, selected: true }));
  for (const o of selectOptions(c, guild)) {
    const opt = el("option", { value: o.value, text: o.label, title: o.description || "" });
    if (o.selected) opt.selected = true;
    s.append(opt);
  }
  if (multiple) s.size = Math.min(6, Math.max(2, s.options.length));
  if (!onChoose || c.disabled) return s;
  if (!multiple) {
    s.addEventListener("change", () => onChoose([s.value]));
    return s;
  }
  const go = el("button", { type: "button", class: "c-button style-1 c-choose", text: "Choose" });
  go.addEventListener("click", () => {
    const values = [...s.selectedOptions].map((o) => o.value);
    if (values.length < lo || values.length > hi) {
      showOutcome({ refused: "choose " + (lo === hi ? lo : lo + " to " + hi) + " values, got " + values.length });
      return;
    }
    onChoose(values);
  });
  return el("span", { class: "c-select-box", title: c.placeholder || "" }, s, go);
}

// ---- the modal dialog ----

let openModalState = null;

function openModal(modal, messageID) {
  const dialog = document.getElementById("modal");
  const guild = page.guildOfChannel.get(currentChannelOf(messageID));
  document.getElementById("modal-title").textContent = modal.title || "";
  const fields = [];
  const body = document.getElementById("modal-body");
  body.replaceChildren(...(modal.components || []).map((c) => modalComponent(c, guild, fields, null)));
  document.getElementById("modal-error").textContent = "";
  openModalState = { modal, fields };
  if (!dialog.open) dialog.showModal();
}

// currentChannelOf finds the channel of a message on the page (for the
// guild whose members, roles and channels a modal's selects offer); the
// command form's channel when the modal answered a command.
function currentChannelOf(messageID) {
  for (const m of (page.st && page.st.webhook_messages) || []) if (m.message.id === messageID) return m.message.channel_id;
  return document.getElementById("command-channel").value;
}

// modalComponent draws one component of a modal; the fields it holds are
// added to fields, each with a read() returning its value and a check()
// returning what is wrong with it ("" when nothing).
function modalComponent(c, guild, fields, label) {
  switch (c.type) {
    case 18: {
      const box = el("div", { class: "m-field" },
        el("label", { class: "m-label", text: c.label || "" }),
        c.description ? el("div", { class: "m-description", text: c.description }) : null);
      box.append(modalComponent(c.component, guild, fields, box));
      return box;
    }
    case 1: return el("div", {}, (c.components || []).map((child) => modalComponent(child, guild, fields, null)));
    case 10: return renderMarkdown(c.content || "", "c-text");
  }
  const wrap = label ? el("div", { class: "m-control" }) : el("div", { class: "m-field" });
  if (!label && c.label) wrap.append(el("label", { class: "m-label", text: c.label }));
  const problem = el("div", { class: "m-problem", role: "alert" });
  let field = null;
  switch (c.type) {
    case 4: {
      const required = c.required !== false;
      const attrs = { "data-custom-id": c.custom_id, placeholder: c.placeholder || "", required,
        minlength: c.min_length, maxlength: c.max_length !== undefined ? c.max_length : 4000, "aria-label": c.label || c.custom_id };
      const input = c.style === 2 ? el("textarea", Object.assign({ rows: 4 }, attrs)) : el("input", Object.assign({ type: "text" }, attrs));
      input.value = c.value || "";
      const counter = el("span", { class: "m-counter" });
      const lo = c.min_length || 0, hi = c.max_length !== undefined ? c.max_length : 4000;
      const count = () => { counter.textContent = [...input.value].length + "/" + hi; };
      input.addEventListener("input", count);
      count();
      wrap.append(input, counter);
      field = { id: c.custom_id, read: () => input.value, check: () => {
        const n = [...input.value].length;
        if (n === 0 && required) return "This field is required.";
        if (n > 0 && (n < lo || n > hi)) return "Must be " + lo + " to " + hi + " characters long (now " + n + ").";
        return "";
      } };
      break;
    }
    case 3: case 5: case 6: case 7: case 8: {
      const s = renderSelect(c, guild, null);
      wrap.append(s);
      const [lo, hi] = selectBounds(c);
      const required = c.required !== false;
      const read = () => [...s.selectedOptions].map((o) => o.value).filter((v) => v !== "");
      field = { id: c.custom_id, read, check: () => {
        const n = read().length;
        if (n === 0 && !required) return "";
        if (n === 0) return "This field is required.";
        if (n < lo || n > hi) return "Choose " + (lo === hi ? lo : lo + " to " + hi) + " (now " + n + ").";
        return "";
      } };
      break;
    }
    case 21: {
      const name = "radio-" + c.custom_id;
      const required = c.required !== false;
      const group = el("div", { class: "m-options", role: "radiogroup", "data-custom-id": c.custom_id });
      for (const o of c.options || []) {
        const input = el("input", { type: "radio", name, value: o.value });
        if (o.default) input.checked = true;
        group.append(el("label", { class: "m-option" }, input, " ", o.label, o.description ? el("span", { class: "m-description", text: " " + o.description }) : null));
      }
      wrap.append(group);
      const read = () => { const r = group.querySelector("input:checked"); return r ? r.value : ""; };
      field = { id: c.custom_id, read, omitEmpty: true, check: () => (read() === "" && required ? "Choose one." : "") };
      break;
    }
    case 22: {
      const required = c.required !== false;
      const lo = c.min_values === undefined ? 1 : c.min_values, hi = c.max_values === undefined ? (c.options || []).length : c.max_values;
      const group = el("div", { class: "m-options", "data-custom-id": c.custom_id });
      for (const o of c.options || []) {
        const input = el("input", { type: "checkbox", value: o.value });
        if (o.default) input.checked = true;
        group.append(el("label", { class: "m-option" }, input, " ", o.label, o.description ? el("span", { class: "m-description", text: " " + o.description }) : null));
      }
      wrap.append(group);
      const read = () => [...group.querySelectorAll("input:checked")].map((i) => i.value);
      field = { id: c.custom_id, read, check: () => {
        const n = read().length;
        if (n === 0 && !required) return "";
        if (n < lo || n > hi) return "Choose " + (lo === hi ? lo : lo + " to " + hi) + " (now " + n + ").";
        return "";
      } };
      break;
    }
    case 23: {
      const input = el("input", { type: "checkbox", "data-custom-id": c.custom_id });
      input.checked = !!c.default;
      wrap.append(el("label", { class: "m-option" }, input, " ", label ? "" : c.custom_id));
      field = { id: c.custom_id, read: () => input.checked, check: () => "" };
      break;
    }
    case 19: {
      const required = c.required !== false;
      const lo = c.min_values === undefined ? 1 : c.min_values, hi = c.max_values === undefined ? 1 : c.max_values;
      const input = el("input", { type: "file", multiple: hi > 1, "data-custom-id": c.custom_id });
      wrap.append(input);
      field = { id: c.custom_id, files: true, read: () => [...input.files], check: () => {
        const n = input.files.length;
        if (n === 0 && !required) return "";
        if (n < lo || n > hi) return "Upload " + (lo === hi ? lo : lo + " to " + hi) + " files (now " + n + ").";
        // The files travel base64 in the control API's JSON, which takes
        // at most 8 MiB: 6 MiB of files in all leaves room for the rest.
        let total = 0;
        for (const f of input.files) total += f.size;
        if (total > 6 << 20) return "Files from this page may total 6 MiB (now " + (total / (1 << 20)).toFixed(1) + " MiB).";
        return "";
      } };
      break;
    }
    default:
      wrap.append(el("div", { class: "c-unknown", text: "component type " + c.type }));
  }
  if (field) { field.problem = problem; fields.push(field); }
  wrap.append(problem);
  return wrap;
}

function fileData(f) {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ""));
    r.onerror = () => reject(r.error);
    r.readAsDataURL(f);
  });
}

document.getElementById("modal-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  if (!openModalState) return;
  let bad = false;
  for (const f of openModalState.fields) {
    const p = f.check();
    f.problem.textContent = p;
    if (p) bad = true;
  }
  if (bad) { document.getElementById("modal-error").textContent = "Fix the fields marked above."; return; }
  const values = {};
  for (const f of openModalState.fields) {
    if (f.files) {
      values[f.id] = await Promise.all(f.read().map(async (file) => ({ filename: file.name, content_type: file.type || "application/octet-stream", data: await fileData(file) })));
      continue;
    }
    const v = f.read();
    if (f.omitEmpty && v === "") continue;
    values[f.id] = v;
  }
  const submitted = openModalState.modal;
  const out = await act({ kind: "modal_submit", modal_id: submitted.id, values });
  if (out === null) {
    document.getElementById("modal-error").textContent = document.getElementById("outcome").textContent;
    return;
  }
  if (openModalState && openModalState.modal === submitted) closeModal();
});

function closeModal() {
  openModalState = null;
  const dialog = document.getElementById("modal");
  if (dialog.open) dialog.close();
}

document.getElementById("modal-cancel").addEventListener("click", closeModal);
