// The host page: players arriving live, the deck, start, go on, end. It never sees
// a card or a vote before the phones do. The host token stays in the URL fragment.
"use strict";
const $ = (id) => document.getElementById(id);
const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
let view = null, ws = null, deadline = null, counts = {}, edited = false;

function el(tag, text) { const e = document.createElement(tag); if (text != null) e.textContent = text; return e; }
async function api(path, body) {
  const r = await fetch(path, { method: body === undefined ? "GET" : "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer " + token }, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}
async function act(path, body) { $("error").textContent = ""; try { await api(path, body || {}); } catch (e) { $("error").textContent = e.message; } }

function connect() {
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws?token=" + encodeURIComponent(token));
  ws.onmessage = (m) => { view = JSON.parse(m.data); render(); };
  ws.onclose = () => { ws = null; $("error").textContent = "Connection lost; trying again…"; setTimeout(connect, 1000); };
}

function render() {
  const { state, host } = view;
  $("error").textContent = host.voice_errors.length ? "Voice: " + host.voice_errors[host.voice_errors.length - 1] : "";
  $("room").textContent = "Room " + state.room;
  $("game").textContent = state.game;
  $("join").textContent = location.origin + "/?room=" + state.room;
  $("phase").textContent = state.phase + (state.night ? " · night " + state.night : "");
  $("progress").textContent = ["vote", "accusation", "ballot"].includes(state.phase) ? state.voted + " / " + state.voters + " voted" : "";
  const list = $("players");
  list.replaceChildren(...state.players.map((p) => el("li", p.seat + ". " + p.name + (p.alive ? "" : " (out)"))));
  const lobby = state.phase === "lobby";
  $("setup").hidden = !lobby;
  $("controls").hidden = lobby || state.phase === "end";
  const many = !["onuw", "secret_moon"].includes(state.ruleset);
  $("out-label").hidden = $("out").hidden = !(many && ["night", "day"].includes(state.phase));
  if (lobby) renderRoles(host);
  $("said").textContent = view.said || "";
  deadline = state.remaining == null ? null : Date.now() + state.remaining * 1000;
}

function renderRoles(host) {
  if (!edited) counts = { ...host.recommended };
  const box = $("roles");
  box.replaceChildren();
  for (const role of host.roles) {
    const label = el("label", role.name + " ");
    const input = el("input");
    input.type = "number"; input.min = 0; input.max = role.max; input.value = counts[role.id] || 0;
    input.addEventListener("change", () => { edited = true; counts[role.id] = Number(input.value); });
    label.append(input);
    box.append(label);
  }
}

$("start").addEventListener("click", () => {
  const roles = Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));
  act("/api/host/start", { roles: edited ? roles : {}, deal: $("deal").checked });
});
$("next").addEventListener("click", () => act("/api/host/next"));
$("end").addEventListener("click", () => act("/api/host/end"));
$("out").addEventListener("click", () => act("/api/host/eliminate", { seat: Number($("out-seat").value) }));
setInterval(() => {
  if (deadline == null) { $("clock").textContent = ""; return; }
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  $("clock").textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
}, 500);
connect();
