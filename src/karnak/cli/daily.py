"""``karnak play GAME --daily``: the game of the day at the terminal.

Without ``--server`` it is practice, played here like any ``karnak play`` game: the game
alone on a deal whose seed is the date written as a number (2026-11-29 is seed 20261129),
public so that anyone may play the same practice deal. It is not the server's game of the
day, whose dice are a secret of the server's until the day is over.

With ``--server URL`` the game is the server's (``POST /api/daily/{day}/play``). A guest gets
a new unranked game; ``--user NAME`` logs in first (the password from
:data:`PASSWORD_VARIABLE`, else asked without echo), so the game is the account's ranked
attempt of the day, resumed if it was started before. Each decision is the server's view
of the seat (``GET /api/games/{id}``), drawn by the game's own terminal renderer from the
observation the view holds (the same shape the engine gives the local game), and each move
goes back with the view's version. At the end come the score, the builder status and the
text to share.

Only the standard library speaks HTTP here (``urllib.request`` with a cookie jar). Every
failure is one line and an exit status: the server unreachable, a refusal with its reason,
a bad ``--day``, Ctrl-C.
"""

from __future__ import annotations

import getpass
import http.client
import http.cookiejar
import json
import os
import re
import shlex
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

import typer
from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.text import Text

from karnak import __version__
from karnak.cli.common import EXIT_USAGE, CliError
from karnak.cli.play import (
    HELP_WORDS,
    QUIT_WORDS,
    RESUME_CONTEXT,
    LineReader,
    SeatScreen,
    runnable_karnak,
)
from karnak.cli.render import SeatRenderer, renderer_for
from karnak.core import Game, GameRecord, KarnakError
from karnak.core.actions import Action
from karnak.core.daily import DailyGame
from karnak.core.registry import plugin_for
from karnak.core.safe_text import safe_lines, safe_text
from karnak.core.terminal import GameRenderer, View, seat_text
from karnak.i18n import _, current_language, ngettext, t

#: The environment variable that holds ``--user``'s password (else it is asked, unechoed).
PASSWORD_VARIABLE = "KARNAK_PASSWORD"
#: The exit status after Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130
#: Seconds to wait for the server's answer to one request.
TIMEOUT = 30.0
#: While the game does not ask the seat for a move: how often to look again, and for how long
#: at most (the game of the day is played alone, so this is only ever a moment).
WAIT_STEP = 1.0
WAIT_LIMIT = 120.0
#: The largest answer read from the server (a view of a hundred builders is far less).
MAX_ANSWER = 16 * 1024 * 1024
#: Hosts a browser treats as secure over plain http: the server sets its cookies Secure for
#: them too (karnak.server.accounts.auth), and the cookie jar must send them back.
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
CSRF_HEADER = "X-CSRF-Token"
CSRF_COOKIE = "karnak_csrf"
TOKEN_HEADER = "X-Karnak-Token"

DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


# ---------------------------------------------------------------------- the day
def today_utc() -> date:
    """Today's date in UTC, the days' clock."""
    return datetime.now(UTC).date()


def parse_day(text: str) -> date:
    """``--day``: a date written ``YYYY-MM-DD`` (or ``today``); anything else is refused."""
    given = text.strip()
    if given.lower() == "today":
        return today_utc()
    if DAY.fullmatch(given):
        try:
            return date.fromisoformat(given)
        except ValueError:
            pass
    raise CliError(
        t("--day takes a date written YYYY-MM-DD (or today), not {given!r}", given=given[:40]),
        EXIT_USAGE,
    )


def practice_day(text: str | None) -> date:
    """The day of an offline practice game: ``--day`` (not after today, UTC), else today."""
    if text is None:
        return today_utc()
    day = parse_day(text)
    today = today_utc()
    if day > today:
        raise CliError(
            t(
                "--day {day} is after today ({today}, UTC): its game of the day has not begun",
                day=day.isoformat(),
                today=today.isoformat(),
            ),
            EXIT_USAGE,
        )
    return day


def practice_seed(day: date) -> int:
    """The public seed of ``day``'s practice game: the date as a number (20261129)."""
    return day.year * 10_000 + day.month * 100 + day.day


