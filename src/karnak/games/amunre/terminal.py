"""Drawing Amun-Re in the terminal: provinces, players, the temple, a hand, the scoring.

Everything shown during play comes from the seat's observation (``state.observation(seat)``,
the one function that decides what a seat may see), handed in by the client: the renderer
never sees the state, so it cannot leak a hidden card by accident. Static figures (income,
card limits, temples) come from the game's printed board, which is public.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from karnak.core import Game
from karnak.core.actions import Action
from karnak.core.terminal import CONFIDENCE_LOOK, View, confidence_legend, seat_text
from karnak.games.amunre.i18n import N_, _, ngettext, t
from karnak.games.amunre.rules import actions as A
from karnak.games.amunre.rules.board import CARD_KINDS, PROVINCE_FIELDS, Board, Province
from karnak.games.amunre.texts import (
    SCORING_LINES,
    action_hint,
    board_of,
    card_effect,
    card_name,
    card_phase,
    move_group,
    offer_words,
    province_name,
)
from karnak.games.amunre.view import (
    AmunReObservation,
    BidView,
    PlayerView,
    ProvinceView,
    as_observation,
)

#: Column headings of the board figures, broken over two lines so the table fits 80 columns.
#: The words of the figures table's half and side columns.
FIGURE_WORDS = {
    "upper": N_("upper"),
    "lower": N_("lower"),
    "west": N_("west"),
    "east": N_("east"),
}

FIELD_HEADINGS = {
    "half": N_("Half"),
    "side": N_("Side"),
    "nile": N_("Nile"),
    "card_limit": N_("Card\nlimit"),
    "fields": N_("Fields"),
    "printed_farmers": N_("Printed\nfarmers"),
    "bonus_cards": N_("Free\ncards"),
    "bonus_stones": N_("Free\nstones"),
    "bonus_gold": N_("Free\ngold"),
    "gold": N_("Gold"),
    "caravan": N_("Cara-\nvan"),
    "temples": N_("Tem-\nples"),
}


def _dash(value: int) -> str:
    return str(value) if value else "·"


def _where(province: Province) -> str:
    half = _("lower") if province.half == "lower" else _("upper")
    side = _("west") if province.side == "west" else _("east")
    if province.nile:
        return t("{half} {side}, Nile", half=half, side=side)
    return t("{half} {side}", half=half, side=side)


def _income(province: Province) -> str:
    parts = []
    if province.gold:
        parts.append(t("{n} gold", n=province.gold))
    if province.caravan:
        parts.append(t("caravan {n}", n=province.caravan))
    return ", ".join(parts) or "·"


def _province_summary(province: Province) -> str:
    """A province's printed figures in one line, to choose between province cards."""
    parts = [
        _where(province),
        t("card limit {n}", n=province.card_limit),
        t("fields {n}", n=province.fields),
    ]
    for value, what in (
        (province.printed_farmers, N_("printed farmers {n}")),
        (province.gold, N_("gold income {n}")),
        (province.caravan, N_("caravan {n}")),
        (province.temples, N_("temples {n}")),
        (province.bonus_cards, N_("free cards {n}")),
        (province.bonus_stones, N_("free stones {n}")),
        (province.bonus_gold, N_("free gold {n}")),
    ):
        if value:
            parts.append(_(what).format(n=value))
    return ", ".join(parts)


def _farmers(entry: ProvinceView, province: Province) -> str:
    """Farmers on fields out of the fields there, plus free and printed farmers."""
    text = f"{entry['farmers']}/{province.fields}" if province.fields else ""
    extra = entry["free_farmers"] + entry["printed_farmers"]
    if extra:
        text = f"{text} +{extra}".strip()
    return text or "·"


