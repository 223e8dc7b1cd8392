"""The e-mails' words, from public facts only.

An e-mail about a game says which game (its title and its players' names, as every seat and
spectator sees them), that it is the reader's turn, since when it has waited (the game's
last change that everyone saw: a seat's private steps do not move it), and the link to the
game's page. It never says anything of the position: no cards, scores, moves or board, so
it cannot tell anyone more than a spectator knows beyond "it is your turn", which the
reader's own page says too. The tests build these e-mails for a seat, re-deal everything
hidden from it, and compare.

Links lead to pages and log nobody in: the game's link is ``/games/<id>`` with no token and
no session, so the page opens with the reader's own log-in (or asks for one). The text is
plain (no HTML), so names are shown as written and nothing needs escaping.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from babel.lists import format_list

from karnak.i18n import ENGLISH, N_, SUPPORTED, _, current_language, ngettext
from karnak.server.rooms import Room

#: A page of this site that is a game's (the part of a notification's link read).
GAME_LINK = re.compile(r"/games/([A-Za-z0-9_-]{1,64})")


@dataclass(frozen=True)
class Composed:
    subject: str
    body: str


@dataclass(frozen=True)
class Waiting:
    """A game waiting on one seat, as anyone at the table may know it."""

    game_id: str
    title: str
    #: Every seat's name as shown to all, the reader's marked "(you)", bots "(bot)".
    players: tuple[str, ...]
    since: dt.datetime


def waiting(room: Room, seat: int, since: dt.datetime) -> Waiting:
    names = []
    for info in room.seats:
        mark = " (you)" if info.seat == seat else " (bot)" if info.is_bot else ""
        names.append(f"{info.name}{mark}")
    return Waiting(room.id, room.game.title, tuple(names), since)


def game_id_of(link: str | None) -> str | None:
    """The game a notification's link leads to (a page of this site), if it is a game's."""
    if not link:
        return None
    found = GAME_LINK.match(link)
    if found is None or link[found.end() :][:1] not in ("", "?", "#", "/"):
        return None
    return found[1]


def site_link(public_url: str, link: str | None) -> str:
    """A notification's link made absolute, without its query or fragment (where a seat's
    token could travel): only the page itself. Anything not a page of this site becomes
    the site's home."""
    if not link or not link.startswith("/") or link.startswith("//"):
        return f"{public_url}/"
    path = re.split(r"[?#]", link, maxsplit=1)[0]
    return f"{public_url}{path}"


def game_link(public_url: str, game_id: str) -> str:
    return f"{public_url}/games/{game_id}"


def listed(names: tuple[str, ...]) -> str:
    """``Ana, Bes and Ka`` in the current language."""
    if len(names) <= 1:
        return "".join(names)
    language = current_language()
    if language not in SUPPORTED or language == ENGLISH:  # "Ana, Bes and Ka", as ever
        return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])
    return format_list(list(names), locale=language)


