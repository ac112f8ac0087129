"""The referee: turns what the sensors see into game actions.

Each game says what the board should look like in a state (``State.physical_view``). Once the
sensed board has been stable for the debounce window (the service's job), :meth:`Referee.judge`
compares it with the game:

* the board equals the current view: nothing to do;
* it equals the view after one legal action (or two in a row by the same player, such as a pawn
  move and its bead move done quickly): those actions are applied;
* it lies on the way to a legal action (a stick lifted from the tail, beads picked up but not
  yet dropped, a pawn in the hand): progress, never a violation;
* it equals an earlier position: a takeback, when the table allows it;
* anything else is a violation: the differing channels, and a sentence that says what is wrong.

The referee never applies an illegal action: it only ever applies actions taken from
``legal_actions()`` of the state at hand, by matching views.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from controller.games import CHANCE, Channel, ChannelKind, State
from controller.games.base import Action
from controller.games.record import Match

Diff = frozenset[tuple[str, int]]
"""The channels where a view differs from the current one, with their values in that view."""

MAX_CHAIN_FIRSTS = 400  # first actions tried when looking for two actions in a row
MAX_SILENT_FIRSTS = 8  # silent actions tried as the first of two (more: the player chooses with buttons)


@dataclass(frozen=True)
class Verdict:
    """What the referee made of a sensed board."""

    kind: str
    """``in_sync``, ``applied``, ``progress``, ``takeback``, ``violation`` or ``ambiguous``."""
    actions: tuple[str, ...] = ()
    """Texts of the actions applied (``applied``), undone (``takeback``), that match (``ambiguous``), or
    that a board on the way to another move already shows (``progress``: ``confirm`` takes it)."""
    channels: tuple[str, ...] = ()
    """Channels that differ from the game (``violation``, ``progress``)."""
    message: str = ""


@dataclass
class _Moves:
    """The legal actions of one state, indexed by what they change on the board."""

    view: dict[str, int]
    by_diff: dict[Diff, list[Action]] = field(default_factory=lambda: defaultdict(list))
    silent: list[Action] = field(default_factory=list)  # actions that change nothing physical


def diff_views(before: dict[str, int], after: dict[str, int]) -> Diff:
    return frozenset((c, v) for c, v in after.items() if before.get(c) != v)


def shortest_turn(before: int, after: int, spaces: int) -> int:
    """The signed number of spaces from ``before`` to ``after`` the shorter way round."""
    d = (after - before) % spaces
    return d - spaces if d > spaces // 2 else d


def on_the_turn(before: int, now: int, after: int, spaces: int) -> bool:
    """True when a ring reading ``now`` lies on the shorter turn from ``before`` to ``after``."""
    total = shortest_turn(before, after, spaces)
    step = 1 if total >= 0 else -1
    done = ((now - before) * step) % spaces
    return done <= abs(total)


class Referee:
    """Judges sensed boards for one match. Only :meth:`judge`, :meth:`undo` and the match's own
    chance resolution change the game."""

    def __init__(self, match: Match, channels: list[Channel], *, allow_takeback: bool = True,
                 takeback_depth: int = 8) -> None:
        self.match = match
        self.channels = {c.name: c for c in channels}
        self.allow_takeback = allow_takeback
        self.takeback_depth = takeback_depth
        self._cache: dict[int, tuple[State, _Moves]] = {}

    @property
    def state(self) -> State:
        return self.match.state

    def expected(self) -> dict[str, int]:
        return self._moves(self.state).view

    def _moves(self, state: State) -> _Moves:
        key = id(state)
        entry = self._cache.get(key)
        if entry is not None and entry[0] is state:  # the state is kept, so its id is not reused
            return entry[1]
        if len(self._cache) > 64:
            self._cache.clear()
        moves = _Moves(state.physical_view())
        if state.current_player >= 0:
            for action in state.legal_actions():
                d = frozenset(state.physical_changes(action).items())
                if d:
                    moves.by_diff[d].append(action)
                else:
                    moves.silent.append(action)
        self._cache[key] = (state, moves)
        return moves

    # -- judging -------------------------------------------------------------------------------

    def judge(self, sensed: dict[str, int], *, takeback: bool = True) -> Verdict:
        """Compare a settled board with the game; apply the legal action it shows, if any.

        ``takeback=False`` while the table is still carrying out what chance decided: a board not
        yet set up after a roll may look like an earlier position, and is never taken for one."""
        moves = self._moves(self.state)
        sensed_diff = diff_views(moves.view, {c: sensed.get(c, 0) for c in moves.view})
        if not sensed_diff:
            return Verdict("in_sync")
        if self.state.current_player >= 0:
            found = self._match(self.state, sensed_diff)
            if found is not None and self._on_the_way_elsewhere(found[0], sensed_diff):
                # A board that is one move and also part of another (a Serpientes tail stick lifted:
                # a crash, or the first half of a step) waits for the hands; confirm takes it as is.
                texts = tuple(self.state.action_to_text(seq[0]) for seq in found if len(seq) == 1)
                return Verdict("progress", texts, tuple(sorted(c for c, _ in sensed_diff)))
            if found is not None:
                if len(found) > 1 and all(len(seq) == 1 for seq in found):
                    texts = tuple(self.state.action_to_text(seq[0]) for seq in found)
                    return Verdict("ambiguous", texts, tuple(sorted(c for c, _ in sensed_diff)),
                                   f"the board fits {len(texts)} moves: {', '.join(texts)}; choose one")
                applied = []
                for action in found[0]:
                    applied.append(self.state.action_to_text(action))
                    self.match.apply(action)
                return Verdict("applied", tuple(applied))
            if self._on_the_way(moves, sensed_diff):
                return Verdict("progress", channels=tuple(sorted(c for c, _ in sensed_diff)))
        back = self._takeback_target(sensed) if takeback else 0
        if back:
            undone = []
            for _ in range(back):
                undone.append(self.match.public_log[-1])
                self.match.undo()
            return Verdict("takeback", tuple(undone), message=f"took back {', '.join(reversed(undone))}")
        if self.state.current_player == CHANCE:
            return Verdict("violation", tuple(), tuple(sorted(c for c, _ in sensed_diff)),
                           "waiting for a roll; put the board back as it was: " + self.describe(moves.view, sensed))
        return Verdict("violation", channels=tuple(sorted(c for c, _ in sensed_diff)),
                       message=self._explain(moves, sensed_diff, sensed))

    def _match(self, state: State, sensed_diff: Diff) -> list[tuple[Action, ...]] | None:
        """Action sequences (one action, else two by the same player) whose view is the sensed one."""
        moves = self._moves(state)
        single = moves.by_diff.get(sensed_diff)
        if single:
            return [(a,) for a in single]
        sensed_channels = {c for c, _ in sensed_diff}
        firsts = [a for d, acts in moves.by_diff.items() if {c for c, _ in d} <= sensed_channels for a in acts]
        if len(moves.silent) <= MAX_SILENT_FIRSTS:  # a choice made by the move itself (reveal, then step)
            firsts += moves.silent
        player = state.current_player
        for first in firsts[:MAX_CHAIN_FIRSTS]:
            nxt = state.apply(first)
            if nxt.current_player != player:
                continue
            inner = self._moves(nxt)
            rest = diff_views(inner.view, {**inner.view, **dict(sensed_diff)})
            # Channels the first action changed and the sensed board shows back as they were.
            rest |= frozenset((c, moves.view[c]) for c in inner.view
                              if c not in sensed_channels and inner.view[c] != moves.view[c])
            second = inner.by_diff.get(rest)
            if second:
                return [(first, second[0])]
        return None

    def _on_the_way_elsewhere(self, sequence: tuple[Action, ...], sensed_diff: Diff) -> bool:
        """True when the board that ``sequence`` fits shows exactly part of another legal action of
        the state its last action is taken in, the rest still to come (a stick lifted from the tail:
        a crash, or a step whose stick is still in the hand)."""
        state = self.state
        for action in sequence[:-1]:
            state = state.apply(action)
        moves = self._moves(state)
        shown = diff_views(moves.view, {**self._moves(self.state).view, **dict(sensed_diff)})
        return any(shown < d for d in moves.by_diff)

    def _lies_towards(self, moves: _Moves, sensed_diff: Diff, target_diff: Diff) -> bool:
        target = dict(target_diff)
        return all(c in target and self._between(c, moves.view[c], v, target[c]) for c, v in sensed_diff)

    def _on_the_way(self, moves: _Moves, sensed_diff: Diff) -> bool:
        """True when every sensed change lies between the current view and some legal action's view
        (a lifted piece not yet put down, beads in the hand)."""
        return any(self._lies_towards(moves, sensed_diff, d) for d in moves.by_diff)

    def _between(self, channel: str, before: int, now: int, after: int) -> bool:
        kind = self.channels[channel].kind
        if kind == ChannelKind.COUNT:
            return min(before, after) <= now <= max(before, after)
        if kind == ChannelKind.OFFSET:  # a ring part way round, turning the shorter way to its target
            return on_the_turn(before, now, after, self.channels[channel].maximum + 1)
        return now in (before, after) or now == 0  # a piece lifted on its way somewhere

    def _takeback_target(self, sensed: dict[str, int]) -> int:
        """How many actions to take back so the game's view equals the sensed board (0: none)."""
        if not self.allow_takeback:
            return 0
        history = self.match.history
        for back in range(1, min(self.takeback_depth, len(history) - 1) + 1):
            earlier = history[-1 - back]
            if earlier.current_player < 0:
                continue
            view = self._moves(earlier).view
            if all(sensed.get(c, 0) == v for c, v in view.items()):
                return back
        return 0

    # -- words and lights ------------------------------------------------------------------------

    def targets(self, sensed: dict[str, int] | None = None) -> dict[str, int]:
        """Channels a legal action would put something on (channel -> value there), for the LEDs.

        With a sensed board in progress (a pawn lifted), only the actions it is on the way to count.
        """
        moves = self._moves(self.state)
        current = moves.view
        partial = diff_views(current, {c: sensed.get(c, 0) for c in current}) if sensed else frozenset()
        out: dict[str, int] = {}
        for d in moves.by_diff:
            target = dict(d)
            if partial and not all(c in target and self._between(c, current[c], v, target[c]) for c, v in partial):
                continue
            for c, v in d:
                kind = self.channels[c].kind
                if kind == ChannelKind.OFFSET or v > current[c] or (kind == ChannelKind.PIECE and v):
                    out[c] = v
        return out

    def silent_actions(self) -> list[str]:
        """Legal actions that change nothing on the board (taken from buttons or MQTT)."""
        return [self.state.action_to_text(a) for a in self._moves(self.state).silent]

    def describe(self, expected: dict[str, int], sensed: dict[str, int]) -> str:
        parts = []
        for c in sorted(expected):
            want, got = expected[c], sensed.get(c, 0)
            if want == got:
                continue
            kind = self.channels[c].kind
            label = c.split(":", 1)[-1]
            if kind == ChannelKind.PRESENCE:
                parts.append(f"a piece is missing at {label}" if want else f"a piece should not be at {label}")
            elif kind == ChannelKind.COUNT:
                parts.append(f"{label} holds {got}, it should hold {want}")
            elif kind == ChannelKind.OFFSET:
                parts.append(f"{label} is turned to {got}, it should be at {want}")
            elif want == 0:
                parts.append(f"a piece should not be at {label}")
            elif got == 0:
                parts.append(f"a piece is missing at {label}")
            else:
                parts.append(f"the piece at {label} is the wrong one (sensed {got}, should be {want})")
        return "; ".join(parts[:6]) + (f"; and {len(parts) - 6} more" if len(parts) > 6 else "")

    def _explain(self, moves: _Moves, sensed_diff: Diff, sensed: dict[str, int]) -> str:
        sensed_channels = {c for c, _ in sensed_diff}
        best, best_score = None, 0.0
        for d, acts in moves.by_diff.items():
            chans = {c for c, _ in d}
            score = len(chans & sensed_channels) / len(chans | sensed_channels)
            if score > best_score:
                best, best_score = acts[0], score
        if best is not None and best_score == 1.0:
            # The right places, the wrong values: a wrong piece, a wrong count, a wrong turn.
            target = self.state.physical_changes(best)
            wrong = []
            for c, got in sorted(sensed_diff):
                label, kind = c.split(":", 1)[-1], self.channels[c].kind
                if kind == ChannelKind.PIECE:
                    wrong.append(f"the piece at {label} is the wrong one for this move (sensed {got}, "
                                 f"the move needs {target[c]}: another player's piece, or single for double)")
                elif kind == ChannelKind.OFFSET:
                    wrong.append(f"{label} was turned to {got}; the required turn brings it to {target[c]} "
                                 "(wrong direction or wrong number of spaces)")
                else:
                    wrong.append(f"{label} shows {got}, the nearest legal move makes it {target[c]}")
            return "not a legal move: " + "; ".join(wrong) + f" (the nearest legal move is " \
                f"{self.state.action_to_text(best)})"
        text = "not a legal move: " + self.describe(moves.view, sensed)
        if best is not None and best_score >= 0.5:
            text += f" (the nearest legal move is {self.state.action_to_text(best)})"
        return text
