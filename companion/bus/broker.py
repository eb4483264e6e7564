"""An MQTT broker inside the companion, for a machine with none configured.

amqtt runs on its own event loop in a daemon thread. It listens on loopback only (its
default is every interface) and with none of its optional plugins (packet logging,
$SYS topics): only anonymous access, which loopback-only binding makes acceptable.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

log = logging.getLogger(__name__)

LOOPBACK = "127.0.0.1"


class EmbeddedBroker:
    def __init__(self, port: int = 1883, host: str = LOOPBACK) -> None:
        self.host, self.port = host, port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._broker: Any = None
        self._thread: threading.Thread | None = None
        self._started = threading.Event()
        self._error: BaseException | None = None

    def config(self) -> dict:
        return {
            "listeners": {"default": {"type": "tcp", "bind": f"{self.host}:{self.port}"}},
            "plugins": {
                "amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True},
            },
        }

    def start(self, timeout_s: float = 10.0) -> EmbeddedBroker:
        self._thread = threading.Thread(target=self._run, name="mqtt-broker", daemon=True)
        self._thread.start()
        if not self._started.wait(timeout_s):
            raise RuntimeError(f"the embedded MQTT broker did not start in {timeout_s} s")
        if self._error is not None:
            raise RuntimeError(
                f"the embedded MQTT broker cannot listen on {self.host}:{self.port}: {self._error}"
            ) from self._error
        log.info("embedded MQTT broker listening on %s:%d", self.host, self.port)
        return self

    def stop(self, timeout_s: float = 5.0) -> None:
        if self._loop is None or self._broker is None:
            return
        future = asyncio.run_coroutine_threadsafe(self._broker.shutdown(), self._loop)
        try:
            future.result(timeout_s)
        except Exception:
            log.exception("embedded broker did not shut down cleanly")
        self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread:
            self._thread.join(timeout_s)

    def _run(self) -> None:
        from amqtt.broker import Broker

        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)

        async def start() -> None:
            self._broker = Broker(self.config(), loop=loop)
            await self._broker.start()

        try:
            loop.run_until_complete(start())
            self._loop = loop
        except BaseException as exc:  # reported to the thread that called start()
            self._error = exc
            self._started.set()
            loop.close()
            return
        self._started.set()
        loop.run_forever()
        pending = asyncio.all_tasks(loop)  # amqtt leaves some behind after shutdown
        for task in pending:
            task.cancel()
        loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        loop.close()
