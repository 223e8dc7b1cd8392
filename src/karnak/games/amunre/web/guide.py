"""The guide of Amun-Re's game page: the phases in our own words, the current one, what comes
next, what the seat is to do, and why its decision matters (see karnak.core.plugin.WebPage).

Everything here is read from the seat's observation (the table's options included), its legal
moves, the printed board and the game's rules version (all public): never from the state, so
re-dealing what the seat cannot see leaves the guide byte for byte the same (tested). The
figures are computed with the same rules the engine applies (income, prices, temple spaces,
scoring), so a line such as "Memphis: 3 farmers x 2 gold" is what the harvest will pay.

Every sentence is one message of the ``amunre`` domain, in the reader's language
(:mod:`karnak.games.amunre.i18n`); only lists (names, figures) are joined here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from karnak.core.actions import Action
from karnak.core.game import Game
from karnak.core.plugin import View
from karnak.games.amunre.i18n import N_, _, ngettext, pgettext, t
from karnak.games.amunre.rules import actions as A
from karnak.games.amunre.rules.board import Board
from karnak.games.amunre.rules.scoring import nile_side_winners, score_kingdom
from karnak.games.amunre.texts import board_of, province_name
from karnak.games.amunre.view import (
    AmunReObservation,
    BidView,
    OfferView,
    PlayerView,
    ProvinceView,
    ScoringLine,
    as_observation,
)

Item = dict[str, Any]
#: The multiplication sign of the figures ("3 farmers x 2", with the sign itself).
TIMES = "\u00d7"


def guide(game: Game, view: View, seat: int | None, legal: Sequence[Action]) -> dict[str, Any]:
    """Built from the seat's observation and legal moves, the game's printed board and its
    rules version (``game`` is the game at the version the table plays)."""
    obs = as_observation(view)
    seen = Seen(
        board=board_of(game),
        rewards_in_turn_order=game.rules_at_least("1.1"),
        obs=obs,
        seat=seat,
        legal=tuple(legal),
    )
    phase = obs["phase"]
    explain = EXPLAIN.get(phase, _explain_over)(seen)
    return {
        "phases": phases(seen),
        "phase": "scoring" if phase == "over" else phase,
        "next": next_text(seen),
        "task": task(seen),
        "explain": [item for item in explain if item["lines"]],
    }


# ---------------------------------------------------------------------------- what is seen
@dataclass(frozen=True)
class Seen:
    """What the guide may read: public figures and rules, the seat's view and its moves."""

    board: Board
    #: Ruling A8 (rules 1.1): past the second, givers take their item in turn order.
    rewards_in_turn_order: bool
    obs: AmunReObservation
    seat: int | None
    legal: tuple[Action, ...]

    @property
    def players(self) -> list[PlayerView]:
        return self.obs["players"]

    @property
    def provinces(self) -> list[ProvinceView]:
        return self.obs["provinces"]

    @property
    def temple(self) -> int:
        return self.obs["temple"]

    @property
    def start(self) -> int:
        return self.obs["start_player"]

    @property
    def order(self) -> list[int]:
        n = len(self.players)
        return [(self.start + i) % n for i in range(n)]

    @property
    def deciding(self) -> bool:
        """Whether this seat has a decision to make now."""
        return self.seat is not None and bool(self.legal)

    @property
    def final_round(self) -> bool:
        return self.obs["round"] >= self.board.rounds_per_kingdom * self.board.kingdoms

    def name(self, seat: int) -> str:
        return self.players[seat]["name"]

    def card(self, kind: str) -> str:
        """A power card's name in the table's edition, in the reader's language."""
        return _(self.board.card(kind).name(self.obs["edition"]))

    def index(self, province: str) -> int:
        return self.board.province_names.index(province)

    def owned(self, seat: int) -> list[int]:
        return [self.index(name) for name in self.players[seat]["provinces"]]

    def farmers(self, p: int) -> int:
        entry = self.provinces[p]
        return entry["farmers"] + entry["free_farmers"] + entry["printed_farmers"]

    def moves(self, kind: type[Any]) -> list[Any]:
        return [a for a in self.legal if isinstance(a, kind)]


def pname(name: str) -> str:
    """A province's name as the page writes it, in the reader's language (THEBES: Thebes)."""
    return province_name(name)


def listing(words: Sequence[str]) -> str:
    """a, b and c."""
    if len(words) <= 1:
        return "".join(words)
    return t("{items} and {last}", items=", ".join(words[:-1]), last=words[-1])


# Counted words, each a whole message with its number (never "1 farmers").
def n_farmers(n: int) -> str:
    return ngettext("{n} farmer", "{n} farmers", n).format(n=n)


def n_stones(n: int) -> str:
    return ngettext("{n} stone", "{n} stones", n).format(n=n)


def n_pyramids(n: int) -> str:
    return ngettext("{n} pyramid", "{n} pyramids", n).format(n=n)


def n_items(n: int) -> str:
    return ngettext("{n} item", "{n} items", n).format(n=n)


def n_provinces(n: int) -> str:
    return ngettext("{n} province", "{n} provinces", n).format(n=n)


def n_fields(n: int) -> str:
    return ngettext("{n} field", "{n} fields", n).format(n=n)


def n_empty_fields(n: int) -> str:
    return ngettext("{n} empty field", "{n} empty fields", n).format(n=n)


def n_temples(n: int) -> str:
    return ngettext("{n} temple", "{n} temples", n).format(n=n)


def n_face_down(n: int) -> str:
    return ngettext("{n} face-down power card", "{n} face-down power cards", n).format(n=n)


def n_gold(n: int) -> str:
    return t("{n} gold", n=n)


# ---------------------------------------------------------------------------- figures
def temple_spaces(board: Board) -> int:
    return len(board.temple_thresholds) + 1


def space_range(board: Board, space: int) -> str:
    """The offering totals that put the temple on ``space`` (1-based)."""
    limits = board.temple_thresholds
    if space == 1:
        return t("total {n} or less", n=limits[0])
    if space <= len(limits):
        return t("total {low} to {high}", low=limits[space - 2] + 1, high=limits[space - 1])
    return t("total {n} or more", n=limits[-1] + 1)


