// The inspector's gateway view: the bot's sessions (GET api/gateway), each
// one's frames in and out (GET api/gateway/sessions/{id}/frames:
// decompressed, tokens redacted, the dispatches a session did not get
// marked "not sent"), buttons for the faults (POST api/gateway/faults), and
// the notes the server makes on what a bot did that the platform would
// punish or that breaks resuming.
// It reads only the control API, through app.js's api() and el().
"use strict";

const gateway = { selected: "", view: null, timer: null, busy: false, frames: [], open: new Set(), hideBeats: false };

// The faults, as buttons: label, the fault's body, what it does.
const gatewayFaults = [
  ["Reconnect", { kind: "reconnect" }, "op 7: the bot should resume on resume_gateway_url"],
  ["Invalid session (resumable)", { kind: "invalid_session", resumable: true }, "op 9 true: the bot may resume"],
  ["Invalid session", { kind: "invalid_session", resumable: false }, "op 9 false: the session ends; the bot must identify again"],
  ["Close 4000", { kind: "close", code: 4000 }, "close 4000 (unknown error): resumable"],
  ["Close 4009", { kind: "close", code: 4009 }, "close 4009 (session timed out): the bot must identify again"],
  ["Drop", { kind: "drop" }, "cut the TCP connection with no close frame: resumable"],
  ["Withhold acks", { kind: "withhold_acks" }, "stop acknowledging heartbeats: a zombie connection"],
  ["Silence", { kind: "silence" }, "send nothing at all from now on"],
  ["Request heartbeat", { kind: "request_heartbeat" }, "op 1: the bot must beat at once"],
];

const opNames = { 0: "DISPATCH", 1: "HEARTBEAT", 2: "IDENTIFY", 3: "PRESENCE_UPDATE", 4: "VOICE_STATE_UPDATE", 6: "RESUME", 7: "RECONNECT",
  8: "REQUEST_GUILD_MEMBERS", 9: "INVALID_SESSION", 10: "HELLO", 11: "HEARTBEAT_ACK", 31: "REQUEST_SOUNDBOARD_SOUNDS", 43: "REQUEST_CHANNEL_INFO" };

function gatewayPane() { return document.getElementById("gateway-pane"); }

