"""Serving the dashboard with waitress: a thread per live page, so threads come in dozens.

waitress's default 4 threads would serve 4 event streams and leave every other page
hanging; `channel_request_lookahead` lets a stream notice its page has gone.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from flask import Flask
from waitress.channel import HTTPChannel
from waitress.server import create_server

from companion.dashboard.settings import DashboardSettings


class DashboardServer:
    def __init__(self, app: Flask, settings: DashboardSettings) -> None:
        self.app = app
        self._server = create_server(app, host=settings.host, port=settings.port,
                                     threads=settings.threads, channel_request_lookahead=1,
                                     ident="cashnguns", clear_untrusted_proxy_headers=True)
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return self._server.effective_port

    @property
    def host(self) -> str:
        return self._server.effective_host

    def start(self) -> DashboardServer:
        self._thread = threading.Thread(target=self._server.run, name="dashboard", daemon=True)
        self._thread.start()
        return self

    def drop_connections(self) -> None:
        """Close every open connection, as a network drop would (pages reconnect)."""
        self._in_loop(self._close_channels)

    def stop(self) -> None:
        """End the live streams, then every connection and the listening socket: the
        server's loop then has nothing left to watch and returns."""
        hub = self.app.extensions["hub"]
        hub.shutdown()
        hub.wait_empty(2.0)
        closed = threading.Event()

        def close_all() -> None:
            self._close_channels()
            self._server.close()  # its wake-up pipe too
            closed.set()

        try:
            self._in_loop(close_all)
        except OSError:  # another wake-up ran close_all before ours was written
            if not closed.wait(2.0):
                raise
        if self._thread:
            self._thread.join(5)
        self._server.task_dispatcher.shutdown(timeout=5)

    def _close_channels(self) -> None:
        for channel in list(self._server._map.values()):
            if isinstance(channel, HTTPChannel):
                channel.close()

    def _in_loop(self, action: Callable[[], None]) -> None:
        """Run `action` on the server's own I/O thread, the only one that may close sockets."""
        self._server.trigger.pull_trigger(action)
