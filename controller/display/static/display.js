// arbitro display: the hall, a board and a seat, live over Server-Sent Events (docs/display.md).
// The server sends whole snapshots, so every handler simply redraws from what it gets.
"use strict";

let skew = 0; // server clock minus this browser's, in seconds (the game clock ticks in server time)
const serverNow = () => Date.now() / 1000 + skew;
const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "style") node.style.cssText = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function duration(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${r}` : `${m}:${r}`;
}

function clockTime(iso) {
  return iso ? new Date(iso * 1000).toLocaleTimeString() : "";
}

// -- the players' language: controller/locale's catalogue as JSON (docs/display.md) ------------

const LANGUAGES = { es: "Español", en: "English" };
let lang = "es";
let words = {}; // code -> template in the page's language

function chooseLanguage() {
  // The switch's choice, else the browser's first language arbitro speaks, else Spanish (the players').
  const kept = localStorage.getItem("arbitro.lang");
  if (kept in LANGUAGES) return kept;
  for (const l of navigator.languages || [navigator.language || ""]) {
    const base = l.slice(0, 2).toLowerCase();
    if (base in LANGUAGES) return base;
  }
  return "es";
}

function fill(template, params) {
  return template.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

function t(code, english, params = {}) {
  // A text of the page (extracted by python -m controller.locale: msgctxt the code, msgid the English).
  return fill(words[code] ?? english, params);
}

function tn(code, one, other, params) {
  // A text of the page said by a number (params.count): its forms, the one for 1 first, the other last.
  const forms = words[code] ?? [one, other];
  return fill(Array.isArray(forms) ? forms[Number(params.count) === 1 ? 0 : forms.length - 1] : forms, params);
}

function saidMove(said, text, names, players) {
  // A move in words (an event's action_words, the state's last_action_words), else its notation.
  return (said && said.code ? say(said.code, said.params || {}, names, players) : null) ?? text;
}

function say(code, params, names, players) {
  // What the service said (an event's or a violation's code and params), in the page's language.
  const said = (v) => {
    if (Array.isArray(v)) return v.map(said).join("; ");
    if (v && typeof v === "object") return say(v.code, v.params || {}, names, players);
    const seat = /^player (\d+)(?: \([A-Za-z]+\))?$/.exec(String(v));
    if (seat) return playerName(names, Number(seat[1]), players);
    return words[`word.${v}`] ?? String(v);
  };
  const out = {};
  for (const [k, v] of Object.entries(params || {})) out[k] = said(v);
  if (!(code in words)) return null;
  const forms = words[code]; // a text said by a number: its CLDR forms, the one for 1 first, the most common last
  return fill(Array.isArray(forms) ? forms[Number(params.count) === 1 ? 0 : forms.length - 1] : forms, out);
}

function sayPicture(node, names, players) {
  // A board picture's words (each with its data-code and data-params) in the page's language and names.
  for (const said of node.querySelectorAll("[data-code]")) {
    const text = say(said.dataset.code, JSON.parse(said.dataset.params || "{}"), names, players);
    if (text !== null && said.textContent !== text) said.textContent = text;
  }
}

function languageSwitch() {
  // On every page: the language, kept in this browser.
  const pick = el("select", { id: "lang", "aria-label": t("display.language", "Language") },
    ...Object.entries(LANGUAGES).map(([code, name]) => el("option", { value: code }, name)));
  pick.value = lang;
  pick.addEventListener("change", () => { localStorage.setItem("arbitro.lang", pick.value); location.reload(); });
  document.querySelector("header").append(pick);
}

// Who plays a seat (the state's players[].seat): a person at the table or on a phone, or a computer player at its level.
function seatName(seat) {
  if (seat === "phone") return t("display.seat.phone", "on a phone");
  const level = (seat || "table").replace(/^bot:/, "");
  if (seat === "remote") return t("display.seat.remote", "at the other board");
  if (level === "table" || level === seat) return t("display.seat.table", "at the table");
  const levels = { easy: t("display.seat.easy", "easy"), medium: t("display.seat.medium", "medium"), hard: t("display.seat.hard", "hard") };
  return t("display.seat.bot", "computer ({level})", { level: levels[level] || level });
}

function playerName(names, i, players) {
  // People, not indices: a name given, else the colour of his pieces, else his seat counted from 1.
  if (names && names[i]) return names[i];
  const colour = Array.isArray(players) && players[i] ? players[i].colour_name : null;
  if (colour) return words[`word.${colour}`] ?? colour;
  return t("word.player", "player {number}", { number: i + 1 });
}

// -- what can go wrong between the table and this page ------------------------------------------

const trouble = { server: null, broker: null, service: null, sensors: null };

function showTrouble() {
  const lines = Object.values(trouble).filter(Boolean);
  const banner = $("banner");
  banner.hidden = lines.length === 0;
  banner.textContent = lines.join(" ");
}

function applyStatus(status, board) {
  trouble.broker = status.broker ? null
    : status.why === "not_mqtt5"
      ? t("display.trouble.not_mqtt5", "The MQTT broker ({address}) does not speak MQTT 5, which arbitro needs: use Mosquitto 1.6 or later, or EMQX.",
        { address: status.address })
      : t("display.trouble.broker", "The display has lost the MQTT broker ({address}); reconnecting… What you see is the last state received.",
        { address: status.address });
  if (board !== undefined) {
    trouble.service = status.service === "offline"
      ? t("display.trouble.offline", "The referee of board {board} is offline (since {since}); this is the last state it published.",
        { board, since: clockTime(status.since) })
      : null;
  }
  showTrouble();
}

function listen(url, handlers) {
  const source = new EventSource(url);
  source.onopen = () => { trouble.server = null; showTrouble(); };
  source.onerror = () => {
    trouble.server = source.readyState === EventSource.CLOSED
      ? t("display.trouble.refused", "This page may no longer follow the display (refused). Reload, or pair again.")
      : t("display.trouble.server", "Lost the connection to the display server; retrying…");
    showTrouble();
  };
  for (const [name, fn] of Object.entries(handlers)) {
    source.addEventListener(name, (e) => fn(JSON.parse(e.data)));
  }
  return source;
}

function latest(draw) {
  // Draw at most once per frame: a burst of snapshots (many quick moves) costs one drawing.
  let pending = null;
  return (data) => {
    if (pending === null) requestAnimationFrame(() => { const d = pending; pending = null; draw(d); });
    pending = data;
  };
}

function setHTML(node, html) {
  if (node.arbitroHtml !== html) { node.innerHTML = html; node.arbitroHtml = html; }
}

function announce(board, seq) {
  // For benchmarks and tests: the page has drawn this state.
  document.dispatchEvent(new CustomEvent("arbitro:update", { detail: { board, seq, t: Date.now() } }));
}

// -- a board ------------------------------------------------------------------------------------

function board() {
  const id = decodeURIComponent(location.pathname.split("/")[2]);
  document.title = `arbitro · ${id}`;
  let last = null;
  let namesShown = "";

  listen(`/api/board/${encodeURIComponent(id)}/events`, {
    status: (s) => applyStatus(s, id),
    board: latest((snap) => { skew = snap.now - Date.now() / 1000; last = snap; draw(snap); }),
  });
  setInterval(() => last && drawClocks(last), 1000);

  const key = new URLSearchParams(location.search).get("key") || ""; // the operator's link has it
  const withKey = key ? `key=${encodeURIComponent(key)}` : ""; // the record: a game in play's hidden cards too
  $("record-download").href = `/api/board/${encodeURIComponent(id)}/record${withKey ? `?${withKey}` : ""}`;
  $("record-replay").href = `/replay?board=${encodeURIComponent(id)}${withKey ? `&${withKey}` : ""}`;

  $("save-names").addEventListener("click", async () => {
    const names = [...document.querySelectorAll("#players input")].map((i) => i.value.trim());
    const answer = await fetch(`/api/board/${encodeURIComponent(id)}/names?key=${encodeURIComponent(key)}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(names),
    });
    $("names-note").textContent = answer.ok ? t("display.board.saved", "saved")
      : answer.status === 403 ? t("display.board.names_key", "Only the operator's link (with its key) sets names.") : await answer.text();
  });

  function draw(snap) {
    const s = snap.state;
    $("title").textContent = s ? `${id} · ${s.title}` : id;
    $("delay").textContent = snap.delay > 0 ? t("display.board.late", "shown {seconds} s late", { seconds: snap.delay }) : "";
    if (!s) return;
    setHTML($("picture"), snap.svg);
    sayPicture($("picture"), snap.names, s.players);
    trouble.sensors = s.sensors === "down" ? t("display.trouble.sensors", "The board's sensors are disconnected.") : null;
    showTrouble();

    let turn;
    const who = (p) => playerName(snap.names, p, s.players);
    if (s.over) {
      const w = (s.winners || []).map(who).join(", ");
      turn = s.resigned !== null && s.resigned !== undefined
        ? t("display.board.resigned", "Game over: {player} resigned; {winners} won", { player: who(s.resigned), winners: w })
        : w ? t("display.board.won", "Game over: {winners} won", { winners: w }) : t("display.board.nobody_won", "Game over: nobody won");
    } else if (s.turn !== null) {
      turn = t("display.to_play", "{player} to play", { player: who(s.turn) });
    } else {
      turn = t("display.board.waiting_chance", "Waiting for chance: dice, a card or who starts");
    }
    $("turn").textContent = turn;

    const verdict = $("verdict");
    verdict.className = "verdict";
    const marked = (m) => say(m.code, m.params, snap.names, s.players) ?? m.message; // in the page's language
    if (s.violation) { verdict.textContent = t("display.board.not_right", "Not right: {message}", { message: marked(s.violation) }); }
    else if (s.setup) { verdict.textContent = t("display.board.set_up", "Set up: {message}", { message: marked(s.setup) }); verdict.classList.add("setup"); }
    else if (s.ambiguous) { verdict.textContent = tn("display.board.ambiguous", "{count} move fits the board: pick it with next and confirm.", "{count} moves fit the board: pick one with next and confirm.", { count: s.ambiguous }); verdict.classList.add("setup"); }
    verdict.hidden = !(s.violation || s.setup || s.ambiguous);

    $("dice").replaceChildren(...dice(s, snap.names).map((line) => el("p", {}, line)));

    const names = JSON.stringify([snap.names, snap.colours, s.players.map((p) => p.seat)]);
    const rows = $("players").tBodies[0];
    const editing = rows.contains(document.activeElement);
    if (!editing && (names !== namesShown || rows.rows.length !== s.num_players)) {
      rows.replaceChildren(...s.players.map((p) => el("tr", { "data-player": p.index },
        el("td", {}, el("span", { class: "swatch", style: `background:${snap.colours[p.index] || p.colour}` })),
        el("td", {}, Object.assign(el("input", { "aria-label": t("display.board.name_of", "name of {player}", { player: playerName([], p.index, s.players) }),
          placeholder: playerName([], p.index, s.players) }), { value: (snap.names || [])[p.index] || "" })),
        el("td", { class: "seat" }, seatName(p.seat)), el("td", { class: "score" }), el("td", { class: "clock" }))));
      namesShown = names;
    }
    for (const row of rows.rows) {
      const p = Number(row.dataset.player);
      row.classList.toggle("to-play", s.turn === p);
      row.querySelector(".score").textContent = s.scores[p] ?? "";
    }
    drawClocks(snap);
    $("move-count").textContent = s.moves;

    const moveKey = JSON.stringify(snap.moves.slice(-1)) + snap.moves.length;
    if ($("moves").dataset.key !== moveKey) {
      $("moves").dataset.key = moveKey;
      $("moves").replaceChildren(...snap.moves.map(([n, text, said]) => el("li", { value: n, title: text }, saidMove(said, text, snap.names, s.players))));
      $("moves").scrollTop = $("moves").scrollHeight;
    }
    $("log").replaceChildren(...(snap.log.length ? snap.log : [t("display.board.quiet", "nothing out of the ordinary")]).map((line) => el("li", {}, line)));
    $("log").scrollTop = $("log").scrollHeight;
    drawSeats(s, snap.names);
    document.body.dataset.seq = s.seq;
    announce(id, s.seq);
  }

  function drawClocks(snap) {
    // The state's own clock (the service stamps it), ticking on from the state's time.
    const s = snap.state, c = snap.clock;
    if (!s || !c) return;
    const now = serverNow() - (snap.delay || 0);
    $("game-clock").textContent = duration(c.elapsed + (c.ended_at === null ? Math.max(0, now - s.time) : 0));
    for (const row of $("players").tBodies[0].rows) {
      const p = Number(row.dataset.player);
      const running = s.turn === p && c.turn_started_at !== null ? now - c.turn_started_at : 0;
      row.querySelector(".clock").textContent = duration((c.used[p] || 0) + running);
    }
  }

  function drawSeats(s, names) {
    const seats = $("seats");
    if (seats.children.length === s.num_players) return;
    seats.replaceChildren(...s.players.map((p) => {
      const box = el("div", { class: "seat" });
      const show = el("button", { type: "button" }, t("display.board.pair_seat", "Seat {number}: {player}", { number: p.index + 1, player: playerName(names, p.index, s.players) }));
      show.addEventListener("click", () => pair(box, p.index, "GET"));
      box.append(show);
      return box;
    }));
  }

  async function pair(box, seat, method) {
    const answer = await fetch(`/api/board/${encodeURIComponent(id)}/pair/${seat}?key=${encodeURIComponent(key)}`, { method });
    if (!answer.ok) {
      box.querySelector(".paired")?.remove();
      box.append(el("div", { class: "paired" }, t("display.board.pair_key", "Only the operator's link (with its key) pairs phones to seats.")));
      return;
    }
    const { url, qr, warning } = await answer.json();
    const code = el("div", { class: "qr" });
    code.innerHTML = qr;
    const renew = el("button", { type: "button" }, t("display.board.renew", "new code (the old one stops working)"));
    renew.addEventListener("click", () => pair(box, seat, "POST"));
    const hide = el("button", { type: "button" }, t("display.board.hide", "hide"));
    hide.addEventListener("click", () => { box.querySelector(".paired")?.remove(); });
    box.querySelector(".paired")?.remove();
    const far = warning ? el("p", { class: "warning" }, t("display.board.loopback",
      "Phones cannot reach this address (this machine's own): start the display with --public-url and the address phones reach it at.")) : "";
    box.append(el("div", { class: "paired" }, code, el("a", { href: url, class: "seat-link" }, url), far, el("br"), renew, hide));
  }
}

