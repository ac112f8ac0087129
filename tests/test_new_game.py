"""New games on a running table: the board to set up is shown, not flagged; another game needs its
own board."""

from __future__ import annotations

import random

from controller.games import CHANCE
from controller.localbroker import Broker
from tests.support.mqttc import Listener
from tests.support.table import Table


def test_a_new_game_asks_for_the_board_to_be_set_up_and_another_game_needs_its_own_board(broker: Broker) -> None:
    rng = random.Random(1)
    with Table("contigo", seed=1, mqtt_port=broker.port) as table:
        op = Listener(broker.port, ["arbitro/t-contigo/#"])
        try:
            for _ in range(6):
                table.play(rng.choice(table.state.legal_actions()))
            moved = table.state.physical_view()
            answer = op.request("arbitro/t-contigo", "new_game", {"game": "serpientes"})
            assert answer["ok"] is False and "the sensor board reports" in answer["error"]
            assert table.moves == 6, "a refused new game must leave the game as it was"

            answer = op.request("arbitro/t-contigo", "new_game", {"seed": 9})
            assert answer["ok"] is True and answer["result"] == {"game": "contigo", "seed": 9}
            table.idle()
            assert table.moves == 0 and table.verdict.kind == "setup"
            start = table.state.physical_view()
            assert "set up the board" in table.verdict.message
            table.hands.set_channels({c: v for c, v in start.items() if moved[c] != v})
            table.idle()
            verdict = table.verdict  # read again: the board was set up
            assert verdict.kind == "in_sync"
            state = table.state
            assert state.current_player == CHANCE
        finally:
            op.close()
