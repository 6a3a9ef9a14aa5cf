# One image for the web server, the Celery worker and beat (docker-compose.yml).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN apt-get update \
    && apt-get install -y --no-install-recommends curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 1000 kibitz

WORKDIR /app
COPY pyproject.toml README.md ./
COPY replay/ replay/
COPY lib/ lib/
COPY config/ config/
COPY records/ records/
COPY players/ players/
COPY ratings/ ratings/
COPY events/ events/
COPY search/ search/
COPY viewer/ viewer/
COPY accounts/ accounts/
COPY api/ api/
COPY kibitz_client/ kibitz_client/
COPY templates/ templates/
COPY static/ static/
COPY manage.py gunicorn.conf.py ./
RUN pip install . && mkdir -p /app/var /data/media && chown -R kibitz /app/var /data

USER kibitz
# collectstatic needs settings; the build-time key is thrown away with the layer
RUN DEBUG=0 SECRET_KEY=build-only-not-secret ALLOWED_HOSTS=localhost \
    python manage.py collectstatic --no-input

EXPOSE 8000
CMD ["gunicorn", "--config", "gunicorn.conf.py", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", \
     "--access-logfile", "-"]