def _bids(bids: list[BidView], players: list[PlayerView], names: tuple[str, ...]) -> Text:
    text = Text()
    for bid in bids:
        if text:
            text.append("\n")
        text.append_text(seat_text(names, bid["seat"]))
        text.append(f" {bid['amount']}")
        if players[bid["seat"]].get("blockade"):
            text.append(" +" + _("blockade"), style="bold magenta")
        if bid["overbid"]:
            text.append(" " + _("(overbid)"), style="red")
    return text


def _free_items(entry: ProvinceView) -> str:
    """What the winner of an auction card takes with it (card identities stay hidden), or
    an empty text for nothing."""
    parts = []
    if entry["face_down_cards"]:
        parts.append(
            ngettext("{n} card", "{n} cards", entry["face_down_cards"]).format(
                n=entry["face_down_cards"]
            )
        )
    if entry["free_gold"]:
        parts.append(t("{n} gold", n=entry["free_gold"]))
    return t("free: {items}", items=", ".join(parts)) if parts else ""


def _pieces(entry: ProvinceView, province: Province) -> str:
    """What stands on a province, in words (farmers on its fields, stones, pyramids)."""
    farmers = entry["farmers"] + entry["free_farmers"] + entry["printed_farmers"]
    return t(
        "farmers {farmers} ({empty} fields empty), stones {stones}, pyramids {pyramids}",
        farmers=farmers,
        empty=entry["empty_fields"],
        stones=entry["stones"],
        pyramids=entry["pyramids"],
    )


def _figures(province: Province) -> str:
    """A province's printed figures in a few words."""
    parts = [t("fields {n}", n=province.fields), t("limit {n}", n=province.card_limit)]
    if province.gold:
        parts.append(t("gold {n}", n=province.gold))
    if province.caravan:
        parts.append(t("caravan {n}", n=province.caravan))
    if province.temples:
        parts.append(t("temples {n}", n=province.temples))
    return ", ".join(parts)


def _names(obs: AmunReObservation) -> tuple[str, ...]:
    """The seats' names, in seat order."""
    return tuple(player["name"] for player in obs["players"])


