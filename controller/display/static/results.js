// arbitro display: the event's results and standings (docs/display.md); the helpers are display.js's.

function results() {
  document.title = t("display.results.title", "arbitro · results");
  async function refresh() {
    let data;
    try { data = await (await fetch("/api/results")).json(); } catch { return; } // next time
    $("standings").tBodies[0].replaceChildren(...data.standings.map((r) =>
      el("tr", {}, el("td", {}, String(r.rank)), el("td", {}, r.player), el("td", {}, String(r.games)),
        el("td", {}, String(r.wins)), el("td", {}, String(r.points)))));
    $("games").tBodies[0].replaceChildren(...data.games.map((g) =>
      el("tr", {}, el("td", {}, g.board), el("td", {}, g.title), el("td", {}, new Date(g.finished).toLocaleString(lang)),
        el("td", {}, g.player), el("td", {}, String(g.score)), el("td", {}, g.won ? "✓" : ""))));
    $("none").hidden = data.games.length > 0;
    document.dispatchEvent(new CustomEvent("arbitro:results", { detail: data.games.length }));
  }
  refresh();
  setInterval(refresh, 5000); // results come seldom: a look every few seconds is plenty
}
