"""The address the phones open: the one in their seat's QR code must reach the table.

A tablet that opened the controls as `localhost` would hand the phones a link to
themselves. The configured `public_url` comes first, then the address the tablet used
when it is not this machine's own, then the Pi's LAN address; when only localhost is
known, the Godfather is told.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

NO_ROUTE_PROBE = ("192.0.2.1", 9)  # TEST-NET-1: a UDP connect picks a route, sends nothing


def lan_address() -> str | None:
    """This machine's IPv4 address on its network (the one its default route leaves
    from), or None when it has none but loopback."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(NO_ROUTE_PROBE)
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if is_local(address) or address == "0.0.0.0" else address


def is_local(host: str) -> bool:
    """Whether a host name or address means this machine only."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def phone_base(public_url: str | None, bind_host: str, host_url: str,
               lan: str | None) -> tuple[str, bool]:
    """(the base of the phones' links, whether only this machine can open it), from the
    configured public_url, the host the server listens on, the URL this page was opened
    with and the LAN address found (if any)."""
    if public_url:
        return public_url.rstrip("/"), False
    opened = urlsplit(host_url)
    if not is_local(opened.hostname or ""):
        return host_url.rstrip("/"), False
    if lan is not None and not is_local(bind_host):
        port = f":{opened.port}" if opened.port else ""
        return f"{opened.scheme}://{lan}{port}", False
    return host_url.rstrip("/"), True


def phones_base(public_url: str | None, bind_host: str) -> tuple[str, bool]:
    """`phone_base` for the request being served."""
    from flask import request

    return phone_base(public_url, bind_host, request.host_url, lan_address())