def caravans_pay(board: Board, space: int) -> bool:
    return space in board.caravan_spaces


def caravan_spaces_text(board: Board) -> str:
    spaces = board.caravan_spaces
    return ngettext("temple space {spaces}", "temple spaces {spaces}", len(spaces)).format(
        spaces=listing([str(s) for s in spaces])
    )


def income(
    seen: Seen, p: int, space: int, *, eight_gold: bool = False, increase: bool = False
) -> int:
    """What province ``p`` pays its owner at a harvest with the temple on ``space`` (as the
    engine's ``AmunReState.income`` computes it, province by province)."""
    board = seen.board
    if eight_gold:
        return board.treasury_gold
    province = board.provinces[p]
    total = seen.farmers(p) * (space + 1 if increase else space) + province.gold
    if caravans_pay(board, space):
        total += province.caravan
    return total


def income_parts(seen: Seen, p: int, space: int, *, increase: bool = False) -> list[str]:
    """How a province's harvest adds up, term by term: "3 farmers x 2", "4 gold", "caravan 7"
    (empty: it pays nothing)."""
    province = seen.board.provinces[p]
    farmers = seen.farmers(p)
    per = space + 1 if increase else space
    parts = []
    if farmers:
        parts.append(t("{farmers} \u00d7 {per}", farmers=n_farmers(farmers), per=per))
    if province.gold:
        parts.append(n_gold(province.gold))
    if province.caravan and caravans_pay(seen.board, space):
        parts.append(t("caravan {n}", n=province.caravan))
    return parts


def harvest_at(seen: Seen, seat: int, space: int) -> int:
    """A seat's whole harvest on ``space`` without harvest cards."""
    return sum(income(seen, p, space) for p in seen.owned(seat))


def farmer_earning(seen: Seen) -> str:
    """What a farmer earns, said from where the temple stands now."""
    if seen.temple == 0:
        return t(
            "The temple is not on its track yet: this round's offering sets it, and each farmer "
            "then earns 1 to {most} gold at the harvest.",
            most=temple_spaces(seen.board),
        )
    return t(
        "At temple space {space} (where it stands now) each farmer earns {space} gold a "
        "harvest; the offering moves the temple before the harvest.",
        space=seen.temple,
    )


def stones_line(seen: Seen, p: int, *, builder: bool = False) -> str:
    """A province's stones and pyramids, and how far the next pyramid is."""
    entry = seen.provinces[p]
    stones, pyramids = entry["stones"], entry["pyramids"]
    need = (2 if builder else 3) - stones
    words = {
        "province": pname(entry["name"]),
        "stones": n_stones(stones),
        "pyramids": n_pyramids(pyramids),
    }
    if need <= 0 and builder:
        return t(
            "{province}: {stones}, {pyramids}; your {card} card makes a pyramid here now.",
            card=seen.card("builder"),
            **words,
        )
    return ngettext(
        "{province}: {stones}, {pyramids}; {n} more stone makes a pyramid.",
        "{province}: {stones}, {pyramids}; {n} more stones make a pyramid.",
        need,
    ).format(n=need, **words)


def turn_order_text(seen: Seen) -> str:
    return ", ".join(seen.name(s) for s in seen.order)


def most_affordable(first_price: int, gold: int, cap: int) -> int:
    """How many items of one kind ``gold`` pays for when the next costs ``first_price`` and
    each further one 1 more (the price table), at most ``cap``."""
    count, spent = 0, 0
    while count < cap and spent + first_price + count <= gold:
        spent += first_price + count
        count += 1
    return count


# ---------------------------------------------------------------------------- phases
def phases(seen: Seen) -> list[dict[str, str]]:
    """The phases of a round in order, in our own words, with the printed figures."""
    board = seen.board
    spaces = ", ".join(str(s) for s in board.bid_spaces)
    rounds = board.rounds_per_kingdom
    listed: list[dict[str, str]] = []
    if seen.obs["options"]["expert_provinces"]:
        listed.append(
            {
                "key": "pick",
                "name": _("Province cards"),
                "text": _(
                    "Each player secretly picks one province card from their hand; the "
                    "picks are shown together and those provinces come up for auction."
                ),
            }
        )
    listed += [
        {
            "key": "auction",
            "name": _("Auction"),
            "text": t(
                "One province a player comes up, with any free cards, gold or stones on it. "
                "Bids go on the spaces {spaces}; a new bid on a province must be higher than "
                "every bid there, and an overbid player moves to another province. When each "
                "province holds one bid, everyone pays their bid and takes their province.",
                spaces=spaces,
            ),
        },
        {
            "key": "market",
            "name": _("Market"),
            "text": _(
                "In turn order each player buys power cards (up to the best card limit "
                "among their provinces), then farmers for empty fields, then stones. The k-th "
                "item of a kind costs k gold; three stones in a province become a pyramid."
            ),
        },
        {
            "key": "offering",
            "name": _("Offering"),
            "text": t(
                "Everyone secretly offers gold (1 or more) or the theft card. The total "
                "moves the temple: the higher it stands, the more each farmer earns, but "
                "caravans pay only on {spaces}.",
                spaces=caravan_spaces_text(board),
            ),
        },
        {
            "key": "adjust",
            "name": _("Correction"),
            "text": _(
                "Players who added a correction card to their offering, in turn order, "
                "move the revealed total up or down by 3 before the temple moves."
            ),
        },
        {
            "key": "rewards",
            "name": _("Rewards"),
            "text": t(
                "The highest offer takes 3 items and the start player's place, the second "
                "2, every other giver 1; an item is a power card, a farmer or a stone. "
                "Thieves take {gold} gold instead.",
                gold=board.theft_gold,
            ),
        },
        {
            "key": "harvest",
            "name": _("Harvest"),
            "text": _(
                "Each province pays its fixed gold, its caravan on the low temple spaces, "
                "and the temple's space in gold per farmer. Harvest cards change one province "
                "each."
            ),
        },
        {
            "key": "scoring",
            "name": t(
                "Scoring (after rounds {first} and {last})",
                first=rounds,
                last=rounds * board.kingdoms,
            ),
            "text": t(
                "{side} points for the owned province with most pyramids on each side of the "
                "Nile, 1 per pyramid, {set} per complete set, temples times the temple space, "
                "{bonus} per bonus card; at the end, the gold ranking {ranking}.",
                side=board.nile_side_points,
                set=board.complete_set_points,
                bonus=board.bonus_card_points,
                ranking="/".join(str(p) for p in board.gold_ranking_points),
            ),
        },
        {
            "key": "kingdom",
            "name": _("The new kingdom"),
            "text": t(
                "After the first scoring, provinces and farmers leave the board; pyramids and "
                "stones stay for their next owners. {rounds} more rounds follow.",
                rounds=rounds,
            ),
        },
    ]
    return listed