class AmunReRenderer:
    """The :class:`~karnak.cli.render.GameRenderer` of Amun-Re."""

    # ------------------------------------------------------------------ during play
    def status(self, game: Game, view: View, seat: int) -> list[RenderableType]:
        obs = as_observation(view)
        board = board_of(game)
        names = _names(obs)
        return [
            self._headline(obs, board),
            self._provinces(obs, board, names),
            self._players(obs, board, names, seat),
            self._supplies(obs, board, names),
            self._hand(obs, board, seat),
        ]

    def _headline(self, obs: AmunReObservation, board: Board) -> RenderableType:
        total_rounds = board.rounds_per_kingdom * board.kingdoms
        kingdom = (_("old kingdom"), _("new kingdom"))[obs["kingdom"]]
        text = Text()
        text.append(
            t("Round {round} of {total}", round=obs["round"], total=total_rounds), style="bold"
        )
        text.append(f" · {kingdom} · ")
        text.append(str(obs["phase_name"]), style="bold cyan")
        temple = obs["temple"]
        text.append("\n" + _("Temple of Amun-Re:") + " ")
        if temple:
            text.append(t("space {n}", n=temple), style="bold")
            if temple in board.caravan_spaces:
                text.append(" " + t("(each farmer yields {n} gold and caravans pay)", n=temple))
            else:
                text.append(" " + t("(each farmer yields {n} gold)", n=temple))
        else:
            text.append(_("beside the track until the first offering"))
        return text

    def _provinces(
        self, obs: AmunReObservation, board: Board, names: tuple[str, ...]
    ) -> RenderableType:
        """Provinces in play: up for auction, owned, or holding stones or pyramids.

        The table must fit an ordinary terminal, so each province's place (half, side,
        Nile) sits under its name, a card up for auction shows its bids where an owner
        would be, and the free items lying on an auction card are written under its name.
        """
        shown = [
            p
            for p in obs["provinces"]
            if p["on_auction"] or p["owner"] >= 0 or p["stones"] or p["pyramids"]
        ]
        if not shown:
            return Text(_("No province is in play."))
        shown.sort(key=lambda p: (0 if p["on_auction"] else 1 if p["owner"] >= 0 else 2, p["name"]))
        auction = any(p["on_auction"] for p in shown)
        table = Table(
            title=_("Provinces"),
            title_justify="left",
            box=box.SIMPLE_HEAD,
            collapse_padding=True,
            pad_edge=False,
        )
        # each heading is as wide as its longest line at least (never cut, in any language);
        # the cells with words wrap between them where the terminal is narrow
        columns: list[tuple[str, Any]] = [
            (_("Province"), "left"),
            (_("Card\nlimit"), "right"),
            (_("Fields"), "right"),
            (_("Income"), "left"),
            (_("Tem-\nples"), "right"),
            (_("Farmers"), "right"),
            (_("Stones"), "right"),
            (_("Pyra-\nmids"), "right"),
            (_("Bids") if auction else _("Owner"), "left"),
        ]
        longest_name = max(len(province_name(p["name"])) for p in shown)
        for index, (heading, justify) in enumerate(columns):
            widest = max(len(line) for line in heading.split("\n"))
            if index == 0:
                widest = max(widest, longest_name)
            table.add_column(heading, justify=justify, min_width=widest)
        for entry in shown:
            province = board.province(entry["name"])
            name = Text(province_name(entry["name"]), style="bold")
            name.append("\n" + _where(province), style="dim")
            # what an auction card's winner takes along, under its name: a column of its own
            # left too little room at 80 columns for the bids beside it
            free = _free_items(entry) if entry["on_auction"] else ""
            if free:
                name.append("\n" + free, style="italic")
            if entry["on_auction"]:
                holder = _bids(entry["bids"], obs["players"], names) or Text(_("no bid"), "dim")
            elif entry["owner"] >= 0:
                holder = seat_text(names, entry["owner"])
            else:
                holder = Text(_("nobody"), style="dim")
            cells: list[RenderableType] = [
                name,
                _dash(province.card_limit),
                _dash(province.fields),
                _income(province),
                _dash(province.temples),
                _farmers(entry, province),
                _dash(entry["stones"]),
                _dash(entry["pyramids"]),
                holder,
            ]
            table.add_row(*cells)
        return table

    def _players(
        self, obs: AmunReObservation, board: Board, names: tuple[str, ...], seat: int
    ) -> RenderableType:
        table = Table(title=_("Players"), title_justify="left", box=box.SIMPLE_HEAD)
        table.add_column(_("Player"))
        table.add_column(_("Gold"), justify="right")
        table.add_column(_("Cards"), justify="right")
        table.add_column(_("Score"), justify="right")
        table.add_column(_("Provinces"))
        table.add_column(_("Notes"))
        phase = obs["phase"]
        for entry in obs["players"]:
            s = entry["seat"]
            name = seat_text(names, s)
            notes: list[str] = []
            if s == obs["start_player"]:
                notes.append(_("start player"))
            if s == seat:
                notes.append(_("you"))
            if phase == "auction" and entry.get("blockade"):
                notes.append(_("blockade played"))
            if "committed" in entry:
                notes.append(_("committed") if entry["committed"] else _("still deciding"))
            if "picked" in entry:
                notes.append(_("picked") if entry["picked"] else _("still picking"))
            if "province_cards" in entry:
                notes.append(
                    ngettext(
                        "{n} province card", "{n} province cards", entry["province_cards"]
                    ).format(n=entry["province_cards"])
                )
            if entry["bonus_cards_played"]:
                notes.append(
                    t(
                        "bonus played: {cards}",
                        cards=", ".join(
                            card_name(board, obs, k) for k in entry["bonus_cards_played"]
                        ),
                    )
                )
            table.add_row(
                name,
                str(entry["gold"]),
                str(entry["cards"]),
                str(entry["score"]),
                ", ".join(province_name(p) for p in entry["provinces"]) or "·",
                ", ".join(notes),
            )
        return table

    def _supplies(
        self, obs: AmunReObservation, board: Board, names: tuple[str, ...]
    ) -> RenderableType:
        supply = obs["supply"]
        discards = sum(obs["discard"].values())
        text = Text()
        text.append(_("Supply:") + " ", style="bold")
        text.append(
            t(
                "{farmers} farmers, {stones} stones",
                farmers=supply["farmers"],
                stones=supply["stones"],
            )
        )
        text.append(" · ")
        text.append(t("power deck {n} ({discards} discarded)", n=obs["deck"], discards=discards))
        text.append(" · " + t("province cards left {n}", n=obs["province_deck"]))
        offers = obs["offers"]
        if any(o is not None for o in offers):
            text.append("\n" + _("Last offering:") + " ", style="bold")
            parts = []
            for s, offer in enumerate(offers):
                if offer is None:
                    continue
                what = _("theft (-3)") if offer["theft"] else t("{n} gold", n=offer["gold"])
                if offer["cards"]:
                    what += " + " + ngettext("{n} card", "{n} cards", len(offer["cards"])).format(
                        n=len(offer["cards"])
                    )
                if offer["correction"]:
                    what += " + " + card_name(board, obs, "correction")
                parts.append(f"{names[s]} {what}")
            text.append("; ".join(parts))
            if obs["offering_total"] is not None:
                text.append(" · " + t("total {n}", n=obs["offering_total"]))
        if obs["phase"] == "rewards" and obs["rewards_queue"]:
            queue = ", ".join(f"{names[s]} {left}" for s, left in obs["rewards_queue"])
            text.append("\n" + _("Rewards still to take:") + " ", style="bold")
            text.append(queue)
        return text

    def _hand(self, obs: AmunReObservation, board: Board, seat: int) -> RenderableType:
        you = obs.get("you")
        hand = {} if you is None else you["hand"]
        parts: list[RenderableType] = []
        if hand:
            table = Table(
                title=Text(
                    t("Your hand ({player})", player=obs["players"][seat]["name"]), style="italic"
                ),
                title_justify="left",
                box=box.SIMPLE_HEAD,
            )
            table.add_column(_("Card"))
            table.add_column(_("Count"), justify="right")
            table.add_column(_("Used in"))
            table.add_column(_("What it does"))
            for kind in CARD_KINDS:
                if kind in hand:
                    table.add_row(
                        Text(card_name(board, obs, kind), style="bold"),
                        str(hand[kind]),
                        card_phase(board, kind),
                        card_effect(kind, board),
                    )
            parts.append(table)
        else:
            parts.append(Text(_("Your hand: no power cards."), style="bold"))
        notes = Text(
            t(
                "You also keep your theft card (-3) for every offering. Any power card sells "
                "for {price} gold whenever you decide.",
                price=board.sell_price,
            ),
            style="dim",
        )
        parts.append(notes)
        if you is None:
            return Group(*parts)
        if "province_cards" in you:
            line = Text(_("Your province cards:") + " ", style="bold")
            line.append(", ".join(province_name(p) for p in you["province_cards"]) or _("none"))
            if "pick" in you:
                line.append(" " + t("(picked {province})", province=province_name(you["pick"])))
            parts.append(line)
            for name in you["province_cards"]:
                summary = _province_summary(board.province(name))
                parts.append(Text(f"  {province_name(name)}: {summary}", style="dim"))
        if "offer" in you:
            offer = A.action_from_json(you["offer"])
            if isinstance(offer, A.Offer):
                words = offer_words(board, obs, offer)
                parts.append(Text(t("Your sealed offering: {offer}", offer=words), style="dim"))
        return Group(*parts)

    # ------------------------------------------------------------------ the compact screen
    def compact(self, game: Game, view: View, seat: int) -> list[RenderableType]:
        """What the decision needs, fitting 80x24 with the prompt and the numbered moves:
        the round, one line a player, the provinces the step is about (those on auction,
        else the seat's own) and the seat's hand by name. The full board stays on ``board``."""
        obs = as_observation(view)
        board = board_of(game)
        names = _names(obs)
        parts: list[RenderableType] = [self._compact_headline(obs, board)]
        parts.append(self._compact_players(obs, names, seat))
        parts.extend(self._compact_provinces(obs, board, names, seat))
        parts.append(self._compact_hand(obs, board, seat))
        return parts

    def _compact_headline(self, obs: AmunReObservation, board: Board) -> Text:
        total_rounds = board.rounds_per_kingdom * board.kingdoms
        text = Text()
        text.append(
            t("Round {round} of {total}", round=obs["round"], total=total_rounds), style="bold"
        )
        text.append(" · ")
        text.append(str(obs["phase_name"]), style="bold cyan")
        temple = obs["temple"]
        if temple:
            text.append(" · ")
            if temple in board.caravan_spaces:
                text.append(
                    t("temple {space}: a farmer earns {space} gold, caravans pay", space=temple)
                )
            else:
                text.append(t("temple {space}: a farmer earns {space} gold", space=temple))
        return text

    def _compact_players(
        self, obs: AmunReObservation, names: tuple[str, ...], seat: int
    ) -> RenderableType:
        table = Table(box=None, pad_edge=False, padding=(0, 1, 0, 0), show_edge=False)
        table.add_column(_("Player"), no_wrap=True, max_width=18, overflow="ellipsis")
        table.add_column(_("Gold"), justify="right")
        table.add_column(_("Cards"), justify="right")
        table.add_column(_("Points"), justify="right")
        table.add_column(_("Provinces"), ratio=1)
        for entry in obs["players"]:
            s = entry["seat"]
            name = seat_text(names, s)
            if s == seat:
                name.append(" " + _("(you)"), style="bold")
            if s == obs["start_player"]:
                name.append(" *", style="bold yellow")
            table.add_row(
                name,
                str(entry["gold"]),
                str(entry["cards"]),
                str(entry["score"]),
                ", ".join(province_name(p) for p in entry["provinces"]) or "·",
            )
        return table

    def _compact_provinces(
        self, obs: AmunReObservation, board: Board, names: tuple[str, ...], seat: int
    ) -> list[RenderableType]:
        """One line a province the step is about: those on auction with their bids, else
        the seat's own with what stands on them."""
        lines: list[RenderableType] = []
        auction = [p for p in obs["provinces"] if p["on_auction"]]
        if obs["phase"] in ("auction", "pick") and auction:
            for entry in auction:
                province = board.province(entry["name"])
                line = Text(province_name(entry["name"]) + ": ", style="bold")
                if entry["bids"]:
                    for i, bid in enumerate(entry["bids"]):
                        if i:
                            line.append(", ")
                        line.append_text(seat_text(names, bid["seat"]))
                        line.append(f" {bid['amount']}")
                        if bid["overbid"]:
                            line.append(" " + _("(overbid)"), style="red")
                else:
                    line.append(_("no bid"), style="dim")
                line.append(" · " + _figures(province), style="dim")
                lines.append(line)
            return lines
        for name in obs["players"][seat]["provinces"]:
            entry = obs["provinces"][board.province_names.index(name)]
            province = board.province(name)
            line = Text(province_name(name) + ": ", style="bold")
            line.append(_pieces(entry, province))
            lines.append(line)
        if obs["phase"] == "rewards" and obs["rewards_queue"]:
            queue = ", ".join(f"{names[s]} {left}" for s, left in obs["rewards_queue"])
            lines.append(Text(t("Rewards still to take: {queue}", queue=queue)))
        return lines

    def _compact_hand(self, obs: AmunReObservation, board: Board, seat: int) -> Text:
        you = obs.get("you")
        hand = {} if you is None else you["hand"]
        text = Text(_("Your hand:") + " ", style="bold")
        if hand:
            text.append(
                ", ".join(
                    card_name(board, obs, kind) + (f" \u00d7{hand[kind]}" if hand[kind] > 1 else "")
                    for kind in CARD_KINDS
                    if kind in hand
                )
            )
        else:
            text.append(_("no power cards"))
        if you is not None and "offer" in you:
            text.append(" · ")
            offer = A.action_from_json(you["offer"])
            if isinstance(offer, A.Offer):
                text.append(t("sealed: {offer}", offer=offer_words(board, obs, offer)))
        text.append(" · " + _("the whole board: board"), style="dim")
        return text

    def move_groups(
        self, game: Game, view: View, seat: int, legal: Sequence[Action]
    ) -> list[tuple[str, list[int]]]:
        """Headings for a long list of moves: bids by province, the others by what they do
        (buy, place, sell, play a card, take a reward)."""
        groups: dict[str, list[int]] = {}
        for index, action in enumerate(legal):
            if isinstance(action, A.Bid):
                heading = t("Bid on {province}", province=province_name(action.province))
            else:
                heading = move_group(action)
            groups.setdefault(heading, []).append(index)
        return list(groups.items())

    def action_hint(self, game: Game, view: View, seat: int, action: Action) -> str:
        return action_hint(board_of(game), as_observation(view), action)

    def decision(self, game: Game, view: View) -> str:
        return as_observation(view)["decision"]

    def help_lines(self) -> list[str]:
        return [
            t("Moves are written like: {forms}.", forms="; ".join(A.ACTION_FORMS)),
            t(
                "Provinces by name (case does not matter), cards by id: {cards}.",
                cards=", ".join(CARD_KINDS),
            ),
        ]

    # ------------------------------------------------------------------ the end
    def final(self, game: Game, view: View) -> list[RenderableType]:
        obs = as_observation(view)
        names = _names(obs)
        per_kingdom = board_of(game).rounds_per_kingdom
        table = Table(title=_("Final scoring"), title_justify="left")
        table.add_column(_("Player"))
        table.add_column(_("Scoring"))
        for _key, heading in SCORING_LINES:
            table.add_column(_(heading), justify="right")
        table.add_column(_("Total"), justify="right")
        ranks = obs["ranks"]
        scores = obs["scores"]
        scorings = obs["scorings"]
        for seat in range(len(names)):
            for index, scoring in enumerate(scorings):
                line = scoring[seat]
                table.add_row(
                    seat_text(names, seat) if index == 0 else Text(""),
                    t("after round {n}", n=per_kingdom * (index + 1)),
                    *(_dash(line[key]) for key, _heading in SCORING_LINES),
                    str(line["total"]),
                )
            table.add_row(
                Text(""),
                Text(t("game (rank {rank})", rank=ranks[seat]), style="bold"),
                *("" for _ in SCORING_LINES),
                Text(str(scores[seat]), style="bold"),
                end_section=True,
            )
        winners = [s for s, rank in enumerate(ranks) if rank == 1]
        verdict = Text()
        if len(winners) == 1:
            verdict.append(_("Winner:") + " ", style="bold")
        else:
            verdict.append(_("Shared victory:") + " ", style="bold")
        for i, seat in enumerate(winners):
            if i:
                verdict.append(", ")
            verdict.append_text(seat_text(names, seat))
        top = max(scores)
        tied = [s for s, score in enumerate(scores) if score == top]
        if len(tied) > len(winners):
            verdict.append(" " + _("(tie on points broken by pyramids, then stones)"))
        return [table, verdict]

    # ------------------------------------------------------------------ the board
    def figures(self, game: Game) -> list[RenderableType]:
        board = board_of(game)
        return [
            self._figures_table(board),
            self._legend(),
            self._constants(board),
            self._cards(board),
        ]

    def _figures_table(self, board: Board) -> Table:
        table = Table(
            title=Text(t("Amun-Re provinces ({source})", source=board.source), style="italic"),
            title_justify="left",
            box=box.SIMPLE_HEAD,
            padding=0,
        )
        table.add_column(_("Province"), no_wrap=True)
        for field in PROVINCE_FIELDS:
            numeric = field not in ("half", "side", "nile")
            table.add_column(
                _(FIELD_HEADINGS[field]),
                justify="right" if numeric else "left",
                no_wrap=not numeric,
            )
        for province in board.provinces:
            cells: list[RenderableType] = [Text(province.name, style="bold")]
            for field in PROVINCE_FIELDS:
                value = getattr(province, field)
                if isinstance(value, bool):
                    shown = _("yes") if value else _("no")
                elif field in ("half", "side"):
                    shown = _(FIGURE_WORDS.get(value, value))
                else:
                    shown = str(value)
                level = province.confidence.get(field, "printed")
                colour, marker = CONFIDENCE_LOOK.get(level, ("", ""))
                cells.append(Text(shown + marker, style=colour))
            table.add_row(*cells)
        return table

    def _legend(self) -> Text:
        return confidence_legend(
            "amunre",
            _(
                "printed: shown by two sources or more; one source: a single rule book or "
                "review; reconstructed: our best reading, not printed anywhere we could read."
            ),
        )

    def _constants(self, board: Board) -> Table:
        table = Table(title=_("Constants (printed)"), title_justify="left")
        table.add_column(_("Name"))
        table.add_column(_("Value"))
        thresholds = [
            t("≤{total} → {space}", total=limit, space=i + 1)
            for i, limit in enumerate(board.temple_thresholds)
        ]
        thresholds.append(t("more → {space}", space=len(board.temple_thresholds) + 1))
        rows: list[tuple[str, Any]] = [
            (N_("bid spaces"), ", ".join(map(str, board.bid_spaces))),
            (N_("starting gold"), board.start_gold),
            (N_("builder cards dealt at the start"), board.start_builders),
            (N_("stones"), board.stones),
            (N_("farmers"), ", ".join(f"{ed}: {n}" for ed, n in board.farmers.items())),
            (
                N_("kingdoms"),
                ngettext(
                    "{kingdoms}, of {n} round each",
                    "{kingdoms}, of {n} rounds each",
                    board.rounds_per_kingdom,
                ).format(kingdoms=board.kingdoms, n=board.rounds_per_kingdom),
            ),
            (N_("temple space by offering total"), ", ".join(thresholds)),
            (N_("caravans pay on temple spaces"), ", ".join(map(str, board.caravan_spaces))),
            (N_("bonus card points"), board.bonus_card_points),
            (N_("most pyramids on a Nile side"), board.nile_side_points),
            (N_("complete set points"), board.complete_set_points),
            (N_("gold ranking points"), ", ".join(map(str, board.gold_ranking_points))),
            (N_("power-card symbols for the bonus"), board.power_card_bonus_symbols),
            (N_("farmers for the farmer bonus"), board.farmer_bonus_farmers),
            (N_("8-gold card pays"), board.treasury_gold),
            (N_("theft card takes"), board.theft_gold),
            (N_("a sold card brings"), board.sell_price),
        ]
        for name, value in rows:
            table.add_row(_(name), str(value))
        return table

    def _cards(self, board: Board) -> Table:
        table = Table(title=t("Power cards ({n})", n=board.total_cards), title_justify="left")
        table.add_column(_("Id"))
        table.add_column(_("2003 name"))
        table.add_column(_("2016 name"))
        table.add_column(_("Count"), justify="right")
        table.add_column(_("Phase"))
        table.add_column(_("What it does"))
        for card in board.cards:
            table.add_row(
                card.id,
                _(card.name_2003),
                _(card.name_2016),
                str(card.count),
                card_phase(board, card.id),
                card_effect(card.id, board),
            )
        return table
