# The text2world scoring service with the built-in store.
#   docker build -t text2world .
#   docker run -p 8765:8765 text2world        # then: curl localhost:8765/readyz, docs at /docs
# Configure with -e T2W_API_MAX_BODY=... -e T2W_API_SCORE_TIMEOUT=... -e T2W_API_CLIENT_LIMIT=...
# (see `t2w serve --help`). HEALTHCHECK uses /readyz: healthy once scoring works.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    T2W_DATA_DIR=/app/data \
    T2W_HOME=/var/lib/text2world \
    T2W_RUNS_DIR=/app/runs

WORKDIR /app

# The dependencies, in their own layer, from pyproject.toml and the lock alone: editing the
# source (or the README) does not reinstall them; only a change of either does. The versions are
# the lock's (requirements/lock.txt), the ones CI tests.
COPY pyproject.toml requirements/lock.txt ./
RUN python -c "import subprocess, sys, tomllib; \
deps = tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']; \
subprocess.check_call([sys.executable, '-m', 'pip', 'install', '-c', 'lock.txt', *deps])"

# The package and the store (tests/ and bench/ stay out: .dockerignore).
COPY README.md ./
COPY text2world ./text2world
COPY data ./data
RUN pip install --no-deps . \
    && rm -rf build text2world.egg-info \
    && useradd --system --no-create-home t2w \
    && mkdir -p /var/lib/text2world /app/runs \
    && chown t2w /var/lib/text2world /app/runs

USER t2w
EXPOSE 8765
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8765/readyz', timeout=4)"]
CMD ["t2w", "serve", "--host", "0.0.0.0", "--port", "8765"]
