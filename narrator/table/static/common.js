// What the phone page (table.js) and the host page (host.js) share: the page's
// words, the elements, the table's JSON API, the live socket, a player's name and
// the clock. The server serves it in front of each page's own script, as one file
// (server.py, STATIC). No framework, no build step, nothing fetched from outside the
// table; every text is set with textContent, never as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
function el(tag, text, cls) { const e = document.createElement(tag); if (text != null) e.textContent = text; if (cls) e.className = cls; return e; }

// The page's words come from the server (`GET /api/words`, `page=host` for the host
// page's): the app's own catalogues, one set of words for the app, the voice and the
// phones. `{name}`-style values are filled in by `t`; a word not (yet) there is its key.
const words = { T: {}, lang: null };
async function loadWords(code, page) {
  if (code === words.lang) return;
  const response = await fetch("/api/words?" + (page ? "page=" + page + "&" : "") + "lang=" + encodeURIComponent(code));
  if (response.ok) { words.T = await response.json(); words.lang = code; }
}
function t(key, vars) {
  const text = words.T[key] ?? key;
  // one pass: a name that holds "{b}" is not filled in again
  return vars ? text.replace(/\{(\w+)\}/g, (all, k) => (k in vars ? String(vars[k]) : all)) : text;
}

// Lists and votes as the language writes them: its own comma ("{a}, {b}": Persian
// «،») and an arrow that points the way the line reads ("→", Persian "←"); each name
// isolated (FSI ... PDI), so a name in another script keeps its place in the line.
const isolate = (text) => "\u2068" + text + "\u2069";
function listOf(items) { return items.length ? items.reduce((a, b) => t("list", { a, b })) : ""; }
function votedFor(voter, target) { return t("votedFor", { voter: isolate(voter), target: isolate(target) }); }

// The page in a language: its direction (Persian right to left) and, once that
// language's words are in, the page's fixed words.
function setLang(code) {
  document.documentElement.lang = code;
  document.documentElement.dir = code === "fa" ? "rtl" : "ltr";
  if (code !== words.lang) return;
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
}

// The table's JSON API: GET without a body, POST with one. An answer that is not OK
// throws its one line, with its status (401: this token is no seat's). A body is
// padded with spaces to a multiple of BODY bytes: what a phone sends (a Seer's two
// centre cards, a decoy's one player) is as long whatever its card.
const BODY = 512;
function padded(body) {
  const text = JSON.stringify({ ...body, pad: "" });
  const used = new TextEncoder().encode(text).length;
  return text.slice(0, -2) + " ".repeat(Math.ceil(used / BODY) * BODY - used) + '"}';
}
async function api(path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = "Bearer " + token;
  const post = body !== undefined;
  const response = await fetch(path, { method: post ? "POST" : "GET", headers, body: post ? padded(body) : undefined });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) { const e = new Error(data.error || response.statusText); e.status = response.status; throw e; }
  return data;
}

// The live view: the table's WebSocket (`/ws` + `query`), every message a view.
function connect(query, protocols, onView, onClose) {
  const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws" + query, protocols);
  socket.onmessage = (m) => onView(JSON.parse(m.data));
  socket.onclose = onClose;
  return socket;
}

// A player's name by seat number, as the views number the seats.
function nameOf(state, seat) { const p = state.players.find((x) => x.seat === seat); return p ? p.name : "?"; }

// What is left before `deadline` (ms since the epoch) as "m:ss", the app's clock;
// nothing without one.
function clockText(deadline) {
  if (deadline == null) return "";
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  return Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
}

// The page's clock shown (twice a second): written only when its text changes, so a
// phone left on the table all evening redraws once a second at most, and not at all
// while no clock runs.
function showClock(deadline) {
  const text = clockText(deadline);
  if ($("clock").textContent !== text) $("clock").textContent = text;
}
