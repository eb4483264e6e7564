"""The parts the IR link is built from, with their datasheet values, typical and worst.

One place for every number the optics rest on, so the simulated table and
hardware/IR.md's calculation (hardware/ir_calc.py) use the same ones. Each value names
its part and where it comes from; "worst" is the end of the datasheet's range (or of
the supply's) that makes the link weakest. Values read off a datasheet's curve rather
than its table say so: the bench tests in hardware/IR.md check them on real parts.
"""

from __future__ import annotations

from dataclasses import dataclass

# Vishay TSAL6400: 940 nm IR LED, 5 mm, half-intensity angle +-25 deg
LED_PART = "TSAL6400"
LED_HALF_DEG = 25.0
LED_IE_100MA = {"typical": 40.0, "worst": 25.0}  # mW/sr at IF = 100 mA (table: typ, min)
LED_VF = {"typical": 1.30, "worst": 1.50}  # V near 50 mA (curve; table: 1.35 / 1.6 at 100 mA)

# Vishay TSOP38238 (TSOP382.., AGC2): 38 kHz receiver module, directivity +-45 deg
RX_PART = "TSOP38238"
RX_HALF_DEG = 45.0
RX_EE_MIN = {"typical": 0.15, "worst": 0.35}  # mW/m2, minimum irradiance (table: typ, max)
# the datasheet gives no lower bound: the most sensitive unit is taken as far below the
# typical one as the least sensitive is above it (0.15 * 0.15 / 0.35)
RX_EE_MIN_SENSITIVE = RX_EE_MIN["typical"] ** 2 / RX_EE_MIN["worst"]
RX_MIN_BURST_CYCLES = 10  # a burst must be at least 10 carrier cycles
RX_SHORT_BURST_CYCLES = 70  # bursts of 10..70 cycles need a gap of 10 cycles or more
RX_MIN_GAP_CYCLES = 10
RX_MAX_SHORT_BURSTS_PER_S = 800  # continuous short bursts the AGC2 keeps full gain for
RX_DELAY_CYCLES = (7, 15)  # output goes low td after a burst starts: 7/f0 < td < 15/f0
RX_WIDTH_CYCLES = (-5, 6)  # output low for tpo: tpi - 5/f0 < tpo < tpi + 6/f0

# TI ULN2803A: one channel sinks a badge's three LEDs (about 135 mA)
DRIVER_PART = "ULN2803A"
DRIVER_VCE = {"typical": 0.9, "worst": 1.1}  # V, VCE(sat) at IC = 100 mA (table: typ, max)

# the badge: three LEDs in parallel, each through its own resistor from the hub's +5 V
LED_RESISTOR_OHM = 56.0
RESISTOR_TOLERANCE = {"typical": 0.0, "worst": 0.05}  # 5 % resistors, high end
SUPPLY_V = {"typical": 5.0, "worst": 4.75}  # the Pi's USB port (USB 2.0: 4.75 V at least)
CABLE_V = {"typical": 0.1, "worst": 0.2}  # seat cable and the pod's fuse at 135 mA

CARRIER_HZ = 38000
CARRIER_DUTY = 1 / 3  # the hub's PWM into the 74HC238's enable
BURST_US = 1000


@dataclass(frozen=True)
class Parts:
    """One set of part values: `typical`, or `worst` (weakest LED, least sensitive
    receiver, low supply, every drop at its datasheet maximum)."""

    corner: str = "typical"

    def __post_init__(self) -> None:
        if self.corner not in ("typical", "worst"):
            raise ValueError(f"parts: corner must be 'typical' or 'worst', not {self.corner!r}")

    @property
    def led_ma(self) -> float:
        """Current in each badge LED while the carrier is on (its peak)."""
        c = self.corner
        volts = SUPPLY_V[c] - CABLE_V[c] - LED_VF[c] - DRIVER_VCE[c]
        return 1000.0 * volts / (LED_RESISTOR_OHM * (1 + RESISTOR_TOLERANCE[c]))

    @property
    def led_mw_sr(self) -> float:
        """One LED's radiant intensity on its axis while on (scaled linearly from 100 mA)."""
        return LED_IE_100MA[self.corner] * self.led_ma / 100.0

    @property
    def rx_ee_min(self) -> float:
        """The receiver's minimum irradiance (mW/m2) for the datasheet's test bursts."""
        return RX_EE_MIN[self.corner]
