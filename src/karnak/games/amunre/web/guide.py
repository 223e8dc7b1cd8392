"""The guide of Amun-Re's game page: the phases in our own words, the current one, what comes
next, what the seat is to do, and why its decision matters (see karnak.core.plugin.WebPage).

Everything here is read from the seat's observation (the table's options included), its legal
moves, the printed board and the game's rules version (all public): never from the state, so
re-dealing what the seat cannot see leaves the guide byte for byte the same (tested). The
figures are computed with the same rules the engine applies (income, prices, temple spaces,
scoring), so a line such as "Memphis: 3 farmers x 2 gold" is what the harvest will pay.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from karnak.core.actions import Action
from karnak.core.game import Game
from karnak.core.plugin import View
from karnak.games.amunre.rules import actions as A
from karnak.games.amunre.rules.board import Board
from karnak.games.amunre.rules.scoring import nile_side_winners, score_kingdom
from karnak.games.amunre.texts import board_of
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
        return self.board.card(kind).name(self.obs["edition"])

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
    """A province's printed name as the page writes it (THEBES: Thebes)."""
    return name.title()


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def listing(words: Sequence[str]) -> str:
    """a, b and c."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


# ---------------------------------------------------------------------------- figures
def temple_spaces(board: Board) -> int:
    return len(board.temple_thresholds) + 1


def space_range(board: Board, space: int) -> str:
    """The offering totals that put the temple on ``space`` (1-based)."""
    limits = board.temple_thresholds
    if space == 1:
        return f"total {limits[0]} or less"
    if space <= len(limits):
        return f"total {limits[space - 2] + 1} to {limits[space - 1]}"
    return f"total {limits[-1] + 1} or more"


def caravans_pay(board: Board, space: int) -> bool:
    return space in board.caravan_spaces


def caravan_spaces_text(board: Board) -> str:
    return (
        "temple space"
        + ("s " if len(board.caravan_spaces) > 1 else " ")
        + listing([str(s) for s in board.caravan_spaces])
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


def income_parts(seen: Seen, p: int, space: int, *, increase: bool = False) -> str:
    """How a province's harvest adds up, in words: "3 farmers x 2 + 4 gold + caravan 7"."""
    province = seen.board.provinces[p]
    farmers = seen.farmers(p)
    per = space + 1 if increase else space
    parts = []
    if farmers:
        parts.append(f"{plural(farmers, 'farmer')} {TIMES} {per}")
    if province.gold:
        parts.append(f"{province.gold} gold")
    if province.caravan and caravans_pay(seen.board, space):
        parts.append(f"caravan {province.caravan}")
    return " + ".join(parts) or "no income"


def harvest_at(seen: Seen, seat: int, space: int) -> int:
    """A seat's whole harvest on ``space`` without harvest cards."""
    return sum(income(seen, p, space) for p in seen.owned(seat))


def farmer_earning(seen: Seen) -> str:
    """What a farmer earns, said from where the temple stands now."""
    if seen.temple == 0:
        return (
            "The temple is not on its track yet: this round's offering sets it, and each farmer "
            f"then earns 1 to {temple_spaces(seen.board)} gold at the harvest."
        )
    return (
        f"At temple space {seen.temple} (where it stands now) each farmer earns "
        f"{seen.temple} gold a harvest; the offering moves the temple before the harvest."
    )