def ago(since: dt.datetime, now: dt.datetime) -> str:
    """How long, in words: "less than a minute", "5 minutes", "3 hours", "2 days"."""
    seconds = max(0.0, (now - since).total_seconds())
    days, hours, minutes = int(seconds // 86400), int(seconds // 3600), int(seconds // 60)
    if days >= 1:
        return ngettext("{n} day", "{n} days", days).format(n=days)
    if hours >= 1:
        return ngettext("{n} hour", "{n} hours", hours).format(n=hours)
    if minutes >= 1:
        return ngettext("{n} minute", "{n} minutes", minutes).format(n=minutes)
    return _("less than a minute")


def when(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def turn_mail(game: Waiting, now: dt.datetime, public_url: str, every_hours: float) -> Composed:
    """The "your turn" e-mail, in the current language (the reader's: the mail service
    sets it from the account's setting)."""
    players = listed(tuple(translated_marks(name) for name in game.players))
    if every_hours > 0:
        why = _(
            'You get this e-mail because you asked for "your turn" e-mails (at most one a game '
            "every {hours} hours, none while you have a Karnak page open)."
        ).format(hours=f"{every_hours:g}")
    else:
        why = _(
            'You get this e-mail because you asked for "your turn" e-mails (none while you '
            "have a Karnak page open)."
        )
    body = (
        _("It is your turn in {game}, with {players}.").format(game=game.title, players=players)
        + "\n"
        + _("The game has waited since {when} ({ago}).").format(
            when=when(game.since), ago=ago(game.since, now)
        )
        + "\n\n"
        + _("Open the game: {link}").format(link=game_link(public_url, game.game_id))
        + "\n\n"
        + why
        + "\n"
        + footer(public_url)
    )
    return Composed(_("Karnak: your turn in {game}").format(game=game.title), body)


def translated_marks(name: str) -> str:
    """A player's name with its mark ("(you)", "(bot)") in the current language."""
    for mark, words in ((" (you)", N_("{name} (you)")), (" (bot)", N_("{name} (bot)"))):
        if name.endswith(mark):
            return _(words).format(name=name[: -len(mark)])
    return name


def footer(public_url: str) -> str:
    return _(
        "The link logs nobody in: the page opens with your own log-in, or asks you to log in.\n"
        "Choose which e-mails Karnak sends you (or none) on your account page: {url}/account"
    ).format(url=public_url)


def daily_mail(games: list[Waiting], now: dt.datetime, public_url: str) -> Composed:
    """One reminder listing the games waiting on the reader, the longest waiting first, in
    the current language (the reader's: the daily round sets it)."""
    ordered = sorted(games, key=lambda g: (g.since, g.game_id))
    count = len(ordered)
    lines = [
        ngettext(
            "{n} game of Karnak waits for your move:",
            "{n} games of Karnak wait for your move:",
            count,
        ).format(n=count),
        "",
    ]
    for game in ordered:
        players = listed(tuple(translated_marks(name) for name in game.players))
        lines.append("- " + _("{game}, with {players}").format(game=game.title, players=players))
        lines.append(
            "  "
            + _("waiting since {when} ({ago})").format(
                when=when(game.since), ago=ago(game.since, now)
            )
        )
        lines.append(f"  {game_link(public_url, game.game_id)}")
    lines += ["", _("You get this reminder once a day because you asked for it.")]
    body = "\n".join(lines) + "\n" + footer(public_url)
    subject = ngettext(
        "Karnak: {n} game waiting for you", "Karnak: {n} games waiting for you", count
    ).format(n=count)
    return Composed(subject, body)


def invitation_mail(text: str, link: str | None, game: Waiting | None, public_url: str) -> Composed:
    """An invitation, in the current language (the reader's: the mail service sets it):
    the notification's own words (written for its reader, in its language, public), the
    game's title and players when it leads to a game, and the page without any token."""
    lines = [text.strip(), ""]
    if game is not None:
        players = listed(tuple(translated_marks(name) for name in game.players))
        lines += [_("{game}, with {players}.").format(game=game.title, players=players), ""]
    lines.append(_("Open it: {link}").format(link=site_link(public_url, link)))
    lines += ["", _("You get this e-mail because you asked for invitations by e-mail.")]
    body = "\n".join(lines) + "\n" + footer(public_url)
    return Composed(_("Karnak: an invitation"), body)


def confirmation_mail(code: str, public_url: str, hours: int) -> Composed:
    """The link that confirms a new address, in the current language (that of the request
    that gave the address: the account holder's own)."""
    body = (
        _("Someone (we hope you) asked Karnak to send e-mails about their games to this address.")
        + "\n\n"
        + ngettext(
            "To confirm it, open this link within {n} hour:",
            "To confirm it, open this link within {n} hours:",
            hours,
        ).format(n=hours)
        + "\n"
        + f"{public_url}/account#confirm={code}\n\n"
        + _(
            "If it was not you, do nothing: without the confirmation this address gets nothing "
            "more from Karnak."
        )
        + "\n"
    )
    return Composed(_("Karnak: confirm your e-mail address"), body)


def idle_mail(text: str, link: str | None, public_url: str) -> Composed:
    """A game about to expire for want of moves (karnak.server.expiry), in the current
    language (the reader's: the mail service sets it): the notification's own words
    (public facts: the game, its players, when it expires) and the game's page."""
    lines = [
        text.strip(),
        "",
        _("Open the game: {link}").format(link=site_link(public_url, link)),
        "",
        _('You get this e-mail because you asked for "your turn" e-mails.'),
    ]
    body = "\n".join(lines) + "\n" + footer(public_url)
    return Composed(_("Karnak: a game will expire unless someone moves"), body)


def reset_mail(token: str, public_url: str, minutes: int) -> Composed:
    """A password reset link (karnak.server.accounts.recovery), in the current language.
    The token travels in the link's fragment (after ``#``), which browsers never send to a
    server: it stays out of access logs and of any proxy's. It says nothing of the account
    but that it exists."""
    body = (
        _(
            "Someone (we hope you) asked Karnak to reset the password of the account that uses "
            "this address."
        )
        + "\n\n"
        + ngettext(
            "To choose a new password, open this link within {n} minute:",
            "To choose a new password, open this link within {n} minutes:",
            minutes,
        ).format(n=minutes)
        + "\n"
        + f"{public_url}/reset#token={token}\n\n"
        + _("The link works once. Choosing a new password logs the account out everywhere.")
        + "\n"
        + _("If it was not you, do nothing: your password stays as it is.")
        + "\n"
    )
    return Composed(_("Karnak: reset your password"), body)
