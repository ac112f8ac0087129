"""Referee judging cost on adversarial boards: worst case and p99 per game, configuration and kind
of board, and the peak memory of the referee's cache over a long Contigo capture game.

    python -m bench.judge [GAME ...] [--positions N] [--seed S] [--memory-turns N] [--no-memory]

For every configuration a game declares, decision positions are taken from seeded random games,
spread from the opening to the end. At each position a fresh referee (its current state's move
table built, as the service has after drawing the LEDs) judges one board of each kind:

* ``legal1``: the view after a random legal action (must come out ``applied`` or ``ambiguous``);
* ``legal2``: the view after two actions in a row by the same player, the second changing none of
  the channels the first changed (must come out ``applied``);
* ``legalN``: in games that read several actions from the counts (``State.actions_for_changes``:
  Contigo's capture game), the view after the rest of the player's turn, three actions or more (a
  pawn move, a pick-up and its drops, all in one reading: must come out ``applied``);
* ``near1`` / ``near2``: those views with one more channel set to a wrong value;
* ``crowd``: up to 30 channels set to what some legal action puts there (many first actions fit);
* ``random``: every channel at a random value; ``all_on``: every channel at its maximum;
  ``all_off``: every channel at 0.

Times are CPU time (``time.process_time``), each board's the fastest of three fresh referees, so
that other work on a shared machine does not count. Reported per kind: boards, p99 and worst judge
time (ms), the most states the referee expanded for
one board (where it counts them), and boards a legal view did not come out as a move (``missed``).
The memory pass plays Contigo capture games through the referee (at each decision the boards above,
then the move; pawn and bead moves half the time in one go) and reports the tracemalloc peak.
"""

from __future__ import annotations

import argparse
import random
import time
import tracemalloc
from collections import defaultdict

from controller.games import CHANCE, State, game_names, get_game
from controller.games.base import Action
from controller.games.record import Match
from controller.referee import Referee

_clock = time.process_time  # CPU time: the machine is shared, and other processes' load is not ours

