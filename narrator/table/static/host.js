// The host page: the door (QR code, lock), players arriving live, their sitting
// order, the deck grouped by side and box with a running count, start, go on, the
// last vote's result, play again. It never sees a card or a vote before the phones
// do. The host token stays in the URL fragment. Words in the game's language. Its
// shared parts (words, elements, the API, the socket, the clock) are common.js.
"use strict";
const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
let view = null, ws = null, deadline = null, counts = {}, edited = false, lang = "en", countAsked = "";
let arrived = Promise.resolve(), langShown = null;

const call = (path, body) => api(path, body, token);  // as the host
function button(text, onClick, cls) { const b = el("button", text, cls); b.type = "button"; b.addEventListener("click", onClick); return b; }
async function act(path, body) { $("error").textContent = ""; try { await call(path, body || {}); } catch (e) { $("error").textContent = e.message; } }

function showLang(code) {
  if (code === langShown) return;
  langShown = code;
  lang = code;
  setLang(code);
}

function watch() {
  // the token goes as a subprotocol (a header), never in the URL of a request; the
  // views are drawn in order, each after its language's words (fetched once each)
  ws = connect("", ["narrator", token], (next) => {
    if ($("error").textContent === t("offline")) $("error").textContent = "";  // back
    arrived = arrived.then(() => loadWords(next.state.lang, "host")).catch(() => {}).then(() => { view = next; render(); });
  }, async () => {
    ws = null;
    // A restarted table gives the host a new token: this page's is no longer valid.
    try { await call("/api/host/setup"); } catch (e) { if (e.status === 401) { $("error").textContent = t("badLink"); return; } }
    $("error").textContent = t("offline");
    setTimeout(watch, 1000);
  });
}

function render() {
  const { state, host } = view;
  showLang(state.lang);
  // the voice's trouble apart from a refused command's line, which a push never wipes
  $("voice-error").textContent = host.voice_errors.length ? t("voice") + host.voice_errors[host.voice_errors.length - 1] : "";
  $("room").textContent = t("room") + state.room;
  $("game").textContent = state.game;
  const join = location.origin + "/?room=" + state.room;
  if ($("join").textContent !== join) { $("join").textContent = join; $("qr").src = "/qr.svg"; }
  $("lock").textContent = host.locked ? t("unlock") : t("lock");
  $("lock").setAttribute("aria-pressed", String(host.locked));
  const lobby = state.phase === "lobby";
  $("door").hidden = !lobby;
  const told = state.phase === "ballot" && (state.told || []).includes("ballot") ? "Told" : "";
  $("phase").textContent = t("phase_" + state.phase + told, { night: state.night || 1 });
  $("next-hint").textContent = hint(state);
  $("progress").textContent = state.voting ? t("voted", { n: state.voted, m: state.voters }) : "";
  renderClaims(host.claims);
  renderPlayers(state, lobby);
  $("setup").hidden = !lobby;
  $("controls").hidden = lobby || state.phase === "end";
  for (const id of ["next", "end"]) $(id).disabled = Boolean(state.sealed);  // refused until it opens
  $("again").hidden = state.phase !== "end";
  // who left: with physical cards, by night or day; with the cards on the phones the
  // night's deaths are the game's, and a player who leaves the table is marked by day
  const out = state.eliminate === "table" ? state.phase === "day" : state.eliminate && ["night", "day"].includes(state.phase);
  $("out-box").hidden = !out;
  if (out) renderOut(state);
  if (lobby) { renderRoles(state, host); askCount(); }
  renderResult(state);
  $("said").textContent = view.said || "";
  deadline = state.remaining == null ? null : Date.now() + state.remaining * 1000;
}

function hint(state) {
  if (state.sealed) return t("sealed", { n: state.sealed });
  if (state.phase !== "day") return t("hint_" + state.phase, { next: state.night + 1 });
  if (state.round) return t("hint_dayRounds", { round: state.round });
  if (state.eliminate) return t("hint_dayTrial");
  return t(state.card_only_before_night ? "hint_dayVote" : "hint_dayEnd");
}

// A phone asking for a seat (its player lost their token): the name and a code both
// screens show, so the host gives the seat to the right phone. No card is involved.
function renderClaims(claims) {
  const box = $("claims");
  box.hidden = !claims.length;
  box.replaceChildren(...claims.map((c) => {
    const row = el("div", null, "claim");
    row.append(el("p", t("claim", { name: c.name, seat: c.seat, code: c.code })));
    row.append(button(t("confirm"), () => act("/api/host/claim", { code: c.code, confirm: true }), "confirm"),
               button(t("refuse"), () => act("/api/host/claim", { code: c.code, confirm: false }), "refuse"));
    return row;
  }));
}

