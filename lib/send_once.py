"""One message in flight per queue drain task (``update_ratings`` of a game id,
``update_profiles``).

Every batch of an ingest queues changes and, after its commit, would send a drain task;
the first to run drains what the others were sent for, and the rest find nothing (a
hundred empty tasks a minute during a large upload).  With a cache every process shares
(``CACHE_URL``), a send is skipped while a sent task has not started yet:

- :func:`send_once` marks the task sent (``cache.add``) and sends it, or does nothing
  when the mark is there;
- :func:`started`, the first thing the task does, removes the mark *before* it reads
  the queue: a change committed before that read is drained by this run, and one
  committed after it finds no mark and sends a new task.

The mark expires after TTL seconds, so a lost message holds sends back no longer than
that (the sweep sends again anyway).  Without a shared cache every send goes out: a
process's own memory cannot see the mark removed by another process.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)

#: seconds a "sent, not started" mark lives
TTL = 30


def _key(name: str) -> str:
    return f"kibitz:sent:{name}"


def send_once(name: str, send: Callable[[], None]) -> bool:
    """Send (call ``send``) unless a task of this name is sent and not started: whether
    it was sent.  A cache that fails never holds a send back."""
    if settings.CACHE_URL:
        try:
            if not cache.add(_key(name), 1, TTL):
                return False
        except Exception:  # the cache is down: send, as without one
            logger.warning("cache unavailable; sending %s anyway", name, exc_info=True)
    send()
    return True


def started(name: str) -> None:
    """The task ``name`` has started: later changes must send a new one."""
    if settings.CACHE_URL:
        try:
            cache.delete(_key(name))
        except Exception:  # the mark expires by itself
            logger.warning("cache unavailable; %s's mark left to expire", name, exc_info=True)
