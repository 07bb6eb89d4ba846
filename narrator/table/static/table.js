// The phone page: join, look at the card (press and hold), vote, follow the game.
// Its shared parts (words, elements, the API, the socket, the clock) are common.js.
// Every name and every text from the server is set with textContent, never as HTML.
// The page makes no sound and never vibrates, and at night it is the same for every
// card.
"use strict";

let room = "", token = null, view = null, ws = null, retry = 0, deadline = null, held = false;
// The night: the prompt being answered (its id), the options ticked, the answer sent,
// and what this phone was shown once it answered (`shown`, for the call `shownFor`).
let promptId = null, ticked = [], sent = false, journalHeld = false;
let shown = [], shownFor = null;
let wordsLoading = null;

const storeKey = () => "narrator-table-" + room;
const call = (path, body) => api(path, body, token);  // as this phone
function showError(text) { $("error").textContent = text || ""; }

// The page follows the game's language: its words are fetched once per language,
// then the page is drawn again in them.
async function pageWords(code) {
  if (code === words.lang || code === wordsLoading) return;
  wordsLoading = code;
  try { await loadWords(code); } finally { wordsLoading = null; }
  setLang(code);
  if (view) render();
}
function showLang(code) {
  setLang(code);
  if (code !== words.lang) pageWords(code);
}

async function start() {
  const params = new URLSearchParams(location.search);
  try {
    const state = await call("/api/state");
    room = state.room; await pageWords(state.lang); $("game").textContent = state.game;
  } catch (e) { room = (params.get("room") || "").toUpperCase(); }
  $("room").value = params.get("room") || room;
  token = localStorage.getItem(storeKey());
  if (token) {
    try { await call("/api/me"); watch(); return; }
    catch (e) { if (e.status === 401) { localStorage.removeItem(storeKey()); token = null; } else { watch(); return; } }
  }
  $("join").hidden = false;
}

// The name as the table will write it (NFKC, spaces folded: names.py): a few
// characters can stand for many (one ligature is 18 letters), so the field's own
// limit counts what it types, and this what the table would keep -- the page never
// sends a name the table refuses for its length (review 2, N4). The most is the
// field's maxlength, names.MAX_NAME (test_names_browser.py checks they agree).
$("name").addEventListener("input", () => {
  const name = $("name"), most = name.maxLength;
  const n = [...name.value.normalize("NFKC").trim().split(/\s+/).join(" ")].length;
  name.setCustomValidity(n > most ? t("nameLong", { n, max: most }) : "");
});

$("join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  showError("");
  $("join-button").disabled = true;
  try {
    const joined = await call("/api/join", { name: $("name").value, room: $("room").value });
    token = joined.token;
    localStorage.setItem(storeKey(), token);
    $("join").hidden = true;
    watch();
  } catch (e) { showError(e.message); }
  $("join-button").disabled = false;
});

// A phone without its token (a private tab closed, another browser) asks for its
// seat back: the host sees the name and the code shown here, and gives the seat.
$("claim-open").addEventListener("click", async () => {
  showError("");
  try {
    const state = await call("/api/state");
    $("claim").hidden = $("claim-pick").hidden = false;
    $("claim-wait").replaceChildren();
    $("claim-seats").replaceChildren(...state.players.map((p) => {
      const b = el("button", p.seat + ". " + p.name); b.type = "button"; b.dataset.seat = p.seat;
      b.addEventListener("click", () => askSeat(p.seat));
      return b;
    }));
  } catch (e) { showError(e.message); }
});

async function askSeat(seat) {
  showError("");
  let asked;
  try { asked = await call("/api/claim", { room: $("room").value, seat }); }
  catch (e) { showError(e.message); return; }
  $("claim-seats").replaceChildren();
  $("claim-pick").hidden = true;
  $("claim-wait").replaceChildren(t("claimWait"), el("strong", asked.code, "code"), t("claimWaiting"));
  const poll = setInterval(async () => {
    const r = await fetch("/api/claim", { headers: { Authorization: "Bearer " + asked.token } }).catch(() => null);
    if (!r || r.status >= 500) return;
    const body = await r.json().catch(() => ({}));
    if (r.status === 401) { clearInterval(poll); $("claim-wait").textContent = t("claimRefused"); return; }
    if (r.ok && body.waiting === false) {
      clearInterval(poll);
      token = asked.token; localStorage.setItem(storeKey(), token);
      $("join").hidden = true; watch();
    }
  }, 1000);
}

