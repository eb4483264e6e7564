"""The companion as a Raspberry Pi appliance: installed as a system service, ready and alive
over sd_notify, logging to journald with levels, announced by name over mDNS, checked by
`companion doctor` (docs/INSTALL.md)."""