// In the lobby each player can move up or down (sitting order) or be removed; every
// command names the players it means, so a second tap on a changed list does nothing.
function renderPlayers(state, lobby) {
  const players = state.players, names = players.map((p) => p.name);
  const move = (i, j) => { const order = [...names]; [order[i], order[j]] = [order[j], order[i]]; act("/api/host/order", { order }); };
  $("players").replaceChildren(...players.map((p, i) => {
    const li = el("li", null, p.alive ? "" : "out");
    li.append(el("span", p.seat + ". ", "seat"), el("span", p.name, "name"));
    // at the end every card is shown to everyone: the host page shows them too
    const card = state.reveal && state.reveal.cards[p.seat];
    if (card) li.append(el("span", " — " + state.role_names[card], "card"));
    else if (!p.alive) li.append(el("span", " (" + t("out_") + ")"));
    if (lobby) {
      const tools = el("span", null, "tools");
      const up = button("↑", () => move(i, i - 1)), down = button("↓", () => move(i, i + 1));
      up.disabled = i === 0; down.disabled = i === players.length - 1;
      up.title = up.ariaLabel = t("up") + ": " + p.name; down.title = down.ariaLabel = t("down") + ": " + p.name;
      const rm = button("✕", () => { if (window.confirm(t("removeConfirm", { name: p.name }))) act("/api/host/remove", { seat: p.seat, name: p.name }); }, "remove");
      rm.title = rm.ariaLabel = t("remove") + ": " + p.name;
      tools.append(up, down, rm);
      li.append(tools);
    }
    return li;
  }));
}

function renderOut(state) {
  $("out-label").textContent = t(state.eliminate === "table" ? "outLabelTable" : "outLabel");
  const select = $("out-seat"), was = select.value;
  select.replaceChildren(...state.players.filter((p) => p.alive).map((p) => { const o = el("option", p.name); o.value = p.seat; return o; }));
  if ([...select.options].some((o) => o.value === was)) select.value = was;
}

// The deck, grouped by side and then by box; each group's total beside its name.
function renderRoles(state, host) {
  if (!edited) counts = { ...host.recommended };
  const box = $("roles");
  const built = lang + JSON.stringify(counts) + edited + $("deal").checked;
  if (box.dataset.built === built) return;
  box.dataset.built = built;
  const open = new Set([...box.querySelectorAll("details[open]")].map((d) => d.dataset.key));
  box.replaceChildren();
  const teams = Object.keys(state.team_names);
  for (const r of host.roles) if (!teams.includes(host.teams[r.id])) teams.push(host.teams[r.id]);
  for (const team of teams) {
    const roles = host.roles.filter((r) => host.teams[r.id] === team);
    if (!roles.length) continue;
    const set = el("fieldset", null, "team");
    const total = roles.reduce((n, r) => n + (dealt(host, r.id) ? counts[r.id] || 0 : 0), 0);
    set.append(el("legend", (state.team_names[team] || team) + " · " + total));
    const boxes = [...new Set(roles.map((r) => host.boxes[r.id] || ""))];
    for (const b of boxes) {
      const inBox = roles.filter((r) => (host.boxes[r.id] || "") === b);
    const dealing = $("deal").checked;
      const chosen = inBox.reduce((n, r) => n + (dealt(host, r.id) ? counts[r.id] || 0 : 0), 0);
      const group = boxes.length > 1 ? el("details") : el("div");
      group.dataset.key = team + "/" + b;
      if (boxes.length > 1) {
        group.append(el("summary", (host.box_names[b] || b) + (chosen ? " · " + chosen : "")));
        group.open = chosen > 0 || open.has(group.dataset.key);
      }
      for (const role of inBox) {
        // a card the phones cannot deal yet (the engine does not run it): marked, and
        // never counted into a deck the phones deal
        const physical = !role.dealable;
        const label = el("label", null, physical ? "role physical" : "role");
        label.append(el("span", role.name + (physical ? t("physical") : "")));
        const input = el("input");
        input.type = "number"; input.min = 0; input.max = role.max; input.value = counts[role.id] || 0;
        input.dataset.role = role.id;
        input.disabled = physical && dealing;
        input.addEventListener("change", () => { edited = true; counts[role.id] = Math.max(0, Number(input.value) || 0); render(); });
        label.append(input);
        group.append(label);
      }
      set.append(group);
    }
    box.append(set);
  }
}

// Whether a role's count is in the deck: every role with physical cards; with the
// phones dealing, only the roles they can deal.
function dealt(host, id) {
  const role = host.roles.find((r) => r.id === id);
  return !$("deal").checked || (role && role.dealable);
}
function chosenDeck() {
  return Object.fromEntries(Object.entries(counts).filter(([id, n]) => n > 0 && dealt(view.host, id)));
}

// The running count, from the server (the ruleset's setup decides what is dealt,
// what lies in the centre and what is removed).
async function askCount() {
  const deal = $("deal").checked;
  const roles = edited ? chosenDeck() : {};
  const key = JSON.stringify(roles) + view.state.players.length + lang + deal;
  if (key === countAsked) return;
  countAsked = key;
  const n = view.state.players.length, host = view.host;
  if (n < host.min_players || n > host.max_players) {  // in words, not the command line's
    $("count").textContent = t("players", { n }) + " · " + t("needPlayers", { min: host.min_players, max: host.max_players });
    $("count").classList.toggle("bad", n > 0);
    return;
  }
  try {
    const c = await call("/api/host/deck", { roles, deal });
    let text = t("players", { n }) + " · ";
    if (c.cards) text += t("cards", { n: c.cards, dealt: c.dealt }) + (c.aside ? t("aside", { n: c.aside }) : "") + (c.removed ? t("removed", { n: c.removed }) : "");
    if (!edited && c.cards) text += t("recommended");
    if (c.errors.length) text += " — " + c.errors.join("; ");
    $("count").textContent = text;
    $("count").classList.toggle("bad", c.errors.length > 0);
  } catch (e) { $("count").textContent = e.message; }
}

