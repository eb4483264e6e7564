"""The `dashboard:` config section: where the tablet's web server listens and how, and the
real table's top (for the seating check before a game)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.config import Node
from companion.sensors.settings import SEATING
from companion.tablesim.geometry import GRIPS

HOST = re.compile(r"[0-9A-Za-z.:\-\[\]]{1,64}")


@dataclass(frozen=True)
class TableTop:
    """The table the players sit round: what the seating check (tablesim.advice) models."""

    shape: str  # round | rect
    size_m: float  # the diameter, or the long side
    seating: str | None = None  # rect: players per side, long sides first ("3+3+1+1")
    grip: str | None = None  # how the players hold their guns (GRIPS); None: the worst grip


@dataclass(frozen=True)
class DashboardSettings:
    host: str = "0.0.0.0"  # the tablet and phones join over the table's network
    port: int = 8080
    threads: int = 8  # for requests: a live page's stream holds no thread
    max_streams: int = 200  # live pages at once; more are refused (503) and retry
    secret_key: str | None = None  # None: derived from the journal's secret (kept)
    public_url: str | None = None  # base of the phone links in QR codes; None: from the request
    mdns: bool = False  # announce http://cashnguns-<table>.local:<port> (docs/INSTALL.md)
    keepalive_s: float = 15.0
    max_connections: int = 512  # open at once, streams included (dashboard/gate.py)
    reserved_connections: int = 64  # of them, kept for the Godfather's and seated phones'
    max_per_address: int = 32  # from one client address
    request_timeout_s: float = 10.0  # for a request to arrive whole (head and body)
    idle_timeout_s: float = 30.0  # a kept-alive connection waiting for its next request
    table: TableTop | None = None  # None: the simulated table's, else no seating check


def parse(node: Node) -> DashboardSettings:
    d = DashboardSettings()
    settings = DashboardSettings(
        host=node.text("host", d.host, pattern=HOST),
        port=node.integer("port", d.port, lo=0, hi=65535),
        threads=node.integer("threads", d.threads, lo=2, hi=512),
        max_streams=node.integer("max_streams", d.max_streams, lo=1, hi=1000),
        secret_key=node.text("secret_key", d.secret_key),
        public_url=node.text("public_url", d.public_url, pattern=re.compile(r"https?://\S+")),
        mdns=node.flag("mdns", d.mdns),
        keepalive_s=node.number("keepalive_s", d.keepalive_s, lo=1, hi=300),
        max_connections=node.integer("max_connections", d.max_connections, lo=16, hi=8192),
        reserved_connections=node.integer("reserved_connections", d.reserved_connections,
                                          lo=0, hi=4096),
        max_per_address=node.integer("max_per_address", d.max_per_address, lo=4, hi=8192),
        request_timeout_s=node.number("request_timeout_s", d.request_timeout_s, lo=1, hi=120),
        idle_timeout_s=node.number("idle_timeout_s", d.idle_timeout_s, lo=1, hi=600),
        table=_table(node) if node.raw("table", None) is not None else None,  # null: none
    )
    if settings.reserved_connections >= settings.max_connections:
        raise node.error("reserved_connections", "must leave room below max_connections")
    if settings.mdns and settings.port == 0:
        raise node.error("mdns", "needs a fixed port: the name is announced with its port")
    node.done()
    return settings


def _table(node: Node) -> TableTop:
    t = node.section("table")
    shape = t.text("shape", choices=("round", "rect"))
    top = TableTop(shape, t.number("size_m", lo=0.5, hi=3.0),
                   t.text("seating", None, pattern=SEATING),
                   t.text("grip", TableTop.grip, choices=tuple(GRIPS)))
    if top.seating is not None and shape != "rect":
        raise t.error("seating", "only for shape: rect")
    t.done()
    return top
