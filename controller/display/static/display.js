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

function playerName(names, i, state) {
  if (names && names[i]) return names[i];
  const view = (state && state.board_view) || {};
  const colour = Array.isArray(view.players) && typeof view.players[i] === "string" ? view.players[i]
    : Array.isArray(view.players) && view.players[i] && view.players[i].colour_name;
  return colour ? `${colour} (player ${i})` : `player ${i}`;
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
    : `The display has lost the MQTT broker (${status.address}); reconnecting… What you see is the last state received.`;
  if (board !== undefined) {
    trouble.service = status.service === "offline"
      ? `The referee of board ${board} is offline (since ${clockTime(status.since)}); this is the last state it published.`
      : null;
  }
  showTrouble();
}

function listen(url, handlers) {
  const source = new EventSource(url);
  source.onopen = () => { trouble.server = null; showTrouble(); };
  source.onerror = () => {
    trouble.server = source.readyState === EventSource.CLOSED
      ? "This page may no longer follow the display (refused). Reload, or pair again."
      : "Lost the connection to the display server; retrying…";
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

// -- the hall -----------------------------------------------------------------------------------

function hall() {
  const cards = new Map();
  const statuses = {};
  listen("/api/hall/events", {
    status: (s) => { Object.assign(statuses, s.boards); applyStatus(s); for (const [b, c] of cards) mark(b, c); },
    board: (line) => drawers(line.board)(line),
  });

  const perBoard = new Map();
  function drawers(board) {
    if (!perBoard.has(board)) perBoard.set(board, latest(drawCard));
    return perBoard.get(board);
  }

  function drawCard(line) {
    let card = cards.get(line.board);
    if (!card) {
      card = el("a", { class: "card", href: `/board/${encodeURIComponent(line.board)}`, "data-board": line.board },
        el("div", { class: "thumb" }), el("div", { class: "meta" }));
      cards.set(line.board, card);
      const sorted = [...cards.keys()].sort();
      const next = cards.get(sorted[sorted.indexOf(line.board) + 1]);
      $("boards").insertBefore(card, next || null);
      $("empty").hidden = true;
      $("count").textContent = `${cards.size} board${cards.size === 1 ? "" : "s"}`;
    }
    const thumb = card.querySelector(".thumb img") || card.querySelector(".thumb").appendChild(el("img", { alt: "" }));
    if (thumb.getAttribute("src") !== line.thumb) thumb.src = line.thumb; // by reference: fetched once per version
    const meta = card.querySelector(".meta");
    let who = "";
    if (line.over) who = `game over: ${(line.winners || []).map((p) => playerName(line.names, p)).join(", ") || "nobody"} won`;
    else if (line.turn !== null && line.turn !== undefined) who = `${playerName(line.names, line.turn)} to play`;
    else who = "waiting for a roll or draw";
    meta.replaceChildren(el("strong", {}, line.board), ` · ${line.title || line.game} · ${who} · ${line.moves} moves`);
    if (line.violation) meta.append(" ", el("span", { class: "badge" }, "violation"));
    statuses[line.board] = line.status;
    mark(line.board, card);
    const drawn = () => announce(line.board, line.seq);
    if (thumb.complete) drawn(); else thumb.decode().then(drawn, drawn); // once the picture is in the page
  }

  function mark(board, card) {
    const offline = statuses[board] === "offline";
    card.classList.toggle("offline", offline);
    const badge = card.querySelector(".offline-badge");
    if (offline && !badge) card.querySelector(".meta").append(" ", el("span", { class: "badge offline-badge" }, "offline"));
    if (!offline && badge) badge.remove();
  }
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

  $("save-names").addEventListener("click", async () => {
    const names = [...document.querySelectorAll("#players input")].map((i) => i.value.trim());
    const answer = await fetch(`/api/board/${encodeURIComponent(id)}/names?key=${encodeURIComponent(key)}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(names),
    });
    $("names-note").textContent = answer.ok ? "saved"
      : answer.status === 403 ? "Only the operator's link (with its key) sets names." : await answer.text();
  });

  function draw(snap) {
    const s = snap.state;
    $("title").textContent = s ? `${id} · ${s.title}` : id;
    $("delay").textContent = snap.delay > 0 ? `shown ${snap.delay} s late` : "";
    if (!s) return;
    setHTML($("picture"), snap.svg);
    trouble.sensors = s.sensors === "down" ? "The board's sensors are disconnected." : null;
    showTrouble();

    let turn;
    if (s.over) {
      const w = (s.winners || []).map((p) => playerName(snap.names, p, s));
      turn = s.resigned !== null && s.resigned !== undefined
        ? `Game over: ${playerName(snap.names, s.resigned, s)} resigned; ${w.join(", ")} won`
        : `Game over: ${w.length ? w.join(", ") + " won" : "nobody won"}`;
    } else if (s.turn !== null) {
      turn = `${playerName(snap.names, s.turn, s)} to play`;
    } else {
      turn = "Waiting for a roll or a draw (press roll)";
    }
    $("turn").textContent = turn;

    const verdict = $("verdict");
    verdict.className = "verdict";
    if (s.violation) { verdict.textContent = `Not right: ${s.violation.message}`; }
    else if (s.setup) { verdict.textContent = `Set up: ${s.setup.message}`; verdict.classList.add("setup"); }
    else if (s.ambiguous) { verdict.textContent = `${s.ambiguous} moves fit the board: pick one with next and confirm.`; verdict.classList.add("setup"); }
    verdict.hidden = !(s.violation || s.setup || s.ambiguous);

    $("dice").replaceChildren(...dice(s).map((t) => el("p", {}, t)));

    const names = JSON.stringify([snap.names, snap.colours]);
    const rows = $("players").tBodies[0];
    const editing = rows.contains(document.activeElement);
    if (!editing && (names !== namesShown || rows.rows.length !== s.num_players)) {
      rows.replaceChildren(...s.players.map((p) => el("tr", { "data-player": p.index },
        el("td", {}, el("span", { class: "swatch", style: `background:${snap.colours[p.index] || p.colour}` })),
        el("td", {}, Object.assign(el("input", { "aria-label": `name of player ${p.index}`,
          placeholder: playerName([], p.index, s) }), { value: (snap.names || [])[p.index] || "" })),
        el("td", { class: "score" }), el("td", { class: "clock" }))));
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
      $("moves").replaceChildren(...snap.moves.map(([n, text]) => el("li", { value: n }, text)));
      $("moves").scrollTop = $("moves").scrollHeight;
    }
    $("log").replaceChildren(...(snap.log.length ? snap.log : ["nothing out of the ordinary"]).map((line) => el("li", {}, line)));
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
      const show = el("button", { type: "button" }, `Seat ${p.index}: ${playerName(names, p.index, s)}`);
      show.addEventListener("click", () => pair(box, p.index, "GET"));
      box.append(show);
      return box;
    }));
  }

  async function pair(box, seat, method) {
    const answer = await fetch(`/api/board/${encodeURIComponent(id)}/pair/${seat}?key=${encodeURIComponent(key)}`, { method });
    if (!answer.ok) {
      box.querySelector(".paired")?.remove();
      box.append(el("div", { class: "paired" }, "Only the operator's link (with its key) pairs phones to seats."));
      return;
    }
    const { url, qr } = await answer.json();
    const code = el("div", { class: "qr" });
    code.innerHTML = qr;
    const renew = el("button", { type: "button" }, "new code (the old one stops working)");
    renew.addEventListener("click", () => pair(box, seat, "POST"));
    const hide = el("button", { type: "button" }, "hide");
    hide.addEventListener("click", () => { box.querySelector(".paired")?.remove(); });
    box.querySelector(".paired")?.remove();
    box.append(el("div", { class: "paired" }, code, el("a", { href: url, class: "seat-link" }, url), el("br"), renew, hide));
  }
}

function dice(s) {
  // Dice, draws and the sync state, from the game's public view.
  const v = s.board_view || {};
  const out = [];
  if (s.game === "jeocinco") {
    if (v.roll) out.push(`Roll: ${v.roll}`);
    if (v.pieces_to_place) out.push(`Pieces to place: ${v.pieces_to_place.rolled} + ${v.pieces_to_place.extra} extra`);
    if (v.dispute) out.push(`Dispute over ${v.dispute.slot}: player ${v.dispute.challenger} challenges player ${v.dispute.challenged}`);
  } else if (s.game === "scriptorium") {
    if (v.die) out.push(`Colour die: ${v.die}${v.number ? `, number die: ${v.number}` : ""}`);
    out.push(v.aligned ? "Sync: ALIGNED, the board is frozen" : `Sync clock: the ${v.active_part} turns next (round ${v.round})`);
    if (v.required_turn) out.push(`Turn the ${v.required_turn.part} ${v.required_turn.direction} by ${v.required_turn.spaces} (${v.required_turn.why})`);
  } else if (s.game === "serpientes") {
    if (v.revealed && v.revealed.length) out.push(`Revealed: ${v.revealed.join(", ")}`);
    if (v.deck_size !== null && v.deck_size !== undefined) out.push(`Deck ${v.deck_size} cards, discards ${v.discard_size}`);
    out.push(`Tokens left: ${(v.tokens || []).length} · round ${v.round} of ${v.max_rounds}`);
  } else if (s.game === "contigo") {
    if (v.phase) out.push(v.phase === "move" ? "Move a pawn" : "Move beads");
  }
  if (s.pending_chance) out.push(`Pending: ${s.pending_chance.outcomes.length} possible outcomes`);
  if (s.last_action) out.push(`Last: ${s.last_action}`);
  return out;
}

// -- a seat (a player's phone) ------------------------------------------------------------------

function seat() {
  const [, , id, , n] = location.pathname.split("/");
  const token = new URLSearchParams(location.search).get("token") || "";
  const base = `/api/board/${id}/seat/${n}`;
  let offer = [];
  const source = listen(`${base}/events?token=${encodeURIComponent(token)}`, {
    status: (s) => applyStatus(s, decodeURIComponent(id)),
    seat: draw,
    gone: () => {
      source.close();
      trouble.server = "This phone's pairing was replaced by a new code: scan it again.";
      showTrouble();
    },
  });
  $("filter").addEventListener("input", drawOffer);

  function draw(d) {
    const name = playerName(d.names, d.seat);
    $("title").replaceChildren(el("span", { class: "swatch", style: `background:${d.colour || "#ccc"}` }), ` ${name} · ${decodeURIComponent(id)}`);
    document.title = `arbitro · ${name}`;
    $("whose").textContent = d.over ? "The game is over." : d.turn === d.seat ? "Your turn!"
      : d.turn === null ? "Waiting for a roll or a draw." : `${playerName(d.names, d.turn)} to play.`;
    const p = d.private || {};
    const hand = p.hand || (p.hand_size !== undefined ? Array(p.hand_size).fill("(card in your hand)") : []);
    $("hand").replaceChildren(...hand.map((c) => el("li", {}, c)));
    const sequence = p.sequence || (p.sequence_length ? Array(p.sequence_length).fill("(card)") : []);
    $("sequence").replaceChildren(...sequence.map((c) => el("li", {}, c)));
    $("sequence-box").hidden = sequence.length === 0;
    $("choices").replaceChildren(...(p.choices || []).map((c) => el("li", {}, c)));
    $("choices-box").hidden = !(p.choices && p.choices.length);
    $("nothing").hidden = hand.length > 0 || sequence.length > 0 || p.cards === "physical";
    offer = d.offer || [];
    $("play").hidden = offer.length === 0;
    drawOffer();
  }

  function drawOffer() {
    const words = $("filter").value.trim().toLowerCase();
    const shown = offer.filter((m) => m.toLowerCase().includes(words)).slice(0, 200);
    $("offer").replaceChildren(...shown.map((move) => {
      const b = el("button", { type: "button" }, move);
      b.addEventListener("click", async () => {
        const answer = await fetch(`${base}/play?token=${encodeURIComponent(token)}`, {
          method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ action: move }),
        });
        if (answer.ok) { offer = []; $("play").hidden = true; }
      });
      return b;
    }));
  }
}

({ hall, board, seat })[document.body.dataset.page]();