def next_text(seen: Seen) -> str | None:
    phase = seen.obs["phase"]
    round_ = seen.obs["round"]
    board = seen.board
    start = seen.name(seen.start)
    if phase == "pick":
        return _("The picked provinces come out and the auction begins.")
    if phase == "auction":
        return t("The market, in turn order from {player}.", player=start)
    if phase == "market":
        return _("The offering: everyone commits in secret, at once.")
    if phase == "offering":
        return _(
            "The offers are revealed, corrections are played, the temple moves and the "
            "rewards are taken."
        )
    if phase == "adjust":
        return _("The temple moves to the corrected total's space; then the rewards.")
    if phase == "rewards":
        return _("The harvest, in turn order from the start player (the highest offer).")
    if phase == "harvest":
        if round_ % board.rounds_per_kingdom:
            return t("Round {n}: new provinces come up for auction.", n=round_ + 1)
        if seen.final_round:
            return _("The final scoring, with the gold ranking.")
        return _("The scoring of the old kingdom.")
    if phase == "scoring":
        if seen.final_round:
            return _("The game ends: most points wins; then most pyramids, then most stones.")
        return t(
            "The new kingdom: provinces and farmers leave the board, pyramids and stones "
            "stay; round {n} begins.",
            n=round_ + 1,
        )
    return None


def task(seen: Seen) -> str | None:
    """What this seat is to do now, in a short imperative sentence (None: nothing)."""
    if not seen.deciding:
        return None
    phase = seen.obs["phase"]
    if phase == "pick":
        return _("Pick the province card to bring out (sealed)")
    if phase == "auction":
        mine = own_bid(seen)
        if mine is not None and mine[1]["overbid"]:
            return t("You were overbid on {province}: bid again", province=pname(mine[0]))
        return _("Place your bid on a province")
    if phase == "market":
        kinds = []
        if seen.moves(A.BuyCards):
            kinds.append(pgettext("goods to buy", "power cards"))
        if seen.moves(A.Farmer):
            kinds.append(pgettext("goods to buy", "farmers"))
        if seen.moves(A.Stone):
            kinds.append(pgettext("goods to buy", "stones"))
        if kinds:
            return t("Buy {goods}, or end your market turn", goods=listing(kinds))
        return _("Play a card or end your market turn")
    if phase == "offering":
        return _("Choose your offering (sealed)")
    if phase == "adjust":
        return _("Move the offering total by +3 or -3")
    if phase == "rewards":
        left = rewards_left(seen)
        return ngettext(
            "Take your reward: {n} item left", "Take your reward: {n} items left", left
        ).format(n=left)
    if phase == "harvest":
        if seen.moves(A.EightGold) or seen.moves(A.HarvestIncrease):
            return _("Play your harvest cards, then collect")
        return _("Collect your harvest")
    if phase == "scoring":
        if seen.moves(A.PlayBonus):
            return _("Play your bonus cards, then go on to the scoring")
        return _("Go on to the scoring")
    return None


# ---------------------------------------------------------------------------- the auction
def own_bid(seen: Seen) -> tuple[str, BidView] | None:
    """The province this seat's marker is on and its bid there."""
    if seen.seat is None:
        return None
    for entry in seen.provinces:
        for bid in entry["bids"]:
            if bid["seat"] == seen.seat:
                return entry["name"], bid
    return None


def next_bid_after(seen: Seen, bid: BidView) -> int | None:
    """The lowest bid above ``bid`` (a blockade makes the next bidder skip a space)."""
    spaces = seen.board.bid_spaces
    step = 2 if seen.players[bid["seat"]]["blockade"] else 1
    index = spaces.index(bid["amount"]) + step
    return spaces[index] if index < len(spaces) else None


def bid_words(seen: Seen, bid: BidView) -> str:
    """One bid on a province: its bidder, its amount and what marks it."""
    blockade = seen.players[bid["seat"]]["blockade"]
    words = {"player": seen.name(bid["seat"]), "amount": bid["amount"]}
    if blockade and bid["overbid"]:
        return t(
            "{player} {amount} (with a {card} card) (overbid: must move)",
            card=seen.card("blockade"),
            **words,
        )
    if blockade:
        return t("{player} {amount} (with a {card} card)", card=seen.card("blockade"), **words)
    if bid["overbid"]:
        return t("{player} {amount} (overbid: must move)", **words)
    return t("{player} {amount}", **words)


def bids_text(seen: Seen, entry: ProvinceView) -> str:
    if not entry["bids"]:
        return _("No bid yet: any bid takes it for now, even 0.")
    bids = ", ".join(
        bid_words(seen, bid) for bid in sorted(entry["bids"], key=lambda b: -b["amount"])
    )
    top = max(entry["bids"], key=lambda b: b["amount"])
    following = next_bid_after(seen, top)
    if following is not None:
        return t("Bids: {bids}. The next bid here is at least {n}.", bids=bids, n=following)
    return t("Bids: {bids}. Nobody can bid higher here.", bids=bids)


#: Where a province lies, by (half, side, on the Nile).
WHERE: dict[tuple[str, str, bool], str] = {
    ("upper", "west", True): N_("Upper Egypt, on the west bank of the Nile"),
    ("upper", "east", True): N_("Upper Egypt, on the east bank of the Nile"),
    ("lower", "west", True): N_("Lower Egypt, on the west bank of the Nile"),
    ("lower", "east", True): N_("Lower Egypt, on the east bank of the Nile"),
    ("upper", "west", False): N_("Upper Egypt, west of the Nile, away from its banks"),
    ("upper", "east", False): N_("Upper Egypt, east of the Nile, away from its banks"),
    ("lower", "west", False): N_("Lower Egypt, west of the Nile, away from its banks"),
    ("lower", "east", False): N_("Lower Egypt, east of the Nile, away from its banks"),
}


