"""The dashboard found by name: `cashnguns-<table>.local` over mDNS, with a DNS-SD
`_http._tcp` service, so a tablet or a phone opens the table without knowing its address.

python-zeroconf answers for the name and the service from inside the companion: the name
lives exactly as long as the table serves, it follows the Pi's addresses when Wi-Fi comes
up late or DHCP moves it, and it works beside avahi-daemon or without it (why this library:
docs/DESIGN-NOTES.md). IPv4 only: every phone that resolves `.local` names does it over IPv4.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zeroconf import Zeroconf

log = logging.getLogger(__name__)

SERVICE_TYPE = "_http._tcp.local."
REFRESH_S = 30.0  # how often the Pi's addresses are looked at again


def host_name(table: str) -> str:
    """`cashnguns-<table>`: a table id may hold `_`, a host name may not."""
    return "cashnguns-" + table.replace("_", "-")


def announced_url(table: str, port: int) -> str:
    return f"http://{host_name(table)}.local:{port}"


def addresses_for(bind_host: str) -> list[str]:
    """The IPv4 addresses the dashboard is reached at: the one it binds to, or with
    0.0.0.0 every address of the Pi but loopback (nobody else reaches 127.0.0.1)."""
    if bind_host not in ("0.0.0.0", ""):
        try:
            return [str(ipaddress.IPv4Address(bind_host))]
        except ValueError:
            return []  # an IPv6 or a host name: not announced (IPv4 only)
    import ifaddr  # zeroconf's own dependency, for the interfaces' addresses

    return sorted({str(ip.ip) for adapter in ifaddr.get_adapters() for ip in adapter.ips
                   if ip.is_IPv4 and not ipaddress.IPv4Address(ip.ip).is_loopback})


class Announcer:
    """Announces the name and the service while the table runs; `stop()` says goodbye."""

    def __init__(self, table: str, bind_host: str, port: int) -> None:
        self.table, self.bind_host, self.port = table, bind_host, port
        self.name = host_name(table)
        self.url = announced_url(table, port)
        self.addresses: list[str] = []  # where it is announced now
        self.announced = threading.Event()  # set once the name is on the network
        self._zeroconf: Zeroconf | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="mdns", daemon=True)

    def start(self) -> Announcer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)
        self._close()

    def _run(self) -> None:
        while not self._stop.is_set():
            addresses = addresses_for(self.bind_host)
            if addresses != self.addresses:
                self._close()
                if addresses:
                    try:
                        self._announce(addresses)
                    except Exception:  # the table plays on without its name: say why
                        log.exception("mDNS: cannot announce %s.local", self.name)
                else:
                    log.warning("mDNS: no IPv4 address to announce %s.local on yet",
                                self.name)
                self.addresses = addresses
            self._stop.wait(REFRESH_S)

    def _announce(self, addresses: list[str]) -> None:
        from zeroconf import IPVersion, NonUniqueNameException, ServiceInfo, Zeroconf

        info = ServiceInfo(
            SERVICE_TYPE, f"Cash 'n Guns {self.table}.{SERVICE_TYPE}", port=self.port,
            addresses=[socket.inet_aton(a) for a in addresses], server=f"{self.name}.local.",
            properties={"path": "/", "table": self.table})
        try:
            zeroconf = Zeroconf(interfaces=addresses, ip_version=IPVersion.V4Only)
        except OSError as exc:
            log.warning("mDNS: cannot announce %s.local on %s: %s", self.name,
                        ", ".join(addresses), exc)
            return
        try:
            zeroconf.register_service(info)
        except NonUniqueNameException:
            zeroconf.close()
            log.error("mDNS: another device already announces the table %r on this network: "
                      "give this table another id (`table:` in its config)", self.table)
            return
        self._zeroconf = zeroconf
        self.announced.set()
        log.info("mDNS: the dashboard is %s (on %s)", self.url, ", ".join(addresses))

    def _close(self) -> None:
        zeroconf, self._zeroconf = self._zeroconf, None
        if zeroconf is not None:
            self.announced.clear()
            zeroconf.close()  # sends the goodbye packets
