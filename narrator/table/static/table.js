// The phone page: join, look at the card (press and hold), vote, follow the game.
// No framework, no build step, nothing fetched from outside the table. Every name
// and every text from the server is set with textContent, never as HTML. The page
// makes no sound and never vibrates, and at night it is the same for every card.
"use strict";

const T = {
  en: { room: "Room code", name: "Your name", join: "Join", hold: "Press and hold to see your card",
        seat: "Seat", lobby: "Waiting for the host to deal", cards: "Look at your card",
        cardsHint: "Hold it hidden from your neighbours, then put the phone down.",
        night: "Night", nightHint: "Eyes closed. Put the phone face down.",
        day: "Day", dayHint: "Talk it over.", vote: "Vote", voteHint: "Choose a player. Every vote shows at once when the count ends.",
        accusation: "Accusation", accusationHint: "Choose the player you accuse.",
        defence: "Defence", defenceHint: "The suspects speak: ", ballot: "Secret ballot", ballotHint: "Choose one suspect. Nobody sees your vote.",
        verdict: "The verdict", end: "The end", noVote: "You have no vote in this round.",
        yourVote: "Your vote: ", canChange: " (you may change it until the count ends)",
        ghost: "You are out of the game. Do not speak, and keep your card secret.",
        out: "out", winners: "Winners: ", nobodyWins: "Nobody wins.", centre: "Centre: ",
        offline: "Connection lost; trying again…", voted: "voted" },
  it: { room: "Codice della stanza", name: "Il tuo nome", join: "Entra", hold: "Tieni premuto per vedere la tua carta",
        seat: "Posto", lobby: "In attesa che l'host distribuisca", cards: "Guarda la tua carta",
        cardsHint: "Tienila nascosta ai vicini, poi posa il telefono.",
        night: "Notte", nightHint: "Occhi chiusi. Metti il telefono a faccia in giù.",
        day: "Giorno", dayHint: "Discutete.", vote: "Voto", voteHint: "Scegli un giocatore. Tutti i voti si vedono insieme alla fine del conto.",
        accusation: "Accusa", accusationHint: "Scegli il giocatore che accusi.",
        defence: "Difesa", defenceHint: "Parlano gli indiziati: ", ballot: "Voto segreto", ballotHint: "Scegli un indiziato. Nessuno vede il tuo voto.",
        verdict: "Il verdetto", end: "Fine", noVote: "In questo turno non voti.",
        yourVote: "Il tuo voto: ", canChange: " (puoi cambiarlo fino alla fine del conto)",
        ghost: "Sei fuori dalla partita. Non parlare e non rivelare la tua carta.",
        out: "fuori", winners: "Vincono: ", nobodyWins: "Non vince nessuno.", centre: "Al centro: ",
        offline: "Connessione persa; riprovo…", voted: "hanno votato" },
  fa: { room: "کد اتاق", name: "نام شما", join: "ورود", hold: "برای دیدن کارت، نگه دارید",
        seat: "جایگاه", lobby: "منتظر پخش کارت‌ها", cards: "کارت خود را ببینید",
        cardsHint: "آن را از کناری‌ها پنهان کنید، بعد گوشی را زمین بگذارید.",
        night: "شب", nightHint: "چشم‌ها بسته. گوشی را رو به پایین بگذارید.",
        day: "روز", dayHint: "گفت‌وگو کنید.", vote: "رأی", voteHint: "یک نفر را انتخاب کنید. همه‌ی رأی‌ها با هم در پایان شمارش نشان داده می‌شود.",
        accusation: "اتهام", accusationHint: "کسی را که متهم می‌کنید انتخاب کنید.",
        defence: "دفاع", defenceHint: "مظنونان صحبت می‌کنند: ", ballot: "رأی مخفی", ballotHint: "یکی از مظنونان را انتخاب کنید. کسی رأی شما را نمی‌بیند.",
        verdict: "حکم", end: "پایان", noVote: "در این دور رأی ندارید.",
        yourVote: "رأی شما: ", canChange: " (تا پایان شمارش می‌توانید عوضش کنید)",
        ghost: "شما از بازی بیرون هستید. حرف نزنید و کارتتان را پنهان نگه دارید.",
        out: "بیرون", winners: "برندگان: ", nobodyWins: "هیچ‌کس نمی‌برد.", centre: "وسط: ",
        offline: "اتصال قطع شد؛ دوباره تلاش می‌کنیم…", voted: "رأی داده‌اند" },
};
const VOTING = ["vote", "accusation", "ballot"];
const $ = (id) => document.getElementById(id);
let lang = "en", room = "", token = null, view = null, ws = null, retry = 0, deadline = null, held = false;

const t = (key) => (T[lang] || T.en)[key] || T.en[key] || key;
const storeKey = () => "narrator-table-" + room;
function el(tag, text, cls) { const e = document.createElement(tag); if (text != null) e.textContent = text; if (cls) e.className = cls; return e; }
function showError(text) { $("error").textContent = text || ""; }

function setLang(code) {
  lang = T[code] ? code : "en";
  document.documentElement.lang = code;
  document.documentElement.dir = code === "fa" ? "rtl" : "ltr";
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
}

async function api(path, options = {}) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = "Bearer " + token;
  const response = await fetch(path, { ...options, headers });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) { const e = new Error(body.error || response.statusText); e.status = response.status; throw e; }
  return body;
}

async function start() {
  const params = new URLSearchParams(location.search);
  try {
    const state = await api("/api/state");
    room = state.room; setLang(state.lang); $("game").textContent = state.game;
  } catch (e) { room = (params.get("room") || "").toUpperCase(); }
  $("room").value = params.get("room") || room;
  token = localStorage.getItem(storeKey());
  if (token) {
    try { await api("/api/me"); connect(); return; }
    catch (e) { if (e.status === 401) { localStorage.removeItem(storeKey()); token = null; } else { connect(); return; } }
  }
  $("join").hidden = false;
}

