"""The systemd unit: ready and alive over sd_notify, restarted on failure, hardened.

Hardening keeps what a table needs: its state folder writable, the network (the dashboard,
the broker on loopback, mDNS; netlink for the interfaces' addresses) to loopback and the
LAN only, and of the devices only those the config names (`device_lines`): its boards'
serial ports, the GPIO chips when switches are wired to the Pi, pseudo-terminals for a
simulated table. docs/INSTALL.md says what each line is for.
"""

from __future__ import annotations

from companion.config import Config
from companion.service.layout import CONFIG, PREFIX, STATE_DIR, USER

LAN = ("localhost link-local multicast 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 "
       "100.64.0.0/10 fc00::/7")  # loopback, the private ranges, mDNS (224.0.0.251, ff02::fb)

WATCHDOG_S = 30  # the referee's loop pings every 15 s; a hang is restarted within 30


def device_lines(config: Config) -> list[str]:
    """`DeviceAllow=` for what the config names, and `ProcSubset=pid` unless switches are
    wired to the Pi (gpiozero reads the board's revision from /proc/device-tree)."""
    sensors = config["sensors"]
    lines: list[str] = []
    for board in sensors.boards:  # a USB hub is a ttyACM (CDC) or ttyUSB (a USB-serial chip)
        lines += [f"DeviceAllow={board.port} rw"] if board.port else [
            "DeviceAllow=char-ttyACM rw", "DeviceAllow=char-ttyUSB rw"]
    wired = (sensors.gpio.standees or sensors.gpio.tilts) and sensors.gpio.pin_factory != "mock"
    if wired:
        lines.append("DeviceAllow=char-gpiochip rw")
    if sensors.gpio.imu.seats:  # the guns' IMUs on the Pi's I2C header
        lines.append(f"DeviceAllow=/dev/i2c-{sensors.gpio.imu.bus} rw")
    if sensors.sim.guns:  # the simulated hub speaks over a pseudo-terminal
        lines += ["DeviceAllow=/dev/ptmx rw", "DeviceAllow=char-pts rw"]
    return [*dict.fromkeys(lines), *([] if wired else ["ProcSubset=pid"])]


def unit_text(config: Config) -> str:
    devices = "\n".join(device_lines(config))
    return f"""\
# Written by the companion's install (companion/service/unit.py), and again by the next one:
# put local changes in a drop-in (systemctl edit {USER}).
[Unit]
Description=Cash 'n Guns table companion
After=network-online.target
Wants=network-online.target
StartLimitIntervalSec=120
StartLimitBurst=5

[Service]
Type=notify
NotifyAccess=main
ExecStart={PREFIX}/bin/companion run --config {CONFIG}
User={USER}
Group={USER}
WorkingDirectory={STATE_DIR}
StateDirectory={STATE_DIR.name}
StateDirectoryMode=0700
UMask=0077
Environment=PYTHONUNBUFFERED=1
SyslogIdentifier={USER}
Restart=on-failure
RestartSec=3
# exit 2 is a config error: starting again cannot mend it
RestartPreventExitStatus=2
TimeoutStartSec=90
TimeoutStopSec=20
WatchdogSec={WATCHDOG_S}
LimitNOFILE=4096
NoNewPrivileges=yes
CapabilityBoundingSet=
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
PrivateMounts=yes
RemoveIPC=yes
DevicePolicy=closed
{devices}
ProtectProc=invisible
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK
IPAddressDeny=any
IPAddressAllow={LAN}
RestrictNamespaces=yes
RestrictRealtime=yes
RestrictSUIDSGID=yes
LockPersonality=yes
SystemCallArchitectures=native
SystemCallFilter=@system-service
SystemCallFilter=~@privileged @resources
SystemCallErrorNumber=EPERM

[Install]
WantedBy=multi-user.target
"""
