// The inspector's scene controls: what people do in a guild, as the
// control API offers it (POST api/guilds/{id}/roles and the routes beside
// it) — create a role, make a user join, give or take a member's role,
// make a member leave. Each emits the events the platform would, so a bot
// connected to the gateway sees them. Values are set as text, never HTML.
"use strict";

// sceneCall sends one scene verb and refreshes the page; a refusal is
// shown in the guild's verdict line.
async function sceneCall(verdict, method, path, body) {
  const init = { method };
  if (body) {
    init.headers = { "Content-Type": "application/json" };
    init.body = JSON.stringify(body);
  }
  const r = await fetch(api(path), init);
  if (!r.ok) {
    const e = await r.json().catch(() => ({}));
    verdict.textContent = e.error || r.status + " " + r.statusText;
    verdict.className = "verdict bad";
    return;
  }
  verdict.textContent = "";
  verdict.className = "verdict";
  scheduleRefresh();
}

// permissionBits turns "MODERATE_MEMBERS, KICK_MEMBERS" (or a number) into
// the permissions' decimal string; null when a name is unknown.
function permissionBits(text) {
  text = text.trim();
  if (text === "") return "0";
  if (/^\d+$/.test(text)) return text;
  const byName = new Map([...permissionNames].map(([bit, name]) => [name, bit]));
  let p = 0n;
  for (const name of text.split(/[\s,]+/).filter(Boolean)) {
    const bit = byName.get(name.toUpperCase());
    if (bit === undefined) return null;
    p |= 1n << BigInt(bit);
  }
  return p.toString();
}

// sceneControls returns the forms that act on guild g: create a role, a
// user joins; and per member, give or take a role, or leave.
function sceneControls(g) {
  const id = g.guild.id, base = "guilds/" + id;
  const verdict = el("div", { class: "verdict", role: "status" });
  const roles = (g.roles || []).filter((r) => r.id !== id);

  const roleName = el("input", { placeholder: "Moderators", "aria-label": "New role's name", class: "scene-role-name" });
  const rolePerms = el("input", { placeholder: "MODERATE_MEMBERS, KICK_MEMBERS", "aria-label": "New role's permissions", class: "scene-role-perms" });
  const createRole = el("form", { class: "scene scene-create-role" }, roleName, rolePerms, el("button", { type: "submit", text: "Create role" }));
  createRole.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const permissions = permissionBits(rolePerms.value);
    if (permissions === null) {
      verdict.textContent = "unknown permission name in " + JSON.stringify(rolePerms.value);
      verdict.className = "verdict bad";
      return;
    }
    sceneCall(verdict, "POST", base + "/roles", { name: roleName.value, permissions });
  });

  const joiner = el("input", { placeholder: "username", "aria-label": "Joining user's name", class: "scene-join-name" });
  const join = el("form", { class: "scene scene-join" }, joiner, el("button", { type: "submit", text: "Join" }));
  join.addEventListener("submit", (ev) => {
    ev.preventDefault();
    sceneCall(verdict, "POST", base + "/members", { username: joiner.value });
  });

  const member = el("select", { "aria-label": "Member", class: "scene-member" },
    (g.members || []).map((ms) => el("option", { value: ms.member.user.id, text: ms.member.user.username })));
  const role = el("select", { "aria-label": "Role", class: "scene-role" }, roles.map((r) => el("option", { value: r.id, text: r.name })));
  const memberPath = () => base + "/members/" + member.value;
  const button = (text, fn) => {
    const b = el("button", { type: "button", text, class: "scene-" + text.toLowerCase() });
    b.addEventListener("click", fn);
    return b;
  };
  const act = el("div", { class: "scene scene-member-actions" }, member, role,
    button("Give", () => sceneCall(verdict, "PUT", memberPath() + "/roles/" + role.value)),
    button("Take", () => sceneCall(verdict, "DELETE", memberPath() + "/roles/" + role.value)),
    button("Leave", () => sceneCall(verdict, "DELETE", memberPath())));

  return [el("h4", { text: "Act in the guild" }), createRole, join, act, verdict];
}