def stones_line(seen: Seen, p: int, *, builder: bool = False) -> str:
    """A province's stones and pyramids, and how far the next pyramid is."""
    entry = seen.provinces[p]
    stones, pyramids = entry["stones"], entry["pyramids"]
    need = (2 if builder else 3) - stones
    text = f"{pname(entry['name'])}: {plural(stones, 'stone')}, {plural(pyramids, 'pyramid')}"
    if need <= 0 and builder:
        return text + f"; your {seen.card('builder')} card makes a pyramid here now."
    if need == 1:
        return text + "; 1 more stone makes a pyramid."
    return text + f"; {need} more stones make a pyramid."


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
                "name": "Province cards",
                "text": "Each player secretly picks one province card from their hand; the "
                "picks are shown together and those provinces come up for auction.",
            }
        )
    listed += [
        {
            "key": "auction",
            "name": "Auction",
            "text": "One province a player comes up, with any free cards, gold or stones on it. "
            f"Bids go on the spaces {spaces}; a new bid on a province must be higher than "
            "every bid there, and an overbid player moves to another province. When each "
            "province holds one bid, everyone pays their bid and takes their province.",
        },
        {
            "key": "market",
            "name": "Market",
            "text": "In turn order each player buys power cards (up to the best card limit "
            "among their provinces), then farmers for empty fields, then stones. The k-th "
            "item of a kind costs k gold; three stones in a province become a pyramid.",
        },
        {
            "key": "offering",
            "name": "Offering",
            "text": "Everyone secretly offers gold (1 or more) or the theft card. The total "
            "moves the temple: the higher it stands, the more each farmer earns, but caravans "
            f"pay only on {caravan_spaces_text(board)}.",
        },
        {
            "key": "adjust",
            "name": "Correction",
            "text": "Players who added a correction card to their offering, in turn order, "
            "move the revealed total up or down by 3 before the temple moves.",
        },
        {
            "key": "rewards",
            "name": "Rewards",
            "text": "The highest offer takes 3 items and the start player's place, the second "
            "2, every other giver 1; an item is a power card, a farmer or a stone. Thieves "
            f"take {board.theft_gold} gold instead.",
        },
        {
            "key": "harvest",
            "name": "Harvest",
            "text": "Each province pays its fixed gold, its caravan on the low temple spaces, "
            "and the temple's space in gold per farmer. Harvest cards change one province "
            "each.",
        },
        {
            "key": "scoring",
            "name": f"Scoring (after rounds {rounds} and {rounds * board.kingdoms})",
            "text": f"{board.nile_side_points} points for the owned province with most "
            "pyramids on each side of the Nile, 1 per pyramid, "
            f"{board.complete_set_points} per complete set, temples times the temple space, "
            f"{board.bonus_card_points} per bonus card; at the end, the gold ranking "
            + "/".join(str(p) for p in board.gold_ranking_points)
            + ".",
        },
        {
            "key": "kingdom",
            "name": "The new kingdom",
            "text": f"After the first scoring, provinces and farmers leave the board; "
            f"pyramids and stones stay for their next owners. {rounds} more rounds follow.",
        },
    ]
    return listed


def next_text(seen: Seen) -> str | None:
    phase = seen.obs["phase"]
    round_ = seen.obs["round"]
    board = seen.board
    start = seen.name(seen.start)
    if phase == "pick":
        return "The picked provinces come out and the auction begins."
    if phase == "auction":
        return f"The market, in turn order from {start}."
    if phase == "market":
        return "The offering: everyone commits in secret, at once."
    if phase == "offering":
        return (
            "The offers are revealed, corrections are played, the temple moves and the "
            "rewards are taken."
        )
    if phase == "adjust":
        return "The temple moves to the corrected total's space; then the rewards."
    if phase == "rewards":
        return "The harvest, in turn order from the start player (the highest offer)."
    if phase == "harvest":
        if round_ % board.rounds_per_kingdom:
            return f"Round {round_ + 1}: new provinces come up for auction."
        if seen.final_round:
            return "The final scoring, with the gold ranking."
        return "The scoring of the old kingdom."
    if phase == "scoring":
        if seen.final_round:
            return "The game ends: most points wins; then most pyramids, then most stones."
        return (
            "The new kingdom: provinces and farmers leave the board, pyramids and stones stay; "
            f"round {round_ + 1} begins."
        )
    return None


def task(seen: Seen) -> str | None:
    """What this seat is to do now, in a short imperative sentence (None: nothing)."""
    if not seen.deciding:
        return None
    phase = seen.obs["phase"]
    if phase == "pick":
        return "Pick the province card to bring out (sealed)"
    if phase == "auction":
        mine = own_bid(seen)
        if mine is not None and mine[1]["overbid"]:
            return f"You were overbid on {pname(mine[0])}: bid again"
        return "Place your bid on a province"
    if phase == "market":
        kinds = []
        if seen.moves(A.BuyCards):
            kinds.append("power cards")
        if seen.moves(A.Farmer):
            kinds.append("farmers")
        if seen.moves(A.Stone):
            kinds.append("stones")
        if kinds:
            return f"Buy {listing(kinds)}, or end your market turn"
        return "Play a card or end your market turn"
    if phase == "offering":
        return "Choose your offering (sealed)"
    if phase == "adjust":
        return "Move the offering total by +3 or -3"
    if phase == "rewards":
        left = rewards_left(seen)
        return f"Take your reward: {plural(left, 'item')} left"
    if phase == "harvest":
        if seen.moves(A.EightGold) or seen.moves(A.HarvestIncrease):
            return "Play your harvest cards, then collect"
        return "Collect your harvest"
    if phase == "scoring":
        if seen.moves(A.PlayBonus):
            return "Play your bonus cards, then go on to the scoring"
        return "Go on to the scoring"
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