KINDS = ("legal1", "legal2", "legalN", "near1", "near2", "nearN", "crowd", "random", "all_on", "all_off")
MUST_APPLY = {"legal1": ("applied", "ambiguous"), "legal2": ("applied",), "legalN": ("applied",)}


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def positions(game: str, options: dict, players: int, seed: int, count: int) -> list[Match]:
    """``count`` decision positions of one seeded random game, spread over its length."""
    match = Match.new(game, options, players, seed=seed)
    rng = random.Random(seed)
    marks = []
    limit = get_game(game).max_game_length(match.state.options, players)
    while not match.state.is_terminal() and len(match.history) < limit:
        if match.state.current_player == CHANCE:
            match.resolve_chance()
            continue
        marks.append(len(match.history))
        match.apply(rng.choice(match.state.legal_actions()))
    picked = sorted({marks[i * (len(marks) - 1) // max(1, count - 1)] for i in range(count)}) if marks else []
    out = []
    for n in picked:
        m = match.copy()
        while len(m.history) > n:
            m.undo()
        out.append(m)
    return out


def _after(state, actions) -> dict[str, int]:
    for a in actions:
        state = state.apply(a)
    return state.physical_view()


def boards(match: Match, channels, rng: random.Random) -> dict[str, dict[str, int]]:
    state = match.state
    view = state.physical_view()
    out: dict[str, dict[str, int]] = {}
    legal = state.legal_actions()
    seen = [a for a in legal if state.physical_changes(a)]  # silent actions come from the buttons
    if seen:
        out["legal1"] = _after(state, [rng.choice(seen)])
    pairs = []
    for a in rng.sample(legal, min(len(legal), 12)):
        nxt = state.apply(a)
        if nxt.current_player == state.current_player and nxt.legal_actions():
            b = rng.choice(nxt.legal_actions())
            if not set(state.physical_changes(a)) & set(nxt.physical_changes(b)):
                pairs.append((a, b))  # the referee looks for pairs whose second leaves the first's channels
    if pairs:
        pair = rng.choice(pairs)
        legal2 = _after(state, pair)
        if legal2 != view:
            out["legal2"] = legal2
    if type(state).actions_for_changes is not State.actions_for_changes:  # the game reads counts
        turn: list[Action] = []
        now = state
        while now.current_player == state.current_player and len(turn) < 30:
            turn.append(rng.choice(now.legal_actions()))
            now = now.apply(turn[-1])
        if len(turn) >= 3:
            out["legalN"] = now.physical_view()
    for kind in ("legal1", "legal2", "legalN"):
        if kind in out:
            near = dict(out[kind])
            ch = rng.choice(channels)
            near[ch.name] = (near[ch.name] + 1 + rng.randrange(max(1, ch.maximum))) % (ch.maximum + 1)
            out["near" + kind[-1]] = near
    crowd = dict(view)  # many legal first actions at once: the most a two-action search can try
    targets = sorted({c: v for a in legal for c, v in state.physical_changes(a).items()}.items())
    crowd.update(rng.sample(targets, min(len(targets), 30)))
    out["crowd"] = crowd
    out["random"] = {c.name: rng.randint(0, c.maximum) for c in channels}
    out["all_on"] = {c.name: c.maximum for c in channels}
    out["all_off"] = {c.name: 0 for c in channels}
    return out


def judge_once(match: Match, channels, board: dict[str, int], repeat: int = 3) -> tuple[float, str, int]:
    """The fastest of ``repeat`` judgements of ``board``, each by a fresh referee."""
    best = float("inf")
    for _ in range(repeat):
        ref = Referee(match.copy(), channels)
        ref.targets()  # the service has built this state's move table already, to light the LEDs
        t0 = _clock()
        verdict = ref.judge(board)
        best = min(best, _clock() - t0)
    return best, verdict.kind, getattr(ref, "expanded", -1)


def bench_configuration(game: str, options: dict, players: int, count: int, seed: int) -> dict[str, dict]:
    channels = get_game(game).channels(options, players)
    results: dict[str, dict] = defaultdict(lambda: {"times": [], "expanded": -1, "missed": 0, "verdicts": set()})
    rng = random.Random(seed)
    for match in positions(game, options, players, seed, count):
        for kind, board in boards(match, channels, rng).items():
            elapsed, verdict, expanded = judge_once(match, channels, board)
            r = results[kind]
            r["times"].append(elapsed)
            r["expanded"] = max(r["expanded"], expanded)
            r["verdicts"].add(verdict)
            if verdict not in MUST_APPLY.get(kind, (verdict,)):
                r["missed"] += 1
    return results


def long_game(decisions: int, seed: int, trace: bool) -> tuple[float, int, list[float]]:
    """Contigo capture games through the referee (a new one per game, as the service does) until
    ``decisions`` decisions are played: (traced peak MB, most cached states, judge times). Timed
    without tracemalloc, which slows Python down several times."""
    options = {"game": "capture"}
    channels = get_game("contigo").channels(options, 2)
    rng = random.Random(seed)
    most, times = 0, []
    if trace:
        tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    played = 0
    game = 0
    while played < decisions:
        match = Match.new("contigo", options, 2, seed=seed + game)
        ref = Referee(match, channels)
        game += 1
        while played < decisions and not match.state.is_terminal():
            state = match.state
            if state.current_player == CHANCE:
                match.resolve_chance()
                continue
            ref.targets()
            a = rng.choice(state.legal_actions())
            nxt = state.apply(a)
            actions = [a]
            if nxt.current_player == state.current_player and rng.random() < 0.5:
                actions.append(rng.choice(nxt.legal_actions()))
            right = _after(state, actions)
            saved = match.copy()
            for board in boards(match, channels, rng).values():
                if board == right:
                    continue
                t0 = _clock()
                verdict = ref.judge(board)
                times.append(_clock() - t0)
                if verdict.kind in ("applied", "takeback"):  # put the game back where it was
                    _reset(match, saved)
                most = max(most, len(getattr(ref, "_tables", getattr(ref, "_cache", ()))))
            t0 = _clock()
            verdict = ref.judge(right)
            times.append(_clock() - t0)
            if verdict.kind != "applied":  # ambiguous: the player picks the move with the buttons
                for x in actions:
                    match.apply(x)
            most = max(most, len(getattr(ref, "_tables", getattr(ref, "_cache", ()))))
            played += 1
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    return peak / 1e6, most, times


def _reset(match: Match, saved: Match) -> None:
    """Put ``match`` back (in place: the referee holds it) to the copy ``saved``."""
    copy = saved.copy()
    for name in ("record", "history", "_chance_nodes", "public_log", "announced"):
        setattr(match, name, getattr(copy, name))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="games (default: all)")
    parser.add_argument("--positions", type=int, default=8, help="positions per configuration")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--memory-turns", type=int, default=600, help="decisions in the memory pass")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory pass")
    args = parser.parse_args(argv)
    print(f"{'configuration':44} {'board':8} {'n':>4} {'p99 ms':>8} {'worst ms':>9} {'expanded':>8} "
          f"{'missed':>6}  verdicts")
    worst: dict[str, float] = defaultdict(float)
    for name in args.games or game_names():
        game = get_game(name)
        for options, players in game.configurations():
            changed = ",".join(f"{k}={v}" for k, v in options.items() if v != game.default_options()[k])
            label = f"{name} {players}p {changed or 'default'}"
            results = bench_configuration(name, options, players, args.positions, args.seed)
            for kind in KINDS:
                if kind not in results:
                    continue
                r = results[kind]
                ms = [t * 1e3 for t in r["times"]]
                worst[name] = max(worst[name], max(ms))
                print(f"{label:44} {kind:8} {len(ms):4d} {_percentile(ms, .99):8.2f} {max(ms):9.2f} "
                      f"{r['expanded']:8d} {r['missed']:6d}  {','.join(sorted(r['verdicts']))}")
    print("worst judge per game: " + ", ".join(f"{g} {t:.2f} ms" for g, t in worst.items()))
    if not args.no_memory:
        _, _, times = long_game(args.memory_turns, args.seed, trace=False)
        peak, most, _ = long_game(args.memory_turns, args.seed, trace=True)
        print(f"contigo capture, {args.memory_turns} decisions: traced peak {peak:.1f} MB, "
              f"at most {most} cached states; {len(times)} boards judged, p99 {_percentile(times, .99) * 1e3:.2f} ms,"
              f" worst {max(times) * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