def daily_of(game: Game) -> DailyGame:
    """The game's daily (its plugin's); a game without one is a usage error."""
    daily = plugin_for(game).daily_game()
    if daily is None:
        raise CliError(t("{title} has no game of the day", title=game.title), EXIT_USAGE)
    return daily


def practice_note(game: Game, day: date, seed: int) -> Text:
    """What the offline game is, said before it starts."""
    return Text(
        t(
            "Practice for {title} of the day, {day}: seed {seed}, made from the date, so "
            "anyone can play this deal (karnak play {name} --seed {seed}). It is not the "
            "server's game of the day: the server's dice are secret until the day is over. "
            "Play that one with --server URL.",
            title=game.title,
            day=day.isoformat(),
            seed=seed,
            name=game.name,
        ),
        style="yellow",
    )


def game_words(game: Game, one: str, many: str | None = None, n: int = 1) -> str:
    """The game's own words (a builder status; "{n} plagues" with ``many``) in the current
    language, as the server's shared text says them."""
    domain = plugin_for(game).text_domain()
    if many is None:
        return domain.gettext(one) if domain is not None else one
    if domain is not None:
        return domain.ngettext(one, many, n)
    return one if n == 1 else many


def practice_result(
    console: Console, game: Game, daily: DailyGame, record: GameRecord, day: date
) -> None:
    """A finished practice game's result, told as the server tells the day's (a record the
    game cannot read shows nothing more: the game itself is shown and saved already)."""
    try:
        result = daily.result(record)
    except KarnakError:
        return
    parts = [game_words(game, result.status)] if result.status else []
    parts.append(t("{score} points", score=result.score))
    one, many = daily.penalty_words
    parts.append(game_words(game, one, many, result.penalty).format(n=result.penalty))
    head = t(
        "Practice · {title} of the day · {day} (not ranked)", title=game.title, day=day.isoformat()
    )
    console.print(Text(head, style="bold"))
    console.print(Text(" · ".join(parts)), soft_wrap=True)
    console.print(Text(result.marks), soft_wrap=True)


# ---------------------------------------------------------------------- HTTP
class ServerError(CliError):
    """A request that failed; ``status`` is the HTTP status when the server answered."""

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.status = status


class LoopbackCookies(http.cookiejar.DefaultCookiePolicy):
    """The standard policy, but a Secure cookie goes back over plain http to this machine
    too, as browsers do (the server marks its cookies Secure there)."""

    def return_ok_secure(
        self, cookie: http.cookiejar.Cookie, request: urllib.request.Request
    ) -> bool:
        host = urllib.parse.urlsplit(request.get_full_url()).hostname or ""
        if cookie.secure and request.type == "http" and host.lower() in LOOPBACK:
            return True
        return super().return_ok_secure(cookie, request)


def server_address(text: str) -> str:
    """``--server``: an http(s) address (a path under it allowed), without its final slash."""
    given = text.strip()
    try:
        parts = urllib.parse.urlsplit(given)
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        port_ok = False
    if (
        not port_ok
        or parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.query
        or parts.fragment
    ):
        raise CliError(
            t(
                "--server takes the server's address, such as http://127.0.0.1:8000, not {given!r}",
                given=given[:80],
            ),
            EXIT_USAGE,
        )
    return given.rstrip("/")


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