// The live view: every change pushed; a lost socket is tried again, backing off, and
// a token that no longer holds a seat (removed, moved to a new phone) goes back to Join.
// A view clears the line under the page when the game has moved on -- a phase, a
// round, the night's next call -- or the socket is back: a refusal stays until then
// (a refused vote or turn is followed by a push to every phone, which must not wipe
// its answer away).
const moment = (v) => v ? [v.state.phase, v.state.night, v.state.round, v.me && v.me.prompt ? v.me.prompt.id : ""].join("/") : "";
function watch() {
  ws = connect("?token=" + encodeURIComponent(token), undefined, (next) => {
    if (retry || moment(next) !== moment(view)) showError("");
    retry = 0; view = next; render();
  }, () => {
    ws = null;
    showError(t("offline"));
    setTimeout(async () => {
      try { await call("/api/me"); } catch (e) { if (e.status === 401) { localStorage.removeItem(storeKey()); location.reload(); return; } }
      if (!ws) watch();
    }, Math.min(5000, 300 * 2 ** retry++));
  });
}
document.addEventListener("visibilitychange", () => { if (!document.hidden && token && !ws) watch(); });

function render() {
  const { state, me } = view;
  showLang(state.lang);
  $("play").hidden = false;
  const phase = state.phase;
  const night = phase === "night";
  document.body.classList.toggle("night", night);
  document.body.classList.toggle("ghost", !me.alive && !night);
  document.body.classList.toggle("voting", state.voting);
  $("who").textContent = t("seat") + " " + me.seat + " · " + me.name;
  // a round whose every vote is read aloud says so (Lupus's ballot is no secret)
  const told = phase !== "vote" && (state.told || []).includes(phase) ? "Told" : "";
  $("title").textContent = t(phase === "lobby" ? "lobby" : phase === "ballot" ? phase + told : phase);
  let hint = t(phase + "Hint" + told);
  if (hint === phase + "Hint" + told) hint = "";
  if (phase === "defence") hint += listOf(state.suspects.map((s) => nameOf(state, s)));
  if (!me.alive && !night && phase !== "end") hint = t("ghost") + " " + hint;
  $("hint").textContent = night ? t("nightHint") : hint;
  // after a restart the cards stay sealed until two phones are back (issue 16)
  if (state.sealed) $("hint").textContent = t("sealed");
  // The card: never in the page unless held; not at night; in One Night only before it.
  const cardTime = me.card && !night && phase !== "lobby" && phase !== "end" && (!state.card_only_before_night || phase === "cards");
  $("card").hidden = !cardTime;
  if (!cardTime) hideCard();
  // What the player taps is built aside and put in only if it changed: every push
  // (anyone's vote) redrew the buttons, and a tap whose press and release fell on
  // either side of a redraw was lost -- a vote that never went.
  choicesOut = document.createElement("div");
  renderChoices(state, me, night);
  if (night) renderPrompt(state, me);
  else renderTurn(state, me);
  const box = $("choices");
  if (choicesOut.innerHTML !== box.innerHTML) box.replaceChildren(...choicesOut.childNodes);
  renderList(state, me, night);
  // on every phone alike, empty or not (its presence must not say who learned something);
  // never at night, when screens must look the same
  $("journal").hidden = phase === "lobby" || phase === "cards" || night;
  // at a judged end the list names the winners: the same line twice says nothing more
  const judged = phase === "end" && state.reveal && state.reveal.judged !== false;
  $("said").textContent = night || judged ? "" : view.said || "";
  deadline = state.remaining == null || night ? null : Date.now() + state.remaining * 1000;
  tickClock();
}