def province_brings(seen: Seen, p: int) -> list[str]:
    """What a province on auction brings its winner, with the printed figures."""
    board = seen.board
    province = board.provinces[p]
    entry = seen.provinces[p]
    where = _(WHERE[province.half, province.side, province.nile])
    if province.fields:
        first = t(
            "{where}. Fields: {fields} ({empty} empty); card limit {limit} in the market.",
            where=where,
            fields=province.fields,
            empty=entry["empty_fields"],
            limit=province.card_limit,
        )
    else:
        first = t(
            "{where}. No fields (farmers only with a {card} card); card limit {limit} in the "
            "market.",
            where=where,
            card=seen.card("free_farmer"),
            limit=province.card_limit,
        )
    lines = [first]
    caravan = {"caravan": province.caravan, "spaces": caravan_spaces_text(board)}
    if province.gold and province.caravan:
        pays = t(
            "Income each harvest: {gold} gold, plus caravan {caravan} gold ({spaces} only), "
            "plus the temple's space in gold per farmer.",
            gold=province.gold,
            **caravan,
        )
    elif province.gold:
        pays = t(
            "Income each harvest: {gold} gold, plus the temple's space in gold per farmer.",
            gold=province.gold,
        )
    elif province.caravan:
        pays = t(
            "Income each harvest: caravan {caravan} gold ({spaces} only), plus the temple's "
            "space in gold per farmer.",
            **caravan,
        )
    else:
        pays = _("Income each harvest: the temple's space in gold per farmer.")
    lines.append(pays)
    farmers = seen.farmers(p)
    if seen.temple:
        now = {
            "space": seen.temple,
            "gold": income(seen, p, seen.temple),
            "farmers": n_farmers(farmers),
        }
        if province.printed_farmers:
            lines.append(
                t(
                    "At temple space {space} (now) it would pay {gold} gold with its "
                    "{farmers} ({printed} printed).",
                    printed=province.printed_farmers,
                    **now,
                )
            )
        else:
            lines.append(
                t(
                    "At temple space {space} (now) it would pay {gold} gold with its {farmers}.",
                    **now,
                )
            )
    elif province.printed_farmers:
        lines.append(t("Its {n} printed farmers work from the start.", n=province.printed_farmers))
    if province.temples:
        if seen.temple:
            lines.append(
                t(
                    "Temples: {n}, each worth the temple's space in points at a scoring "
                    "({points} at space {space} now).",
                    n=province.temples,
                    points=province.temples * seen.temple,
                    space=seen.temple,
                )
            )
        else:
            lines.append(
                t(
                    "Temples: {n}, each worth the temple's space in points at a scoring.",
                    n=province.temples,
                )
            )
    lying = []
    if entry["face_down_cards"]:
        lying.append(n_face_down(entry["face_down_cards"]))
    if entry["free_gold"]:
        lying.append(n_gold(entry["free_gold"]))
    if lying:
        lines.append(t("Free for its winner: {things}.", things=listing(lying)))
    if entry["stones"] or entry["pyramids"]:
        lines.append(
            t(
                "On it: {stones} and {pyramids}, which stay with the province.",
                stones=n_stones(entry["stones"]),
                pyramids=n_pyramids(entry["pyramids"]),
            )
        )
    lines.append(bids_text(seen, entry))
    return lines


def _explain_auction(seen: Seen) -> list[Item]:
    board = seen.board
    items: list[Item] = []
    mine = own_bid(seen)
    bids = seen.moves(A.Bid)
    if seen.deciding and mine is not None and mine[1]["overbid"]:
        where, bid = mine
        entry = seen.provinces[seen.index(where)]
        top = max((b for b in entry["bids"] if b["seat"] != seen.seat), key=lambda b: b["amount"])
        lines = [
            t(
                "{player} bid {amount} on {province}, above your {mine}: your marker must move.",
                player=seen.name(top["seat"]),
                amount=top["amount"],
                province=pname(where),
                mine=bid["amount"],
            ),
        ]
        if any(b.overbid for b in bids):
            lines.append(
                t(
                    "Your {card} card lets you stay on {province} with a bid of at least {n}.",
                    card=seen.card("overbid"),
                    province=pname(where),
                    n=min(b.amount for b in bids if b.overbid),
                )
            )
        else:
            lines.append(_("Move it to another province; one without bids takes any bid, even 0."))
        items.append({"title": _("Why you must bid again"), "lines": lines})
    cost = [
        t(
            "A bid is paid only for the province its bidder holds when the bidding ends; "
            "the bid spaces are {spaces}.",
            spaces=", ".join(str(s) for s in board.bid_spaces),
        ),
    ]
    if seen.seat is not None:
        gold = seen.players[seen.seat]["gold"]
        highest = max(s for s in board.bid_spaces if s <= gold)
        cost.append(
            t("You have {gold} gold: your highest possible bid is {n}.", gold=gold, n=highest)
        )
    if bids:
        lowest: dict[str, int] = {}
        for b in bids:
            lowest[b.province] = min(lowest.get(b.province, b.amount), b.amount)
        cost.append(
            t(
                "Lowest bid you may make: {bids}.",
                bids=", ".join(f"{pname(p)} {amount}" for p, amount in lowest.items()),
            )
        )
        if any(b.blockade for b in bids):
            cost.append(
                t(
                    "With your {card} card, whoever overbids you must skip a space.",
                    card=seen.card("blockade"),
                )
            )
    items.append({"title": _("What a bid costs"), "lines": cost})
    for p, entry in enumerate(seen.provinces):
        if entry["on_auction"]:
            items.append(
                {
                    "title": t("What {province} brings", province=pname(entry["name"])),
                    "lines": province_brings(seen, p),
                }
            )
    return items


