"""The `dashboard:` config section: where the tablet's web server listens and how."""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.config import Node

HOST = re.compile(r"[0-9A-Za-z.:\-\[\]]{1,64}")


@dataclass(frozen=True)
class DashboardSettings:
    host: str = "0.0.0.0"  # the tablet and phones join over the table's network
    port: int = 8080
    threads: int = 64  # every live page holds one thread for its event stream
    secret_key: str | None = None  # None: random per start (sessions end with a restart)
    public_url: str | None = None  # base of the phone links in QR codes; None: from the request
    keepalive_s: float = 15.0


def parse(node: Node) -> DashboardSettings:
    settings = DashboardSettings(
        host=node.str("host", "0.0.0.0", pattern=HOST),
        port=node.int("port", 8080, lo=0, hi=65535),
        threads=node.int("threads", 64, lo=8, hi=512),
        secret_key=node.str("secret_key", None),
        public_url=node.str("public_url", None, pattern=re.compile(r"https?://\S+")),
        keepalive_s=node.number("keepalive_s", 15.0, lo=1, hi=300),
    )
    node.done()
    return settings