// The last vote: who voted for whom where the rules make it open, the counts where
// not; at the end, the cards as the phones show them.
function renderResult(state) {
  const r = state.result, box = $("result"), end = Boolean(state.reveal) && state.phase === "end";
  box.hidden = (!r && !end) || state.phase === "lobby";
  box.replaceChildren(...(r ? voteLines(state, r) : []), ...(end ? revealLines(state) : []));
}

function voteLines(state, r) {
  const lines = [el("h3", t("lastVote"))];
  const name = (seat) => nameOf(state, Number(seat));
  if (r.votes) lines.push(el("p", t("votesFor") + listOf(Object.entries(r.votes).map(([v, x]) => votedFor(name(v), name(x))))));
  if (r.counts && Object.keys(r.counts).length) {
    const counted = Object.entries(r.counts).sort((a, b) => b[1] - a[1]).map(([s, n]) => isolate(name(s)) + " " + n);
    lines.push(el("p", t("counts") + listOf(counted)));
  }
  if (r.kind === "accusation" && r.suspects) lines.push(el("p", t("suspects") + listOf(r.suspects.map(name))));
  if (r.kind === "vote") {
    lines.push(el("p", t("dies") + (r.dead.length ? listOf(r.dead.map(name)) : t("nobody"))));
    if (r.shot && r.shot.length) lines.push(el("p", t("shot") + listOf(r.shot.map(name))));
  }
  if (r.kind === "verdict") lines.push(el("p", t("dies") + (r.condemned ? name(r.condemned) : t("nobody"))));
  return lines;
}

// Every card at the end (the players' list shows each player's): who held what when
// dealt where it moved, the cards in the centre or aside, those removed, the winners.
function revealLines(state) {
  const reveal = state.reveal, role = (id) => state.role_names[id] || id, out = [el("h3", t("cardsEnd"))];
  const moved = state.players.filter((p) => reveal.dealt[p.seat] && reveal.dealt[p.seat] !== reveal.cards[p.seat]);
  if (moved.length) out.push(el("p", t("dealt") + listOf(moved.map((p) => isolate(p.name) + " — " + role(reveal.dealt[p.seat])))));
  const aside = state.card_only_before_night ? t("centreCards") : t("asideCards");
  if (reveal.unseen.length) out.push(el("p", aside + listOf(reveal.unseen.map(role))));
  if ((reveal.removed || []).length) out.push(el("p", t("removedCards") + listOf(reveal.removed.map(role))));
  const teams = reveal.winners.teams.map((x) => state.team_names[x] || x);
  if (reveal.judged !== false) out.push(el("p", teams.length ? t("winners") + listOf(teams) : t("nobodyWins")));
  return out;
}

$("start").addEventListener("click", () => {
  act("/api/host/start", { roles: edited ? chosenDeck() : {}, deal: $("deal").checked });
});
$("deal").addEventListener("change", () => { if (view) render(); });
// Each command names the phase it was pressed in: a double tap is refused (409) by
// the server instead of skipping a whole phase. Ending asks first: it shows every card.
// The new phase can reach the page between the two taps of a double tap (the table
// answers in milliseconds, a thumb in a tenth of a second): a tap within DOUBLE_TAP of
// the last one was pressed in the phase that one was.
const DOUBLE_TAP = 500;  // ms: a thumb's double tap is 100-300 ms
let lastPress = { at: -Infinity, from: null };
function pressedIn() {
  const now = performance.now();
  const from = now - lastPress.at < DOUBLE_TAP ? lastPress.from : view.state.phase;
  lastPress = { at: now, from };
  return from;
}
$("next").addEventListener("click", () => act("/api/host/next", { from: pressedIn() }));
$("end").addEventListener("click", () => {
  if (!window.confirm(t("endConfirm"))) return;
  act("/api/host/end", { from: view.state.phase });
});
$("again").addEventListener("click", () => { edited = false; act("/api/host/again", {}); });
$("lock").addEventListener("click", () => act("/api/host/lock", { locked: !view.host.locked }));
// Marking a player out cannot be undone: the host is asked first, by name.
$("out").addEventListener("click", () => {
  const seat = Number($("out-seat").value), name = nameOf(view.state, seat);
  if (!window.confirm(t(view.state.eliminate === "table" ? "outConfirmTable" : "outConfirm", { name }))) return;
  act("/api/host/eliminate", { seat });
});
setInterval(() => showClock(deadline), 500);
loadWords("en", "host").catch(() => {}).finally(watch);