# ---------------------------------------------------------------------------- the market
def _explain_market(seen: Seen) -> list[Item]:
    obs = seen.obs
    market = obs["market"]
    buyer = obs["to_move"][0]
    you = seen.deciding
    next_farmer = market["farmers_bought"] + 1
    next_stone = market["stones_bought"] + 1
    prices = [
        _(
            "The k-th item of a kind in a market turn costs k gold: 1, then 2, then 3 "
            "(n items cost n(n+1)/2)."
        ),
        t(
            "Next farmer: {farmer} gold; next stone: {stone} gold.",
            farmer=next_farmer,
            stone=next_stone,
        )
        if you
        else t(
            "Next farmer: {farmer} gold; next stone: {stone} gold (for {player}).",
            farmer=next_farmer,
            stone=next_stone,
            player=seen.name(buyer),
        ),
    ]
    stage = market["stage"]
    if stage != "cards":
        prices.append(
            _(
                "Power cards are done for this turn: they come before farmers, farmers before "
                "stones."
            )
            if stage == "stones"
            else _("Power cards are done for this turn: they come before farmers and stones.")
        )
    items: list[Item] = [{"title": _("Prices"), "lines": prices}]
    if you and seen.seat is not None:
        items.append({"title": _("What you can still afford"), "lines": _affordable(seen)})
    items.append({"title": _("What a farmer earns"), "lines": [farmer_earning(seen)]})
    if you and seen.seat is not None and seen.owned(seen.seat):
        builder = bool(seen.moves(A.Builder))
        lines = [stones_line(seen, p, builder=builder) for p in seen.owned(seen.seat)]
        if seen.moves(A.FreeFarmer):
            lines.append(
                t(
                    "Your {card} card puts a farmer in one of your provinces without a field.",
                    card=seen.card("free_farmer"),
                )
            )
        items.append({"title": _("Your pyramids"), "lines": lines})
    return items


def _affordable(seen: Seen) -> list[str]:
    assert seen.seat is not None
    obs = seen.obs
    gold = seen.players[seen.seat]["gold"]
    market = obs["market"]
    own = seen.owned(seen.seat)
    lines = [t("You have {gold} gold.", gold=gold)]
    buys = seen.moves(A.BuyCards)
    if buys:
        limit = max(seen.board.provinces[p].card_limit for p in own)
        best = max(b.count for b in buys)
        lines.append(
            t(
                "Power cards: up to {n} ({cost} gold); your card limit is {limit}. They are "
                "drawn face down after you pay.",
                n=best,
                cost=best * (best + 1) // 2,
                limit=limit,
            )
        )
    if seen.moves(A.Farmer):
        empty = sum(seen.provinces[p]["empty_fields"] for p in own)
        cap = min(empty, obs["supply"]["farmers"])
        count = most_affordable(market["farmers_bought"] + 1, gold, cap)
        lines.append(
            t(
                "Farmers: up to {n} with your gold; {fields} in your provinces.",
                n=count,
                fields=n_empty_fields(empty),
            )
        )
    if seen.moves(A.Stone):
        count = most_affordable(market["stones_bought"] + 1, gold, obs["supply"]["stones"])
        lines.append(
            t(
                "Stones: up to {n} with your gold ({supply} in the supply).",
                n=count,
                supply=obs["supply"]["stones"],
            )
        )
    if len(lines) == 1:
        lines.append(_("Nothing more to buy this turn."))
    return lines


# ---------------------------------------------------------------------------- the offering
def rewards_lines(seen: Seen) -> list[str]:
    board = seen.board
    start = seen.name(seen.start)
    first = (
        t(
            "The highest offer takes 3 items and becomes the start player; the second takes "
            "2; every other player who offered takes 1, in turn order from the start player "
            "({order}), whatever they offered.",
            order=turn_order_text(seen),
        )
        if seen.rewards_in_turn_order
        else _(
            "The highest offer takes 3 items and becomes the start player; the second takes "
            "2; every other player who offered takes 1, larger offers first."
        )
    )
    return [
        first,
        t("Equal offers rank in turn order from {player}, the start player.", player=start),
        _("An item is a power card, a farmer on an empty field of the taker's or a stone."),
        t(
            "A theft takes {gold} gold from the bank and lowers the total by {gold}; it gets "
            "no item.",
            gold=board.theft_gold,
        ),
    ]


def temple_lines(seen: Seen) -> list[str]:
    board = seen.board
    lines = []
    mine = seen.seat is not None and bool(seen.owned(seen.seat))
    for space in range(1, temple_spaces(board) + 1):
        words = {"space": space, "range": space_range(board, space)}
        pay = caravans_pay(board, space)
        if mine:
            assert seen.seat is not None
            harvest = harvest_at(seen, seen.seat, space)
            if pay:
                line = ngettext(
                    "Space {space} ({range}): {space} gold per farmer, caravans pay, {space} "
                    "point per temple at a scoring; your harvest: {harvest} gold.",
                    "Space {space} ({range}): {space} gold per farmer, caravans pay, {space} "
                    "points per temple at a scoring; your harvest: {harvest} gold.",
                    space,
                )
            else:
                line = ngettext(
                    "Space {space} ({range}): {space} gold per farmer, no caravans, {space} "
                    "point per temple at a scoring; your harvest: {harvest} gold.",
                    "Space {space} ({range}): {space} gold per farmer, no caravans, {space} "
                    "points per temple at a scoring; your harvest: {harvest} gold.",
                    space,
                )
            lines.append(line.format(harvest=harvest, **words))
        elif pay:
            lines.append(
                ngettext(
                    "Space {space} ({range}): {space} gold per farmer, caravans pay, {space} "
                    "point per temple at a scoring.",
                    "Space {space} ({range}): {space} gold per farmer, caravans pay, {space} "
                    "points per temple at a scoring.",
                    space,
                ).format(**words)
            )
        else:
            lines.append(
                ngettext(
                    "Space {space} ({range}): {space} gold per farmer, no caravans, {space} "
                    "point per temple at a scoring.",
                    "Space {space} ({range}): {space} gold per farmer, no caravans, {space} "
                    "points per temple at a scoring.",
                    space,
                ).format(**words)
            )
    return lines


