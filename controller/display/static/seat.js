// arbitro display: a seat's page, a player's phone (docs/display.md). display.js, loaded first,
// has the page's words, its stream and the players' names; its start() calls seat().
"use strict";

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
      trouble.server = t("display.trouble.replaced", "This phone's pairing was replaced by a new code: scan it again.");
      showTrouble();
    },
  });
  $("filter").addEventListener("input", drawOffer);
  let myTurn = false;
  let seatSaid = {}, seatNames = [], seatPlayers = [];  // the offered moves in words, and who is who
  for (const wake of ["pointerdown", "keydown"]) document.addEventListener(wake, wakeAudio, { once: true });
  const taps = tapper(base, token);

  function draw(d) {
    const mine = !d.over && d.turn === d.seat;
    if (mine && !myTurn) { turnCue(); if (navigator.vibrate) navigator.vibrate([120, 80, 120]); }
    myTurn = mine;
    const name = playerName(d.names, d.seat, d.players);
    $("title").replaceChildren(el("span", { class: "swatch", style: `background:${d.colour || "#ccc"}` }), ` ${name} · ${decodeURIComponent(id)}`);
    document.title = `arbitro · ${name}`;
    $("whose").textContent = d.over ? ended(d) : d.turn === d.seat ? t("display.seat.your_turn", "Your turn!")
      : d.turn === null ? t("display.seat.waiting_chance", "Waiting for chance: dice, a card or who starts.")
        : t("display.seat.to_play", "{player} to play.", { player: playerName(d.names, d.turn, d.players) });
    $("points").hidden = !d.over;
    if (d.over) $("points").textContent = points(d);
    const p = d.private || {};
    const hand = (p.hand || []).map((c) => words[`word.${c}`] ?? c);
    if (!p.hand && p.hand_size !== undefined) hand.push(...Array(p.hand_size).fill(t("display.seat.card_in_hand", "(card in your hand)")));
    $("hand").replaceChildren(...hand.map((c) => el("li", {}, c)));
    const sequence = (p.sequence || []).map((c) => words[`word.${c}`] ?? c);
    if (!p.sequence && p.sequence_length) sequence.push(...Array(p.sequence_length).fill(t("display.seat.card", "(card)")));
    $("sequence").replaceChildren(...sequence.map((c) => el("li", {}, c)));
    $("sequence-box").hidden = sequence.length === 0;
    // The choices next / confirm pick among at the table; a phone seat has them as its buttons below the picture.
    const choices = Array.isArray(p.moves) ? [] : p.choices || [];
    $("choices").replaceChildren(...choices.map((c) => el("li", {}, face(d.faces, c),
      saidMove((d.said || {})[c], c, d.names, d.players))));
    $("choices-box").hidden = choices.length === 0;
    $("nothing").hidden = hand.length > 0 || sequence.length > 0 || p.cards === "physical";
    // A takeback across a chance outcome this seat has seen waits for its consent (docs/rules/takebacks.md).
    $("takeback-box").hidden = !p.takeback;
    if (p.takeback) {
      $("takeback-move").textContent = t("display.seat.takeback_move",
        "Taking back {move} needs your consent: the chance outcome after it has been seen.", { move: p.takeback.move });
    }
    offer = d.offer || [];
    [seatSaid, seatNames, seatPlayers] = [d.said, d.names, d.players];
    $("play").hidden = offer.length === 0;
    drawOffer();
    taps.draw(d);
  }

  for (const [button, agree] of [["takeback-yes", true], ["takeback-no", false]]) {
    $(button).addEventListener("click", () => fetch(`${base}/consent?token=${encodeURIComponent(token)}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ agree }),
    }));
  }

  function drawOffer() {
    const words = $("filter").value.trim().toLowerCase();
    const said = (move) => saidMove((seatSaid || {})[move], move, seatNames, seatPlayers);
    const shown = offer.filter((m) => m.toLowerCase().includes(words) || said(m).toLowerCase().includes(words)).slice(0, 200);
    $("offer").replaceChildren(...shown.map((move) => {
      const b = el("button", { type: "button", "data-action": move, title: move }, said(move));
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

function ended(d) {
  // Who won, by name, in the page's language.
  const winners = (d.winners || []).map((p) => playerName(d.names, p, d.players));
  return winners.length ? t("display.seat.won", "Game over: {winners} won.", { winners: winners.join(", ") })
    : t("display.seat.nobody_won", "Game over: nobody won.");
}

function points(d) {
  // Each player's points as the rules count them (the state's scores).
  const number = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 });
  const each = (d.scores || []).map((s, p) => tn("display.seat.points_of", "{player}: {count} point", "{player}: {count} points",
    { player: playerName(d.names, p, d.players), count: number.format(s) }));
  return t("display.seat.points", "Points: {points}", { points: each.join(" · ") });
}

function face(faces, action) {
  // What a move is, drawn by its game (a pentagon's colour, a card's face), beside its words.
  const svg = (faces || {})[action];
  if (!svg) return "";
  const box = el("span", { class: "face", "aria-hidden": "true" });
  box.innerHTML = svg;
  return box;
}

// A phone seat plays by tapping its picture (docs/display.md). The service gives each move it may
// play with its taps (player/<n>'s moves: the channels it changes, what it lifts first, each with
// the taps it takes); where the game's picture places a channel (the seat's xy) a target is drawn.
// A tap is taken when some move still has room for it; the first place tapped is what moves (a move
// that starts there is preferred). A move is sent once the taps make it and no other is left,
// unless it puts things one tap each in a counting place (a pit's beads): tapping it again adds one,
// so that move waits for its send button. Places closer than a target's size share a target: tapping
// it opens an enlarged inset of the picture around them, where each has its own target.
const TAP_PX = 44;  // a target's size, as display.css draws it
const APART_PX = 40;  // places closer than this share a target (targets of two may overlap 4 px at their rims)
const INSET_RATIO = 0.6;  // the inset's height to its width
function tapper(base, token) {
  let moves = [], movesKey = "", tapped = new Map(), xy = {}, counts = new Set(), faces = {}, note = "", inset = [];
  let inWords = (action) => action;

  const needs = (move) => new Map(move.taps);
  const fits = (move) => [...tapped].every(([c, n]) => n <= (needs(move).get(c) || 0));
  const made = (move) => move.taps.length > 0 && fits(move) && move.taps.every(([c, n]) => tapped.get(c) === n);
  const placed = (move) => move.taps.length > 0 && move.taps.every(([c]) => c in xy);
  const counting = (move) => move.taps.some(([c]) => counts.has(c));
  function open() {
    // The moves the taps still fit; those that start where the first tap was, if any do.
    const first = tapped.keys().next().value, all = moves.filter(fits);
    const starting = all.filter((m) => m.taps.length && m.taps[0][0] === first);
    return starting.length ? starting : all;
  }

  function draw(d) {
    const p = d.private || {};
    xy = d.xy || {};
    counts = new Set(d.counts || []);
    faces = d.faces || {};
    inWords = (action) => saidMove((d.said || {})[action], action, d.names, d.players);  // a move in words
    const next = Array.isArray(p.moves) ? p.moves : [];
    const key = JSON.stringify(next.map((m) => m.action));
    if (key !== movesKey) { movesKey = key; tapped = new Map(); inset = []; if (next.length) note = ""; }
    moves = next;
    $("tap-box").hidden = !d.svg;
    setHTML($("seat-picture"), d.svg || "");
    sayPicture($("seat-picture"), d.names, d.players);  // its words in the page's language
    redraw();
  }

  function frame(svg) {
    // The picture's coordinates and its size on the page.
    const box = svg && svg.viewBox && svg.viewBox.baseVal && svg.viewBox.baseVal.width ? svg.viewBox.baseVal : null;
    return box ? { x: box.x, y: box.y, w: box.width, h: box.height, px: svg.getBoundingClientRect().width / box.width } : null;
  }

  function target(places, fx, fy, crowd) {
    // A button over the picture at (fx, fy), a fraction of its size: one place's, or a crowd's.
    const taps = places.reduce((n, c) => n + (tapped.get(c) || 0), 0);
    const style = `left:${fx * 100}%;top:${fy * 100}%`;
    const b = crowd
      ? el("button", { type: "button", class: taps ? "tap crowd tapped" : "tap crowd", "data-channels": places.join(" "),
        "aria-label": t("display.seat.enlarge", "enlarge"), style }, taps ? String(taps) : "+")
      : el("button", { type: "button", class: taps ? "tap tapped" : "tap", "data-channel": places[0],
        "aria-label": places[0].split(":").pop(), style }, taps ? String(taps) : "");
    b.addEventListener("click", () => { if (crowd) { inset = inset.length ? [] : places; redraw(); } else tap(places[0]); });
    return b;
  }

  function redraw() {
    const picture = $("seat-picture"), svg = picture.querySelector("svg"), f = frame(svg);
    picture.querySelectorAll(".tap").forEach((b) => b.remove());
    const room = new Set();
    for (const move of open().filter(placed)) for (const [c, n] of move.taps) if ((tapped.get(c) || 0) < n) room.add(c);
    const lit = [...new Set([...room, ...tapped.keys()])].filter((c) => f && c in xy);
    const spots = [];  // each target: where (in the picture's coordinates) and the places it stands for
    for (const c of lit) {
      const near = spots.find((s) => Math.hypot(s.x - xy[c][0], s.y - xy[c][1]) * f.px < APART_PX);
      if (near) near.places.push(c); else spots.push({ x: xy[c][0], y: xy[c][1], places: [c] });
    }
    for (const { x, y, places } of spots) picture.append(target(places, (x - f.x) / f.w, (y - f.y) / f.h, places.length > 1));
    inset = inset.filter((c) => lit.includes(c));
    drawInset(svg, f);
    // What the taps make so far (more than one move, or one waiting for its send button), and the
    // moves no picture can show (a colour, a card, a decision): buttons, each saying what it decides.
    const made_ = open().filter(made);
    const offered = tapped.size ? made_ : moves.filter((m) => !placed(m));
    $("tap-moves").replaceChildren(...offered.map((move) => {
      const words = tapped.size ? t("display.seat.send", "Send: {move}", { move: inWords(move.action) }) : inWords(move.action);
      const b = el("button", { type: "button", "data-action": move.action }, face(faces, move.action), el("span", {}, words));
      b.addEventListener("click", () => send(move.action));
      return b;
    }));
    $("tap-clear").hidden = tapped.size === 0;
    const placing = moves.some(placed), choosing = moves.some((m) => !placed(m));
    $("tap-note").textContent = note || (inset.length ? t("display.seat.inset", "Places close together, enlarged below: tap yours there.") : "")
      || (made_.length && open().some((m) => !made(m)) ? t("display.seat.tap_send", "Tap a place again to add one more, or send the move below.") : "")
      || (made_.length ? t("display.seat.send_below", "Send the move below, or start again.") : "")
      || (tapped.size ? t("display.seat.tap_more", "Tap on: where it goes.") : "")
      || (placing ? t("display.seat.tap", "Your move: tap what moves on the board, then where it goes.")
        : choosing ? t("display.seat.choose", "Your move: choose below.") : "");
  }

  function drawInset(svg, f) {
    // The picture again, enlarged around the crowd's places, each with its own target.
    const box = $("tap-inset");
    box.hidden = inset.length === 0;
    if (!inset.length || !svg) { box.replaceChildren(); return; }
    const pts = inset.map((c) => xy[c]);
    const xs = pts.map((q) => q[0]), ys = pts.map((q) => q[1]);
    let closest = Infinity;
    for (let i = 0; i < pts.length; i++) for (let j = i + 1; j < pts.length; j++) {
      const apart = Math.hypot(pts[i][0] - pts[j][0], pts[i][1] - pts[j][1]) * f.px;
      if (apart > 1) closest = Math.min(closest, apart);
    }
    const spanX = Math.max(...xs) - Math.min(...xs), spanY = Math.max(...ys) - Math.min(...ys);
    // Enough to set the places a target and a half apart, but all of them in sight.
    const zoom = Math.max(1.5, Math.min(8, closest === Infinity ? 3 : 1.5 * TAP_PX / closest,
      spanX ? 0.75 * f.w / spanX : 8, spanY ? 0.75 * f.w * INSET_RATIO / spanY : 8));
    const w = f.w / zoom, h = w * INSET_RATIO;
    const cx = (Math.max(...xs) + Math.min(...xs)) / 2, cy = (Math.max(...ys) + Math.min(...ys)) / 2;
    const x0 = Math.min(Math.max(cx - w / 2, f.x), f.x + f.w - w), y0 = Math.min(Math.max(cy - h / 2, f.y), f.y + Math.max(f.h - h, 0));
    const copy = svg.cloneNode(true);
    copy.setAttribute("viewBox", `${x0} ${y0} ${w} ${h}`);
    copy.removeAttribute("height");
    box.replaceChildren(copy);
    // Places still too close once enlarged (one spot, say) are spread round their middle.
    const at = inset.map((c) => [(xy[c][0] - x0) / w, (xy[c][1] - y0) / h]);
    const width = box.getBoundingClientRect().width || 1, height = width * INSET_RATIO;
    inset.forEach((c, i) => {
      const [fx, fy] = at[i];
      const same = at.map((q, k) => k).filter((k) => Math.hypot((at[k][0] - fx) * width, (at[k][1] - fy) * height) < APART_PX);
      const turn = (2 * Math.PI * same.indexOf(i)) / same.length, r = same.length > 1 ? TAP_PX * 0.6 : 0;
      box.append(target([c], fx + (Math.sin(turn) * r) / width, fy - (Math.cos(turn) * r) / height, false));
    });
    box.scrollIntoView({ block: "nearest" });
  }

  function tap(channel) {
    const before = new Map(tapped);
    tapped.set(channel, (tapped.get(channel) || 0) + 1);
    if (!moves.some(fits)) { tapped = before; return; }
    const now = open(), done = now.filter(made);
    if (now.length === 1 && done.length === 1 && !counting(done[0])) { send(done[0].action); return; }
    redraw();
  }

  async function send(action) {
    // A move tapped on the picture is shown there (lit, as on the board): the note need not name its places.
    const traced = moves.some((m) => m.action === action && m.taps.length), said = inWords(action);
    tapped = new Map();
    inset = [];
    note = traced ? t("display.seat.sending_it", "Sending your move…") : t("display.seat.sending", "Sending {move}…", { move: said });
    redraw();
    const answer = await fetch(`${base}/move?token=${encodeURIComponent(token)}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ action }),
    });
    const text = await answer.text();
    let reply;
    try { reply = JSON.parse(text); } catch { reply = { ok: false, error: text || String(answer.status) }; }
    note = !reply.ok ? t("display.seat.refused", "Not played: {reason}", { reason: (reply.code && say(reply.code, reply.params || {})) || reply.error || answer.status })
      : traced ? t("display.seat.played_lit", "Played: it is lit on the board for the table to carry out.")
        : t("display.seat.played_words", "Played: {move}. It is lit on the board for the table to carry out.", { move: said });
    document.body.dataset.played = reply.ok ? action : "";
    redraw();
  }

  $("tap-clear").addEventListener("click", () => { tapped = new Map(); inset = []; redraw(); });
  window.addEventListener("resize", redraw);  // the targets' crowding is in pixels
  return { draw };
}

// A short beep (WebAudio) when this seat's turn starts. A browser lets a page sound only once it
// has been touched, so the first tap or key wakes the audio; until then the beep is silent.
let audio = null;
function wakeAudio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!audio && Context) audio = new Context();
  if (audio && audio.state === "suspended") audio.resume();
  return audio;
}

function turnCue() {
  const ctx = wakeAudio();
  if (!ctx) return;
  const tone = ctx.createOscillator(), level = ctx.createGain(), now = ctx.currentTime;
  tone.frequency.setValueAtTime(660, now);
  tone.frequency.setValueAtTime(880, now + 0.09);
  level.gain.setValueAtTime(0.25, now);
  level.gain.exponentialRampToValueAtTime(0.001, now + 0.25);
  tone.connect(level).connect(ctx.destination);
  tone.start(now);
  tone.stop(now + 0.25);
}

