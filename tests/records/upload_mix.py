"""A zip upload with a bit of everything the upload page shows (tests/records and
tests/web): three files, verified Pierce games (signed scores), a Knizia game (the
lowest score wins), a record repeated from another file (a duplicate), a record
rejected at an action (an error position and a source excerpt) and a game stopped
half-way (incomplete)."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, replace

from tests.conftest import Kgn

#: where each record lands: upload index -> (file in the zip, index in that file)
NORTH, SOUTH, EAST = "north.kgn", "south.kgn", "east.kgn"
PLACES = {
    1: (NORTH, 1),
    2: (NORTH, 2),
    3: (SOUTH, 1),
    4: (SOUTH, 2),
    5: (SOUTH, 3),
    6: (EAST, 1),
}
KNIZIA, DUPLICATE, REJECTED, INCOMPLETE = 3, 4, 5, 6


@dataclass(frozen=True)
class Mix:
    data: bytes  # the zip's bytes
    bad_action: int  # the action the rejected record fails at


def mixed_zip(*, seed: int = 11) -> Mix:
    """The zip: north.kgn holds two Pierce games; south.kgn a Knizia game, north's
    first game again, and a game with its last action played twice (rejected);
    east.kgn a game stopped half-way."""
    pierce = Kgn.records(2, seed=seed, players=3)
    (knizia,) = Kgn.records(1, seed=seed + 1, game="escalation-knizia", players=3)
    (spoiled,) = Kgn.records(1, seed=seed + 2, players=3)
    extra = replace(spoiled.actions[-1], index=len(spoiled.actions) + 1)
    spoiled = replace(spoiled, actions=(*spoiled.actions, extra), result=None)
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        archive.writestr(NORTH, Kgn.write(pierce))
        archive.writestr(SOUTH, Kgn.write([knizia, pierce[0], spoiled]))
        archive.writestr(EAST, Kgn.incomplete(seed=seed + 3))
    return Mix(data.getvalue(), extra.index)