def _explain_offering(seen: Seen) -> list[Item]:
    board = seen.board
    items: list[Item] = []
    if seen.seat is not None:
        gold = seen.players[seen.seat]["gold"]
        you = seen.obs.get("you")
        committed = None if you is None else you.get("offer")
        if committed is not None:
            offer = A.action_from_json(dict(committed))
            assert isinstance(offer, A.Offer)
            items.append(
                {
                    "title": _("Your offering"),
                    "lines": [
                        t(
                            "You offered {offer}. It stays sealed until everyone has committed.",
                            offer=offer_words(seen, offer),
                        )
                    ],
                }
            )
        elif seen.deciding:
            offers = seen.moves(A.Offer)
            golds = sorted({o.gold for o in offers if not o.theft and not o.cards})
            lines = [
                t(
                    "You have {gold} gold: offer {low} to {high} gold, or the theft card "
                    "(+{theft} gold for you, -{theft} on the total).",
                    gold=gold,
                    low=golds[0],
                    high=golds[-1],
                    theft=board.theft_gold,
                )
                if golds
                else t(
                    "You have no gold: the theft card is your offering (+{theft} gold for you).",
                    theft=board.theft_gold,
                )
            ]
            if any(o.correction for o in offers):
                lines.append(
                    t(
                        "Your {card} card: after the reveal you move the total by +3 or -3; it "
                        "does not change your offer's rank.",
                        card=seen.card("correction"),
                    )
                )
            if any(o.cards for o in offers):
                lines.append(
                    _(
                        "Each power card you add counts as 1 gold, for your rank and the total; "
                        "with cards, your gold may be 0."
                    )
                )
            items.append({"title": _("Your offering"), "lines": lines})
    items.append({"title": _("What each temple space pays"), "lines": temple_lines(seen)})
    items.append({"title": _("Who gets what"), "lines": rewards_lines(seen)})
    return items


def offer_words(seen: Seen, offer: A.Offer) -> str:
    if offer.theft:
        text = t("the theft card (-{gold})", gold=seen.board.theft_gold)
    elif offer.cards:
        text = t(
            "{gold} gold and {cards}",
            gold=offer.gold,
            cards=listing([seen.card(c) for c in offer.cards]),
        )
    else:
        text = n_gold(offer.gold)
    if offer.correction:
        text = t("{offer} with a {card} card", offer=text, card=seen.card("correction"))
    return text


def offer_value(offer: OfferView, theft_gold: int) -> int:
    """An offer's own size (as ``Offer.value``): what ranks the rewards."""
    if offer["theft"]:
        return -theft_gold
    return offer["gold"] + len(offer["cards"])


def reward_order(seen: Seen) -> list[tuple[int, int]]:
    """Who takes how many items, from the revealed offers (as the engine ranks them)."""
    revealed = seen.obs["offers"]
    given = {s: o for s in seen.order if (o := revealed[s]) is not None and not o["theft"]}
    givers = list(given)
    ranked = sorted(givers, key=lambda s: -offer_value(given[s], seen.board.theft_gold))
    if not seen.rewards_in_turn_order:
        return [(s, 3 if i == 0 else 2 if i == 1 else 1) for i, s in enumerate(ranked)]
    leaders = ranked[:2]
    rest = [s for s in givers if s not in leaders]
    return [*zip(leaders, (3, 2), strict=False), *((s, 1) for s in rest)]


def revealed_offer(seen: Seen, seat: int, offer: OfferView) -> str:
    """One revealed offer by its size ("Ana 4", "Bo theft (-3)")."""
    theft = seen.board.theft_gold
    if offer["theft"]:
        return t("{player} theft (-{gold})", player=seen.name(seat), gold=theft)
    return t("{player} {amount}", player=seen.name(seat), amount=offer_value(offer, theft))


def _explain_adjust(seen: Seen) -> list[Item]:
    board = seen.board
    obs = seen.obs
    total = obs["offering_total"]
    assert total is not None  # revealed: corrections come after the reveal
    revealed = obs["offers"]
    offers = ", ".join(
        revealed_offer(seen, s, o) for s in seen.order if (o := revealed[s]) is not None
    )
    space = board.temple_space(total)
    lines = [
        t(
            "Offers: {offers}. Total now {total}: temple space {space}.",
            offers=offers,
            total=total,
            space=space,
        )
    ]
    adjusters = obs["adjusters"]
    current = obs["to_move"][0]
    after = adjusters[adjusters.index(current) + 1 :] if current in adjusters else []
    if after:
        lines.append(
            t(
                "Still to correct after {player}: {players}.",
                player=seen.name(current),
                players=", ".join(seen.name(s) for s in after),
            )
        )
    items: list[Item] = [{"title": _("The total so far"), "lines": lines}]
    if seen.deciding and seen.seat is not None:
        choices = []
        for delta in (3, -3):
            new = total + delta
            at = board.temple_space(new)
            words = {"delta": f"{delta:+d}", "total": new, "space": at}
            pay = caravans_pay(board, at)
            if seen.owned(seen.seat):
                harvest = harvest_at(seen, seen.seat, at)
                line = (
                    t(
                        "{delta}: total {total}, space {space} ({space} gold per farmer, "
                        "caravans pay); your harvest {harvest} gold.",
                        harvest=harvest,
                        **words,
                    )
                    if pay
                    else t(
                        "{delta}: total {total}, space {space} ({space} gold per farmer, "
                        "no caravans); your harvest {harvest} gold.",
                        harvest=harvest,
                        **words,
                    )
                )
            else:
                line = (
                    t(
                        "{delta}: total {total}, space {space} ({space} gold per farmer, "
                        "caravans pay).",
                        **words,
                    )
                    if pay
                    else t(
                        "{delta}: total {total}, space {space} ({space} gold per farmer, "
                        "no caravans).",
                        **words,
                    )
                )
            choices.append(line)
        if after:
            choices.append(_("The players after you may still move it by 3 each."))
        items.append({"title": _("Your correction"), "lines": choices})
    order = reward_order(seen)
    if order:
        items.append(
            {
                "title": _("The rewards (fixed by the offers)"),
                "lines": [
                    ", ".join(
                        t("{player} {items}", player=seen.name(s), items=n_items(k))
                        for s, k in order
                    )
                    + ".",
                    t("{player} becomes the start player.", player=seen.name(order[0][0])),
                ],
            }
        )
    return items


