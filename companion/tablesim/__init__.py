"""A simulated table in 3-D: seats, bodies, worn badges, guns' receivers and human hands.

Pure: no I/O and no clock (times are passed in, in milliseconds), randomness only from the
`random.Random` given to `TableModel`. The simulated hub calls `TableModel.detect` once
per slot; the aim-accuracy bench (`bench/aim_accuracy.py`) plays scripted intents through it.
"""

from companion.tablesim.geometry import Place, Table, make_table, rect_table, round_table
from companion.tablesim.model import Hand, Optics, TableModel

__all__ = ["Hand", "Optics", "Place", "Table", "TableModel", "make_table", "rect_table",
           "round_table"]
