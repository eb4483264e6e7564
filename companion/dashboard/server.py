"""Serving the dashboard with waitress, whose worker threads answer requests only.

An event stream does not keep its worker: the app hands the connection over
(`streams.HAND_OVER`), waitress writes nothing more on it and closes only its own handle
of the socket, and the stream loop (dashboard/streams.py) writes the response from then
on. So a few threads serve every command however many pages are open.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from flask import Flask
from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import WSGITask

from companion.dashboard.settings import DashboardSettings
from companion.dashboard.streams import HAND_OVER, StreamServer


class HandOverTask(WSGITask):
    """A request whose connection the app may take: it calls `environ[HAND_OVER](receiver)`
    and returns an empty body; the response head then goes to `receiver.adopt` with a
    duplicate of the socket, instead of onto the wire."""

    receiver: Any = None

    def get_environment(self) -> dict[str, Any]:
        environ: dict[str, Any] = super().get_environment()
        environ[HAND_OVER] = self._hand_over
        return environ

    def _hand_over(self, receiver: Any) -> None:
        if self.request.command == "HEAD":  # no body to stream: the head alone is the answer
            receiver.cancel()
        else:
            self.receiver = receiver

    def write(self, data: bytes) -> None:
        if self.receiver is None:
            super().write(data)

    def finish(self) -> None:
        if self.receiver is None:
            super().finish()
            return
        sock = self.channel.socket.dup()
        head = self.build_response_header()  # unknown length: chunked, or to the close
        self.close_on_finish = True  # waitress closes its handle; the page keeps the socket
        receiver, self.receiver = self.receiver, None
        receiver.adopt(sock, head, self.chunked_response)

    def service(self) -> None:
        try:
            super().service()
        finally:
            if self.receiver is not None:  # the app failed after asking: nothing was taken
                self.receiver.cancel()
                self.receiver = None


class HandOverChannel(HTTPChannel):
    task_class = HandOverTask


class DashboardServer:
    def __init__(self, app: Flask, settings: DashboardSettings) -> None:
        self.app = app
        self._server = create_server(app, host=settings.host, port=settings.port,
                                     threads=settings.threads, asyncore_use_poll=True,
                                     ident="cashnguns", clear_untrusted_proxy_headers=True)
        self._server.channel_class = HandOverChannel
        self.streams: StreamServer = app.extensions["streams"]
        self._thread: threading.Thread | None = None
        self._stopped = False

    @property
    def port(self) -> int:
        return int(self._server.effective_port)  # waitress gives it as text

    @property
    def host(self) -> str:
        return self._server.effective_host

    def start(self) -> DashboardServer:
        self.streams.start()
        self._thread = threading.Thread(target=self._server.run, name="dashboard", daemon=True)
        self._thread.start()
        return self

    def drop_connections(self) -> None:
        """Close every open connection, as a network drop would (pages reconnect)."""
        self.streams.drop()
        self._in_loop(self._close_channels)

    def stop(self) -> None:
        """End the live streams, then every connection and the listening socket: the
        server's loop then has nothing left to watch and returns. Stopping twice is once."""
        if self._stopped:
            return
        self._stopped = True
        self.streams.stop()
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
