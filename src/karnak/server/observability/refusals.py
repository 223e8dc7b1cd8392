"""What refused a request, in one word: the ``reason`` label of ``karnak_refusals_total``.

A refusal is any answer of status 400 to 499, and a socket closed with a close code of 4400
to 4499 (4000 plus the HTTP status, as the sockets refuse). The domain's refusals (every
:class:`~karnak.core.errors.KarnakError` the app's handler answers) are named by what they
are; the others (FastAPI's validation, an unknown address, the body limit answering before
the app runs) by their status. The words are few and fixed, so the label never grows with
what clients send.
"""

from __future__ import annotations

from karnak.core.errors import KarnakError
from karnak.server.errors import status_of
from karnak.server.limits import LimitError
from karnak.server.rooms import StaleVersionError, SubmitError, UndoRefusedError

#: The reason of a refusal known only by its status.
BY_STATUS = {
    400: "bad_request",
    401: "login",
    403: "forbidden",
    404: "not_found",
    405: "method",
    409: "conflict",
    410: "gone",
    413: "size",
    415: "bad_request",
    422: "invalid",
    429: "limit",
}
#: The close code of a socket past its client's or account's cap (karnak.server.sockets).
SOCKETS_CLOSE = 4429
#: The reasons every server reports from the start (at zero), so that a rate is defined
#: before the first refusal of each.
ALWAYS = ("rate", "cap", "size", "limit", "stale")


def reason_of_status(status: int) -> str:
    return BY_STATUS.get(status, "other")


def reason_of_close(code: int | None) -> str | None:
    """The reason of a socket's close code, None for a close that refuses nothing."""
    if code is None or not 4400 <= code <= 4499:
        return None
    return "sockets" if code == SOCKETS_CLOSE else reason_of_status(code - 4000)


def reason_of(exc: BaseException) -> str:
    """The reason of a domain refusal:

    - a limit names itself (``LimitError.reason``: "rate" for the per-minute allowances,
      "cap" for the running-games cap and "share" for a client's share of it), and any
      other bound is "limit" (a bot's think time, open tables, friend requests...);
    - a move refused: "stale" (the game moved on since the version the client saw), "undo"
      (a take-back refused), "move" (illegal, not the seat's turn, the game over);
    - anything else by its status (:func:`reason_of_status`).
    """
    if isinstance(exc, LimitError):
        return exc.reason or "limit"
    if isinstance(exc, StaleVersionError):
        return "stale"
    if isinstance(exc, UndoRefusedError):
        return "undo"
    if isinstance(exc, SubmitError):
        return "move"
    if isinstance(exc, KarnakError):
        return reason_of_status(status_of(exc))
    return "other"
