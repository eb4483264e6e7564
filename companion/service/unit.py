"""The systemd unit: ready and alive over sd_notify, restarted on failure, hardened.

Hardening keeps what a table needs: its state folder writable, the network (the dashboard,
the broker on loopback, mDNS; netlink for the interfaces' addresses), and the devices, which
stay reachable through the user's groups (gpio, dialout): no PrivateDevices, as a private
/dev has no serial port or GPIO chip. docs/INSTALL.md says what each line is for.
"""

from __future__ import annotations

from companion.service.layout import CONFIG, PREFIX, STATE_DIR, USER

WATCHDOG_S = 30  # the referee's loop pings every 15 s; a hang is restarted within 30


def unit_text() -> str:
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
NoNewPrivileges=yes
CapabilityBoundingSet=
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
ProtectProc=invisible
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK
RestrictNamespaces=yes
RestrictRealtime=yes
RestrictSUIDSGID=yes
LockPersonality=yes
SystemCallArchitectures=native
SystemCallFilter=@system-service
SystemCallErrorNumber=EPERM

[Install]
WantedBy=multi-user.target
"""