def bids_text(seen: Seen, entry: ProvinceView) -> str:
    if not entry["bids"]:
        return "No bid yet: any bid takes it for now, even 0."
    parts = []
    for bid in sorted(entry["bids"], key=lambda b: -b["amount"]):
        who = seen.name(bid["seat"])
        part = f"{who} {bid['amount']}"
        if seen.players[bid["seat"]]["blockade"]:
            part += f" (with a {seen.card('blockade')} card)"
        if bid["overbid"]:
            part += " (overbid: must move)"
        parts.append(part)
    top = max(entry["bids"], key=lambda b: b["amount"])
    following = next_bid_after(seen, top)
    tail = (
        f" The next bid here is at least {following}."
        if following is not None
        else " Nobody can bid higher here."
    )
    return "Bids: " + ", ".join(parts) + "." + tail


def province_brings(seen: Seen, p: int) -> list[str]:
    """What a province on auction brings its winner, with the printed figures."""
    board = seen.board
    province = board.provinces[p]
    entry = seen.provinces[p]
    where = f"{province.half.title()} Egypt, " + (
        f"on the {province.side} bank of the Nile"
        if province.nile
        else f"{province.side} of the Nile, away from its banks"
    )
    fields = (
        f"Fields: {province.fields} ({entry['empty_fields']} empty)"
        if province.fields
        else f"No fields (farmers only with a {seen.card('free_farmer')} card)"
    )
    lines = [f"{where}. {fields}; card limit {province.card_limit} in the market."]
    pays = []
    if province.gold:
        pays.append(f"{province.gold} gold")
    if province.caravan:
        pays.append(f"caravan {province.caravan} gold ({caravan_spaces_text(board)} only)")
    pays.append("the temple's space in gold per farmer")
    lines.append("Income each harvest: " + ", plus ".join(pays) + ".")
    farmers = seen.farmers(p)
    if seen.temple:
        lines.append(
            f"At temple space {seen.temple} (now) it would pay {income(seen, p, seen.temple)} "
            f"gold with its {plural(farmers, 'farmer')}"
            + (f" ({province.printed_farmers} printed)" if province.printed_farmers else "")
            + "."
        )
    elif province.printed_farmers:
        lines.append(f"Its {province.printed_farmers} printed farmers work from the start.")
    if province.temples:
        now = (
            f" ({province.temples * seen.temple} at space {seen.temple} now)" if seen.temple else ""
        )
        lines.append(
            f"Temples: {province.temples}, each worth the temple's space in points at a "
            f"scoring{now}."
        )
    lying = []
    if entry["face_down_cards"]:
        lying.append(plural(entry["face_down_cards"], "face-down power card"))
    if entry["free_gold"]:
        lying.append(f"{entry['free_gold']} gold")
    if lying:
        lines.append(f"Free for its winner: {listing(lying)}.")
    if entry["stones"] or entry["pyramids"]:
        lines.append(
            f"On it: {plural(entry['stones'], 'stone')} and {plural(entry['pyramids'], 'pyramid')},"
            " which stay with the province."
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
            f"{seen.name(top['seat'])} bid {top['amount']} on {pname(where)}, above your "
            f"{bid['amount']}: your marker must move.",
        ]
        if any(b.overbid for b in bids):
            lines.append(
                f"Your {seen.card('overbid')} card lets you stay on {pname(where)} with a bid "
                f"of at least {min(b.amount for b in bids if b.overbid)}."
            )
        else:
            lines.append("Move it to another province; one without bids takes any bid, even 0.")
        items.append({"title": "Why you must bid again", "lines": lines})
    cost = [
        "A bid is paid only for the province its bidder holds when the bidding ends; "
        f"the bid spaces are {', '.join(str(s) for s in board.bid_spaces)}.",
    ]
    if seen.seat is not None:
        gold = seen.players[seen.seat]["gold"]
        highest = max(s for s in board.bid_spaces if s <= gold)
        cost.append(f"You have {gold} gold: your highest possible bid is {highest}.")
    if bids:
        lowest: dict[str, int] = {}
        for b in bids:
            lowest[b.province] = min(lowest.get(b.province, b.amount), b.amount)
        cost.append(
            "Lowest bid you may make: "
            + ", ".join(f"{pname(p)} {amount}" for p, amount in lowest.items())
            + "."
        )
        if any(b.blockade for b in bids):
            cost.append(
                f"With your {seen.card('blockade')} card, whoever overbids you must skip a space."
            )
    items.append({"title": "What a bid costs", "lines": cost})
    for p, entry in enumerate(seen.provinces):
        if entry["on_auction"]:
            items.append(
                {"title": f"What {pname(entry['name'])} brings", "lines": province_brings(seen, p)}
            )
    return items


