// Markdown and mentions as the platform's client shows them, built as DOM
// nodes (never as HTML from server data): headings, bold, italic,
// underline, strikethrough, spoilers, inline code and code blocks, block
// quotes, lists, subtext, masked links, and user, role and channel
// mentions, custom emoji and timestamps resolved against the state.
"use strict";

// The names mentions resolve to, filled by the state renderer.
const mentionNames = { users: new Map(), roles: new Map(), channels: new Map() };

function setMentionNames(st) {
  mentionNames.users.clear(); mentionNames.roles.clear(); mentionNames.channels.clear();
  for (const u of st.users || []) mentionNames.users.set(u.id, u.global_name || u.username);
  for (const g of st.guilds || []) {
    for (const r of g.roles || []) mentionNames.roles.set(r.id, { name: r.name, color: (r.colors && r.colors.primary_color) || r.color || 0 });
    for (const c of g.channels || []) mentionNames.channels.set(c.id, c.name);
    for (const m of g.members || []) {
      const u = m.member.user || {};
      if (m.member.nick) mentionNames.users.set(u.id, m.member.nick);
    }
  }
}

// renderMarkdown returns a node holding text rendered as the client does.
function renderMarkdown(text, cls) {
  const box = document.createElement("div");
  box.className = "md" + (cls ? " " + cls : "");
  const lines = String(text || "").split("\n");
  let list = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith("```")) {
      const lang = line.slice(3).trim();
      const body = [];
      for (i++; i < lines.length && !lines[i].startsWith("```"); i++) body.push(lines[i]);
      const pre = document.createElement("pre");
      const code = document.createElement("code");
      if (lang) code.dataset.lang = lang;
      code.textContent = body.join("\n");
      pre.append(code);
      box.append(pre);
      list = null;
      continue;
    }
    let m;
    if ((m = /^(#{1,3}) (.*)$/.exec(line))) {
      const h = document.createElement("h" + (m[1].length + 1));
      h.className = "md-h";
      h.append(...inlineMarkdown(m[2]));
      box.append(h); list = null; continue;
    }
    if ((m = /^-# (.*)$/.exec(line))) {
      const s = document.createElement("small");
      s.className = "md-subtext";
      s.append(...inlineMarkdown(m[1]));
      box.append(s); list = null; continue;
    }
    if ((m = /^>>> ([\s\S]*)$/.exec(line))) {
      const q = document.createElement("blockquote");
      q.append(renderMarkdown([m[1], ...lines.slice(i + 1)].join("\n")));
      box.append(q); break;
    }
    if ((m = /^> ?(.*)$/.exec(line))) {
      const q = document.createElement("blockquote");
      q.append(...inlineMarkdown(m[1]));
      box.append(q); list = null; continue;
    }
    if ((m = /^\s*[-*] (.*)$/.exec(line))) {
      if (!list) { list = document.createElement("ul"); box.append(list); }
      const li = document.createElement("li");
      li.append(...inlineMarkdown(m[1]));
      list.append(li); continue;
    }
    list = null;
    const p = document.createElement("div");
    p.className = "md-line";
    p.append(...inlineMarkdown(line));
    if (line === "") p.append(document.createElement("br"));
    box.append(p);
  }
  return box;
}

const inlinePattern = new RegExp([
  /\*\*\*(.+?)\*\*\*/.source,             // 1 bold italic
  /\*\*(.+?)\*\*/.source,                 // 2 bold
  /__(.+?)__/.source,                     // 3 underline
  /\*(.+?)\*/.source,                     // 4 italic
  /\b_(.+?)_\b/.source,                   // 5 italic
  /~~(.+?)~~/.source,                     // 6 strikethrough
  /\|\|(.+?)\|\|/.source,                 // 7 spoiler
  /`([^`]+)`/.source,                     // 8 code
  /\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/.source, // 9, 10 masked link
  /<@!?(\d+)>/.source,                    // 11 user
  /<@&(\d+)>/.source,                     // 12 role
  /<#(\d+)>/.source,                      // 13 channel
  /<a?:(\w+):(\d+)>/.source,              // 14, 15 custom emoji
  /<t:(-?\d+)(?::([tTdDfFR]))?>/.source,   // 16, 17 timestamp
  /(@everyone|@here)/.source,             // 18
  /(https?:\/\/[^\s<]+[^\s<.,:;"')\]])/.source, // 19 bare link
].join("|"), "g");

function inlineMarkdown(text) {
  const out = [];
  let last = 0;
  // A pattern of its own: the calls for nested spans must not move this
  // call's place in the text.
  const pattern = new RegExp(inlinePattern.source, "g");
  let m;
  const wrap = (tag, cls, inner) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    e.append(...inner);
    return e;
  };
  while ((m = pattern.exec(text)) !== null) {
    if (m.index > last) out.push(document.createTextNode(text.slice(last, m.index)));
    last = pattern.lastIndex;
    if (m[1] !== undefined) out.push(wrap("strong", "", [wrap("em", "", inlineMarkdown(m[1]))]));
    else if (m[2] !== undefined) out.push(wrap("strong", "", inlineMarkdown(m[2])));
    else if (m[3] !== undefined) out.push(wrap("u", "", inlineMarkdown(m[3])));
    else if (m[4] !== undefined) out.push(wrap("em", "", inlineMarkdown(m[4])));
    else if (m[5] !== undefined) out.push(wrap("em", "", inlineMarkdown(m[5])));
    else if (m[6] !== undefined) out.push(wrap("s", "", inlineMarkdown(m[6])));
    else if (m[7] !== undefined) {
      const s = wrap("span", "md-spoiler", inlineMarkdown(m[7]));
      s.title = "spoiler: click to show";
      s.addEventListener("click", () => s.classList.toggle("shown"));
      out.push(s);
    } else if (m[8] !== undefined) out.push(wrap("code", "md-code", [document.createTextNode(m[8])]));
    else if (m[9] !== undefined) out.push(link(m[10], inlineMarkdown(m[9])));
    else if (m[11] !== undefined) out.push(mention("@" + (mentionNames.users.get(m[11]) || "unknown-user"), m[11], "user"));
    else if (m[12] !== undefined) {
      const r = mentionNames.roles.get(m[12]);
      const e = mention("@" + (r ? r.name : "unknown-role"), m[12], "role");
      if (r && r.color) e.style.color = "#" + r.color.toString(16).padStart(6, "0");
      out.push(e);
    } else if (m[13] !== undefined) out.push(mention("#" + (mentionNames.channels.get(m[13]) || "unknown"), m[13], "channel"));
    else if (m[14] !== undefined) out.push(wrap("span", "md-emoji", [document.createTextNode(":" + m[14] + ":")]));
    else if (m[16] !== undefined) {
      const d = new Date(Number(m[16]) * 1000);
      if (isNaN(d.getTime())) {
        // Out of Date's range: shown as written, never a thrown RangeError
        // that would stop the whole page from drawing.
        out.push(document.createTextNode(m[0]));
      } else {
        const e = wrap("time", "md-time", [document.createTextNode(m[17] === "R" ? relative(d) : d.toLocaleString())]);
        e.setAttribute("datetime", d.toISOString());
        out.push(e);
      }
    } else if (m[18] !== undefined) out.push(mention(m[18], "", "everyone"));
    else if (m[19] !== undefined) out.push(link(m[19], [document.createTextNode(m[19])]));
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}

function link(url, inner) {
  const a = document.createElement("a");
  a.href = url; // only http(s) URLs reach here
  a.target = "_blank";
  a.rel = "noopener noreferrer";
  a.append(...inner);
  return a;
}

function mention(text, id, kind) {
  const e = document.createElement("span");
  e.className = "mention mention-" + kind;
  e.textContent = text;
  if (id) e.title = kind + " " + id;
  return e;
}

function relative(d) {
  const s = Math.round((d.getTime() - Date.now()) / 1000);
  const abs = Math.abs(s);
  const [n, unit] = abs < 60 ? [abs, "second"] : abs < 3600 ? [Math.round(abs / 60), "minute"] : abs < 86400 ? [Math.round(abs / 3600), "hour"] : [Math.round(abs / 86400), "day"];
  const phrase = n + " " + unit + (n === 1 ? "" : "s");
  return s < 0 ? phrase + " ago" : "in " + phrase;
}