// injectGatewayFault posts a fault for one session ("" for every connected
// one) and shows the answer.
async function injectGatewayFault(session, fault) {
  const body = Object.assign({}, fault);
  if (session) body.session = session;
  const status = document.getElementById("gateway-fault-status");
  status.className = "gw-fault-status";
  status.textContent = "applying " + fault.kind + "…";
  try {
    const r = await fetch(api("gateway/faults"), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const out = await r.json();
    if (!r.ok) {
      status.classList.add("bad");
      status.textContent = "not applied: " + (out.error || ("HTTP " + r.status));
    } else {
      status.classList.add("ok");
      status.textContent = fault.kind + " applied to " + out.applied + " connection" + (out.applied === 1 ? "" : "s") + (session ? " (session " + session + ")" : "");
    }
  } catch (err) {
    status.classList.add("bad");
    status.textContent = "the emulator could not be reached: " + err;
  }
  loadGateway();
}

// faultButtons is a row of fault buttons: for one session, or ("") for
// every connected one, each row labelled and styled apart.
function faultButtons(session) {
  const caption = session ? "faults for this session:" : "faults for every connected session:";
  return el("div", { class: "gw-faults " + (session ? "gw-faults-session" : "gw-faults-all"), "data-scope": session ? "session" : "all" },
    el("span", { class: "gw-faults-label", text: caption }), gatewayFaults.map(([label, fault, what]) => {
    const b = el("button", { type: "button", class: "gw-fault", title: what, text: label, "data-fault": fault.kind,
      "data-resumable": fault.resumable === undefined ? null : String(fault.resumable), "data-code": fault.code ? String(fault.code) : null });
    b.addEventListener("click", (ev) => { ev.stopPropagation(); injectGatewayFault(session, fault); });
    return b;
  }));
}

function msText(ms) {
  if (ms === null || ms === undefined) return "never";
  if (ms < 1000) return ms + " ms";
  if (ms < 120000) return (ms / 1000).toFixed(1) + " s";
  return Math.round(ms / 60000) + " min";
}

function sessionCard(s) {
  const hb = s.heartbeat || {};
  const state = s.ended ? "ended" : s.connected ? "connected" : "waiting for a resume";
  const card = el("article", { class: "gw-session" + (s.id === gateway.selected ? " selected" : "") + (s.connected ? " connected" : ""),
    "data-session": s.id, "data-connected": String(s.connected), "data-sequence": String(s.sequence), "data-resumes": String(s.resumes) },
  el("div", { class: "gw-title" },
    el("span", { class: "gw-state " + state.split(" ")[0], text: state }),
    el("strong", { text: " shard " + s.shard[0] + "/" + s.shard[1] + " " }),
    el("code", { class: "id", text: s.id }),
    el("span", { class: "gw-library", text: "  " + (s.library || "unknown library") })),
  el("div", { class: "gw-meta" },
    "seq " + s.sequence + " · v" + (s.version || "?") + " · compression " + s.compression + " · came by the " + (s.url || "?") + " URL" +
    " · resumes " + s.resumes + (s.resumed_to && s.resumed_to.length ? " (" + s.resumed_to.join(", ") + ")" : "") +
    " · identifies " + s.identifies),
  el("div", { class: "gw-meta" + (hb.late ? " late" : "") },
    "heartbeat every " + msText(hb.interval_ms) + " · " + hb.count + " beats · last " + (hb.since_last_ms === null || hb.since_last_ms === undefined ? "never" : msText(hb.since_last_ms) + " ago") +
    (hb.late ? " · LATE" : "")),
  el("div", { class: "gw-intents", text: "intents: " + ((s.intents || []).join(", ") || "none") + " (" + s.intents_value + ")" }),
  (s.notes || []).map((n) => el("div", { class: "gw-note", text: "⚠ " + n })),
  s.connected ? faultButtons(s.id) : null);
  card.addEventListener("click", () => selectSession(s.id));
  return card;
}

function selectSession(id) {
  gateway.selected = id;
  gateway.open.clear();
  renderGateway();
  loadFrames();
}

function renderGateway() {
  const v = gateway.view;
  const pane = gatewayPane();
  if (!pane || !v) return;
  const list = document.getElementById("gateway-sessions");
  const head = document.getElementById("gateway-summary");
  const set = v.settings || {};
  const id = v.identify || {};
  head.replaceChildren(
    el("div", { class: "gw-meta" }, "URL ", el("code", { text: v.url }), " · resume URL ", el("code", { text: v.resume_url })),
    el("div", { class: "gw-meta gw-resume-note", text: "The resume URL (READY's resume_gateway_url) is on a port of its own, as the platform " +
      "gives a host of its own: a bot that resumes there shows that it reads resume_gateway_url; one that resumes on the ordinary URL is noted." }),
    el("div", { class: "gw-meta", text: "heartbeat " + msText(set.heartbeat_interval_ms) + " · max_concurrency " + set.max_concurrency +
      " · " + set.send_limit + " sends / 60 s · " + set.guilds_per_shard + " guilds / shard · resume window " + set.resume_window +
      " · identifies " + id.total + " (refused " + id.refused + ", " + id.remaining + " of " + set.session_start_total + " left today)" }),
    ...(v.notes || []).map((n) => el("div", { class: "gw-note", text: "⚠ " + n })));
  const live = v.sessions.filter((s) => s.connected);
  const all = el("div", { class: "gw-all" }, el("span", { class: "gw-meta", text: live.length + " connected session" + (live.length === 1 ? "" : "s") }), faultButtons(""));
  if (v.sessions.length === 0) {
    list.replaceChildren(el("p", { class: "empty", text: "No gateway session yet: point a bot at " + v.url + " (GUILDKIT_GATEWAY_URL)." }));
    return;
  }
  if (!gateway.selected || !v.sessions.some((s) => s.id === gateway.selected)) {
    gateway.selected = (live[live.length - 1] || v.sessions[v.sessions.length - 1]).id;
    }
  list.replaceChildren(all, ...v.sessions.map(sessionCard));
}

function frameText(f) {
  const arrow = f.direction === "in" ? "→ in " : f.direction === "out" ? "← out" : "✕ not sent";
  const t = f.at ? new Date(f.at).toISOString().slice(11, 23) + "  " : "";
  if (f.op < 0) return t + arrow + "  " + (f.note || "");
  const name = f.op === 0 ? (f.t || "DISPATCH") + (f.s ? " s=" + f.s : "") : (opNames[f.op] || "op " + f.op);
  return t + arrow + "  " + name + (f.note ? "  (" + f.note + ")" : "");
}

// frameKey names a frame across polls (the log drops its oldest frames).
function frameKey(f) { return [f.at, f.direction, f.op, f.s || "", f.t || "", f.note || ""].join("|"); }

// framePayload is what an opened frame shows, the same {op, d, s, t}
// shape both ways: a client frame's payload is logged whole, a server
// frame's as its d.
function framePayload(f) {
  if (f.op < 0) return f;
  if (f.direction === "in" && f.d && typeof f.d === "object" && "op" in f.d) return f.d;
  return { op: f.op, d: f.d === undefined ? null : f.d, s: f.s || null, t: f.t || null };
}

const heartbeatOps = new Set([1, 11]);

function renderFrames(frames) {
  const box = document.getElementById("gateway-frames");
  const title = document.getElementById("gateway-frames-title");
  title.textContent = "Frames of session " + gateway.selected + " (newest first; click one for its payload)";
  gateway.frames = frames;
  const shown = gateway.hideBeats ? frames.filter((f) => !heartbeatOps.has(f.op)) : frames;
  box.replaceChildren(...shown.slice().reverse().map((f) => {
    const cls = "gw-frame " + (f.direction === "not sent" ? "not-sent" : f.direction) + (f.op < 0 ? " note" : "");
    const key = frameKey(f);
    const li = el("li", { class: cls, text: frameText(f), "data-dir": f.direction, "data-op": String(f.op), "data-t": f.t || null, "data-key": key });
    li.addEventListener("click", () => {
      toggleDetail(li, framePayload(f));
      if (li.classList.contains("open")) gateway.open.add(key); else gateway.open.delete(key);
    });
    if (gateway.open.has(key)) toggleDetail(li, framePayload(f)); // stays open as new frames arrive
    return li;
  }));
  if (shown.length === 0) box.replaceChildren(el("li", { class: "empty", text: "no frames" }));
}

async function loadFrames() {
  if (!gateway.selected) return;
  const r = await fetch(api("gateway/sessions/" + encodeURIComponent(gateway.selected) + "/frames"));
  if (!r.ok) return;
  renderFrames(await r.json());
}

async function loadGateway() {
  if (gateway.busy) return;
  gateway.busy = true;
  try {
    const r = await fetch(api("gateway"));
    if (r.ok) {
      gateway.view = await r.json();
      renderGateway();
      await loadFrames();
    }
  } catch (err) {
    // the emulator went away; the next poll tries again
  } finally {
    gateway.busy = false;
  }
}

function startGateway() {
  const pane = gatewayPane();
  if (!pane) return;
  const hideBeats = el("input", { type: "checkbox", id: "gateway-hide-heartbeats" });
  hideBeats.addEventListener("change", () => { gateway.hideBeats = hideBeats.checked; renderFrames(gateway.frames); });
  pane.replaceChildren(
    el("h2", { text: "Gateway sessions" }),
    el("div", { id: "gateway-summary", class: "gw-summary" }),
    el("div", { id: "gateway-fault-status", class: "gw-fault-status", role: "status" }),
    el("div", { class: "gw-columns" },
      el("div", { id: "gateway-sessions", class: "gw-sessions" }, el("p", { class: "empty", text: "loading…" })),
      el("div", { class: "gw-frames-box" },
        el("h4", { id: "gateway-frames-title", text: "Frames" }),
        el("label", { class: "gw-filter" }, hideBeats, " hide heartbeats (op 1 and 11)"),
        el("ol", { id: "gateway-frames", class: "feed gw-frames" }))));
  loadGateway();
  gateway.timer = setInterval(loadGateway, 1000);
}

startGateway();