# ---------------------------------------------------------------------------- the market
def _explain_market(seen: Seen) -> list[Item]:
    obs = seen.obs
    market = obs["market"]
    buyer = obs["to_move"][0]
    you = seen.deciding
    who = "you" if you else seen.name(buyer)
    next_farmer = market["farmers_bought"] + 1
    next_stone = market["stones_bought"] + 1
    prices = [
        "The k-th item of a kind in a market turn costs k gold: 1, then 2, then 3 "
        "(n items cost n(n+1)/2).",
        f"Next farmer: {next_farmer} gold; next stone: {next_stone} gold"
        + (f" (for {who})." if not you else "."),
    ]
    stage = market["stage"]
    if stage != "cards":
        prices.append(
            "Power cards are done for this turn: they come before farmers, farmers before stones."
            if stage == "stones"
            else "Power cards are done for this turn: they come before farmers and stones."
        )
    items: list[Item] = [{"title": "Prices", "lines": prices}]
    if you and seen.seat is not None:
        items.append({"title": "What you can still afford", "lines": _affordable(seen)})
    items.append({"title": "What a farmer earns", "lines": [farmer_earning(seen)]})
    if you and seen.seat is not None and seen.owned(seen.seat):
        builder = bool(seen.moves(A.Builder))
        lines = [stones_line(seen, p, builder=builder) for p in seen.owned(seen.seat)]
        if seen.moves(A.FreeFarmer):
            lines.append(
                f"Your {seen.card('free_farmer')} card puts a farmer in one of your provinces "
                "without a field."
            )
        items.append({"title": "Your pyramids", "lines": lines})
    return items


def _affordable(seen: Seen) -> list[str]:
    assert seen.seat is not None
    obs = seen.obs
    gold = seen.players[seen.seat]["gold"]
    market = obs["market"]
    own = seen.owned(seen.seat)
    lines = [f"You have {gold} gold."]
    buys = seen.moves(A.BuyCards)
    if buys:
        limit = max(seen.board.provinces[p].card_limit for p in own)
        best = max(b.count for b in buys)
        lines.append(
            f"Power cards: up to {best} ({best * (best + 1) // 2} gold); your card limit is "
            f"{limit}. They are drawn face down after you pay."
        )
    if seen.moves(A.Farmer):
        empty = sum(seen.provinces[p]["empty_fields"] for p in own)
        cap = min(empty, obs["supply"]["farmers"])
        count = most_affordable(market["farmers_bought"] + 1, gold, cap)
        lines.append(
            f"Farmers: up to {count} with your gold; {plural(empty, 'empty field')} in your "
            "provinces."
        )
    if seen.moves(A.Stone):
        count = most_affordable(market["stones_bought"] + 1, gold, obs["supply"]["stones"])
        lines.append(
            f"Stones: up to {count} with your gold ({obs['supply']['stones']} in the supply)."
        )
    if len(lines) == 1:
        lines.append("Nothing more to buy this turn.")
    return lines