let choicesOut = null; // the choices being built (render)

function renderChoices(state, me, night) {
  const box = choicesOut;
  if (night || !state.voting) return;
  if (!me.can_vote) { box.append(el("p", t("noVote"))); return; }
  for (const seat of me.targets) {
    const b = el("button", nameOf(state, seat));
    b.type = "button";
    b.dataset.seat = seat;
    b.setAttribute("aria-pressed", String(me.my_vote === seat));
    b.addEventListener("click", () => castVote(seat));
    box.append(b);
  }
  if (me.my_vote != null) box.append(el("p", t("yourVote") + nameOf(state, me.my_vote) + (state.phase === "vote" ? t("canChange") : ""), "mine"));
}

// The night's prompt: every phone gets one of the same kind at the same moment (the
// real one or a decoy); it is answered alike, and the answer changes nothing public.
function renderPrompt(state, me) {
  const box = choicesOut, p = me.prompt;
  const call = p ? p.id.split("/")[0] : null;
  if (call !== shownFor) { shown = []; shownFor = call; }  // the call ended: dark again
  if (!p) { promptId = null; return; }
  if (p.id !== promptId) { promptId = p.id; ticked = []; sent = false; }
  box.append(el("p", p.text, "prompt"));
  // what this phone was shown when it answered, every phone alike: a box of one
  // size, until the call ends (a real holder's result, or what a decoy chose)
  if (shown.length) {
    const result = el("div", null, "shown"); result.setAttribute("role", "status");
    result.append(...shown.map((line) => el("span", line)));
    box.append(result);
  }
  if (sent && !Object.keys(me.picks || {}).length) return;
  const group = el("div"); group.setAttribute("role", "group"); group.setAttribute("aria-label", p.text);
  group.dataset.prompt = p.id; // a new prompt with the same options is new buttons
  for (const o of p.options) {
    const b = el("button", o.label);
    b.type = "button"; b.dataset.option = o.id;
    b.setAttribute("aria-pressed", String(ticked.includes(o.id)));
    b.addEventListener("click", () => tick(p, o.id));
    group.append(b);
  }
  box.append(group);
  const picks = me.picks || {};
  if (Object.keys(picks).length) {
    const who = (id) => (p.options.find((o) => o.id === id) || { label: id === "seat:" + me.seat ? me.name : "?" }).label;
    box.append(el("p", t("picksOf") + listOf(Object.entries(picks).map(([m, x]) => votedFor(who(m), who(x)))), "mine"));
  }
  const done = el("button", ticked.length ? t("done") : t("nothing"), "send");
  done.type = "button"; done.id = "send";
  done.disabled = !answers(p, ticked);
  done.addEventListener("click", () => sendAct(p));
  box.append(done);
}

// Secret Moon's turns: the turn cards are on the table; whoever holds the card called
// picks an action here. Every phone shows the same actions (which ones a card may not
// take is said only to whoever tries); what everyone sees is announced.
let turnAction = null, turnPicks = [], turnRole = null;
function renderTurn(state, me) {
  const box = choicesOut, turns = me.turns || [];
  if (state.phase !== "day" || !turns.length) { turnAction = null; return; }
  if (state.round) $("hint").textContent = t("round") + state.round;
  box.append(el("p", t("turn"), "prompt"));
  const choose = (label, pressed, click, data) => {
    const b = el("button", label); b.type = "button";
    b.setAttribute("aria-pressed", String(pressed));
    for (const [k, v] of Object.entries(data)) b.dataset[k] = v;
    b.addEventListener("click", click); return b;
  };
  const actions = el("div", null, "turn-group"); actions.setAttribute("role", "group");
  for (const a of turns) actions.append(choose(a.label, turnAction === a.id, () => { turnAction = a.id; turnPicks = []; turnRole = null; render(); }, { action: a.id }));
  box.append(actions);
  const a = turns.find((x) => x.id === turnAction);
  if (!a) return;
  const pick = (id) => { turnPicks = turnPicks.includes(id) ? turnPicks.filter((x) => x !== id) : [id]; render(); };
  const targets = el("div", null, "turn-group"); targets.setAttribute("role", "group");
  if (a.players) for (const p of state.players) if (p.alive && (a.self || p.seat !== me.seat)) targets.append(choose(p.name, turnPicks.includes("seat:" + p.seat), () => pick("seat:" + p.seat), { option: "seat:" + p.seat }));
  if (a.centre) for (let k = 1; k <= state.centre; k++) targets.append(choose(t("centreCard") + k, turnPicks.includes("centre:" + k), () => pick("centre:" + k), { option: "centre:" + k }));
  box.append(targets);
  if (a.role) {
    const roles = el("div", null, "turn-group"); roles.setAttribute("role", "group");
    for (const [id, name] of Object.entries(a.roles)) roles.append(choose(name, turnRole === id, () => { turnRole = id; render(); }, { role: id }));
    box.append(roles);
  }
  const send = el("button", t("send"), "send"); send.type = "button"; send.id = "play-turn";
  send.disabled = (a.players || a.centre) && !turnPicks.length || (a.role && !turnRole);
  send.addEventListener("click", () => sendTurn(a));
  box.append(send);
}

