"""Drawing Amun-Re in the terminal: provinces, players, the temple, a hand, the scoring.

Everything shown during play comes from the seat's observation (``state.observation(seat)``,
the one function that decides what a seat may see), handed in by the client: the renderer
never sees the state, so it cannot leak a hidden card by accident. Static figures (income,
card limits, temples) come from the game's printed board, which is public.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from karnak.core import Game
from karnak.core.actions import Action
from karnak.core.terminal import CONFIDENCE_LOOK, View, confidence_legend, seat_text
from karnak.games.amunre.rules import actions as A
from karnak.games.amunre.rules.board import CARD_KINDS, PROVINCE_FIELDS, Board, Province
from karnak.games.amunre.texts import (
    SCORING_LINES,
    action_hint,
    board_of,
    card_effect,
    card_name,
)
from karnak.games.amunre.view import (
    AmunReObservation,
    BidView,
    PlayerView,
    ProvinceView,
    as_observation,
)

#: Column headings of the board figures, broken over two lines so the table fits 80 columns.
FIELD_HEADINGS = {
    "half": "Half",
    "side": "Side",
    "nile": "Nile",
    "card_limit": "Card\nlimit",
    "fields": "Fields",
    "printed_farmers": "Printed\nfarmers",
    "bonus_cards": "Free\ncards",
    "bonus_stones": "Free\nstones",
    "bonus_gold": "Free\ngold",
    "gold": "Gold",
    "caravan": "Cara-\nvan",
    "temples": "Tem-\nples",
}


def _dash(value: int) -> str:
    return str(value) if value else "·"


def _where(province: Province) -> str:
    text = f"{province.half} {province.side}"
    return text + ", Nile" if province.nile else text


def _income(province: Province) -> str:
    parts = []
    if province.gold:
        parts.append(f"{province.gold} gold")
    if province.caravan:
        parts.append(f"caravan {province.caravan}")
    return ", ".join(parts) or "·"


def _province_summary(province: Province) -> str:
    """A province's printed figures in one line, to choose between province cards."""
    parts = [_where(province), f"card limit {province.card_limit}", f"{province.fields} fields"]
    for value, what in (
        (province.printed_farmers, "printed farmers"),
        (province.gold, "gold income"),
        (province.caravan, "caravan"),
        (province.temples, "temple(s)"),
        (province.bonus_cards, "free card(s)"),
        (province.bonus_stones, "free stone(s)"),
        (province.bonus_gold, "free gold"),
    ):
        if value:
            parts.append(f"{value} {what}")
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
            text.append(" +blockade", style="bold magenta")
        if bid["overbid"]:
            text.append(" (overbid)", style="red")
    return text


