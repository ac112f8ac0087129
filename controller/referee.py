"""The referee: turns what the sensors see into game actions.

Each game says what the board should look like in a state (``State.physical_view``). Once the
sensed board has been stable for the debounce window (the service's job), :meth:`Referee.judge`
compares it with the game:

* the board equals the current view: nothing to do;
* it equals the view after one legal action (or two in a row by the same player, such as a pawn
  move and its bead move done quickly, or several the game reads from the counts at once, such as
  a Contigo spread): those actions are applied — or, while the hands may still be moving, held
  when they could still become another move (:meth:`Referee.judge` with ``hold``);
* it lies on the way to a legal action (a stick lifted from the tail, beads picked up but not
  yet dropped, a pawn in the hand): progress, never a violation;
* it equals an earlier position: a takeback, when the table allows it;
* anything else is a violation: the differing channels, and a sentence that says what is wrong.

The referee never applies an illegal action: it only ever applies actions taken from
``legal_actions()`` of the state at hand, by matching views (and the actions a game reads from the
counts, each checked against ``legal_actions()`` of the state it is taken in).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

from controller import referee_words as words
from controller.games import CHANCE, Channel, ChannelKind, State, get_game
from controller.games.base import Action, Message, find_action
from controller.games.record import Match
from controller.move_table import Diff, MoveTable, board_diff, from_board, recall, remember
from controller.saturation import NO_CEILING, Ceiling, seen_changes

Redo = tuple[tuple[str, bool], ...]
"""Actions a takeback undid, to be done again: (record text, drawn from the chance secret)."""

# Bounds on the work of one judgement (counts, never time, so a verdict never depends on the machine).
MAX_CACHED_TABLES = 4  # move tables kept (LRU): the current state's, and a few an undo goes back to
MAX_CACHED_VIEWS = 16  # views kept (LRU): the current state's and those a takeback compares with
MAX_SILENT_FIRSTS = 8  # silent actions tried as the first of two (more: the player chooses with buttons)
MAX_SILENT_SECONDS = 8  # second actions silent before the first asked about (engines make these costly)
MAX_PAIR_CHANNELS = 32  # a board with more changed channels is never read as two actions in a row
MAX_CHAIN_STATES = 10  # first actions the two-action search may apply
MAX_CHAIN_ACTIONS = 2200  # second actions whose changes it may compute (capture bead moves: up to ~2000)
MAX_READ_ACTIONS = 30  # actions of one sequence a game reads from the counts (a pick-up and a drop per pit)
MAX_INDEX_STEP = 8  # legal actions a lazy referee indexes in one step of building a move table

VerdictKind = Literal["in_sync", "applied", "progress", "takeback", "violation", "ambiguous", "setup"]
"""What a board can be: as the game says, a move (or two) taken, on the way to one, an earlier
position, wrong, fitting several moves, or (the session's word) what chance asked the table to set up."""


@dataclass(frozen=True)
class Verdict:
    """What the referee made of a sensed board."""

    kind: VerdictKind
    actions: tuple[str, ...] = ()
    """Texts of the actions applied (``applied``), undone (``takeback``), that match (``ambiguous``), or
    that a board on the way to another move already shows (``progress``: ``confirm`` takes it)."""
    channels: tuple[str, ...] = ()
    """Channels that differ from the game (``violation``, ``progress``)."""
    said: Message | None = None
    """What the referee says of it (``violation``, ``ambiguous``, a takeback, a correction)."""
    held: bool = False
    """True for a move (``applied``) or ``takeback`` the board shows that was not carried out, because the
    hands may still make it another (``judge(..., hold=True)``); :attr:`Referee.preview` is its state."""

    @property
    def message(self) -> str:
        """:attr:`said` in English (the log's language); ``""`` when nothing is said."""
        return "" if self.said is None else self.said.text


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
                 takeback_depth: int = 8, from_board: frozenset[int] | None = None) -> None:
        self.match = match
        self.from_board = from_board
        """The players whose actions the board may make (seated at the table); None: every player."""
        self.channels = {c.name: c for c in channels}
        game = get_game(match.record.game)
        self.label, self.action_words = game.channel_label, game.action_words  # places and moves, as told
        self.allow_takeback = allow_takeback
        self.takeback_depth = takeback_depth
        # By id(state), least recently used first; each entry keeps its state, so the id is not reused.
        self._tables: OrderedDict[int, MoveTable] = OrderedDict()
        self._views: OrderedDict[int, tuple[State, dict[str, int]]] = OrderedDict()
        self.expanded = 0
        """States the last :meth:`judge` reached by applying a first action (the two-action search)."""
        self.scanned = 0
        """Second actions whose changes the last :meth:`judge` computed."""
        self._quiet = 0  # second actions asked about that were silent before the first
        self.gave_up = False
        """True when the last :meth:`judge` stopped the two-action search at its bounds."""
        self.preview: State | None = None
        """The state a held verdict of the last :meth:`judge` would make (the LEDs show it at once)."""
        self._held: tuple[State, tuple[Action, ...], tuple[State, ...]] | None = None  # (from, actions, states made)
        self.taken_back: Redo = ()
        """What the last takeback from the board undid (oldest first)."""
        self.corrected: list[str] | None = None
        """The public texts the last :meth:`judge` took back to correct a ghost (the last first), or None."""
        self._last_diff: tuple[dict[str, int], dict[str, int], Diff] | None = None  # (view, board, diff)
        self.ceiling: Ceiling = NO_CEILING  # pits whose sensors read full beyond a count (:meth:`sensing`)
        self.lazy = False
        """True in the service: a move table is built a step at a time (:data:`MAX_INDEX_STEP` legal
        actions), the first when it is first asked for and the rest by :meth:`prepare`, which the loop
        calls while it has nothing else to do; until it is complete, :meth:`targets` and
        :meth:`silent_actions` are empty and :meth:`clean_move` False. Judging builds what is left."""

    @property
    def state(self) -> State:
        return self.match.state

    def expected(self) -> dict[str, int]:
        return self._view(self.state)

    def sensing(self, ceiling: Ceiling) -> None:
        """The board's sensors read no higher than ``ceiling`` (``controller.saturation``); the loop says
        so as it wires the board up. Move tables built otherwise are built again."""
        if ceiling != self.ceiling:
            self.ceiling, self._last_diff = dict(ceiling), None
            self._tables.clear()

    def _diff(self, view: dict[str, int], sensed: dict[str, int]) -> Diff:
        """``board_diff`` of the current view, kept for the board it was worked out for: the loop asks
        whether a reading is a clean move, then judges that same board (comparing two boards costs
        a tenth of working out their difference: Jeocinco's 649 channels)."""
        last = self._last_diff
        if last is not None and last[0] is view and last[1] == sensed:
            return last[2]
        diff = board_diff(view, sensed, self.ceiling)
        self._last_diff = (view, dict(sensed), diff)
        return diff

    def _view(self, state: State) -> dict[str, int]:
        view = recall(self._views, state)
        if view is not None:
            return view
        view = state.physical_view()
        remember(self._views, id(state), (state, view), MAX_CACHED_VIEWS)
        return view

    def _moves(self, state: State) -> MoveTable:
        entry = self._tables.get(id(state))
        if entry is not None and entry.state is state:
            self._tables.move_to_end(id(state))
            return entry
        entry = MoveTable(state, self._view(state), self.from_board, self.ceiling)
        remember(self._tables, id(state), entry, MAX_CACHED_TABLES)
        if self.lazy:
            entry.build(MAX_INDEX_STEP)
        return entry

    def _wanted(self) -> list[MoveTable]:
        """The move tables the LEDs and the seats show: a held move's, and the game's."""
        return [self._moves(s) for s in (self.preview, self.state) if s is not None]

    @property
    def unready(self) -> bool:
        """True while a move table the LEDs show is not complete (a lazy referee: :meth:`prepare`)."""
        return not all(m.complete for m in self._wanted())

    def prepare(self) -> bool:
        """Build one more step of a move table the LEDs show; True while some is left to build."""
        for moves in self._wanted():
            if not moves.complete:
                return not moves.build(MAX_INDEX_STEP) or self.unready
        return False

    def finish(self) -> None:
        """Build the rest of every move table the LEDs show (before a button or a request picks
        among the choices they list)."""
        for moves in self._wanted():
            moves.build()

    # -- judging -------------------------------------------------------------------------------

    def judge(self, sensed: dict[str, int], *, takeback: bool = True, hold: bool = False,
              ghost: tuple[int, Redo] | None = None, floor: int = 0) -> Verdict:
        """Compare a settled board with the game; apply the legal action it shows, if any.

        ``takeback=False`` while the table is still carrying out what chance decided: a board not
        yet set up after a roll may look like an earlier position, and is never taken for one.
        ``hold=True`` while the hands may still be moving: a move that could still become another
        (:meth:`final` says which cannot), and a takeback, are returned ``held``, not carried out, with
        :attr:`preview` the state they would make. ``ghost``: the last change taken from the board,
        nobody having acted since (:meth:`correct`'s ``since`` and ``redo``); a board that shows it was
        only on the way is corrected (the nearest reading: before any takeback), once settled."""
        self.expanded = self.scanned = self._quiet = 0
        self.gave_up = False
        self.preview = None
        self.corrected = None
        if self._held is not None and self._held[0] is not self.state:
            self._held = None
        moves = self._moves(self.state)
        sensed_diff = self._diff(moves.view, sensed)
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
                                   words.FITS_SEVERAL(count=len(texts), moves=", ".join(texts)))
                if hold and not self.final(found[0], sensed_diff):
                    state, shown, made = self.state, [], []
                    for action in found[0]:
                        shown.append(state.action_to_text(action))
                        state = state.apply(action)
                        made.append(state)
                    self.preview = state
                    self._held = (self.state, found[0], tuple(made))
                    return Verdict("applied", tuple(shown), held=True)
                # A held move taken: the states its preview made (the same actions from the same state;
                # engines are pure), with the move table and views built for the LEDs meanwhile.
                held = self._held
                taken: tuple[State | None, ...] = held[2] if held is not None and held[1] == found[0] \
                    else (None,) * len(found[0])
                applied = []
                for action, after in zip(found[0], taken, strict=True):
                    applied.append(self.state.action_to_text(action))
                    self.match.apply(action, after)
                return Verdict("applied", tuple(applied))
            if self._on_the_way(moves, sensed_diff):
                return Verdict("progress", channels=tuple(sorted(c for c, _ in sensed_diff)))
        if ghost is not None and not hold:
            correction = self.correct(sensed, *ghost, floor=floor)
            if correction is not None:
                self.corrected, verdict = correction
                return verdict
        back = self._takeback_target(sensed, floor) if takeback else 0
        if back:
            undone = self.match.public_log[:-back - 1:-1]  # the last action first
            if hold:  # lifting the piece just put down, to put it elsewhere, shows the position before it
                self.preview = self.match.history[-1 - back]
                return Verdict("takeback", tuple(undone), held=True)
            record = self.match.record
            self.taken_back = tuple((record.actions[i], i in record.drawn) for i in range(len(record.actions) - back,
                                                                                           len(record.actions)))
            for _ in range(back):
                self.match.undo()
            return Verdict("takeback", tuple(undone), said=words.TOOK_BACK(moves=", ".join(reversed(undone))))
        if self.state.current_player == CHANCE:
            return Verdict("violation", tuple(), tuple(sorted(c for c, _ in sensed_diff)),
                           words.WAITING_FOR_ROLL(what=self.describe(moves.view, sensed)))
        said = self._explain(moves, sensed_diff, sensed)
        if self.gave_up:
            said = words.TOO_MUCH(what=said)
        return Verdict("violation", channels=tuple(sorted(c for c, _ in sensed_diff)), said=said)

    def final(self, sequence: tuple[Action, ...], sensed_diff: Diff) -> bool:
        """True when the one action the board shows (``sequence``, its changes ``sensed_diff``) cannot
        still become another: it turns no ring, and it is the only legal action that leaves a trace
        on the board. Hands are free: a piece put down can be lifted and carried on, a token put back,
        beads added, so any other legal move could still follow; only where there is none is the
        move taken at once."""
        if len(sequence) != 1 or any(self.channels[c].kind == ChannelKind.OFFSET for c, _ in sensed_diff):
            return False
        by_diff = self._moves(self.state).by_diff
        return len(by_diff) == 1 and sensed_diff in by_diff

    def correct(self, sensed: dict[str, int], since: int, redo: Redo = (),
                floor: int = 0) -> tuple[list[str], Verdict] | None:
        """After a change taken from the board — the moves from ``since`` on (with the chance outcomes
        that followed them), or a takeback that undid ``redo`` (:data:`Redo`, oldest first) — when the
        board shows a position along that line plus another legal action (or two in a row) of the same
        player, or the position the takeback left, the hands had only rested on the way (a ghost). Put
        the game at that position and apply what the board shows; returns the public texts taken back
        (the last first) and the ``applied`` verdict (what was done again, then the move), or None.
        Where the board fits several moves of that position, the game goes back to it and the verdict
        is the board's there (``progress`` or ``ambiguous``: the player chooses with the buttons)."""
        history, record = self.match.history, self.match.record
        now = len(history) - 1
        line: list[tuple[State, str | None]] = [(history[i], record.actions[i] if i < now else None)
                                                for i in range(since, now + 1)]
        state = history[-1]
        for text, _ in redo:  # the positions the takeback went back over
            line[-1] = (line[-1][0], text)
            state = state.apply(state.action_from_text(text))
            line.append((state, None))
        here = now - since
        for j in range(len(line) - 1, -1, -1):  # latest first
            state, taken = line[j]
            if j == here or state.current_player < 0 or since + j < floor:
                continue  # (below the floor: back over a chance outcome seen, which needs consent)
            view = state.physical_view()
            diff = board_diff(view, sensed, self.ceiling)
            found: tuple[Action, ...] = ()
            if not diff and j < here:
                return None  # an earlier position itself: a takeback's business, not a correction
            if diff:
                self.expanded = self.scanned = self._quiet = 0
                matched = self._match(state, diff)
                if matched is None or (len(matched) > 1 and (j > here or any(len(seq) > 1 for seq in matched))):
                    continue
                firsts = [seq[0] for seq in matched]
                if taken is not None and any(state.action_to_text(a) == taken for a in firsts):
                    continue  # the move that was taken: not another one
                if j < here and len(matched[0]) > sum(s.current_player >= 0 for s, _ in line[j:here]):
                    continue  # more moves than were taken back: an action added (a bridge while the dice are due)
                mover = state.current_player if taken is None else state.player_of(state.action_from_text(taken))
                if any(state.player_of(a) != mover for a in firsts):
                    continue  # another player's move (a bridge out of turn): the ghost's hands did not make it
                if len(matched) > 1:  # several moves look alike there (two crashes): back to it, the player chooses
                    undone, back = self._make_it(since + j, (), ())
                    verdict = self.judge(sensed, takeback=False)
                    return undone, replace(verdict, said=verdict.said or back.said)
                found = matched[0]
            return self._make_it(since + j, redo[:max(0, j - here)], found)
        return None

    def _make_it(self, at: int, redo: Redo, found: tuple[Action, ...]) -> tuple[list[str], Verdict]:
        """Correct a ghost: back to the ``at``-th position (undoing, or doing ``redo`` again), then
        ``found``; the texts undone (the last first) and the verdict (what was done again, then ``found``)."""
        history = self.match.history
        undone, moved, again, redone = [], [], [], []
        while len(history) - 1 > at:
            undone.append(self.match.public_log[-1])
            if history[-2].current_player >= 0:
                moved.append(self.match.public_log[-1])
            self.match.undo()
        for text, drawn in redo:
            by_player = self.state.current_player >= 0
            if drawn:  # drawn from the secret again, for the same node: the same outcome, marked as drawn
                self.match.resolve_chance()
            else:
                self.match.apply_text(text)
            again.append(self.match.public_log[-1])
            if by_player:
                redone.append(self.match.public_log[-1])
        applied = []
        for action in found:
            applied.append(self.state.action_to_text(action))
            self.match.apply(action)
        shows = ", ".join(applied) or words.AS_IT_WAS()
        if moved:
            said = words.ONLY_RESTED(shows=shows, moved=", ".join(reversed(moved)))
        else:
            said = words.TAKEBACK_ON_THE_WAY(shows=shows, redone=", ".join(redone))
        return undone, Verdict("applied", (*again, *applied), said=said)

    def _match(self, state: State, sensed_diff: Diff) -> list[tuple[Action, ...]] | None:
        """Action sequences (one action, else two by the same player, else several the game reads from
        the counts) whose view is the sensed one.

        Two in a row are looked for only where the second action leaves the channels the first
        changed as they are, within the bounds above: a first action is tried only if every
        channel it changes is one the board shows changed, the ones that also put the sensed
        value there before the ones a second action would have to change again. Where no second
        action fits, the state after the first is asked to read the rest (:meth:`_read`)."""
        moves = self._moves(state)
        single = moves.by_diff.get(sensed_diff)
        if single:
            return [(a,) for a in single]
        read = self._read(state, sensed_diff)
        if read is not None:
            return [read]
        if len(sensed_diff) > MAX_PAIR_CHANNELS:
            return None
        sensed_channels = frozenset(c for c, _ in sensed_diff)
        agree: list[Diff] = []
        disagree: list[Diff] = []
        for d in moves.by_diff:
            if d <= sensed_diff:
                agree.append(d)
            elif moves.chans(d) <= sensed_channels:
                disagree.append(d)
        firsts = [(d, a) for d in agree for a in moves.by_diff[d]]
        if len(moves.silent) <= MAX_SILENT_FIRSTS:  # a choice made by the move itself (reveal, then step)
            firsts += [(frozenset(), a) for a in moves.silent]
        firsts += [(d, a) for d in disagree for a in moves.by_diff[d]]
        player = state.current_player
        silent = set(moves.silent)
        tried: set[str] = set()
        for d, first in firsts:
            if self.expanded >= MAX_CHAIN_STATES:
                self.gave_up = True
                return None
            nxt = state.apply(first)
            self.expanded += 1
            if nxt.is_terminal() and state.player_of(first) != player and (sensed_diff - d) in moves.by_diff:
                return [(first,)]  # a win laid out of turn ends the game: the acting player's move beside it is moot
            if nxt.current_player != player:
                continue
            if len(moves.by_diff.get(d, ())) > 1:  # two routes to one position need one look
                text = nxt.to_text()
                if text in tried:
                    continue
                tried.add(text)
            # What the second action must change: the sensed channels the first did not set.
            want = dict(sensed_diff - d)
            seconds = from_board(nxt, nxt.legal_actions(), self.from_board)
            if silent:  # silent before the first action (a dispute, "done"): asked about only a few times
                seconds = [a for a in seconds if a not in silent or self._ask_quiet()]
            room = MAX_CHAIN_ACTIONS - self.scanned
            changes, view, ceiling = nxt.physical_changes, moves.view, self.ceiling
            for i, second in enumerate(seconds[:room]):
                if seen_changes(changes(second), view, ceiling) == want:
                    self.scanned += i + 1
                    return [(first, second)]
            self.scanned += min(len(seconds), room)
            if len(seconds) > room:
                self.gave_up = True
                return None
            read = self._read(nxt, sensed_diff - d)
            if read is not None:
                return [(first, *read)]
        return None

    def _read(self, state: State, diff: Diff) -> tuple[Action, ...] | None:
        """The actions the game itself reads from ``diff`` (``State.actions_for_changes``: a Contigo
        pick-up and its drops, however many arrived in one reading), once each is found among the legal
        actions of the state it is taken in, by the same player, and together they make the sensed view."""
        want = dict(diff)
        actions = state.actions_for_changes(want)
        if not actions or len(actions) > MAX_READ_ACTIONS:
            return None
        player, after, found = state.current_player, state, []
        for action in actions:
            legal = find_action(action, from_board(after, after.legal_actions(), self.from_board)) \
                if after.current_player == player else None
            if legal is None:
                return None
            found.append(legal)
            after = after.apply(legal)
        # The views of states off the game are not cached: the referee keeps none of them.
        if board_diff(after.physical_view(), {**state.physical_view(), **want}, self.ceiling):
            return None
        return tuple(found)

    def _on_the_way_elsewhere(self, sequence: tuple[Action, ...], sensed_diff: Diff) -> bool:
        """True when the board that ``sequence`` fits shows exactly part of another legal action of
        the state its last action is taken in, the rest still to come (a stick lifted from the tail:
        a crash, or a step whose stick is still in the hand). Of two actions in a row only a silent
        first one is looked past (Serpientes' ``run`` then a step): its state has the same view, and
        its move table is built for this question alone, never kept."""
        if len(sequence) == 1:
            moves = self._moves(self.state)
        elif len(sequence) == 2 and not self.state.physical_changes(sequence[0]):
            moves = MoveTable(self.state.apply(sequence[0]), self._view(self.state), self.from_board, self.ceiling)
        else:
            return False
        rarest = min((c for c, _ in sensed_diff), key=lambda c: len(moves.touching(c)))
        return any(sensed_diff < d for d in moves.touching(rarest))

    def _ask_quiet(self) -> bool:
        """Count one question about an action that was silent before the first action; False once
        there have been enough (many silent actions are choices made with the buttons)."""
        if self._quiet >= MAX_SILENT_SECONDS:
            return False
        self._quiet += 1
        return True

    def _on_the_way(self, moves: MoveTable, sensed_diff: Diff) -> bool:
        """True when every sensed change lies between the current view and some legal action's view
        (a lifted piece not yet put down, beads in the hand)."""
        return bool(self._on_the_way_to(moves, sensed_diff))

    def _on_the_way_to(self, moves: MoveTable, partial: Diff) -> list[Diff]:
        """The legal actions' diffs that every change of ``partial`` lies on the way to."""
        if not partial:
            return list(moves.by_diff)
        # Any such diff changes every partial channel: look at those changing the rarest one.
        rarest = min((c for c, _ in partial), key=lambda c: len(moves.touching(c)))
        out = []
        for d in moves.touching(rarest):
            target = dict(d)
            if all(c in target and self._between(c, moves.view[c], v, target[c]) for c, v in partial):
                out.append(d)
        return out

    def _between(self, channel: str, before: int, now: int, after: int) -> bool:
        kind = self.channels[channel].kind
        if kind == ChannelKind.COUNT:
            return min(before, after) <= now <= max(before, after)
        if kind == ChannelKind.OFFSET:  # a ring part way round, turning the shorter way to its target
            return on_the_turn(before, now, after, self.channels[channel].maximum + 1)
        return now in (before, after) or now == 0  # a piece lifted on its way somewhere

    def _takeback_target(self, sensed: dict[str, int], floor: int = 0) -> int:
        """How many actions to take back so the game's view equals the sensed board (0: none), never
        to fewer than ``floor`` actions (a takeback across a chance outcome that needs consent)."""
        if not self.allow_takeback:
            return 0
        history = self.match.history
        for back in range(1, min(self.takeback_depth, len(history) - 1 - floor) + 1):
            earlier = history[-1 - back]
            if earlier.current_player < 0:
                continue
            view = self._view(earlier)  # the view alone: no move table is built for it
            if not board_diff(view, sensed, self.ceiling):
                return back
        return 0

    # -- words and lights ------------------------------------------------------------------------

    def targets(self, sensed: dict[str, int] | None = None, state: State | None = None) -> dict[str, int]:
        """Channels a legal action of the acting player would put something on (channel -> value
        there), for the LEDs: another player's action legal at the same decision (a Jeocinco bridge
        laid out of turn) is not lit in the acting player's colour.

        With a sensed board in progress (a pawn lifted), only the actions it is on the way to count.
        ``state``: another state than the game's (the :attr:`preview` of a held move).
        """
        state = self.state if state is None else state
        moves = self._moves(state)
        if self.lazy and not moves.complete:
            return {}
        current = moves.view
        partial = self._diff(current, sensed) if sensed else frozenset()  # the LEDs and the state ask it of one board
        if not partial and moves.lit is not None:
            return dict(moves.lit)
        out: dict[str, int] = {}
        by_diff, player, player_of = moves.by_diff, state.current_player, state.player_of  # read once, not per action
        for d in self._on_the_way_to(moves, partial):  # in legal order: a later action's value wins
            if all(player_of(a) != player for a in by_diff[d]):
                continue
            for c, v in d:
                kind = self.channels[c].kind
                if kind == ChannelKind.OFFSET or v > current[c] or (kind == ChannelKind.PIECE and v):
                    out[c] = v
        if not partial:
            moves.lit = dict(out)
        return out

    def clean_move(self, sensed: dict[str, int]) -> bool:
        """True when the sensed board is exactly one legal action's view, no part of another and
        turning no ring: no sensor is bouncing into it, so it can be judged without waiting for the
        debounce window (and taken at once when :meth:`final`; else it is held, and shown)."""
        if self.state.current_player < 0:
            return False
        moves = self._moves(self.state)
        if self.lazy and not moves.complete:
            return False  # judged after the debounce window, by when the table is built
        shown = self._diff(moves.view, sensed)
        if not shown or len(moves.by_diff.get(shown, ())) != 1:
            return False
        if any(self.channels[c].kind == ChannelKind.OFFSET for c, _ in shown):
            return False  # a ring turns through the spaces before its target: always wait
        return not self._on_the_way_elsewhere((moves.by_diff[shown][0],), shown)

    def silent_actions(self) -> list[str]:
        """Legal actions that change nothing on the board (taken from buttons or MQTT)."""
        moves = self._moves(self.state)
        if self.lazy and not moves.complete:
            return []
        return [self.state.action_to_text(a) for a in moves.silent]

    def describe(self, expected: Mapping[str, int], sensed: Mapping[str, int]) -> tuple[Message, ...]:
        """What differs between the board ``expected`` and the one ``sensed``: a clause per place
        (the first six, and how many more)."""
        parts = []
        differing = sorted(c for c, _ in board_diff(expected, sensed, self.ceiling))
        for c in differing[:6]:  # the first six; the rest are only counted
            want, got = expected[c], sensed.get(c, 0)
            kind = self.channels[c].kind
            place = self.label(c)
            if kind == ChannelKind.PRESENCE:
                parts.append(words.MISSING(place=place) if want else words.EXTRA(place=place))
            elif kind == ChannelKind.COUNT:
                parts.append(words.WRONG_COUNT(place=place, got=got, want=want))
            elif kind == ChannelKind.OFFSET:
                parts.append(words.WRONG_OFFSET(place=place, got=got, want=want))
            elif want == 0:
                parts.append(words.EXTRA(place=place))
            elif got == 0:
                parts.append(words.MISSING(place=place))
            else:
                parts.append(words.WRONG_PIECE(place=place, got=got, want=want))
        return (*parts, words.AND_MORE(count=len(differing) - 6)) if len(differing) > 6 else tuple(parts)

    def _explain(self, moves: MoveTable, sensed_diff: Diff, sensed: dict[str, int]) -> Message:
        sensed_channels = frozenset(c for c, _ in sensed_diff)
        best, best_score = None, 0.0
        for d, acts in moves.by_diff.items():  # the first, in legal order, of the most alike
            chans = moves.chans(d)
            shared = len(chans & sensed_channels)
            score = shared / (len(chans) + len(sensed_channels) - shared)
            if score > best_score:
                best, best_score = acts[0], score
        if best is not None:  # the nearest legal move, as the table is told of it: in words
            near = self.action_words(self.state.public_action_text(best), self.state.player_of(best))
        if best is not None and best_score == 1.0:
            # The right places, the wrong values: a wrong piece, a wrong count, a wrong turn.
            target = self.state.physical_changes(best)
            wrong = []
            for c, got in sorted(sensed_diff):
                place, kind = self.label(c), self.channels[c].kind
                if kind == ChannelKind.PIECE:
                    wrong.append(words.WRONG_PIECE_FOR_MOVE(place=place, got=got, want=target[c]))
                elif kind == ChannelKind.OFFSET:
                    wrong.append(words.WRONG_TURN(place=place, got=got, want=target[c]))
                else:
                    wrong.append(words.WRONG_VALUE(place=place, got=got, want=target[c]))
            return words.NOT_LEGAL_NEAR(what=tuple(wrong), move=near)
        what = self.describe(moves.view, sensed)
        if best is not None and best_score >= 0.5:
            return words.NOT_LEGAL_NEAR(what=what, move=near)
        return words.NOT_LEGAL(what=what)
