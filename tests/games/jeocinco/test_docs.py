"""Every worked example of docs/rules/jeocinco.md parses and plays as written, and ends where its
``then:`` line says."""

from pathlib import Path

import pytest

from controller.games.jeocinco import GAME
from controller.games.jeocinco.state import JeocincoState

DOC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "jeocinco.md"


def _examples() -> list[tuple[str, list[str], dict[str, str]]]:
    """(position, actions, expected fields) for each example: ``position:``, then optionally
    ``play: a; b`` and ``then: key=value ...`` (fields of the position the play ends in)."""
    lines = [line.strip() for line in DOC.read_text(encoding="utf-8").splitlines()]
    out = []
    for i, line in enumerate(lines):
        if line.startswith("position: "):
            after = lines[i + 1:i + 3]
            play = next((x[len("play: "):] for x in after if x.startswith("play: ")), "")
            then = next((x[len("then: "):] for x in after if x.startswith("then: ")), "")
            out.append((line[len("position: "):], [a.strip() for a in play.split(";") if a.strip()],
                        dict(field.split("=", 1) for field in then.split())))
    return out


EXAMPLES = _examples()


def _play(position: str, actions: list[str]) -> JeocincoState:
    state = GAME.state_from_text(position)
    assert state.to_text() == position
    for text in actions:
        state = state.apply(state.action_from_text(text))
    return state


def test_the_document_has_examples() -> None:
    assert len(EXAMPLES) >= 15
    assert (DOC.parent / "jeocinco-example.svg").exists()


@pytest.mark.parametrize(("position", "actions", "then"), EXAMPLES, ids=[str(i) for i in range(len(EXAMPLES))])
def test_example(position: str, actions: list[str], then: dict[str, str]) -> None:
    fields = dict(word.split("=", 1) for word in _play(position, actions).to_text().split()[1:])
    assert {k: fields.get(k) for k in then} == then


def test_the_win_examples_end_as_described() -> None:
    nowin, win = (e for e in EXAMPLES if "towers=A1N@" in e[0])
    for (position, actions, _), over in ((nowin, False), (win, True)):
        assert _play(position, actions).is_terminal() is over


def _shown(then: dict[str, str], actions: str = "", start: str = "") -> bool:
    """Whether a checked example starting from ``start`` (text in its position), playing ``actions``
    (text in its play) ends with ``then``."""
    return any(e[2].items() >= then.items() and start in e[0] and actions in "; ".join(e[1]) for e in EXAMPLES)


def test_the_rulings_the_engine_makes_have_checked_examples() -> None:
    # play round the table from the starter, and in roll order with the option
    assert _shown({"order": "1320", "actor": "2"}, start="rollorder=0")
    assert _shown({"order": "1320", "actor": "3"}, start="rollorder=1")
    # the opening re-rolls go in seat order, fewest rolls first
    assert _shown({"open": "31/54/3*/52"})
    # pieces with no slot wait for a bridge that opens one, or are forfeited by done
    assert _shown({"phase": "roll", "spare": "00"}, "bridge B3E-B3S~C3N-C3W; place B4E-B4S", "disputes=0")
    assert _shown({"phase": "roll", "spare": "10"}, "done", "disputes=0")
    # after ten tied roll-offs the challenged keeps his piece and places the extra one
    assert _shown({"actor": "1", "stage": "X", "pieces": "0+1"}, "roll 3", ":9 ")
    # a bridge laid in another player's turn
    assert _shown({"spare": "00", "bridges": "B3E-B3S~C3N-C3W"}, "bridge B3E-B3S~C3N-C3W; place C3E-C3S",
                  "actor=1")