class DailyClient:
    """The server's API as the terminal uses it: JSON in and out, the session's cookies in a
    jar, the CSRF token on writes once logged in, a guest seat's token on every request."""

    def __init__(self, server: str, *, timeout: float = TIMEOUT):
        self.server = server_address(server)
        self.timeout = timeout
        self.jar = http.cookiejar.CookieJar(policy=LoopbackCookies())
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.csrf: str | None = None
        self.token: str | None = None

    def call(
        self, method: str, path: str, body: Mapping[str, Any] | None = None, *, doing: str
    ) -> Any:
        """The decoded JSON answer of ``method path``; a :class:`ServerError` saying what was
        being done (``doing``) and what went wrong otherwise."""
        # the answers' words (the log, the decision, the refusals) in the terminal's language
        query = urllib.parse.urlencode({"lang": current_language()})
        headers = {"Accept": "application/json", "User-Agent": f"karnak/{__version__}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if method != "GET" and self.csrf:
            headers[CSRF_HEADER] = self.csrf
        if self.token:
            headers[TOKEN_HEADER] = self.token
        request = urllib.request.Request(
            f"{self.server}{path}?{query}", data=data, headers=headers, method=method
        )
        try:
            with self.opener.open(request, timeout=self.timeout) as answer:
                raw: bytes = answer.read(MAX_ANSWER + 1)
        except urllib.error.HTTPError as refusal:
            raise self._refusal(refusal, doing) from None
        except urllib.error.URLError as exc:
            raise self._unreachable(exc.reason, doing) from None
        except (OSError, http.client.HTTPException) as exc:
            raise self._unreachable(exc, doing) from None
        if len(raw) > MAX_ANSWER:
            raise ServerError(t("{doing}: the server's answer is too long", doing=doing))
        try:
            return json.loads(raw)
        except ValueError:
            raise ServerError(
                t(
                    "{doing}: the answer of {server} is not JSON (is it a Karnak server?)",
                    doing=doing,
                    server=self.server,
                )
            ) from None

    def _unreachable(self, reason: object, doing: str) -> ServerError:
        if isinstance(reason, TimeoutError):
            return ServerError(
                t(
                    "{doing}: the server at {server} did not answer within {seconds:g} s",
                    doing=doing,
                    server=self.server,
                    seconds=self.timeout,
                )
            )
        said = _reason(reason) if isinstance(reason, BaseException) else str(reason)
        return ServerError(
            t(
                "{doing}: cannot reach the server at {server} ({reason})",
                doing=doing,
                server=self.server,
                reason=said,
            )
        )

    def _refusal(self, refusal: urllib.error.HTTPError, doing: str) -> ServerError:
        """A refusal in one line: the status and the server's own reason (``error``, or
        ``detail`` as FastAPI says it), and when to try again after a 429."""
        try:
            body = json.loads(refusal.read(64 * 1024))
        except (OSError, ValueError, http.client.HTTPException):
            body = None
        said: Any = None
        if isinstance(body, dict):
            said = body.get("error", body.get("detail"))
        if not isinstance(said, str) or not said.strip():
            said = json.dumps(said) if said is not None else (refusal.reason or "")
        message = t(
            "{doing}: the server answered {status}: {reason}",
            doing=doing,
            status=refusal.code,
            reason=safe_text(" ".join(str(said).split()))[:500],
        )
        retry = refusal.headers.get("Retry-After") if refusal.headers else None
        if refusal.code == 429 and retry and retry.isdigit():
            message += " " + t("(try again in {n} s)", n=int(retry))
        return ServerError(message, refusal.code)

    # ------------------------------------------------------------------ the routes
    def log_in(self, name: str, password: str) -> None:
        """Log in: the session cookie in the jar, the CSRF token kept for writes."""
        doing = t("Logging in as {name}", name=name)
        answer = self.call(
            "POST", "/api/account/login", {"name": name, "password": password}, doing=doing
        )
        csrf = answer.get("csrf") if isinstance(answer, dict) else None
        if not isinstance(csrf, str):
            csrf = next((c.value for c in self.jar if c.name == CSRF_COOKIE), None)
        if not csrf:
            raise ServerError(t("{doing}: the server gave no CSRF token", doing=doing))
        self.csrf = csrf

    def start(self, day: str) -> dict[str, Any]:
        """Start (or resume) the game of ``day`` (``today`` or ``YYYY-MM-DD``)."""
        doing = _("Starting the game of the day")
        path = f"/api/daily/{urllib.parse.quote(day, safe='')}/play"
        answer = _object(self.call("POST", path, {}, doing=doing), doing)
        if not isinstance(answer.get("game_id"), str):
            raise ServerError(t("{doing}: the server's answer names no game", doing=doing))
        token = answer.get("token")
        self.token = token if isinstance(token, str) and token else None
        return answer

    def view(self, game_id: str) -> dict[str, Any]:
        doing = _("Reading the game")
        return _view(self.call("GET", _game_path(game_id), doing=doing), doing)

    def move(self, game_id: str, version: int, action: Any) -> dict[str, Any]:
        """Play ``action`` (its JSON form) at ``version``: the seat's view after it."""
        doing = _("Playing the move")
        answer = _object(
            self.call(
                "POST",
                _game_path(game_id) + "/actions",
                {"version": version, "action": action},
                doing=doing,
            ),
            doing,
        )
        return _view(answer.get("view"), doing)

    def share(self, game_id: str) -> str:
        doing = _("Reading the result to share")
        path = f"/api/daily/share/{urllib.parse.quote(game_id, safe='')}"
        text = _object(self.call("GET", path, doing=doing), doing).get("text")
        if not isinstance(text, str):
            raise ServerError(t("{doing}: the server's answer has no text", doing=doing))
        return text

    def daily(self) -> dict[str, Any]:
        doing = _("Reading today's game of the day")
        return _object(self.call("GET", "/api/daily", doing=doing), doing)


def _game_path(game_id: str) -> str:
    return f"/api/games/{urllib.parse.quote(game_id, safe='')}"


def _object(answer: Any, doing: str) -> dict[str, Any]:
    if not isinstance(answer, dict):
        raise ServerError(t("{doing}: the server's answer is not a JSON object", doing=doing))
    return answer


def _view(answer: Any, doing: str) -> dict[str, Any]:
    """A seat's view, checked to hold what the terminal reads of it."""
    view = _object(answer, doing)
    kinds = {
        "status": str,
        "version": int,
        "legal": list,
        "observation": dict,
        "log": list,
        "players": list,
    }
    for key, kind in kinds.items():
        if not isinstance(view.get(key), kind):
            raise ServerError(
                t("{doing}: the server's view of the game lacks {key!r}", doing=doing, key=key)
            )
    return view


# ---------------------------------------------------------------------- the game
class _Leave(Exception):
    """The person stopped (quit, end of input): the game stays on the server."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


@dataclass
class ServerGame(SeatScreen):
    """One seat of a game on a server, played from its views until the game is over."""

    client: DailyClient
    game_id: str
    game: Game
    console: Console
    reader: LineReader
    renderer: GameRenderer
    full: bool = False
    #: The game was started before: the last moves are shown again to begin with.
    resumed: bool = False
    #: Log lines already shown.
    seen: int = 0
    #: The game's page, for a person to look at it in a browser.
    link: str = ""
    names: list[str] = field(default_factory=list)
    sleep: Callable[[float], None] = time.sleep

    def _seat_names(self) -> Sequence[str]:
        return self.names

    def run(self) -> dict[str, Any]:
        """Play until the game is over; the last view."""
        view = self.client.view(self.game_id)
        title = _("Since your last move")
        if self.resumed:
            self.seen = max(0, len(view["log"]) - RESUME_CONTEXT)
            title = _("The last moves before this session")
        while view["status"] == "running":
            if not view.get("your_turn") or not view["legal"]:
                view = self._wait(view)
                continue
            view = self._turn(view, title)
            title = _("Since your last move")
        self._take_names(view)
        self._show_new_log(view, title)
        return view

    def _take_names(self, view: Mapping[str, Any]) -> None:
        """The seats' names in ``view`` (to colour them in the log and the prompt)."""
        self.names = [
            safe_text(str(p.get("name", ""))) if isinstance(p, dict) else ""
            for p in view["players"]
        ]

    def _wait(self, view: dict[str, Any]) -> dict[str, Any]:
        """The next view that asks the seat for a move (or that ends the game)."""
        self.console.print(Text(_("Waiting for the game to go on..."), style="dim"))
        waited = 0.0
        while waited < WAIT_LIMIT:
            self.sleep(WAIT_STEP)
            waited += WAIT_STEP
            view = self.client.view(self.game_id)
            if view["status"] != "running" or (view.get("your_turn") and view["legal"]):
                return view
        raise CliError(
            t(
                "the game has asked nothing of your seat for {n} s; look at it in a browser: {url}",
                n=int(WAIT_LIMIT),
                url=self.link,
            )
        )

    def _seat(self, view: Mapping[str, Any]) -> int:
        seat = view.get("seat")
        if not isinstance(seat, int):
            raise CliError(_("the server shows this game as to a spectator: no seat is yours"))
        return seat

    def _legal(self, view: Mapping[str, Any]) -> list[tuple[Action, Any]]:
        """The seat's moves, each as this game reads it and as the server wrote it."""
        moves: list[tuple[Action, Any]] = []
        for entry in view["legal"]:
            if not isinstance(entry, dict):
                raise CliError(_("the server's list of moves is not one this karnak reads"))
            written = entry.get("action")
            try:
                if not isinstance(written, dict):
                    raise ValueError(written)
                action = self.game.action_from_json(written)
            except (KarnakError, ValueError, KeyError, TypeError):
                try:
                    action = self.game.parse_action(str(entry.get("text")))
                except KarnakError:
                    raise CliError(
                        t(
                            "the server offers a move this karnak cannot read ({move!r}); is "
                            "it an older version than the server's?",
                            move=safe_text(str(entry.get("text")))[:80],
                        )
                    ) from None
                written = entry.get("text")
            moves.append((action, written))
        return moves

    def _turn(self, view: dict[str, Any], title: str) -> dict[str, Any]:
        """Show the decision and play the seat's answer: the view after it."""
        seat = self._seat(view)
        self._take_names(view)
        moves = self._legal(view)
        legal = [action for action, _written in moves]
        observation: View = view["observation"]
        sealed = bool(view.get("sealed"))
        self._show_new_log(view, title)
        self._show_screen(observation, seat, legal, sealed=sealed)
        while True:
            answer = self.reader.read(self._prompt(seat))
            if answer is None:
                raise _Leave(_("the input ended"))
            index = self._interpret(view, seat, answer.strip(), legal, sealed)
            if index is None:
                continue
            try:
                return self.client.move(self.game_id, view["version"], moves[index][1])
            except ServerError as refusal:
                if refusal.status == 422:  # an illegal move: the person may choose again
                    self._complain(str(refusal))
                    continue
                if refusal.status == 409:  # the game moved on (a browser on the same seat?)
                    self._complain(str(refusal))
                    return self.client.view(self.game_id)
                raise

    def _interpret(
        self, view: Mapping[str, Any], seat: int, text: str, legal: list[Action], sealed: bool
    ) -> int | None:
        """The index of the move ``text`` names, or ``None`` after a command or a mistake."""
        word = text.lower()
        observation: View = view["observation"]
        if not text:
            self._complain(
                t(
                    "Type a move number (1-{n}), a move such as {move!r}, or 'help'.",
                    n=len(legal),
                    move=legal[0].to_text(),
                )
            )
            return None
        if word in QUIT_WORDS:
            raise _Leave(_("you quit"))
        if word in HELP_WORDS:
            self._show_help()
        elif word == "log":
            lines = [safe_text(str(line)) for line in view["log"]]
            self._show_log(lines, _("The whole log as you saw it"))
        elif word in ("board", "b"):
            self._show_screen(observation, seat, legal, sealed=sealed, full=True)
        elif word == "figures":
            for part in self.renderer.figures(self.game):
                self.console.print(part)
        elif word == "moves":
            self._show_move_list(observation, seat, legal, limit=None)
        elif word in ("status", "s"):
            self._show_screen(observation, seat, legal, sealed=sealed)
        elif text.isascii() and text.isdigit():
            number = int(text)
            if 1 <= number <= len(legal):
                return number - 1
            self._complain(
                t("There is no move {number}; choose 1 to {n}.", number=number, n=len(legal))
            )
        else:
            try:
                action = self.game.parse_action(text)
            except KarnakError as exc:
                self._complain(str(exc))
                return None
            if action in legal:
                return legal.index(action)
            self._complain(
                t("{move!r} is not one of your moves now; type 'moves' to see them.", move=text)
            )
        return None

    def _prompt(self, seat: int) -> Text:
        prompt = Text()
        prompt.append_text(seat_text(self.names, seat))
        prompt.append(" > ", style="bold")
        return prompt

    def _show_new_log(self, view: Mapping[str, Any], title: str) -> None:
        lines = [safe_text(str(line)) for line in view["log"]]
        fresh = lines[self.seen :]
        self.seen = len(lines)
        seat = view.get("seat")
        if fresh and isinstance(seat, int) and isinstance(self.renderer, SeatRenderer):
            fresh = self.renderer.fold_log(self.game, view["observation"], seat, fresh)
        if fresh:
            self._show_log(fresh, title)

    def _show_help(self) -> None:
        lines = [
            _("Type the number of a move from the list, or write the move itself."),
            *self.renderer.help_lines(),
            _(
                "Commands: help (this text), board (the whole table, every detail), "
                "status (the decision screen again), log (the whole log), moves (every legal "
                "move), figures (the printed figures of the board and cards), "
                "quit (stop here: the game waits on the server)."
            ),
        ]
        for line in lines:
            self.console.print(Text(line))

    def final(self, view: Mapping[str, Any]) -> list[RenderableType]:
        """The end as the seat's screen shows it."""
        observation: View = view["observation"]
        seat = view.get("seat")
        if isinstance(seat, int) and isinstance(self.renderer, SeatRenderer):
            return self.renderer.final_for(self.game, observation, seat)
        return self.renderer.final(self.game, observation)


# ---------------------------------------------------------------------- the command
def read_password(name: str, server: str) -> str:
    """``--user``'s password: :data:`PASSWORD_VARIABLE`, else asked at the terminal."""
    given = os.environ.get(PASSWORD_VARIABLE)
    if given:
        return given
    stdin = sys.stdin
    if stdin is None or stdin.closed or not stdin.isatty():
        raise CliError(
            t(
                "--user {name} needs a password: set {variable} (there is no terminal to ask "
                "it at)",
                name=name,
                variable=PASSWORD_VARIABLE,
            ),
            EXIT_USAGE,
        )
    try:
        password = getpass.getpass(t("Password of {name} on {server}: ", name=name, server=server))
    except EOFError:
        password = ""
    if not password:
        raise CliError(_("no password given"), EXIT_USAGE)
    return password


@dataclass
class ServerPlay:
    """``karnak play GAME --daily --server URL [--user NAME] [--day DAY]``."""

    game: Game
    console: Console
    server: str
    user: str | None = None
    day: str | None = None
    full: bool = False
    reader: LineReader | None = None
    client: DailyClient = field(init=False)
    #: The answer of POST /api/daily/{day}/play once the game is started (its id, its link).
    started: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.client = DailyClient(self.server)
        # checked here, but a future day is the server's to refuse (its clock decides), and
        # "today" stays the server's today
        if self.day is not None:
            self.day = (
                None if self.day.strip().lower() == "today" else parse_day(self.day).isoformat()
            )

    def run(self) -> None:
        try:
            self._play()
        except KeyboardInterrupt:
            self.console.print()
            self._stopped(_("interrupted"))
            raise typer.Exit(EXIT_INTERRUPTED) from None

    def _play(self) -> None:
        if self.user is not None:
            password = read_password(self.user, self.client.server)
            self.client.log_in(self.user, password)
        self.started = self.client.start(self.day or "today")
        self.console.print(self._announcement())
        session = ServerGame(
            client=self.client,
            game_id=self.started["game_id"],
            game=self.game,
            console=self.console,
            reader=self.reader or LineReader(self.console),
            renderer=renderer_for(self.game),
            full=self.full,
            resumed=bool(self.started.get("resumed")),
            link=self._link(),
        )
        try:
            view = session.run()
        except _Leave as stop:
            self._stopped(stop.why)
            return
        self._finish(session, view)

    def _announcement(self) -> Text:
        day = str(self.started.get("day") or self.day or "today")
        title = self.game.title
        if self.started.get("ranked"):
            if self.started.get("resumed"):
                said = _("your ranked game, resumed where you left it.")
            else:
                said = _("your ranked game: the only one that counts today.")
        elif self.user is not None:
            said = _("practice, not ranked (a past day's game).")
        else:
            said = _("a guest's game, not ranked (log in with --user NAME to rank yours).")
        return Text(
            t("{title} of the day, {day}: {said}", title=title, day=safe_text(day), said=said),
            style="bold",
        )

    def _resume_line(self) -> Text | None:
        """How to go on with the game after stopping, or None before it started."""
        if not self.started:
            return None
        if self.user is not None:
            command = (
                f"{runnable_karnak()} play {self.game.name} --daily --server "
                f"{shlex.quote(self.client.server)} --user {shlex.quote(self.user)}"
            )
            if self.day is not None:
                command += f" --day {self.day}"
            return Text(_("Resume it with:") + "  ") + Text(command, style="bold green")
        return Text(_("Finish it in a browser:") + "  ") + Text(self._link(), style="bold green")

    def _link(self) -> str:
        """The game's page (a guest's with its seat's token, as the server gave it)."""
        url = self.started.get("url")
        if not isinstance(url, str) or not url.startswith("/"):
            url = "/games/" + urllib.parse.quote(str(self.started["game_id"]), safe="")
        return self.client.server + safe_text(url)

    def _stopped(self, why: str) -> None:
        if self.started:
            said = t("Stopped: {why}. The game stays on the server.", why=why)
        else:
            said = t("Stopped: {why}.", why=why)
        self.console.print(Text(said, style="bold"), soft_wrap=True)
        resume = self._resume_line()
        if resume is not None:
            self.console.print(resume, soft_wrap=True)

    def _finish(self, session: ServerGame, view: dict[str, Any]) -> None:
        if view["status"] != "finished":
            ended = view.get("ended")
            reason = ended.get("reason") if isinstance(ended, dict) else None
            raise CliError(
                t(
                    "the game ended early ({how}): {reason}",
                    how=safe_text(str(view["status"])),
                    reason=safe_text(str(reason or "")),
                )
            )
        self.console.print(Rule(_("The game is over"), style="bold"))
        for part in session.final(view):
            self.console.print(part)
        self.console.print(self._score_line(view))
        game_id = self.started["game_id"]
        text = self.client.share(game_id)
        self.console.print(Rule(Text(_("Your result to share")), align="left", style="dim"))
        self.console.print(Text(safe_lines(text)), soft_wrap=True)
        if self.started.get("ranked"):
            standing = self._standing(game_id)
            if standing is not None:
                self.console.print(standing)

    def _score_line(self, view: Mapping[str, Any]) -> Text:
        """The seat's score, and its builder status where the game gives one."""
        seat = view.get("seat")
        result = view.get("result")
        scores = result.get("scores") if isinstance(result, dict) else None
        score = scores[seat] if isinstance(scores, list) and isinstance(seat, int) else None
        status = view["observation"].get("solo_rank")
        if isinstance(status, str) and status:
            said = t(
                "Score: {score} · builder status: {status}",
                score=score,
                status=game_words(self.game, status),
            )
        elif score is not None:
            said = t("Score: {score}", score=score)
        else:  # a view without a result: nothing to add to the final screen
            said = ""
        return Text(safe_text(said), style="bold")

    def _standing(self, game_id: str) -> Text | None:
        """The ranked game's place today and the account's streak (GET /api/daily)."""
        today = self.client.daily()
        attempt = today.get("attempt")
        you = today.get("you")
        if not isinstance(attempt, dict) or attempt.get("game_id") != game_id:
            return None
        lines: list[str] = []
        place, players = attempt.get("place"), today.get("players")
        if isinstance(place, int):
            lines.append(t("Your place today: {place} of {players}.", place=place, players=players))
        streak = you.get("streak") if isinstance(you, dict) else None
        if isinstance(streak, int) and isinstance(you, dict):
            lines.append(
                ngettext(
                    "Your streak: {n} day (best {best}).",
                    "Your streak: {n} days (best {best}).",
                    streak,
                ).format(n=streak, best=you.get("best_streak"))
            )
        if not lines:
            return None
        return Text("\n".join(lines))
