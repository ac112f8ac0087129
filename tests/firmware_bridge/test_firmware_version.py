"""A Pico left with another firmware version after an update: the service warns in its log and
publishes it in ``info`` (``sensor_board.firmware_differs``), against the firmware it ships."""

from __future__ import annotations

import json
import logging

import pytest

from controller import schemas
from controller.localbroker import Broker
from firmware_bridge.boardconfig import SHIPPED_FIRMWARE, firmware_differs
from firmware_bridge.firmware import arbitro_fw
from tests.support.mqttc import Listener
from tests.support.services import bridge_of
from tests.support.table import Table


def test_firmware_differs_compares_the_version_not_the_configuration() -> None:
    assert SHIPPED_FIRMWARE == arbitro_fw.FIRMWARE_VERSION
    assert not firmware_differs(SHIPPED_FIRMWARE) and not firmware_differs(SHIPPED_FIRMWARE + " cfg 590986c8c878")
    assert firmware_differs("arbitro-fw 0.0.9 cfg 590986c8c878") and firmware_differs("something else")


def info_of(table: Table, port: int) -> dict[str, object]:
    bridge_of(table.service).flush()
    late = Listener(port, ["arbitro/t-contigo/info"])
    try:
        info: dict[str, object] = json.loads(late.wait_for(lambda m: m[2] and m[0] == "arbitro/t-contigo/info")[1])
    finally:
        late.close()
    schemas.validator("info").validate(info)
    return info


@pytest.mark.parametrize("old", [False, True])
def test_a_pico_with_another_firmware_is_published_in_info_and_warned_in_the_log(
        old: bool, broker: Broker, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    if old:  # the simulated Pico says HELLO with what an old firmware would
        monkeypatch.setattr(arbitro_fw, "FIRMWARE_VERSION", "arbitro-fw 0.0.9")
    caplog.set_level(logging.WARNING, logger="arbitro")
    with Table("contigo", seed=2, mqtt_port=broker.port) as table:
        info = info_of(table, broker.port)
    board = info["sensor_board"]
    assert isinstance(board, dict)
    assert board["shipped_firmware"] == SHIPPED_FIRMWARE and board["firmware_differs"] is old
    assert board["firmware"].startswith("arbitro-fw 0.0.9" if old else SHIPPED_FIRMWARE)
    warned = [r.getMessage() for r in caplog.records if "this arbitro ships" in r.getMessage()]
    assert warned == ([f"the sensor board runs {board['firmware']}, this arbitro ships {SHIPPED_FIRMWARE}: "
                       "flash it (arbitro firmware flash)"] if old else [])
