"""The archive: uploads of KGN files, their records, and the games (with seats) the
records hold.  A game is stored once (by identity); each record of it in an upload is
a :class:`Record` (an occurrence) with its own tags, position and verdict.

Who may see what is decided in one place, ``visible_to(user)`` on the Upload, Record
and Game querysets: public uploads (and their records and games) are visible to
everyone, private ones to their owner and to staff; a game is visible while one
record of it is.  Every page, API call and export starts from it.
"""

from records.models.edits import EditStatus, RecordEdit
from records.models.games import (
    FIRST_GAME_ID,
    LAST_GAME_ID,
    Fact,
    Game,
    GameQuerySet,
    GameStatus,
    Record,
    RecordQuerySet,
    Seat,
    new_game_id,
    seat_name,
)
from records.models.players import (
    Player,
    PlayerAction,
    PlayerAudit,
    PlayerName,
    normalise_name,
)
from records.models.reverify import Reverify, ReverifyChange, ReverifyStatus
from records.models.uploads import (
    Batch,
    BatchStatus,
    Event,
    Upload,
    UploadPart,
    UploadQuerySet,
    UploadStatus,
    Visibility,
    part_path,
    upload_path,
)

__all__ = [
    "FIRST_GAME_ID",
    "LAST_GAME_ID",
    "Batch",
    "BatchStatus",
    "EditStatus",
    "Event",
    "Fact",
    "Game",
    "GameQuerySet",
    "GameStatus",
    "Player",
    "PlayerAction",
    "PlayerAudit",
    "PlayerName",
    "Record",
    "RecordEdit",
    "RecordQuerySet",
    "Reverify",
    "ReverifyChange",
    "ReverifyStatus",
    "Seat",
    "Upload",
    "UploadPart",
    "UploadQuerySet",
    "UploadStatus",
    "Visibility",
    "new_game_id",
    "normalise_name",
    "part_path",
    "seat_name",
    "upload_path",
]