# ---------------------------------------------------------------------------- the rewards
def rewards_left(seen: Seen) -> int:
    queue = seen.obs["rewards_queue"]
    for s, left in queue:
        if s == seen.seat:
            return left
    return 0


def _explain_rewards(seen: Seen) -> list[Item]:
    obs = seen.obs
    queue = obs["rewards_queue"]
    items: list[Item] = []
    order = ", ".join(
        t("{player} {items}", player=seen.name(s), items=n_items(left)) for s, left in queue
    )
    if order:
        items.append({"title": _("Rewards still to take"), "lines": [order + "."]})
    if not seen.deciding or seen.seat is None:
        return items
    left = rewards_left(seen)
    cards_left = obs["deck"] + sum(obs["discard"].values())
    lines = [
        ngettext(
            "You have {n} item left to take.", "You have {n} items left to take.", left
        ).format(n=left)
    ]
    if seen.moves(A.TakeCard):
        lines.append(
            t(
                "Power card: drawn face down ({n} left in the deck and discards); no card "
                "limit applies.",
                n=cards_left,
            )
        )
    farmers = seen.moves(A.TakeFarmer)
    if farmers:
        fields = ", ".join(
            f"{pname(a.province)} {seen.provinces[seen.index(a.province)]['empty_fields']}"
            for a in farmers
        )
        lines.append(
            t(
                "Farmer: onto an empty field (empty: {fields}); each earns {space} gold at "
                "this round's harvest (temple space {space}).",
                fields=fields,
                space=seen.temple,
            )
        )
    stones = seen.moves(A.TakeStone)
    if stones:
        near = [
            pname(a.province)
            for a in stones
            if seen.provinces[seen.index(a.province)]["stones"] == 2
        ]
        if near:
            lines.append(
                ngettext(
                    "Stone: placed at once in one of your provinces; a third stone makes a "
                    "pyramid ({provinces} has 2 already).",
                    "Stone: placed at once in one of your provinces; a third stone makes a "
                    "pyramid ({provinces} have 2 already).",
                    len(near),
                ).format(provinces=listing(near))
            )
        else:
            lines.append(
                _("Stone: placed at once in one of your provinces; a third stone makes a pyramid.")
            )
    lines.append(
        t(
            "Supply: {farmers} farmers, {stones} stones; {builder} and {free_farmer} cards "
            "cannot be used here.",
            farmers=obs["supply"]["farmers"],
            stones=obs["supply"]["stones"],
            builder=seen.card("builder"),
            free_farmer=seen.card("free_farmer"),
        )
    )
    items.insert(0, {"title": _("Your rewards"), "lines": lines})
    return items


# ---------------------------------------------------------------------------- the harvest
def _explain_harvest(seen: Seen) -> list[Item]:
    obs = seen.obs
    items: list[Item] = []
    if seen.seat is None:
        current = obs["to_move"][0]
        items.append(
            {
                "title": t("{player}'s harvest", player=seen.name(current)),
                "lines": harvest_lines(seen, current),
            }
        )
        return items
    items.append({"title": _("Your harvest"), "lines": harvest_lines(seen, seen.seat, you=True)})
    cards: list[str] = []
    for a in seen.moves(A.EightGold):
        p = seen.index(a.province)
        now = income(seen, p, seen.temple)
        change = f"{seen.board.treasury_gold - now:+d}"
        cards.append(
            t(
                "{card} on {province}: {gold} instead of {now} ({change}).",
                card=seen.card("eight_gold"),
                province=pname(a.province),
                gold=seen.board.treasury_gold,
                now=now,
                change=change,
            )
        )
    for a in seen.moves(A.HarvestIncrease):
        p = seen.index(a.province)
        cards.append(
            t(
                "{card} on {province}: +{n} ({farmers}).",
                card=seen.card("harvest_increase"),
                province=pname(a.province),
                n=seen.farmers(p),
                farmers=n_farmers(seen.farmers(p)),
            )
        )
    if cards:
        cards.append(_("Each card goes on a different province of yours."))
        items.append({"title": _("What your harvest cards would add"), "lines": cards})
    return items


def harvest_lines(seen: Seen, seat: int, *, you: bool = False) -> list[str]:
    harvest = seen.obs["harvest"]
    eight = harvest["eight_gold"][seat]
    increase = harvest["harvest_increase"][seat]
    space = seen.temple
    lines = []
    total = 0
    for p in seen.owned(seat):
        name = seen.board.provinces[p].name
        if name == eight:
            amount = seen.board.treasury_gold
            lines.append(
                t(
                    "{province}: {card} card: {amount}.",
                    province=pname(name),
                    card=seen.card("eight_gold"),
                    amount=amount,
                )
            )
        else:
            amount = income(seen, p, space, increase=name == increase)
            parts = income_parts(seen, p, space, increase=name == increase)
            if parts:
                lines.append(
                    t(
                        "{province}: {parts} = {amount}.",
                        province=pname(name),
                        parts=" + ".join(parts),
                        amount=amount,
                    )
                )
            elif amount:
                lines.append(
                    t(
                        "{province}: {parts} = {amount}.",
                        province=pname(name),
                        parts=_("no income"),
                        amount=amount,
                    )
                )
            else:
                lines.append(
                    t("{province}: nothing (no farmers, no fixed gold).", province=pname(name))
                )
        total += amount
    if you:
        first = t("You collect {total} gold at temple space {space}:", total=total, space=space)
    else:
        first = t(
            "{player} collects {total} gold at temple space {space}:",
            player=seen.name(seat),
            total=total,
            space=space,
        )
    lines.insert(0, first)
    return lines


# ---------------------------------------------------------------------------- the scoring
def _projected(seen: Seen) -> list[dict[str, int]]:
    """Every seat's lines at this scoring, from the public board (as the engine scores)."""
    provinces = seen.provinces
    gold = [p["gold"] for p in seen.players] if seen.final_round else None
    lines = score_kingdom(
        seen.board,
        len(seen.players),
        [p["owner"] for p in provinces],
        [p["pyramids"] for p in provinces],
        [p["stones"] for p in provinces],
        [p["farmers"] for p in provinces],
        [p["free_farmers"] for p in provinces],
        seen.temple,
        [len(p["bonus_cards_played"]) for p in seen.players],
        gold,
    )
    return [line.to_json() for line in lines]