def _free_items(entry: ProvinceView) -> str:
    """What the winner of an auction card takes with it (card identities stay hidden)."""
    parts = []
    if entry["face_down_cards"]:
        parts.append(
            f"{entry['face_down_cards']} card" + ("s" if entry["face_down_cards"] > 1 else "")
        )
    if entry["free_gold"]:
        parts.append(f"{entry['free_gold']} gold")
    return "\n".join(parts) or "·"


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
            self._players(obs, names, seat),
            self._supplies(obs, board, names),
            self._hand(obs, board, seat),
        ]

    def _headline(self, obs: AmunReObservation, board: Board) -> RenderableType:
        total_rounds = board.rounds_per_kingdom * board.kingdoms
        kingdom = ("old kingdom", "new kingdom")[obs["kingdom"]]
        text = Text()
        text.append(f"Round {obs['round']} of {total_rounds}", style="bold")
        text.append(f" · {kingdom} · ")
        text.append(str(obs["phase_name"]), style="bold cyan")
        temple = obs["temple"]
        text.append("\nTemple of Amun-Re: ")
        if temple:
            caravans = " and caravans pay" if temple in board.caravan_spaces else ""
            text.append(f"space {temple}", style="bold")
            text.append(f" (each farmer yields {temple} gold{caravans})")
        else:
            text.append("beside the track until the first offering")
        return text

    def _provinces(
        self, obs: AmunReObservation, board: Board, names: tuple[str, ...]
    ) -> RenderableType:
        """Provinces in play: up for auction, owned, or holding stones or pyramids.

        The table must fit an ordinary terminal, so each province's place (half, side,
        Nile) sits under its name, a card up for auction shows its bids where an owner
        would be, and the free items lying on auction cards get a column only during an
        auction.
        """
        shown = [
            p
            for p in obs["provinces"]
            if p["on_auction"] or p["owner"] >= 0 or p["stones"] or p["pyramids"]
        ]
        if not shown:
            return Text("No province is in play.")
        shown.sort(key=lambda p: (0 if p["on_auction"] else 1 if p["owner"] >= 0 else 2, p["name"]))
        auction = any(p["on_auction"] for p in shown)
        table = Table(
            title="Provinces",
            title_justify="left",
            box=box.SIMPLE_HEAD,
            collapse_padding=True,
            pad_edge=False,
        )
        table.add_column("Province", no_wrap=True)
        table.add_column("Card\nlimit", justify="right")
        table.add_column("Fields", justify="right")
        table.add_column("Income", no_wrap=True)
        table.add_column("Tem-\nples", justify="right")
        table.add_column("Farmers", justify="right", no_wrap=True)
        table.add_column("Stones", justify="right")
        table.add_column("Pyra-\nmids", justify="right")
        table.add_column("Bids" if auction else "Owner", no_wrap=True)
        if auction:
            table.add_column("Free\nitems", no_wrap=True)
        for entry in shown:
            province = board.province(entry["name"])
            name = Text(entry["name"], style="bold")
            name.append("\n" + _where(province), style="dim")
            if entry["on_auction"]:
                holder = _bids(entry["bids"], obs["players"], names) or Text("no bid", "dim")
            elif entry["owner"] >= 0:
                holder = seat_text(names, entry["owner"])
            else:
                holder = Text("nobody", style="dim")
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
            if auction:
                cells.append(_free_items(entry))
            table.add_row(*cells)
        return table

    def _players(self, obs: AmunReObservation, names: tuple[str, ...], seat: int) -> RenderableType:
        table = Table(title="Players", title_justify="left", box=box.SIMPLE_HEAD)
        table.add_column("Player")
        table.add_column("Gold", justify="right")
        table.add_column("Cards", justify="right")
        table.add_column("Score", justify="right")
        table.add_column("Provinces")
        table.add_column("Notes")
        phase = obs["phase"]
        for entry in obs["players"]:
            s = entry["seat"]
            name = seat_text(names, s)
            notes: list[str] = []
            if s == obs["start_player"]:
                notes.append("pharaoh")
            if s == seat:
                notes.append("you")
            if phase == "auction" and entry.get("blockade"):
                notes.append("blockade played")
            if "committed" in entry:
                notes.append("committed" if entry["committed"] else "still deciding")
            if "picked" in entry:
                notes.append("picked" if entry["picked"] else "still picking")
            if "province_cards" in entry:
                notes.append(f"{entry['province_cards']} province card(s)")
            if entry["bonus_cards_played"]:
                notes.append("bonus played: " + ", ".join(entry["bonus_cards_played"]))
            table.add_row(
                name,
                str(entry["gold"]),
                str(entry["cards"]),
                str(entry["score"]),
                ", ".join(entry["provinces"]) or "·",
                ", ".join(notes),
            )
        return table

    def _supplies(
        self, obs: AmunReObservation, board: Board, names: tuple[str, ...]
    ) -> RenderableType:
        supply = obs["supply"]
        discards = sum(obs["discard"].values())
        text = Text()
        text.append("Supply: ", style="bold")
        text.append(f"{supply['farmers']} farmers, {supply['stones']} stones")
        text.append(" · power deck ")
        text.append(f"{obs['deck']} ({discards} discarded)")
        text.append(f" · province cards left {obs['province_deck']}")
        offers = obs["offers"]
        if any(o is not None for o in offers):
            text.append("\nLast offering: ", style="bold")
            parts = []
            for s, offer in enumerate(offers):
                if offer is None:
                    continue
                what = "theft (-3)" if offer["theft"] else f"{offer['gold']} gold"
                if offer["cards"]:
                    what += f" + {len(offer['cards'])} card(s)"
                if offer["correction"]:
                    what += " + correction"
                parts.append(f"{names[s]} {what}")
            text.append("; ".join(parts))
            if obs["offering_total"] is not None:
                text.append(f" · total {obs['offering_total']}")
        if obs["phase"] == "rewards" and obs["rewards_queue"]:
            queue = ", ".join(f"{names[s]} {left}" for s, left in obs["rewards_queue"])
            text.append("\nRewards still to take: ", style="bold")
            text.append(queue)
        return text

    def _hand(self, obs: AmunReObservation, board: Board, seat: int) -> RenderableType:
        you = obs.get("you")
        hand = {} if you is None else you["hand"]
        parts: list[RenderableType] = []
        if hand:
            table = Table(
                title=Text(f"Your hand ({obs['players'][seat]['name']})", style="italic"),
                title_justify="left",
                box=box.SIMPLE_HEAD,
            )
            table.add_column("Card")
            table.add_column("Count", justify="right")
            table.add_column("Used in")
            table.add_column("What it does")
            for kind in CARD_KINDS:
                if kind in hand:
                    table.add_row(
                        Text(card_name(board, obs, kind), style="bold"),
                        str(hand[kind]),
                        board.card(kind).phase,
                        card_effect(kind, board),
                    )
            parts.append(table)
        else:
            parts.append(Text("Your hand: no power cards.", style="bold"))
        notes = Text(
            "You also keep your theft card (-3) for every offering. "
            f"Any power card sells for {board.sell_price} gold whenever you decide.",
            style="dim",
        )
        parts.append(notes)
        if you is None:
            return Group(*parts)
        if "province_cards" in you:
            line = Text("Your province cards: ", style="bold")
            line.append(", ".join(you["province_cards"]) or "none")
            if "pick" in you:
                line.append(f" (picked {you['pick']})")
            parts.append(line)
            for name in you["province_cards"]:
                summary = _province_summary(board.province(name))
                parts.append(Text(f"  {name}: {summary}", style="dim"))
        if "offer" in you:
            parts.append(Text(f"Your sealed offering: {you['offer']}", style="dim"))
        return Group(*parts)

    def action_hint(self, game: Game, view: View, seat: int, action: Action) -> str:
        return action_hint(board_of(game), as_observation(view), action)

    def decision(self, game: Game, view: View) -> str:
        return as_observation(view)["decision"]

    def help_lines(self) -> list[str]:
        return [
            "Moves are written like: " + "; ".join(A.ACTION_FORMS) + ".",
            "Provinces by name (case does not matter), cards by id: " + ", ".join(CARD_KINDS) + ".",
        ]

    # ------------------------------------------------------------------ the end
    def final(self, game: Game, view: View) -> list[RenderableType]:
        obs = as_observation(view)
        names = _names(obs)
        per_kingdom = board_of(game).rounds_per_kingdom
        table = Table(title="Final scoring", title_justify="left")
        table.add_column("Player")
        table.add_column("Scoring")
        for _, heading in SCORING_LINES:
            table.add_column(heading, justify="right")
        table.add_column("Total", justify="right")
        ranks = obs["ranks"]
        scores = obs["scores"]
        scorings = obs["scorings"]
        for seat in range(len(names)):
            for index, scoring in enumerate(scorings):
                line = scoring[seat]
                table.add_row(
                    seat_text(names, seat) if index == 0 else Text(""),
                    f"after round {per_kingdom * (index + 1)}",
                    *(_dash(line[key]) for key, _ in SCORING_LINES),
                    str(line["total"]),
                )
            table.add_row(
                Text(""),
                Text(f"game (rank {ranks[seat]})", style="bold"),
                *("" for _ in SCORING_LINES),
                Text(str(scores[seat]), style="bold"),
                end_section=True,
            )
        winners = [s for s, rank in enumerate(ranks) if rank == 1]
        verdict = Text()
        if len(winners) == 1:
            verdict.append("Winner: ", style="bold")
        else:
            verdict.append("Shared victory: ", style="bold")
        for i, seat in enumerate(winners):
            if i:
                verdict.append(", ")
            verdict.append_text(seat_text(names, seat))
        top = max(scores)
        tied = [s for s, score in enumerate(scores) if score == top]
        if len(tied) > len(winners):
            verdict.append(" (tie on points broken by pyramids, then stones)")
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
            title=Text(f"Amun-Re provinces ({board.source})", style="italic"),
            title_justify="left",
            box=box.SIMPLE_HEAD,
            padding=0,
        )
        table.add_column("Province", no_wrap=True)
        for field in PROVINCE_FIELDS:
            numeric = field not in ("half", "side", "nile")
            table.add_column(
                FIELD_HEADINGS[field], justify="right" if numeric else "left", no_wrap=not numeric
            )
        for province in board.provinces:
            cells: list[RenderableType] = [Text(province.name, style="bold")]
            for field in PROVINCE_FIELDS:
                value = getattr(province, field)
                shown = ("yes" if value else "no") if isinstance(value, bool) else str(value)
                level = province.confidence.get(field, "printed")
                colour, marker = CONFIDENCE_LOOK.get(level, ("", ""))
                cells.append(Text(shown + marker, style=colour))
            table.add_row(*cells)
        return table

    def _legend(self) -> Text:
        return confidence_legend(
            "amunre",
            "printed: shown by two sources or more; one source: a single rule book or review; "
            "reconstructed: our best reading, not printed anywhere we could read.",
        )

    def _constants(self, board: Board) -> Table:
        table = Table(title="Constants (printed)", title_justify="left")
        table.add_column("Name")
        table.add_column("Value")
        rows: list[tuple[str, Any]] = [
            ("bid spaces", ", ".join(map(str, board.bid_spaces))),
            ("starting gold", board.start_gold),
            ("builder cards dealt at the start", board.start_builders),
            ("stones", board.stones),
            ("farmers", ", ".join(f"{ed}: {n}" for ed, n in board.farmers.items())),
            ("kingdoms", f"{board.kingdoms}, of {board.rounds_per_kingdom} rounds each"),
            (
                "temple space by offering total",
                ", ".join(f"≤{t} → {i + 1}" for i, t in enumerate(board.temple_thresholds))
                + f", more → {len(board.temple_thresholds) + 1}",
            ),
            ("caravans pay on temple spaces", ", ".join(map(str, board.caravan_spaces))),
            ("bonus card points", board.bonus_card_points),
            ("most pyramids on a Nile side", board.nile_side_points),
            ("complete set points", board.complete_set_points),
            ("gold ranking points", ", ".join(map(str, board.gold_ranking_points))),
            ("power-card symbols for the bonus", board.power_card_bonus_symbols),
            ("farmers for the farmer bonus", board.farmer_bonus_farmers),
            ("8-gold card pays", board.treasury_gold),
            ("theft card takes", board.theft_gold),
            ("a sold card brings", board.sell_price),
        ]
        for name, value in rows:
            table.add_row(name, str(value))
        return table

    def _cards(self, board: Board) -> Table:
        table = Table(title=f"Power cards ({board.total_cards})", title_justify="left")
        table.add_column("Id")
        table.add_column("2003 name")
        table.add_column("2016 name")
        table.add_column("Count", justify="right")
        table.add_column("Phase")
        table.add_column("What it does")
        for card in board.cards:
            table.add_row(
                card.id,
                card.name_2003,
                card.name_2016,
                str(card.count),
                card.phase,
                card_effect(card.id, board),
            )
        return table
