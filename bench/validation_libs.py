"""What a validation library would cost at start-up: import time and memory, side by side.

Each contender checks the same small shape (a new game's setup) in a fresh interpreter that
has already imported PyYAML (the companion always has). Printed: the median wall time of
`import + define the schema + validate one setup` over N runs, and the process's peak RSS.

    PYTHONPATH=. python bench/validation_libs.py [N]   # msgspec, pydantic importable to time them
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

SETUP = ('{"players": ["Ana", "Bob", "Cyd", "Dee"], "powers": {"Ana": "kid"}, "seed": 7, '
         '"cards": "digital"}')
PRELUDE = "import yaml, resource\n"
REPORT = "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"

CONTENDERS = {
    "baseline (python + yaml)": "",
    "companion.rules (imported anyway)": "import companion.rules\n",
    "own (companion.schema)": f"""
from companion.schema import Checker, JsonDoc
d = {SETUP}
c = Checker(JsonDoc(d))
c.names = c.players(d["players"], ("players",))
c.powers(d["powers"]), c.seed(d["seed"]), c.mode(d["cards"], ("cards",), "cards mode")
""",
    "msgspec": f"""
import msgspec
from typing import Annotated, Literal
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=24)]
class Setup(msgspec.Struct, forbid_unknown_fields=True):
    players: Annotated[list[Name], msgspec.Meta(min_length=4, max_length=8)]
    powers: dict[str, str] = {{}}
    seed: int = 0
    cards: Literal["digital", "physical"] = "digital"
msgspec.convert({SETUP}, Setup)
""",
    "pydantic": f"""
import pydantic
from typing import Annotated, Literal
Name = Annotated[str, pydantic.StringConstraints(min_length=1, max_length=24)]
class Setup(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid", strict=True)
    players: Annotated[list[Name], pydantic.Field(min_length=4, max_length=8)]
    powers: dict[str, str] = {{}}
    seed: int = 0
    cards: Literal["digital", "physical"] = "digital"
Setup.model_validate({SETUP})
""",
}


def run(code: str) -> tuple[float, int]:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", PRELUDE + code + REPORT], check=True,
                         capture_output=True, text=True).stdout
    return time.perf_counter() - start, int(out.split()[-1])


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    base_t = base_rss = 0.0
    for name, code in CONTENDERS.items():
        try:
            runs = [run(code) for _ in range(n)]
        except subprocess.CalledProcessError as e:
            print(f"{name:28} not available ({e.stderr.strip().splitlines()[-1]})")
            continue
        t = statistics.median(r[0] for r in runs) * 1000
        rss = statistics.median(r[1] for r in runs) / 1024
        if not code:
            base_t, base_rss = t, rss
        print(f"{name:28} {t:7.1f} ms (+{t - base_t:5.1f})   "
              f"{rss:6.1f} MiB (+{rss - base_rss:4.1f})")


if __name__ == "__main__":
    main()
