"""In real headless Chromium: the page says so when the broker, the board's referee or the display
server itself goes away, and recovers by itself when each comes back."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from controller.display.server import DisplayConfig, RunningDisplay
from controller.localbroker import Broker
from controller.mqtt import MqttBridge
from tests.display.conftest import start_display
from tests.support.mqttc import Listener
from tests.support.services import mqtt_service


def test_the_page_tells_of_each_outage_and_recovers_by_itself(broker: Broker, page: Page) -> None:
    service = mqtt_service("contigo", "b7", broker.port, seed=3)
    display = start_display(broker.port)
    operator = Listener(broker.port, ["arbitro/b7/state"])
    banner = page.locator("#banner")
    calm = "The board's sensors are disconnected."  # this referee has no sensor board: the page says that alone
    try:
        page.goto(f"{display.url}board/b7")
        expect(page.locator("#picture svg")).to_be_visible()
        expect(banner).to_have_text(calm)

        # The broker goes away: the page says so, then recovers by itself, and is live again.
        broker.stop()
        expect(banner).to_contain_text("lost the MQTT broker")
        broker.start()
        expect(banner).to_have_text(calm)
        answer = operator.request("arbitro/b7", "roll", {})  # the operator's client is back too
        assert answer["ok"], answer
        # Live again: the roll reaches the page (its state goes out twice, as taken and as judged).
        expect(page.locator("#moves li")).to_have_count(1)

        # The referee goes away (its status goes offline), then a new one takes the board.
        service.stop()
        expect(banner).to_contain_text("referee of board b7 is offline")
        service = mqtt_service("contigo", "b7", broker.port, seed=4)
        expect(banner).to_have_text(calm)
        expect(page.locator("#moves li")).to_have_count(0)  # a new game: the old move list is gone

        # The display server itself goes away and comes back on its port.
        port = display.display.port
        display.stop()
        expect(banner).to_contain_text("Lost the connection to the display server")
        display = RunningDisplay(DisplayConfig(broker_port=broker.port, host="127.0.0.1", port=port))
        expect(banner).to_have_text(calm, timeout=15_000)
        expect(page.locator("#picture svg")).to_be_visible()
        expect(page.locator("#turn")).to_contain_text("Waiting for chance")
    finally:
        operator.close()
        display.stop()
        service.stop()


def test_the_display_gets_back_the_moves_it_missed_while_away(broker: Broker, page: Page) -> None:
    """Issue 18.11: events sent while a display could not hear them reach only persistent sessions;
    the retained events/recent window gives them back. Here the broker goes away and comes back,
    and the display comes back only after the referee has sent what it held meanwhile."""
    import random

    from tests.display.test_live import board_move
    from tests.support.table import Table

    display = start_display(broker.port)
    rng = random.Random(11)
    try:
        with Table("contigo", seed=3, mqtt_port=broker.port) as table:
            page.goto(f"{display.url}board/t-contigo")
            played = [board_move(table, rng) for _ in range(2)]
            expect(page.locator("#moves li").last).to_have_attribute("title", played[-1])

            client = display.display.broker.client
            assert client is not None
            client.loop_stop()  # the display is away (its network thread stopped)...
            broker.stop()  # ...and so is the broker, while the game goes on at the table
            played += [board_move(table, rng) for _ in range(3)]
            broker.start()
            bridge = table.service.mqtt
            assert isinstance(bridge, MqttBridge)
            assert bridge.connected.wait(10) and bridge.flush(10)  # all it held went out
            client.loop_start()  # back only now: the missed events were sent to nobody

            record = table.service.read(lambda s: list(s.match.public_log))
            expect(page.locator("#moves li")).to_have_count(len(record))
            assert page.locator("#moves li").evaluate_all("items => items.map((item) => item.title)") == record
            assert [t for t in record if t in played] == played
    finally:
        display.stop()
