"""The site's Content-Security-Policy (django-csp's CONTENT_SECURITY_POLICY, set from
here by config/settings.py)."""

from __future__ import annotations

from typing import Any

from csp.constants import NONE, SELF

#: scripts, styles, images, fonts and connections from this site only: no inline
#: script or style anywhere (the pages' JavaScript and CSS are static files), no
#: plug-ins, no framing, forms post here.  The API's Swagger page alone adds inline
#: styles (api/urls.py); tests/security/test_csp.py loads the pages in Chromium and
#: fails on any violation.
SITE_POLICY: dict[str, Any] = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