function dice(s, names) {
  // What the game says beside its picture (its notes: dice, cards, a dispute, a clock), then chance.
  const out = [];
  for (const note of s.notes || []) out.push(say(note.code, note.params, names, s.players) ?? note.message);
  if (s.pending_chance) out.push(tn("display.dice.pending", "Pending: {count} possible outcome", "Pending: {count} possible outcomes", { count: s.pending_chance.outcomes.length }));
  if (s.last_action) out.push(t("display.dice.last", "Last: {action}", { action: saidMove(s.last_action_words, s.last_action, names, s.players) }));
  const r = s.remote;  // a game on two boards (docs/remote.md): where the next move is made or carried out
  if (r) {
    const other = r.here === r.host ? r.joiner : r.host;
    const away = s.turn !== null && (s.players[s.turn] || {}).seat === "remote";
    if (r.stopped) out.push(t("display.remote.stopped", "The game with board {board} stopped at action {seq}: {reason}", { board: other, seq: r.stopped.seq, reason: r.stopped.reason }));
    else if (r.carry_out_here) out.push(t("display.remote.carry_out", "Board {board} played: carry its move out here", { board: other }));
    else if (away) out.push(t("display.remote.waiting", "Board {board} is to play", { board: other }));
    else out.push(t("display.remote.playing", "Played with board {board}", { board: other }));
  }
  return out;
}

async function start() {
  lang = chooseLanguage();
  document.documentElement.lang = lang;
  try {
    const table = await (await fetch("/static/i18n.json")).json();
    words = table[lang] || {};
  } catch { words = {}; } // no catalogue: the page speaks English rather than not at all
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t, node.textContent.trim());
  $("filter")?.setAttribute("placeholder", t("display.seat.filter", "filter moves (e.g. c3)"));
  if (document.body.dataset.page === "hall") document.title = t("display.hall.title", "arbitro · the hall");
  languageSwitch();
  // each page's own script: hall.js, seat.js, results.js, replay.js (the viewer: nothing to start); board() is here
  ({ hall: window.hall, board, seat: window.seat, results: window.results })[document.body.dataset.page]?.();
}

// After every deferred script (seat.js, replay.js) has run; replay.js draws once the page's words are in.
const started = new Promise((resolve) => window.addEventListener("DOMContentLoaded", () => resolve(start())));
