"""Watching a running server: health and readiness, Prometheus metrics, logs with request ids.

- :mod:`.health`: ``/healthz`` (the process answers), ``/readyz`` (it can serve: the database
  answers, its schema is this code's, the stored games are loaded) and ``/metrics``;
- :mod:`.metrics`: the metrics, in a registry of the application's own;
- :mod:`.requests`: a request id for every request and socket, the access log, and what the
  metrics learn from the requests themselves (refusals, open sockets, latencies);
- :mod:`.logs`: :func:`~.logs.configure_logging` (text or JSON lines) and the access log's
  lines, which never hold a secret;
- :mod:`.probe`: the small interface the game service and the bot runner report to;
- :mod:`.install`: how an application gets all of it (``create_app`` calls it).

This module imports nothing: the game service imports :mod:`.probe`, and the rest imports the
game service.
"""