async function sendTurn(a) {
  showError("");
  const choose = [...turnPicks, ...(a.role && turnRole ? ["role:" + turnRole] : [])];
  try {
    // a turn the rules refuse comes back in the shape of one taken: why, here only
    const answer = await call("/api/turn", { action: a.id, choose });
    if (answer.refused) { showError(answer.refused); return; }
    turnAction = null; turnPicks = []; turnRole = null;
    view.me = await call("/api/me");
    render();
  } catch (e) { showError(e.message); }
}

// Whether the ticks are one of the prompt's ways to answer (so many players, or so
// many centre cards, or a word), or none where choosing nothing is allowed: the
// server checks the same (night.fits), and Done waits for one.
function answers(p, ids) {
  if (!ids.length) return p.min === 0;
  const seats = ids.filter((x) => x.startsWith("seat:")).length;
  const centre = ids.filter((x) => x.startsWith("centre:")).length;
  const named = ids.filter((x) => !x.startsWith("seat:") && !x.startsWith("centre:"));
  return (p.ways || []).some((w) => w.named.length
    ? named.length === 1 && !seats && !centre && w.named.includes(named[0])
    : !named.length && seats === w.seat && centre === w.centre);
}

function tick(p, id) {
  if (ticked.includes(id)) ticked = ticked.filter((x) => x !== id);
  else { ticked.push(id); if (ticked.length > p.max) ticked.shift(); }
  render();
}

async function sendAct(p) {
  showError("");
  try {
    // a choice the rules refuse for this card comes back like any answer: why, here
    const answer = await call("/api/act", { prompt: p.id, choose: ticked });
    if (answer.refused) { showError(answer.refused); return; }
    // The next call's push may come in before this answer's reply (the server moves
    // on once every phone has answered): the reply is about a prompt no longer shown,
    // and must not mark the new one answered -- its buttons gone, a player unable to act.
    if (promptId === p.id) {
      const labels = ticked.map((id) => (p.options.find((o) => o.id === id) || { label: id }).label);
      shown = answer.learned.length ? answer.learned
        : [labels.length ? t("chose") + listOf(labels.map(isolate)) : t("choseNothing")];
      shownFor = p.id.split("/")[0];
      sent = true;
    }
    view.me = await call("/api/me");  // every phone looks again after answering, alike
    render();
  } catch (e) { showError(e.message); }
}

// At night every phone looks at its own view every two seconds, alike: a group's
// picks arrive this way, never by a push only its members would get.
setInterval(async () => {
  if (!view || view.state.phase !== "night" || !token) return;
  try { view.me = await call("/api/me"); render(); } catch (e) { /* the socket reports */ }
}, 2000);

async function castVote(seat) {
  showError("");
  try { await call("/api/vote", { target: seat }); }
  catch (e) { showError(e.message); }
}

