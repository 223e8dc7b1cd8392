# Karnak's game server as a container image.
#
#   docker build -t karnak .                      # with the compiled hot paths (about 10 min)
#   docker build -t karnak --build-arg NATIVE=0 . # pure Python: a minute, slower bots
#   docker run -p 8000:8000 -v karnak-data:/data karnak
#
# The first stage installs the server into a virtualenv and (NATIVE=1) compiles the engines'
# hot paths in it with mypyc; the C compiler and mypy stay in that stage. The second stage
# holds Python, the virtualenv and nothing else, and runs as an unprivileged user with its
# SQLite database in the /data volume (or KARNAK_DATABASE_URL names PostgreSQL: compose.yaml).
ARG PYTHON_IMAGE=python:3.11-slim

FROM ${PYTHON_IMAGE} AS build
ARG NATIVE=1
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PYTHONDONTWRITEBYTECODE=1
RUN if [ "$NATIVE" = 1 ]; then \
        apt-get update \
        && apt-get install -y --no-install-recommends gcc libc6-dev \
        && rm -rf /var/lib/apt/lists/*; \
    fi
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY src ./src
# the server extra only (no dev tools); then, for the build alone, mypyc and setuptools in a
# folder of their own, so that the image's virtualenv never holds them
RUN python -m venv /opt/karnak \
    && /opt/karnak/bin/pip install --quiet '.[server]' \
    && if [ "$NATIVE" = 1 ]; then \
        pip install --quiet --target /opt/build-tools $(python -c 'import tomllib; print(" ".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["native"]))') \
        && PYTHONPATH=/opt/build-tools /opt/karnak/bin/python -m karnak.native.build --strict \
        && /opt/karnak/bin/python -m karnak.native; \
    fi

FROM ${PYTHON_IMAGE}
LABEL org.opencontainers.image.title="Karnak" \
      org.opencontainers.image.description="Amun-Re, Aton and Egyptia in the browser, with bots" \
      org.opencontainers.image.licenses="MIT"
RUN groupadd --system --gid 10001 karnak \
    && useradd --system --uid 10001 --gid karnak --home-dir /data --no-create-home karnak \
    && mkdir -p /data \
    && chown karnak:karnak /data
COPY --from=build /opt/karnak /opt/karnak
ENV PATH=/opt/karnak/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    KARNAK_HOST=0.0.0.0 \
    KARNAK_PORT=8000 \
    KARNAK_DATABASE_URL=sqlite:////data/karnak.sqlite3
VOLUME ["/data"]
WORKDIR /data
USER karnak:karnak
EXPOSE 8000
# alive: /healthz answers without touching the database (readiness is /readyz)
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request as u; u.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('KARNAK_PORT', '8000'), timeout=2)"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["karnak"]
CMD ["serve"]
