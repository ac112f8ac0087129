// arbitro display: the hall (docs/display.md); the helpers are display.js's.

// -- the hall -----------------------------------------------------------------------------------

function hall() {
  const cards = new Map();
  const statuses = {};
  const lines = new Map(); // board -> its latest line: what the order and the filters read
  const filters = { game: "", state: "" };
  listen("/api/hall/events", {
    status: (s) => { Object.assign(statuses, s.boards); applyStatus(s); for (const [b, c] of cards) mark(b, c); arrange(); },
    board: (line) => drawers(line.board)(line),
    gone: (g) => { // hidden (offline too long) or forgotten
      const card = cards.get(g.board);
      if (card) card.remove();
      cards.delete(g.board); lines.delete(g.board); perBoard.delete(g.board);
      arrange();
    },
  });
  for (const key of ["game", "state"]) {
    $(`filter-${key}`).addEventListener("change", (e) => { filters[key] = e.target.value; arrange(); });
  }

  function stateOf(board) {
    // live: online and playing; over: online, the game ended; offline
    if (statuses[board] === "offline") return "offline";
    return lines.get(board)?.over ? "over" : "live";
  }

  function arrange() {
    // Live boards first, then finished ones, then offline ones; by game, then by name; filtered.
    const rank = { live: 0, over: 1, offline: 2 };
    const order = [...cards.keys()].sort((a, b) => {
      const [la, lb] = [lines.get(a) || {}, lines.get(b) || {}];
      return rank[stateOf(a)] - rank[stateOf(b)] || String(la.game).localeCompare(String(lb.game)) || a.localeCompare(b);
    });
    const box = $("boards");
    for (const board of order) {
      const card = cards.get(board);
      const line = lines.get(board) || {};
      card.hidden = (filters.game && line.game !== filters.game) || (filters.state && stateOf(board) !== filters.state);
      box.appendChild(card); // in order (moving a card keeps its picture)
    }
    const games = [...new Set([...lines.values()].map((l) => l.game))].sort();
    const select = $("filter-game");
    if (select.options.length - 1 !== games.length || games.some((g, i) => select.options[i + 1].value !== g)) {
      select.replaceChildren(el("option", { value: "" }, t("display.hall.all_games", "every game")),
        ...games.map((g) => el("option", { value: g }, (([...lines.values()].find((l) => l.game === g) || {}).title) || g)));
      select.value = games.includes(filters.game) ? filters.game : (filters.game = "");
    }
    $("empty").hidden = cards.size > 0;
    $("count").textContent = tn("display.hall.boards", "{count} board", "{count} boards", { count: cards.size });
  }

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
      $("boards").appendChild(card);
    }
    const before = lines.get(line.board);
    lines.set(line.board, line);
    const thumb = card.querySelector(".thumb img") || card.querySelector(".thumb").appendChild(el("img", { alt: "" }));
    if (thumb.getAttribute("src") !== line.thumb) thumb.src = line.thumb; // by reference: fetched once per version
    const meta = card.querySelector(".meta");
    let who = "";
    const winners = (line.winners || []).map((p) => playerName(line.names, p, line.players));
    if (line.over) who = winners.length ? t("display.hall.won", "game over: {winners} won", { winners: winners.join(", ") })
      : t("display.hall.nobody_won", "game over: nobody won");
    else if (line.turn !== null && line.turn !== undefined) who = t("display.to_play", "{player} to play", { player: playerName(line.names, line.turn, line.players) });
    else who = t("display.hall.waiting", "waiting for chance (dice, a card, who starts)");
    const moves = tn("display.moves", "{count} move", "{count} moves", { count: line.moves });
    meta.replaceChildren(el("strong", {}, line.board), ` · ${line.title || line.game} · ${who} · ${moves} · `,
      el("a", { class: "record-link", href: `/api/board/${encodeURIComponent(line.board)}/record`, download: "" },
        t("display.record.download", "record"))); // the game's record (docs/records.md)
    if (line.violation) meta.append(" ", el("span", { class: "badge" }, t("display.hall.violation", "violation")));
    statuses[line.board] = line.status;
    mark(line.board, card);
    if (!before || before.over !== line.over || before.game !== line.game || before.status !== line.status) arrange();
    const drawn = () => announce(line.board, line.seq);
    if (thumb.complete) drawn(); else thumb.decode().then(drawn, drawn); // once the picture is in the page
  }

  function mark(board, card) {
    const offline = statuses[board] === "offline";
    card.classList.toggle("offline", offline);
    const badge = card.querySelector(".offline-badge");
    if (offline && !badge) card.querySelector(".meta").append(" ", el("span", { class: "badge offline-badge" }, t("display.hall.offline", "offline")));
    if (!offline && badge) badge.remove();
  }
}
