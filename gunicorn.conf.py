"""gunicorn's settings for Kibitz (read from the working directory by every gunicorn
started there: Dockerfile, docker-compose.yml, bench/services.py).

gunicorn refuses a request line over 4,094 bytes by default with an HTML 400 of its
own.  Here it passes lines of any length on, and the application refuses a URL past
``KIBITZ_MAX_URL_BYTES`` (8,192 bytes by default) with a JSON 414, like every error
(api/middleware.py, docs/api.md "Errors").  A proxy in front keeps its own cap on the
request line: set it above the application's.
"""

limit_request_line = 0