def side_line(seen: Seen, side: str, yours: int) -> str:
    """Who scores a bank of the Nile, and what this seat scores there, as one sentence."""
    provinces = seen.provinces
    owner = [p["owner"] for p in provinces]
    pyramids = [p["pyramids"] for p in provinces]
    stones = [p["stones"] for p in provinces]
    winners = nile_side_winners(seen.board, side, owner, pyramids, stones)
    west = side == "west"
    if not winners:
        if west:
            return t("West bank: no owned province there has a pyramid; you: {yours}.", yours=yours)
        return t("East bank: no owned province there has a pyramid; you: {yours}.", yours=yours)
    best = max(
        (p for p, prov in enumerate(seen.board.provinces) if prov.side == side and owner[p] >= 0),
        key=lambda p: (pyramids[p], stones[p]),
    )
    words = {
        "province": pname(provinces[best]["name"]),
        "pyramids": pyramids[best],
        "players": listing([seen.name(s) for s in sorted(winners)]),
        "points": seen.board.nile_side_points,
        "yours": yours,
    }
    if west:
        text = ngettext(
            "West bank: most pyramids: {province} ({pyramids}); {players} scores {points}; "
            "you: {yours}.",
            "West bank: most pyramids: {province} ({pyramids}); {players} score {points}; "
            "you: {yours}.",
            len(winners),
        )
    else:
        text = ngettext(
            "East bank: most pyramids: {province} ({pyramids}); {players} scores {points}; "
            "you: {yours}.",
            "East bank: most pyramids: {province} ({pyramids}); {players} score {points}; "
            "you: {yours}.",
            len(winners),
        )
    return text.format(**words)


def _explain_scoring(seen: Seen) -> list[Item]:
    board = seen.board
    lines_all = _projected(seen)
    items: list[Item] = []
    if seen.seat is not None:
        s = seen.seat
        line = lines_all[s]
        own = seen.owned(s)
        pyramids = sum(seen.provinces[p]["pyramids"] for p in own)
        temples = sum(board.provinces[p].temples for p in own)
        sets = min((seen.provinces[p]["pyramids"] for p in own), default=0)
        out = [
            t("Pyramids: {n} \u00d7 1 = {points}.", n=pyramids, points=line["pyramids"]),
            t(
                "Complete sets (a pyramid in each of your {provinces}): {n} \u00d7 {per} = "
                "{points}.",
                provinces=n_provinces(len(own)),
                n=sets,
                per=board.complete_set_points,
                points=line["complete_sets"],
            ),
            side_line(seen, "west", line["nile_west"]),
            side_line(seen, "east", line["nile_east"]),
            t(
                "Temples: {n} \u00d7 space {space} = {points}.",
                n=temples,
                space=seen.temple,
                points=line["temples"],
            ),
            t(
                "Bonus cards played: {n} \u00d7 {per} = {points}.",
                n=line["bonus_cards"] // max(board.bonus_card_points, 1),
                per=board.bonus_card_points,
                points=line["bonus_cards"],
            ),
        ]
        playable = seen.moves(A.PlayBonus)
        if playable:
            out.append(
                t(
                    "You may still play {cards}: {points} points each.",
                    cards=listing([seen.card(a.card) for a in playable]),
                    points=board.bonus_card_points,
                )
            )
        if seen.final_round:
            gold = seen.players[s]["gold"]
            out.append(
                t("Gold ranking: {gold} gold = {points}.", gold=gold, points=line["gold_ranking"])
            )
        score = seen.players[s]["score"]
        out.append(
            t(
                "This scoring: {total}; with your {score} so far: {sum}.",
                total=line["total"],
                score=score,
                sum=score + line["total"],
            )
        )
        title = _("Your final scoring") if seen.final_round else _("Your old kingdom's scoring")
        items.append({"title": title, "lines": out})
    items.append(
        {
            "title": _("Everyone at this scoring"),
            "lines": [
                t(
                    "{player}: {total} (score then {sum}).",
                    player=seen.name(s),
                    total=line["total"],
                    sum=seen.players[s]["score"] + line["total"],
                )
                for s, line in enumerate(lines_all)
            ],
        }
    )
    return items


def _explain_pick(seen: Seen) -> list[Item]:
    you = seen.obs.get("you")
    cards = [] if you is None else you.get("province_cards", [])
    if you is None or not cards:
        return []
    lines = []
    for name in cards:
        province = seen.board.province(name)
        figures = [n_fields(province.fields), t("card limit {n}", n=province.card_limit)]
        if province.gold:
            figures.append(n_gold(province.gold))
        if province.caravan:
            figures.append(t("caravan {n}", n=province.caravan))
        if province.temples:
            figures.append(n_temples(province.temples))
        lines.append(t("{province}: {figures}.", province=pname(name), figures=", ".join(figures)))
    if "pick" in you:
        lines.append(
            t(
                "You picked {province}; it stays sealed until all have picked.",
                province=pname(you["pick"]),
            )
        )
    else:
        lines.append(_("Every picked province comes up for auction, where anyone may bid for it."))
    return [{"title": _("Your province cards"), "lines": lines}]


def _explain_over(seen: Seen) -> list[Item]:
    scorings: list[list[ScoringLine]] = seen.obs["scorings"]
    if seen.seat is None or not scorings:
        return []
    lines = []
    for number, scoring in enumerate(scorings, start=1):
        line = scoring[seen.seat]
        lines.append(t("Scoring {number}: {points} points.", number=number, points=line["total"]))
    score = seen.players[seen.seat]["score"]
    lines.append(t("In all: {score}.", score=score))
    return [{"title": _("Your scorings"), "lines": lines}]


EXPLAIN = {
    "pick": _explain_pick,
    "auction": _explain_auction,
    "market": _explain_market,
    "offering": _explain_offering,
    "adjust": _explain_adjust,
    "rewards": _explain_rewards,
    "harvest": _explain_harvest,
    "scoring": _explain_scoring,
}
