// arbitro display: the replay viewer (docs/records.md). A record, downloaded from a board
// (?board=ID, with the operator's key if the link has one) or opened from a file, is replayed by
// the server (/api/replay), which draws each position as the board pages are drawn.
"use strict";

function replay() {
  const query = new URLSearchParams(location.search);
  const board = query.get("board");
  let record = null;
  let move = 0, last = 0, timer = null, moves = [];

  $("file").addEventListener("change", async () => {
    const file = $("file").files[0];
    if (!file) return;
    try { record = JSON.parse(await file.text()); } catch { return fail(t("display.replay.not_json", "That file is not a record (not JSON).")); }
    history.replaceState(null, "", "/replay"); // a file's positions are linked within the page only
    show(Number.MAX_SAFE_INTEGER, true);
  });
  for (const [id, step] of [["first", () => 0], ["back", () => move - 1], ["forward", () => move + 1], ["last", () => last]]) {
    $(id).addEventListener("click", () => { stop(); show(Math.max(0, Math.min(last, step()))); });
  }
  $("slider").addEventListener("input", () => { stop(); show(Number($("slider").value)); });
  $("play").addEventListener("click", () => {
    if (timer) return stop();
    if (move >= last) show(0);
    $("play").textContent = t("display.replay.pause", "Pause");
    timer = setInterval(() => (move < last ? show(move + 1) : stop()), 800);
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" && e.target.type !== "range") return;
    if (e.key === "ArrowLeft" && move > 0) { stop(); show(move - 1); }
    if (e.key === "ArrowRight" && move < last) { stop(); show(move + 1); }
  });

  function stop() {
    clearInterval(timer);
    timer = null;
    $("play").textContent = t("display.replay.play", "Play");
  }

  function fail(message) {
    $("banner").textContent = message;
    $("banner").hidden = false;
  }

  let asked = 0; // the latest position asked for: an older answer arriving late is dropped
  async function show(n, first = false) {
    if (!record) return;
    const mine = ++asked;
    const answer = await fetch("/api/replay", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ record, move: n, language: lang }),
    });
    if (mine !== asked) return;
    if (!answer.ok) return fail(await answer.text());
    $("banner").hidden = true;
    draw(await answer.json(), first);
  }

  function draw(r, first) {
    move = r.move; last = r.last;
    const names = r.seats.map((s) => s.name);
    if (first) {
      moves = r.moves;
      $("title").textContent = `${t("display.replay.title", "Replay")} · ${r.title}`;
      const tags = ["event", "site", "date", "round", "board"].map((k) => r.tags[k]).filter((v) => v && v !== "?");
      $("tags").textContent = tags.join(" · ");
      $("seats-list").querySelector("tbody").replaceChildren(...r.seats.map((s, i) => el("tr", {},
        el("td", {}, el("span", { class: "swatch", style: `background:${r.colours[i] || "#ccc"}` })),
        el("td", {}, playerName(names, i, r.players)), el("td", { class: "muted" }, seatName(s.kind)))));
      $("result").textContent = r.result ? resultWords(r.result, names, r.players) : "";
      $("withheld").hidden = !r.withheld;
      $("withheld").textContent = tn("display.replay.withheld", "{count} more action hides a card: shown once the game is over",
        "{count} more actions, the first hiding a card: shown once the game is over", { count: r.withheld });
      $("moves").replaceChildren(...moves.map((m) => {
        const item = el("li", { "data-move": m.n }, saidMove(m.said, m.text, names, r.players));
        item.addEventListener("click", () => { stop(); show(m.n); });
        return item;
      }));
      $("slider").max = String(r.last);
    }
    setHTML($("replay-picture"), r.svg);
    sayPicture($("replay-picture"), names, r.players);
    $("slider").value = String(move);
    $("position").textContent = `${move} / ${last}`;
    for (const item of $("moves").children) item.classList.toggle("now", Number(item.dataset.move) === move);
    $("moves").querySelector(".now")?.scrollIntoView({ block: "nearest" });
    const here = board ? `/replay?board=${encodeURIComponent(board)}${query.get("key") ? `&key=${encodeURIComponent(query.get("key"))}` : ""}&move=${move}` : `#move=${move}`;
    $("link").href = here;
    document.body.dataset.move = String(move);
    if (board) history.replaceState(null, "", here); else history.replaceState(null, "", `/replay#move=${move}`);
  }

  function resultWords(result, names, players) {
    // The record's result, said as the board page says the end, with the page's names and words.
    if (!result.over) return t("display.replay.in_play", "in play");
    const who = (seat) => playerName(names, seat - 1, players);
    const w = (result.winners || []).map(who).join(", ");
    const won = result.resigned
      ? t("display.board.resigned", "Game over: {player} resigned; {winners} won", { player: who(result.resigned), winners: w })
      : w ? t("display.board.won", "Game over: {winners} won", { winners: w }) : t("display.board.nobody_won", "Game over: nobody won");
    const points = (result.points || []).join(" · ");
    return points ? `${won} (${points})` : won;
  }

  if (board) {
    fetch(`/api/board/${encodeURIComponent(board)}/record${query.get("key") ? `?key=${encodeURIComponent(query.get("key"))}` : ""}`)
      .then(async (answer) => {
        if (!answer.ok) return fail(await answer.text());
        record = await answer.json();
        const wanted = Number(query.get("move") ?? Number.MAX_SAFE_INTEGER);
        show(Number.isInteger(wanted) && wanted >= 0 ? wanted : Number.MAX_SAFE_INTEGER, true);
      });
  }
}

started.then(replay);