$("join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  showError("");
  $("join-button").disabled = true;
  try {
    const joined = await api("/api/join", { method: "POST", body: JSON.stringify({ name: $("name").value, room: $("room").value }) });
    token = joined.token;
    localStorage.setItem(storeKey(), token);
    $("join").hidden = true;
    connect();
  } catch (e) { showError(e.message); }
  $("join-button").disabled = false;
});

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  ws = new WebSocket(scheme + location.host + "/ws?token=" + encodeURIComponent(token));
  ws.onmessage = (msg) => { retry = 0; showError(""); view = JSON.parse(msg.data); render(); };
  ws.onclose = () => {
    ws = null;
    showError(t("offline"));
    setTimeout(async () => {
      try { await api("/api/me"); } catch (e) { if (e.status === 401) { localStorage.removeItem(storeKey()); location.reload(); return; } }
      if (!ws) connect();
    }, Math.min(5000, 300 * 2 ** retry++));
  };
}
document.addEventListener("visibilitychange", () => { if (!document.hidden && token && !ws) connect(); });

function nameOf(seat) { const p = view.state.players.find((x) => x.seat === seat); return p ? p.name : "?"; }

function render() {
  const { state, me } = view;
  setLang(state.lang);
  $("play").hidden = false;
  const phase = state.phase;
  const night = phase === "night";
  document.body.classList.toggle("night", night);
  document.body.classList.toggle("ghost", !me.alive && !night);
  document.body.classList.toggle("voting", VOTING.includes(phase));
  $("who").textContent = t("seat") + " " + me.seat + " · " + me.name;
  $("title").textContent = t(phase === "lobby" ? "lobby" : phase);
  let hint = t(phase + "Hint");
  if (hint === phase + "Hint") hint = "";
  if (phase === "defence") hint += state.suspects.map(nameOf).join(", ");
  if (!me.alive && !night && phase !== "end") hint = t("ghost") + " " + hint;
  $("hint").textContent = night ? t("nightHint") : hint;
  // The card: never in the page unless held; not at night; in One Night only before it.
  const cardTime = me.card && !night && phase !== "lobby" && phase !== "end" && (state.ruleset !== "onuw" || phase === "cards");
  $("card").hidden = !cardTime;
  if (!cardTime) hideCard();
  renderChoices(state, me, night);
  renderList(state, me, night);
  $("said").textContent = night ? "" : view.said || "";
  deadline = state.remaining == null || night ? null : Date.now() + state.remaining * 1000;
  tickClock();
}

function renderChoices(state, me, night) {
  const box = $("choices");
  box.replaceChildren();
  if (night || !VOTING.includes(state.phase)) return;
  if (!me.can_vote) { box.append(el("p", t("noVote"))); return; }
  for (const seat of me.targets) {
    const b = el("button", nameOf(seat));
    b.type = "button";
    b.dataset.seat = seat;
    b.setAttribute("aria-pressed", String(me.my_vote === seat));
    b.addEventListener("click", () => castVote(seat));
    box.append(b);
  }
  if (me.my_vote != null) box.append(el("p", t("yourVote") + nameOf(me.my_vote) + (state.phase === "vote" ? t("canChange") : ""), "mine"));
}

async function castVote(seat) {
  showError("");
  try { await api("/api/vote", { method: "POST", body: JSON.stringify({ target: seat }) }); }
  catch (e) { showError(e.message); }
}

function renderList(state, me, night) {
  const list = $("list");
  list.replaceChildren();
  if (night) return;
  const reveal = state.reveal;
  for (const p of state.players) {
    let text = p.seat + ". " + p.name;
    if (reveal && reveal.cards[p.seat]) text += " — " + state.role_names[reveal.cards[p.seat]];
    else if (!p.alive) text += " (" + t("out") + ")";
    list.append(el("li", text, p.alive ? "" : "out"));
  }
  if (reveal) {
    if (reveal.unseen.length) list.append(el("li", t("centre") + reveal.unseen.map((r) => state.role_names[r]).join(", ")));
    const teams = reveal.winners.teams.map((x) => state.team_names[x] || x);
    list.append(el("li", teams.length ? t("winners") + teams.join(", ") : t("nobodyWins")));
  } else if (VOTING.includes(state.phase)) {
    list.append(el("li", state.voted + " / " + state.voters + " " + t("voted")));
  }
}

function tickClock() {
  if (deadline == null) { $("clock").textContent = ""; return; }
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  $("clock").textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
}
setInterval(tickClock, 500);

// Press and hold: the card's text exists in the page only while a finger is on it.
function showCard() {
  if (!view || !view.me.card || $("card").hidden) return;
  held = true;
  const face = $("card-face"), card = view.me.card;
  face.replaceChildren(el("span", card.name, "role"), el("span", card.team, "team"), el("span", card.text, "text"));
  $("card").classList.add("held");
}
function hideCard() {
  if (!held) return;
  held = false;
  $("card-face").replaceChildren(document.createTextNode(t("hold")));
  $("card").classList.remove("held");
}
const card = $("card");
card.addEventListener("pointerdown", (e) => { e.preventDefault(); card.setPointerCapture?.(e.pointerId); showCard(); });
for (const end of ["pointerup", "pointercancel", "lostpointercapture", "blur"]) card.addEventListener(end, hideCard);
card.addEventListener("contextmenu", (e) => e.preventDefault());
card.addEventListener("keydown", (e) => { if (e.key === " " || e.key === "Enter") { e.preventDefault(); showCard(); } });
card.addEventListener("keyup", hideCard);
document.addEventListener("visibilitychange", hideCard);

start();