# ---------------------------------------------------------------------------- the offering
def rewards_lines(seen: Seen) -> list[str]:
    board = seen.board
    start = seen.name(seen.start)
    rest = (
        "every other player who offered takes 1, in turn order from the start player "
        f"({turn_order_text(seen)}), whatever they offered"
        if seen.rewards_in_turn_order
        else "every other player who offered takes 1, larger offers first"
    )
    return [
        "The highest offer takes 3 items and becomes the start player; the second takes 2; "
        + rest
        + ".",
        f"Equal offers rank in turn order from {start}, the start player.",
        "An item is a power card, a farmer on an empty field of the taker's or a stone.",
        f"A theft takes {board.theft_gold} gold from the bank and lowers the total by "
        f"{board.theft_gold}; it gets no item.",
    ]


def temple_lines(seen: Seen) -> list[str]:
    board = seen.board
    lines = []
    mine = seen.seat is not None and bool(seen.owned(seen.seat))
    for space in range(1, temple_spaces(board) + 1):
        caravans = "caravans pay" if caravans_pay(board, space) else "no caravans"
        line = (
            f"Space {space} ({space_range(board, space)}): {space} gold per farmer, {caravans}, "
            f"{space} point{'s' if space > 1 else ''} per temple at a scoring"
        )
        if mine:
            assert seen.seat is not None
            line += f"; your harvest: {harvest_at(seen, seen.seat, space)} gold"
        lines.append(line + ".")
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
                    "title": "Your offering",
                    "lines": [
                        f"You offered {offer_words(seen, offer)}. It stays sealed until "
                        "everyone has committed."
                    ],
                }
            )
        elif seen.deciding:
            offers = seen.moves(A.Offer)
            golds = sorted({o.gold for o in offers if not o.theft and not o.cards})
            lines = [
                f"You have {gold} gold: offer {golds[0]} to {golds[-1]} gold, or the theft "
                f"card (+{board.theft_gold} gold for you, -{board.theft_gold} on the total)."
                if golds
                else f"You have no gold: the theft card is your offering "
                f"(+{board.theft_gold} gold for you)."
            ]
            if any(o.correction for o in offers):
                lines.append(
                    f"Your {seen.card('correction')} card: after the reveal you move the total "
                    "by +3 or -3; it does not change your offer's rank."
                )
            if any(o.cards for o in offers):
                lines.append(
                    "Each power card you add counts as 1 gold, for your rank and the total; "
                    "with cards, your gold may be 0."
                )
            items.append({"title": "Your offering", "lines": lines})
    items.append({"title": "What each temple space pays", "lines": temple_lines(seen)})
    items.append({"title": "Who gets what", "lines": rewards_lines(seen)})
    return items


def offer_words(seen: Seen, offer: A.Offer) -> str:
    text = f"the theft card (-{seen.board.theft_gold})" if offer.theft else f"{offer.gold} gold"
    if offer.cards:
        text += " and " + listing([seen.card(c) for c in offer.cards])
    if offer.correction:
        text += f" with a {seen.card('correction')} card"
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


