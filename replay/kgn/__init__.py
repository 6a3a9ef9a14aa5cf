"""KGN text: decoding, the reader (text -> RawRecord) and the canonical writer."""

from replay.kgn.reader import decode, read_records
from replay.kgn.writer import write_record, write_records

__all__ = ["decode", "read_records", "write_record", "write_records"]
