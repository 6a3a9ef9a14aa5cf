"""The KGN renderer: ``?format=kgn`` or ``Accept: application/x-kgn`` on a game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework.renderers import BaseRenderer

KGN_MEDIA_TYPE = "application/x-kgn"


class KgnRenderer(BaseRenderer):
    media_type = KGN_MEDIA_TYPE
    format = "kgn"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        # Views hand this renderer the record's text; errors never reach it (the
        # exception handler switches them to JSON).
        return str(data).encode(self.charset)