function renderList(state, me, night) {
  // The roles in the game (never who holds them), as every seed lets the table know.
  const deck = Object.entries(state.deck || {}).map(([r, n]) => state.role_names[r] + (n > 1 ? " ×" + n : ""));
  $("deck").textContent = deck.length && !night ? t("deck") + listOf(deck) : "";
  const list = $("list");
  list.replaceChildren();
  if (night) return;
  const reveal = state.reveal;
  for (const p of state.players) {
    let text = p.seat + ". " + p.name;
    if (reveal && reveal.cards[p.seat]) text += " — " + state.role_names[reveal.cards[p.seat]];
    // what lies beside the card at the end: an artifact, a mark
    if (reveal && (reveal.tokens || {})[p.seat]) text += " (" + reveal.tokens[p.seat].map((x) => state.token_names[x]).join(", ") + ")";
    else if (!p.alive) text += " (" + t("out") + ")";
    list.append(el("li", text, p.alive ? "" : "out"));
  }
  // the last vote, as the rules show it: who voted for whom where the round is open,
  // the counts where not (review P5); only while its outcome is the news
  const r = state.result;
  if (r && ["defence", "verdict", "end"].includes(state.phase)) {
    if (r.votes) list.append(el("li", t("votesFor") + listOf(Object.entries(r.votes).map(([v, x]) => votedFor(nameOf(state, Number(v)), nameOf(state, x)))), "result"));
    else if (r.counts && Object.keys(r.counts).length) list.append(el("li", t("counts") + listOf(Object.entries(r.counts).sort((a, b) => b[1] - a[1]).map(([x, n]) => isolate(nameOf(state, Number(x))) + " " + n)), "result"));
  }
  if (reveal) {
    if (reveal.dealt) {
      const changed = state.players.filter((p) => reveal.dealt[p.seat] !== reveal.cards[p.seat]);
      if (changed.length) list.append(el("li", t("dealt") + listOf(changed.map((p) => isolate(p.name) + " — " + state.role_names[reveal.dealt[p.seat]]))));
    }
    // One Night's centre; any other game's cards not in play lie aside (Secret Moon's)
    const aside = state.card_only_before_night ? t("centre") : t("aside");
    if (reveal.unseen.length) list.append(el("li", aside + listOf(reveal.unseen.map((r) => state.role_names[r]))));
    if ((reveal.removed || []).length) list.append(el("li", t("removedCards") + listOf(reveal.removed.map((r) => state.role_names[r]))));
    const teams = reveal.winners.teams.map((x) => state.team_names[x] || x);
    if (reveal.judged !== false) list.append(el("li", teams.length ? t("winners") + listOf(teams) : t("nobodyWins")));
    // this phone's own line: did its player win (the seats the engine named)
    if (reveal.judged !== false) list.prepend(el("li", reveal.winners.seats.includes(me.seat) ? t("youWon") : t("youLost"), "verdict-own"));
  } else if (state.voting) {
    list.append(el("li", state.voted + " / " + state.voters + " " + t("voted")));
  }
}

function tickClock() { showClock(deadline); }
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

// The journal: what this player did and learned, shown only while held, as the card.
const journal = $("journal");
function showJournal() {
  if (!view || !view.me.journal) return;
  journalHeld = true;
  journal.replaceChildren(...view.me.journal.map((j) => el("span", j.text, "text")));
  journal.classList.add("held");
}
function hideJournal() {
  if (!journalHeld) return;
  journalHeld = false;
  journal.replaceChildren(document.createTextNode(t("journal")));
  journal.classList.remove("held");
}
journal.addEventListener("pointerdown", (e) => { e.preventDefault(); journal.setPointerCapture?.(e.pointerId); showJournal(); });
for (const end of ["pointerup", "pointercancel", "lostpointercapture", "blur"]) journal.addEventListener(end, hideJournal);
journal.addEventListener("keydown", (e) => { if (e.key === " " || e.key === "Enter") { e.preventDefault(); showJournal(); } });
journal.addEventListener("keyup", hideJournal);
document.addEventListener("visibilitychange", hideJournal);

start();
