"""Hidden information is sacred: what a display or another seat can read never tells a hidden card
or a future chance outcome.

Serpientes with cards dealt by arbitro, played at the simulated table with the buttons (``next``
highlights a card to program, ``confirm`` takes it): every message on the board's public topics
(``status``, ``state``, ``events``, answers) and on another seat's topic is checked."""

from __future__ import annotations

import json
import random
import re

from controller.games import CHANCE
from controller.games.base import Action
from controller.localbroker import Broker
from tests.support.mqttc import Listener
from tests.support.table import Table

SEED = 731953117  # digits that cannot turn up in a payload by chance
BASE = "arbitro/t-serpientes"
CARD = r"(straight|left|right)"


def test_public_topics_and_other_seats_never_reveal_a_hidden_card_or_the_seed(broker: Broker) -> None:
    rng = random.Random(5)
    display = Listener(broker.port, [f"{BASE}/status", f"{BASE}/state", f"{BASE}/events", f"{BASE}/response/#",
                                     f"{BASE}/player/1"])
    try:
        with Table("serpientes", seed=SEED, players=3, mqtt_port=broker.port) as table:
            programmed = 0
            for _ in range(140):
                state = table.state
                if state.is_terminal():
                    break
                legal = state.legal_actions()
                if state.current_player != CHANCE:  # program cards more often than not: they are the secrets
                    adds: list[Action] = [a for a in legal if isinstance(a, tuple) and a[0] == "add"]
                    if adds and rng.random() < 0.7:
                        legal = adds
                        programmed += 1
                table.play(rng.choice(legal))
            assert programmed >= 10, "the game must have programmed cards face down"
            answer = display.request(BASE, "state", {"id": "peek"})
            assert answer["ok"]
            table.idle()
            final = table.state
            hand_of = {p: final.private_view(p) for p in range(3)}
    finally:
        display.close()

    public = [(t, p) for t, p, *_ in display.messages if not t.startswith(f"{BASE}/player/")]
    events = [json.loads(p) for t, p in public if t == f"{BASE}/events"]
    # The next button was pressed for programmed cards: how often tells which card, so it leaves no
    # public trace (tests/test_mqtt_security.py counts the messages a viewer gets while it is pressed).
    assert not any(e["type"] == "choice" for e in events)
    for topic, payload in public:
        text = payload.decode()
        assert str(SEED) not in text, f"{topic} tells the seed: {text[:200]}"
        assert '"seed"' not in text, f"{topic} has a seed field"
        # A card drawn or added face down is never named; a step names its card as it is turned up.
        assert not re.search(rf"\b(draw|add) {CARD}\b", text), f"{topic} names a hidden card: {text[:300]}"
        assert '"hand"' not in text and '"sequence"' not in text, topic
        # The private list of choices; a violation or set-up event's "choices" is only a count (and
        # comes whenever the board is judged while the hands are still at it, as under load).
        assert not re.search(r'"choices":\s*\[', text), topic
    for state in (json.loads(p) for t, p in public if t == f"{BASE}/state"):
        if state["targets"]:  # the LEDs show a stick's place only for the card being turned up
            assert state["board_view"]["phase"] == "run", state["board_view"]["phase"]

    # Seat 1's topic holds seat 1's cards and no one else's.
    seat = [json.loads(p) for t, p, *_ in display.messages if t == f"{BASE}/player/1"]
    assert seat and all(m["player"] == 1 for m in seat)
    assert seat[-1]["hand"] == hand_of[1]["hand"] and seat[-1]["sequence"] == hand_of[1]["sequence"]
    assert not any(t.startswith(f"{BASE}/player/") and t != f"{BASE}/player/1" for t, *_ in display.messages)


def test_what_a_hidden_draw_can_give_is_told_to_the_operator_only(broker: Broker) -> None:
    """An ``enter`` for a hidden draw: taken or refused, and with the outcomes still possible listed,
    only when the answer goes to the board's ``response/`` tree (the operator's, under the ACL); an
    answer to a response topic elsewhere, which anyone may read, tells nothing of the deck."""
    from tests.support.services import mqtt_service

    base = "arbitro/hd"
    service = mqtt_service("serpientes", "hd", broker.port, seed=8, board={"num_players": 3})
    elsewhere = Listener(broker.port, [])  # its answers come on test/replies/...: outside the board's tree
    desk = Listener(broker.port, [], reply_topic=f"{base}/response/desk-1")
    try:
        while (pending := desk.request(base, "state", {})["result"]["pending_chance"]) != {"outcomes": ["draw"]}:
            assert pending is not None and desk.request(base, "roll", {})["ok"]  # tokens, who starts: public
        refused = elsewhere.request(base, "enter", {"value": "queen"})
        assert not refused["ok"] and "operator" in refused["error"], refused
        assert not re.search(CARD, refused["error"]), refused
        taken = elsewhere.request(base, "enter", {"value": "left"})
        assert not taken["ok"] and not re.search(CARD, taken["error"]), taken  # not even whether one is left
        told = desk.request(base, "enter", {"value": "queen"})
        assert not told["ok"] and re.search(rf"possible: .*draw {CARD}", told["error"]), told
        again = desk.request(base, "enter", {"id": "q", "value": "queen"})
        assert re.search(rf"draw {CARD}", again["error"])
        # The answers kept for repeated requests keep no card: a repeat elsewhere gets none.
        repeat = elsewhere.request(base, "enter", {"id": "q", "value": "queen"})
        assert not repeat["ok"] and not re.search(CARD, repeat["error"]), repeat
        assert desk.request(base, "enter", {"value": "left"})["result"] == {"outcome": "draw"}
    finally:
        for client in (elsewhere, desk):
            client.close()
        service.stop()