def _explain_adjust(seen: Seen) -> list[Item]:
    board = seen.board
    obs = seen.obs
    total = obs["offering_total"]
    assert total is not None  # revealed: corrections come after the reveal
    revealed = obs["offers"]
    offers = ", ".join(
        f"{seen.name(s)} "
        + (f"theft (-{board.theft_gold})" if o["theft"] else str(offer_value(o, board.theft_gold)))
        for s in seen.order
        if (o := revealed[s]) is not None
    )
    space = board.temple_space(total)
    lines = [f"Offers: {offers}. Total now {total}: temple space {space}."]
    adjusters = obs["adjusters"]
    current = obs["to_move"][0]
    after = adjusters[adjusters.index(current) + 1 :] if current in adjusters else []
    if after:
        lines.append(
            f"Still to correct after {seen.name(current)}: "
            + ", ".join(seen.name(s) for s in after)
            + "."
        )
    items: list[Item] = [{"title": "The total so far", "lines": lines}]
    if seen.deciding and seen.seat is not None:
        choices = []
        for delta in (3, -3):
            new = total + delta
            at = board.temple_space(new)
            caravans = "caravans pay" if caravans_pay(board, at) else "no caravans"
            line = f"{delta:+d}: total {new}, space {at} ({at} gold per farmer, {caravans})"
            if seen.owned(seen.seat):
                line += f"; your harvest {harvest_at(seen, seen.seat, at)} gold"
            choices.append(line + ".")
        if after:
            choices.append("The players after you may still move it by 3 each.")
        items.append({"title": "Your correction", "lines": choices})
    order = reward_order(seen)
    if order:
        items.append(
            {
                "title": "The rewards (fixed by the offers)",
                "lines": [
                    ", ".join(f"{seen.name(s)} {plural(k, 'item')}" for s, k in order) + ".",
                    f"{seen.name(order[0][0])} becomes the start player.",
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
    order = ", ".join(f"{seen.name(s)} {plural(left, 'item')}" for s, left in queue)
    if order:
        items.append({"title": "Rewards still to take", "lines": [order + "."]})
    if not seen.deciding or seen.seat is None:
        return items
    left = rewards_left(seen)
    cards_left = obs["deck"] + sum(obs["discard"].values())
    lines = [f"You have {plural(left, 'item')} left to take."]
    if seen.moves(A.TakeCard):
        lines.append(
            f"Power card: drawn face down ({cards_left} left in the deck and discards); no "
            "card limit applies."
        )
    farmers = seen.moves(A.TakeFarmer)
    if farmers:
        fields = ", ".join(
            f"{pname(a.province)} {seen.provinces[seen.index(a.province)]['empty_fields']}"
            for a in farmers
        )
        earns = (
            f"each earns {seen.temple} gold at this round's harvest (temple space {seen.temple})"
        )
        lines.append(f"Farmer: onto an empty field (empty: {fields}); {earns}.")
    stones = seen.moves(A.TakeStone)
    if stones:
        near = [
            pname(a.province)
            for a in stones
            if seen.provinces[seen.index(a.province)]["stones"] == 2
        ]
        line = "Stone: placed at once in one of your provinces; a third stone makes a pyramid"
        if near:
            line += f" ({listing(near)} {'has' if len(near) == 1 else 'have'} 2 already)"
        lines.append(line + ".")
    lines.append(
        f"Supply: {obs['supply']['farmers']} farmers, {obs['supply']['stones']} stones; "
        f"{seen.card('builder')} and {seen.card('free_farmer')} cards cannot be used here."
    )
    items.insert(0, {"title": "Your rewards", "lines": lines})
    return items


# ---------------------------------------------------------------------------- the harvest
def _explain_harvest(seen: Seen) -> list[Item]:
    obs = seen.obs
    items: list[Item] = []
    if seen.seat is None:
        current = obs["to_move"][0]
        items.append(
            {
                "title": f"{seen.name(current)}'s harvest",
                "lines": harvest_lines(seen, current, seen.name(current)),
            }
        )
        return items
    items.append({"title": "Your harvest", "lines": harvest_lines(seen, seen.seat, "You")})
    cards: list[str] = []
    for a in seen.moves(A.EightGold):
        p = seen.index(a.province)
        now = income(seen, p, seen.temple)
        change = seen.board.treasury_gold - now
        cards.append(
            f"{seen.card('eight_gold')} on {pname(a.province)}: {seen.board.treasury_gold} "
            f"instead of {now} ({change:+d})."
        )
    for a in seen.moves(A.HarvestIncrease):
        p = seen.index(a.province)
        cards.append(
            f"{seen.card('harvest_increase')} on {pname(a.province)}: "
            f"+{seen.farmers(p)} ({plural(seen.farmers(p), 'farmer')})."
        )
    if cards:
        cards.append("Each card goes on a different province of yours.")
        items.append({"title": "What your harvest cards would add", "lines": cards})
    return items


def harvest_lines(seen: Seen, seat: int, who: str) -> list[str]:
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
            lines.append(f"{pname(name)}: {seen.card('eight_gold')} card: {amount}.")
        else:
            amount = income(seen, p, space, increase=name == increase)
            parts = income_parts(seen, p, space, increase=name == increase)
            if amount or parts != "no income":
                lines.append(f"{pname(name)}: {parts} = {amount}.")
            else:
                lines.append(f"{pname(name)}: nothing (no farmers, no fixed gold).")
        total += amount
    verb = "collect" if who == "You" else "collects"
    lines.insert(0, f"{who} {verb} {total} gold at temple space {space}:")
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


def side_leader(seen: Seen, side: str) -> str:
    provinces = seen.provinces
    owner = [p["owner"] for p in provinces]
    pyramids = [p["pyramids"] for p in provinces]
    stones = [p["stones"] for p in provinces]
    winners = nile_side_winners(seen.board, side, owner, pyramids, stones)
    if not winners:
        return "no owned province there has a pyramid"
    best = max(
        (p for p, prov in enumerate(seen.board.provinces) if prov.side == side and owner[p] >= 0),
        key=lambda p: (pyramids[p], stones[p]),
    )
    return (
        f"most pyramids: {pname(provinces[best]['name'])} ({pyramids[best]}); "
        + listing([seen.name(s) for s in sorted(winners)])
        + f" score{'s' if len(winners) == 1 else ''} {seen.board.nile_side_points}"
    )


def _explain_scoring(seen: Seen) -> list[Item]:
    board = seen.board
    lines_all = _projected(seen)
    kingdom = "final" if seen.final_round else "old kingdom's"
    items: list[Item] = []
    if seen.seat is not None:
        s = seen.seat
        line = lines_all[s]
        own = seen.owned(s)
        pyramids = sum(seen.provinces[p]["pyramids"] for p in own)
        temples = sum(board.provinces[p].temples for p in own)
        sets = min((seen.provinces[p]["pyramids"] for p in own), default=0)
        out = [
            f"Pyramids: {pyramids} {TIMES} 1 = {line['pyramids']}.",
            f"Complete sets (a pyramid in each of your {plural(len(own), 'province')}): "
            f"{sets} {TIMES} {board.complete_set_points} = {line['complete_sets']}.",
            f"West bank: {side_leader(seen, 'west')}; you: {line['nile_west']}.",
            f"East bank: {side_leader(seen, 'east')}; you: {line['nile_east']}.",
            f"Temples: {temples} {TIMES} space {seen.temple} = {line['temples']}.",
            f"Bonus cards played: {line['bonus_cards'] // max(board.bonus_card_points, 1)}"
            f" {TIMES} {board.bonus_card_points} = {line['bonus_cards']}.",
        ]
        playable = seen.moves(A.PlayBonus)
        if playable:
            out.append(
                "You may still play "
                + listing([seen.card(a.card) for a in playable])
                + f": {board.bonus_card_points} points each."
            )
        if seen.final_round:
            gold = seen.players[s]["gold"]
            out.append(f"Gold ranking: {gold} gold = {line['gold_ranking']}.")
        score = seen.players[s]["score"]
        out.append(
            f"This scoring: {line['total']}; with your {score} so far: {score + line['total']}."
        )
        items.append({"title": f"Your {kingdom} scoring", "lines": out})
    items.append(
        {
            "title": "Everyone at this scoring",
            "lines": [
                f"{seen.name(s)}: {line['total']} "
                f"(score then {seen.players[s]['score'] + line['total']})."
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
        figures = [plural(province.fields, "field"), f"card limit {province.card_limit}"]
        if province.gold:
            figures.append(f"{province.gold} gold")
        if province.caravan:
            figures.append(f"caravan {province.caravan}")
        if province.temples:
            figures.append(plural(province.temples, "temple"))
        lines.append(f"{pname(name)}: " + ", ".join(figures) + ".")
    if "pick" in you:
        lines.append(f"You picked {pname(you['pick'])}; it stays sealed until all have picked.")
    else:
        lines.append("Every picked province comes up for auction, where anyone may bid for it.")
    return [{"title": "Your province cards", "lines": lines}]


def _explain_over(seen: Seen) -> list[Item]:
    scorings: list[list[ScoringLine]] = seen.obs["scorings"]
    if seen.seat is None or not scorings:
        return []
    lines = []
    for number, scoring in enumerate(scorings, start=1):
        line = scoring[seen.seat]
        lines.append(f"Scoring {number}: {line['total']} points.")
    score = seen.players[seen.seat]["score"]
    lines.append(f"In all: {score}.")
    return [{"title": "Your scorings", "lines": lines}]


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
