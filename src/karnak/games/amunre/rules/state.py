"""The Amun-Re state machine: two kingdoms of three rounds, every phase, every card.

Internally provinces are indices into ``board.provinces`` (sorted by name) and power cards
are indices into ``board.CARD_KINDS``; hands and the discard pile are counts per kind
(identity matters, order does not), the power deck is a list whose end is its top.

Phases and who decides:
  pick      expert_provinces only: every seat picks a province card, sealed and simultaneous
  auction   one seat at a time, clockwise from the last bidder, while anyone is overbid
  market    each seat's turn in order: power cards, then farmers, then stones
  offering  every seat commits a sealed offering, simultaneously
  adjust    holders of revealed correction cards, in turn order
  rewards   the two highest non-thieves (3 and 2 items), then the others in turn order (1)
  harvest   in turn order, seats holding any power card decide (harvest cards, sales)
            before collecting; seats with empty hands collect at once
  scoring   after rounds 3 and 6, seats with playable bonus cards (or, at the end, any card)
  over      the game has ended
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from itertools import product
from typing import TYPE_CHECKING, Any, ClassVar, Final, cast

from karnak.core.actions import Action
from karnak.core.errors import KarnakError
from karnak.core.events import EventLog
from karnak.core.rng import Rng
from karnak.core.state import State
from karnak.games.amunre.research import tensors
from karnak.games.amunre.rules import actions as A
from karnak.games.amunre.rules.board import BONUS_KINDS, CARD_KINDS, Board
from karnak.games.amunre.rules.scoring import (
    ScoreLines,
    bonus_condition,
    farmers_in,
    score_kingdom,
)

if TYPE_CHECKING:
    from karnak.core.tensors import FloatVector
    from karnak.games.amunre.rules.game import AmunRe

PICK, AUCTION, MARKET, OFFERING, ADJUST, REWARDS, HARVEST, SCORING, OVER = (
    "pick",
    "auction",
    "market",
    "offering",
    "adjust",
    "rewards",
    "harvest",
    "scoring",
    "over",
)
SIMULTANEOUS: Final = (PICK, OFFERING)

K: Final = {kind: i for i, kind in enumerate(CARD_KINDS)}
BLOCKADE, OVERBID, FREE_FARMER, BUILDER, CORRECTION = (
    K["blockade"],
    K["overbid"],
    K["free_farmer"],
    K["builder"],
    K["correction"],
)
EIGHT_GOLD, HARVEST_INCREASE = K["eight_gold"], K["harvest_increase"]
BONUS: Final = tuple(K[b] for b in BONUS_KINDS)
NKINDS: Final = len(CARD_KINDS)
SELLS: Final = tuple(A.Sell(kind) for kind in CARD_KINDS)

KINGDOM_NAMES: Final = ("old kingdom", "new kingdom")
#: Words of each edition's rule book, for the log.
TERMS: Final = {
    "2003": {"leader": "pharaoh", "card": "power card", "cards": "power card(s)"},
    "2016": {"leader": "Start Player", "card": "Favor card", "cards": "Favor card(s)"},
}


def price(count: int) -> int:
    """Price of ``count`` items of one kind bought together: 1, 3, 6, 10, ..."""
    return count * (count + 1) // 2


class Catalogue:
    """Interned action objects for one board, so legal-action lists cost no allocations.

    Each game object owns the catalogue of its board (see ``AmunRe.__init__``): a cache keyed
    by anything weaker could hand one board's actions to another.
    """

    def __init__(self, board: Board):
        names = board.province_names
        self.index = {name: i for i, name in enumerate(names)}
        self.farmer = [A.Farmer(n) for n in names]
        self.stone = [A.Stone(n) for n in names]
        self.builder = [A.Builder(n) for n in names]
        self.free_farmer = [A.FreeFarmer(n) for n in names]
        self.take_farmer = [A.TakeFarmer(n) for n in names]
        self.take_stone = [A.TakeStone(n) for n in names]
        self.eight_gold = [A.EightGold(n) for n in names]
        self.increase = [A.HarvestIncrease(n) for n in names]
        self.pick = [A.Pick(n) for n in names]
        # bids[blockade][p][overbid] is the row of bids on p over every bid space, so the
        # legal bids on a card are one slice of a row.
        self.bids = [
            [
                [
                    [A.Bid(n, amount, bool(b), bool(o)) for amount in board.bid_spaces]
                    for o in (0, 1)
                ]
                for n in names
            ]
            for b in (0, 1)
        ]
        self.card_limit = tuple(p.card_limit for p in board.provinces)
        self.printed = tuple(p.printed_farmers for p in board.provinces)
        self.gold = tuple(p.gold for p in board.provinces)
        self.caravan = tuple(p.caravan for p in board.provinces)
        self.bonus_cards = tuple(p.bonus_cards for p in board.provinces)
        self.bonus_stones = tuple(p.bonus_stones for p in board.provinces)
        self.bonus_gold = tuple(p.bonus_gold for p in board.provinces)
        self.space_index = {amount: i for i, amount in enumerate(board.bid_spaces)}
        self.fields = tuple(p.fields for p in board.provinces)
        self.offer_lists: dict[tuple[int, bool], list[A.Offer]] = {}
        self.sell_lists: dict[tuple[int, ...], list[A.Sell]] = {}
        most = max((p.card_limit for p in board.provinces), default=0)
        self.buy_cards = [A.BuyCards(c) for c in range(0, most + 1)]
        self.offers: dict[tuple[int, bool, bool], A.Offer] = {}
        self.bonus = [A.PlayBonus(CARD_KINDS[k]) if k in BONUS else None for k in range(NKINDS)]

    def offers_for(self, gold: int, correction: bool) -> list[A.Offer]:
        """All plain offers (theft, then 1..gold, each without and with a correction card)."""
        key = (gold, correction)
        found = self.offer_lists.get(key)
        if found is None:
            found = []
            for c in (False, True) if correction else (False,):
                found.append(self.offer(0, True, c))
                found.extend(self.offer(g, False, c) for g in range(1, gold + 1))
            self.offer_lists[key] = found
        return found

    def sells_for(self, hand: list[int]) -> list[A.Sell]:
        key = tuple(hand)
        found = self.sell_lists.get(key)
        if found is None:
            found = self.sell_lists[key] = [s for s, held in zip(SELLS, hand, strict=True) if held]
        return found

    def offer(self, gold: int, theft: bool, correction: bool) -> A.Offer:
        key = (gold, theft, correction)
        found = self.offers.get(key)
        if found is None:
            found = self.offers[key] = A.Offer(gold=gold, theft=theft, correction=correction)
        return found


class AmunReState(State):
    """A game of Amun-Re in progress. Build it with ``GAME.new_state(...)``."""

    #: The game at the rules version this state plays (its board, catalogue and rulings).
    game: AmunRe

    # ------------------------------------------------------------------ construction
    def __init__(
        self,
        game: AmunRe,
        board: Board,
        players: Sequence[str],
        seed: int,
        options: Mapping[str, Any],
        *,
        fresh: bool = True,
        blank: bool = False,
        log: bool = True,
    ):
        if blank:
            return  # an empty shell for ``clone`` to fill in, field by field
        self.game = game
        self.board = board
        self.cat: Catalogue = game.catalogue
        self.players = tuple(players)
        self.n = len(self.players)
        self.seed = seed
        self.options = dict(options)
        self.edition = str(self.options.get("edition", "2003"))
        self.expert = bool(self.options.get("expert_provinces", False))
        self.offer_cards = bool(self.options.get("offer_cards", False))
        self.terms = TERMS[self.edition]
        self.history: list[tuple[int, Action]] = []
        self.log = EventLog(log)  # off: the same play, no words
        if fresh:
            self._setup()

    def _setup(self) -> None:
        board, n = self.board, self.n
        np = len(board.provinces)
        self.rng = Rng(self.seed)
        self.round = 0
        self.phase = AUCTION
        self.temple = 0  # the Amun-Re temple starts beside the track
        self.bank = 0  # balancing account: sum(gold) + bank + free gold on board is constant
        self.gold = [board.start_gold] * n
        self.bank -= board.start_gold * n
        self.score = [0] * n
        self.hand = [[0] * NKINDS for _ in range(n)]
        self.discard = [0] * NKINDS
        deck: list[int] = []
        for kind in board.cards:
            k = K[kind.id]
            count = kind.count
            if k == BUILDER:
                count -= board.start_builders * n
                for s in range(n):
                    self.hand[s][BUILDER] += board.start_builders
            deck.extend([k] * count)
        self.rng.shuffle(deck)
        self.deck = deck
        self.farmer_supply = board.farmers[self.edition]
        self.stone_supply = board.stones
        self.owner = [-1] * np
        self.own: list[list[int]] = [[] for _ in range(n)]  # derived from owner, kept sorted
        self.field_farmers = [0] * np
        self.free_farmers = [0] * np
        self.stones = [0] * np
        self.pyramids = [0] * np
        self.face_down: list[list[int]] = [[] for _ in range(np)]
        self.free_gold = [0] * np
        self.on_auction: list[int] = []
        self.used_this_kingdom: list[int] = []
        provinces = list(range(np))
        self.rng.shuffle(provinces)
        self.province_deck = provinces
        self.prov_hand: list[list[int]] = [[] for _ in range(n)]
        if self.expert:
            self._deal_province_hands(provinces[: self.board.rounds_per_kingdom * n])
            self.province_deck = []
        self.start = self.rng.below(n)
        self.current = self.start
        # per-phase bookkeeping
        self.picks = [-1] * n
        self.revealed_picks = [-1] * n  # public once every seat has picked
        self.bid_prov = [-1] * n
        self.bid_space = [-1] * n
        self.overbid = [False] * n
        self.blockade = [False] * n
        self.played = [0] * n  # bit per card kind played this phase (no two identical)
        self.market_pos = 0
        self.stage = 0
        self.bought_farmers = 0
        self.bought_stones = 0
        self.offers: list[A.Offer | None] = [None] * n
        self.revealed: list[A.Offer | None] = [None] * n
        self.offering_total = 0
        self.adjusters: list[int] = []
        self.adjust_pos = 0
        self.reward_queue: list[list[int]] = []
        self.new_start = -1
        self.harvest_pos = 0
        self.eight_gold_prov = [-1] * n
        self.increase_prov = [-1] * n
        self.scoring_pos = 0
        self.bonus_played = [0] * n
        self.bonus_kinds: list[list[str]] = [[] for _ in range(n)]
        self.scorings: list[list[dict[str, int]]] = []
        if self.log.enabled:
            self.log.add(
                "A game of Amun-Re for {count} players: {names}. {pharaoh} is the {leader}.",
                count=n,
                names=", ".join(self.players),
                pharaoh=self.players[self.start],
                leader=self.terms["leader"],
            )
        self._start_round()

    def _deal_province_hands(self, cards: list[int]) -> None:
        """Expert rules: one province card a round of the kingdom for each seat (three on the
        printed board; a corrected board with other rounds deals accordingly)."""
        k = self.board.rounds_per_kingdom
        for s in range(self.n):
            self.prov_hand[s] = sorted(cards[k * s : k * s + k])
            if self.log.enabled:
                self.log.add(
                    "{player} is dealt {provinces}.",
                    (s,),
                    player=self.players[s],
                    provinces=", ".join(self._pname(p) for p in self.prov_hand[s]),
                )

    # ------------------------------------------------------------------ small helpers
    def _pname(self, p: int) -> str:
        return self.board.provinces[p].name

    def card_name(self, kind: str | int) -> str:
        key = CARD_KINDS[kind] if isinstance(kind, int) else kind
        return self.board.card(key).name(self.edition)

    def _cards_text(self, kinds: Sequence[int]) -> str:
        return ", ".join(self.card_name(k) for k in kinds) if kinds else "nothing"

    def order(self) -> list[int]:
        """Turn order: clockwise from the start player (the pharaoh)."""
        return [(self.start + i) % self.n for i in range(self.n)]

    def owned(self, seat: int) -> list[int]:
        """Provinces ``seat`` owns, in board order (a cached view of ``owner``)."""
        return self.own[seat]

    def _rebuild_own(self) -> None:
        self.own = [[] for _ in range(self.n)]
        for p, o in enumerate(self.owner):
            if o >= 0:
                self.own[o].append(p)

    def farmers(self, p: int) -> int:
        return farmers_in(self.board, p, self.field_farmers, self.free_farmers)

    def cards_available(self) -> int:
        return len(self.deck) + sum(self.discard)

    def kingdom(self) -> int:
        return (self.round - 1) // self.board.rounds_per_kingdom

    def _pay(self, seat: int, amount: int) -> None:
        self.gold[seat] -= amount
        self.bank += amount

    def _earn(self, seat: int, amount: int) -> None:
        self.gold[seat] += amount
        self.bank -= amount

    def _spend_card(self, seat: int, k: int) -> None:
        self.hand[seat][k] -= 1
        self.discard[k] += 1

    def _draw(self) -> int:
        """Top card of the power deck, reshuffling the discards when it runs out (-1: none)."""
        if not self.deck:
            if not any(self.discard):
                return -1
            pile = [k for k in range(NKINDS) for _ in range(self.discard[k])]
            self.discard = [0] * NKINDS
            self.rng.shuffle(pile)
            self.deck = pile
            if self.log.enabled:
                self.log.add("The power-card discards are shuffled into a new deck.")
        return self.deck.pop()

    def _draw_to_hand(self, seat: int, count: int) -> list[int]:
        drawn = []
        for _ in range(count):
            k = self._draw()
            if k < 0:
                break
            self.hand[seat][k] += 1
            drawn.append(k)
        if drawn and self.log.enabled:
            self.log.add(
                "{player} draws {cards}.",
                (seat,),
                player=self.players[seat],
                cards=self._cards_text(drawn),
            )
        return drawn

    def _place_stone(self, p: int) -> None:
        """A stone into province ``p``; the third stone makes a pyramid at once."""
        self.stone_supply -= 1
        self.stones[p] += 1
        if self.stones[p] >= 3:
            self.stones[p] -= 3
            self.stone_supply += 3
            self.pyramids[p] += 1
            if self.log.enabled:
                self.log.add(
                    "A pyramid rises in {province} ({count} there).",
                    province=self._pname(p),
                    count=self.pyramids[p],
                )

    # ------------------------------------------------------------------ round flow
    def _start_round(self) -> None:
        self.round += 1
        if self.round > 1 and (self.round - 1) % self.board.rounds_per_kingdom == 0:
            self._start_new_kingdom()
        if self.log.enabled:
            self.log.add(
                "Round {round} ({kingdom}) begins; {pharaoh} is the {leader}.",
                round=self.round,
                kingdom=KINGDOM_NAMES[min(self.kingdom(), 1)],
                pharaoh=self.players[self.start],
                leader=self.terms["leader"],
            )
        if self.expert:
            self.phase = PICK
            self.picks = [-1] * self.n
            return
        drawn = [self.province_deck.pop() for _ in range(self.n)]
        self._bring_out(drawn)

    def _start_new_kingdom(self) -> None:
        self.own = [[] for _ in range(self.n)]
        for p in range(len(self.board.provinces)):
            self.owner[p] = -1
            self.farmer_supply += self.field_farmers[p] + self.free_farmers[p]
            self.field_farmers[p] = 0
            self.free_farmers[p] = 0
        used = list(self.used_this_kingdom)
        self.used_this_kingdom = []
        self.rng.shuffle(used)
        if self.expert:
            self._deal_province_hands(used)
            self.province_deck = []
        else:
            self.province_deck = used
        if self.log.enabled:
            self.log.add(
                "The new kingdom begins: provinces and farmers are cleared; "
                "pyramids and stones stay."
            )

    def _bring_out(self, provinces: list[int]) -> None:
        """Phase 1: province cards come out with their free material."""
        provinces = sorted(provinces)
        self.on_auction = provinces
        self.used_this_kingdom.extend(provinces)
        if self.log.enabled:
            self.log.add(
                "Province cards come out: {provinces}.",
                provinces=", ".join(self._pname(p) for p in provinces),
            )
        cat = self.cat
        for p in provinces:
            for _ in range(cat.bonus_cards[p]):
                k = self._draw()
                if k >= 0:
                    self.face_down[p].append(k)
            for _ in range(min(cat.bonus_stones[p], self.stone_supply)):
                self._place_stone(p)
            gold = cat.bonus_gold[p]
            if gold:
                self.free_gold[p] += gold
                self.bank -= gold
        self._start_auction()

    def _start_auction(self) -> None:
        self.phase = AUCTION
        n = self.n
        self.bid_prov = [-1] * n
        self.bid_space = [-1] * n
        self.overbid = [False] * n
        self.blockade = [False] * n
        self.played = [0] * n
        self._auction_next(self.start - 1)

    def _auction_next(self, after: int) -> None:
        n = self.n
        for i in range(1, n + 1):
            s = (after + i) % n
            if self.bid_prov[s] < 0 or self.overbid[s]:
                self.current = s
                return
        self._end_auction()

    def _end_auction(self) -> None:
        spaces = self.board.bid_spaces
        for s in self.order():
            p = self.bid_prov[s]
            amount = spaces[self.bid_space[s]]
            self._pay(s, amount)
            self.owner[p] = s
            self.own[s].append(p)
            self.own[s].sort()
            if self.log.enabled:
                self.log.add(
                    "{player} acquires {province} for {amount} gold.",
                    player=self.players[s],
                    province=self._pname(p),
                    amount=amount,
                )
            if self.face_down[p]:
                taken = self.face_down[p]
                self.face_down[p] = []
                for k in taken:
                    self.hand[s][k] += 1
                if self.log.enabled:
                    self.log.add(
                        "{player} takes {count} face-down {cards} from {province}.",
                        player=self.players[s],
                        count=len(taken),
                        cards=self.terms["cards"],
                        province=self._pname(p),
                    )
                if self.log.enabled:
                    self.log.add(
                        "{player} finds {cards} in {province}.",
                        (s,),
                        player=self.players[s],
                        cards=self._cards_text(taken),
                        province=self._pname(p),
                    )
            if self.free_gold[p]:
                self.gold[s] += self.free_gold[p]
                if self.log.enabled:
                    self.log.add(
                        "{player} takes {amount} free gold from {province}.",
                        player=self.players[s],
                        amount=self.free_gold[p],
                        province=self._pname(p),
                    )
                self.free_gold[p] = 0
        self.on_auction = []
        self.bid_prov = [-1] * self.n
        self.bid_space = [-1] * self.n
        self.overbid = [False] * self.n
        self.blockade = [False] * self.n
        self._start_market()

    def _start_market(self) -> None:
        self.phase = MARKET
        self.played = [0] * self.n
        self.market_pos = 0
        self._market_turn()

    def _market_turn(self) -> None:
        if self.market_pos >= self.n:
            self._start_offering()
            return
        self.current = (self.start + self.market_pos) % self.n
        self.stage = 0
        self.bought_farmers = 0
        self.bought_stones = 0

    def _start_offering(self) -> None:
        self.phase = OFFERING
        self.played = [0] * self.n
        self.offers = [None] * self.n
        self.revealed = [None] * self.n
        if self.log.enabled:
            self.log.add("The offering to Amun-Re: every player commits in secret.")

    def _reveal_offering(self) -> None:
        total = 0
        parts = []
        for s in self.order():
            offer = self.offers[s]
            assert offer is not None
            if offer.theft:
                total -= self.board.theft_gold
                self._earn(s, self.board.theft_gold)
            else:
                self._pay(s, offer.gold)
                total += offer.gold + len(offer.cards)
                for card in offer.cards:
                    self._spend_card(s, K[card])
            if offer.correction:
                self._spend_card(s, CORRECTION)
            if self.log.enabled:
                parts.append(f"{self.players[s]} {self._offer_text(offer)}")
        self.revealed = list(self.offers)
        self.offers = [None] * self.n
        self.offering_total = total
        if self.log.enabled:
            self.log.add(
                "Offerings revealed: {parts}; the total is {total}.",
                parts=", ".join(parts),
                total=total,
            )
        self.adjusters = [s for s in self.order() if self.revealed[s].correction]  # type: ignore[union-attr]
        self.adjust_pos = 0
        if self.adjusters:
            self.phase = ADJUST
            self.current = self.adjusters[0]
        else:
            self._finish_offering()

    def _offer_text(self, offer: A.Offer) -> str:
        if offer.theft:
            text = "the theft card (-3)"
        else:
            text = f"{offer.gold} gold"
            if offer.cards:
                names = self._cards_text([K[c] for c in offer.cards])
                text += f" and {len(offer.cards)} {self.terms['cards']} ({names})"
        if offer.correction:
            text += " with a correction card"
        return text

    def _finish_offering(self) -> None:
        self.temple = self.board.temple_space(self.offering_total)
        if self.log.enabled:
            self.log.add(
                "The Amun-Re temple moves to space {space} (total {total}).",
                space=self.temple,
                total=self.offering_total,
            )
        self.reward_queue = [[s, items] for s, items in self._reward_order()]
        self.new_start = self.reward_queue[0][0] if self.reward_queue else self.start
        self.phase = REWARDS
        self._rewards_next()

    def _reward_order(self) -> list[tuple[int, int]]:
        """Who takes rewards, in order, and how many items (RULINGS 8).

        Non-thieves are ranked by their own offer (ties in turn order): the first takes 3
        items, the second 2. Every other non-thief then takes 1, in turn order from the start
        player, whatever the size of their offer; it decides who gets the last stone or field
        when supplies run short. Rules version 1.0 let them take by offer size instead.
        """
        givers = [s for s in self.order() if not self.revealed[s].theft]  # type: ignore[union-attr]
        ranked = sorted(givers, key=lambda s: -self.revealed[s].value)  # type: ignore[union-attr]  # stable: ties keep turn order
        if not self.game.rules_at_least("1.1"):
            return [(s, 3 if i == 0 else 2 if i == 1 else 1) for i, s in enumerate(ranked)]
        leaders = ranked[:2]
        rest = [s for s in givers if s not in leaders]
        return [*zip(leaders, (3, 2), strict=False), *((s, 1) for s in rest)]

    def _reward_possible(self, s: int) -> bool:
        if self.cards_available():
            return True
        own = self.owned(s)
        if self.stone_supply and own:
            return True
        fields = self.board.provinces
        return bool(self.farmer_supply) and any(
            self.field_farmers[p] < fields[p].fields for p in own
        )

    def _rewards_next(self) -> None:
        while self.reward_queue:
            s, left = self.reward_queue[0]
            if left > 0 and self._reward_possible(s):
                self.current = s
                return
            self.reward_queue.pop(0)
        if self.new_start != self.start and self.log.enabled:
            self.log.add(
                "{player} becomes the {leader}.",
                player=self.players[self.new_start],
                leader=self.terms["leader"],
            )
        self.start = self.new_start
        self._start_harvest()

    def _start_harvest(self) -> None:
        self.phase = HARVEST
        self.played = [0] * self.n
        self.harvest_pos = 0
        self.eight_gold_prov = [-1] * self.n
        self.increase_prov = [-1] * self.n
        self._harvest_next()

    def _harvest_has_choice(self, s: int) -> bool:
        """Every seat holding a card decides (play harvest cards, sell, collect).

        Asking only the holders of harvest cards would tell everyone who holds them: the
        identity of a hand is hidden, its size is public, so only the size may decide this.
        """
        return any(self.hand[s])

    def _harvest_next(self) -> None:
        while self.harvest_pos < self.n:
            s = (self.start + self.harvest_pos) % self.n
            if self._harvest_has_choice(s):
                self.current = s
                return
            self._collect(s)
            self.harvest_pos += 1
        if self.round % self.board.rounds_per_kingdom == 0:
            self._start_scoring()
        else:
            self._start_round()

    def income(self, s: int) -> int:
        """What seat ``s`` collects this harvest, with its played harvest cards."""
        cat = self.cat
        total = 0
        temple = self.temple
        caravans = temple in self.board.caravan_spaces
        eight_gold, increase = self.eight_gold_prov[s], self.increase_prov[s]
        field_farmers, free_farmers = self.field_farmers, self.free_farmers
        for p in self.own[s]:
            if p == eight_gold:
                total += self.board.treasury_gold
                continue
            farmers = field_farmers[p] + free_farmers[p] + cat.printed[p]
            total += farmers * (temple + 1 if p == increase else temple) + cat.gold[p]
            if caravans:
                total += cat.caravan[p]
        return total

    def _collect(self, s: int) -> None:
        amount = self.income(s)
        self._earn(s, amount)
        if self.log.enabled:
            self.log.add("{player} harvests {amount} gold.", player=self.players[s], amount=amount)

    def _start_scoring(self) -> None:
        self.phase = SCORING
        self.played = [0] * self.n
        self.scoring_pos = 0
        self.bonus_played = [0] * self.n
        self.bonus_kinds = [[] for _ in range(self.n)]
        self._scoring_next()

    def _is_final(self) -> bool:
        return self.round >= self.board.rounds_per_kingdom * self.board.kingdoms

    def playable_bonus(self, s: int) -> list[int]:
        own = self.owned(s)
        farmers = sum(self.farmers(p) for p in own)
        return [
            k
            for k in BONUS
            if self.hand[s][k]
            and not self.played[s] >> k & 1
            and bonus_condition(self.board, CARD_KINDS[k], own, farmers)
        ]

    def _scoring_has_choice(self, s: int) -> bool:
        """Every seat holding a card decides (bonus cards, selling); see _harvest_has_choice."""
        return any(self.hand[s])

    def _scoring_next(self) -> None:
        while self.scoring_pos < self.n:
            s = (self.start + self.scoring_pos) % self.n
            if self._scoring_has_choice(s):
                self.current = s
                return
            self.scoring_pos += 1
        self._score()

    def _score(self) -> None:
        final = self._is_final()
        lines = score_kingdom(
            self.board,
            self.n,
            self.owner,
            self.pyramids,
            self.stones,
            self.field_farmers,
            self.free_farmers,
            self.temple,
            self.bonus_played,
            self.gold if final else None,
        )
        self.scorings.append([line.to_json() for line in lines])
        for s, line in enumerate(lines):
            self.score[s] += line.total
            if self.log.enabled:
                self.log.add(
                    "Scoring: {player} scores {total} ({detail}); {score} in all.",
                    player=self.players[s],
                    total=line.total,
                    detail=_detail(line),
                    score=self.score[s],
                )
        if final:
            self.phase = OVER
            self.current = -1
            winners = self.winners()
            if self.log.enabled:
                self.log.add(
                    "The game ends. {result}",
                    result=(
                        f"{self.players[winners[0]]} wins."
                        if len(winners) == 1
                        else "Shared victory: " + ", ".join(self.players[w] for w in winners) + "."
                    ),
                )
        else:
            self._start_round()

    # ------------------------------------------------------------------ public questions
    def to_move(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == OFFERING:
            offers = self.offers
            return tuple([s for s in range(self.n) if offers[s] is None])
        if phase == PICK:
            picks = self.picks
            return tuple([s for s in range(self.n) if picks[s] < 0])
        if phase == OVER:
            return ()
        return (self.current,)

    def is_simultaneous(self) -> bool:
        return self.phase in SIMULTANEOUS

    def is_over(self) -> bool:
        return self.phase == OVER

    def scores(self) -> list[int]:
        return list(self.score)

    def ranking_key(self, seat: int) -> tuple[int, ...]:
        own = self.owned(seat)
        return (
            self.score[seat],
            sum(self.pyramids[p] for p in own),
            sum(self.stones[p] for p in own),
        )

    def legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == MARKET:  # the commonest phase first
            return self._legal_market(seat) if seat == self.current else []
        if phase == OFFERING:
            if self.offers[seat] is not None:
                return []
            return self._legal_offers(seat)
        if phase == PICK:
            if self.picks[seat] >= 0:
                return []
            acts: list[Action] = [self.cat.pick[p] for p in self.prov_hand[seat]]
            return acts + self._sells(seat)
        if phase == OVER or seat != self.current:
            return []
        if phase == AUCTION:
            return self._legal_bids(seat)
        if phase == ADJUST:
            return [A.Adjust(3), A.Adjust(-3), *self._sells(seat)]
        if phase == REWARDS:
            return self._legal_rewards(seat)
        if phase == HARVEST:
            return self._legal_harvest(seat)
        if phase == SCORING:
            bonus = [self.cat.bonus[k] for k in self.playable_bonus(seat)]
            return [*bonus, *self._sells(seat), A.DONE]  # type: ignore[list-item]
        raise KarnakError(f"unknown phase {phase!r}")

    def _sells(self, seat: int) -> list[A.Sell]:
        """Sell actions for every kind held (a shared cached list: never mutate it)."""
        hand = self.hand[seat]
        found = self.cat.sell_lists.get(tuple(hand))
        return found if found is not None else self.cat.sells_for(hand)

    def _legal_bids(self, s: int) -> list[Action]:
        n = self.n
        bid_prov, bid_space, blockade = self.bid_prov, self.bid_space, self.blockade
        hand = self.hand[s]
        can_block = hand[BLOCKADE] > 0 and not self.played[s] >> BLOCKADE & 1
        can_overbid = hand[OVERBID] > 0 and self.overbid[s] and not self.played[s] >> OVERBID & 1
        here = bid_prov[s] if self.overbid[s] else -1
        high = bisect_right(self.board.bid_spaces, self.gold[s])
        lowest: dict[int, int] = {}
        for m in range(n):
            p = bid_prov[m]
            if p >= 0 and m != s:
                need = bid_space[m] + (2 if blockade[m] else 1)
                if need > lowest.get(p, 0):
                    lowest[p] = need
        plain, blocking = self.cat.bids
        acts: list[Action] = []
        for p in self.on_auction:
            same = p == here
            if same and not can_overbid:
                continue
            low = lowest.get(p, 0)
            if low < high:
                acts += plain[p][same][low:high]
                if can_block:
                    acts += blocking[p][same][low:high]
        if any(hand):
            acts += self._sells(s)
        return acts

    def _legal_market(self, s: int) -> list[Action]:
        acts: list[Action] = []
        own = self.own[s]
        gold = self.gold[s]
        hand = self.hand[s]
        cat = self.cat
        stage = self.stage
        if stage == 0 and own:
            card_limit = cat.card_limit
            limit = 0
            for p in own:
                if card_limit[p] > limit:
                    limit = card_limit[p]
            if limit:
                if len(self.deck) < limit:
                    limit = min(limit, self.cards_available())
                for c in range(1, limit + 1):
                    if c * (c + 1) // 2 > gold:
                        break
                    acts.append(cat.buy_cards[c])
        # Plain loops: own has at most 3 provinces, where comprehensions cost more than they save.
        if stage <= 1 and self.farmer_supply and self.bought_farmers < gold:
            fields, farmers, farmer = cat.fields, self.field_farmers, cat.farmer
            for p in own:
                if farmers[p] < fields[p]:
                    acts.append(farmer[p])
        if self.stone_supply and self.bought_stones < gold:
            stone = cat.stone
            for p in own:
                acts.append(stone[p])
        if hand[BUILDER] and not self.played[s] >> BUILDER & 1:
            stones, builder = self.stones, cat.builder
            for p in own:
                if stones[p] >= 2:
                    acts.append(builder[p])
        if hand[FREE_FARMER] and not self.played[s] >> FREE_FARMER & 1 and self.farmer_supply:
            free_farmer = cat.free_farmer
            for p in own:
                acts.append(free_farmer[p])
        if any(hand):
            acts += self._sells(s)
        acts.append(A.DONE)
        return acts

    def _legal_offers(self, s: int) -> list[Action]:
        acts: list[Action] = list(self.cat.offers_for(self.gold[s], self.hand[s][CORRECTION] > 0))
        if self.offer_cards:
            acts.extend(self._card_offers(s))
        return acts + self._sells(s)

    def _card_offers(self, s: int) -> list[Action]:
        """Offers that include power cards at 1 gold each (option ``offer_cards``)."""
        hand = self.hand[s]
        acts: list[Action] = []
        for c in (False, True) if hand[CORRECTION] else (False,):
            counts = list(hand)
            if c:
                counts[CORRECTION] -= 1
            kinds = [k for k in range(NKINDS) if counts[k]]
            for combo in product(*(range(counts[k] + 1) for k in kinds)):
                cards = tuple(
                    sorted(
                        CARD_KINDS[k] for k, m in zip(kinds, combo, strict=True) for _ in range(m)
                    )
                )
                if not cards:
                    continue
                for g in range(0, self.gold[s] + 1):
                    acts.append(A.Offer(gold=g, correction=c, cards=cards))
        return acts

    def _legal_rewards(self, s: int) -> list[Action]:
        acts: list[Action] = []
        cat = self.cat
        if self.deck or any(self.discard):
            acts.append(A.TAKE_CARD)
        own = self.own[s]
        if self.farmer_supply:
            fields, farmers, take_farmer = cat.fields, self.field_farmers, cat.take_farmer
            for p in own:
                if farmers[p] < fields[p]:
                    acts.append(take_farmer[p])
        if self.stone_supply:
            take_stone = cat.take_stone
            for p in own:
                acts.append(take_stone[p])
        if any(self.hand[s]):
            acts += self._sells(s)
        acts.append(A.DONE)
        return acts

    def _legal_harvest(self, s: int) -> list[Action]:
        acts: list[Action] = []
        hand = self.hand[s]
        own = self.owned(s)
        if hand[EIGHT_GOLD] and self.eight_gold_prov[s] < 0:
            acts.extend(self.cat.eight_gold[p] for p in own if p != self.increase_prov[s])
        if hand[HARVEST_INCREASE] and self.increase_prov[s] < 0:
            # Any own province (RULINGS 9): the card is simply laid there, and on a province
            # without farmers it adds nothing. Rules version 1.0 offered only farmed ones.
            anywhere = self.game.rules_at_least("1.1")
            acts.extend(
                self.cat.increase[p]
                for p in own
                if (anywhere or self.farmers(p)) and p != self.eight_gold_prov[s]
            )
        acts.extend(self._sells(s))
        acts.append(A.DONE)
        return acts

    # ------------------------------------------------------------------ applying
    def apply_unchecked(self, seat: int, action: Action) -> None:
        self.history.append((seat, action))
        # The kinds are disjoint; the order only puts the frequent ones first.
        if isinstance(action, A.Bid):
            self._do_bid(seat, action)
        elif isinstance(action, A.Done):
            self._do_done(seat, action)
        elif isinstance(action, A.Offer):
            self._do_offer(seat, action)
        elif isinstance(action, A.Stone):
            self._do_stone(seat, action)
        elif isinstance(action, A.Farmer):
            self._do_farmer(seat, action)
        elif isinstance(action, A.Sell):
            self._do_sell(seat, action)
        elif isinstance(action, A.TakeStone):
            self._do_take_stone(seat, action)
        elif isinstance(action, A.TakeFarmer):
            self._do_take_farmer(seat, action)
        elif isinstance(action, A.TakeCard):
            self._do_take_card(seat, action)
        elif isinstance(action, A.BuyCards):
            self._do_buy_cards(seat, action)
        elif isinstance(action, A.FreeFarmer):
            self._do_free_farmer(seat, action)
        elif isinstance(action, A.HarvestIncrease):
            self._do_increase(seat, action)
        elif isinstance(action, A.EightGold):
            self._do_eight_gold(seat, action)
        elif isinstance(action, A.Adjust):
            self._do_adjust(seat, action)
        elif isinstance(action, A.Builder):
            self._do_builder(seat, action)
        elif isinstance(action, A.PlayBonus):
            self._do_bonus(seat, action)
        elif isinstance(action, A.Pick):
            self._do_pick(seat, action)
        else:
            raise TypeError(f"not an Amun-Re move: {action!r}")

    def _do_sell(self, s: int, a: A.Sell) -> None:
        k = K[a.card]
        self._spend_card(s, k)
        self._earn(s, self.board.sell_price)
        if self.log.enabled:
            self.log.add(
                "{player} sells {card} for {price} gold.",
                player=self.players[s],
                card=self.card_name(k),
                price=self.board.sell_price,
            )

    def _do_bid(self, s: int, a: A.Bid) -> None:
        p = self.cat.index[a.province]
        extra = []
        if a.blockade:
            self._spend_card(s, BLOCKADE)
            self.blockade[s] = True
            self.played[s] |= 1 << BLOCKADE
            extra.append(self.card_name(BLOCKADE))
        if a.overbid:
            self._spend_card(s, OVERBID)
            self.played[s] |= 1 << OVERBID
            extra.append(self.card_name(OVERBID))
        self.bid_prov[s] = p
        self.bid_space[s] = self.cat.space_index[a.amount]
        self.overbid[s] = False
        bid_prov, overbid = self.bid_prov, self.overbid
        for m in range(self.n):
            if bid_prov[m] == p and m != s:
                overbid[m] = True
        if self.log.enabled:
            self.log.add(
                "{player} bids {amount} on {province}{extra}.",
                player=self.players[s],
                amount=a.amount,
                province=a.province,
                extra=(" playing " + " and ".join(extra)) if extra else "",
            )
        self._auction_next(s)

    def _do_buy_cards(self, s: int, a: A.BuyCards) -> None:
        cost = price(a.count)
        self._pay(s, cost)
        if self.log.enabled:
            self.log.add(
                "{player} buys {count} {cards} for {cost} gold.",
                player=self.players[s],
                count=a.count,
                cards=self.terms["cards"],
                cost=cost,
            )
        self._draw_to_hand(s, a.count)
        self.stage = 1

    def _do_farmer(self, s: int, a: A.Farmer) -> None:
        p = self.cat.index[a.province]
        self.bought_farmers += 1
        self._pay(s, self.bought_farmers)
        self.farmer_supply -= 1
        self.field_farmers[p] += 1
        self.stage = 1
        if self.log.enabled:
            self.log.add(
                "{player} buys farmer {nth} for {cost} gold into {province}.",
                player=self.players[s],
                nth=self.bought_farmers,
                cost=self.bought_farmers,
                province=a.province,
            )

    def _do_stone(self, s: int, a: A.Stone) -> None:
        p = self.cat.index[a.province]
        self.bought_stones += 1
        self._pay(s, self.bought_stones)
        self.stage = 2
        if self.log.enabled:
            self.log.add(
                "{player} buys stone {nth} for {cost} gold into {province}.",
                player=self.players[s],
                nth=self.bought_stones,
                cost=self.bought_stones,
                province=a.province,
            )
        self._place_stone(p)

    def _do_builder(self, s: int, a: A.Builder) -> None:
        p = self.cat.index[a.province]
        self._spend_card(s, BUILDER)
        self.played[s] |= 1 << BUILDER
        self.stones[p] -= 2
        self.stone_supply += 2
        self.pyramids[p] += 1
        if self.log.enabled:
            self.log.add(
                "{player} plays {card} in {province}: a pyramid from 2 stones ({count} there).",
                player=self.players[s],
                card=self.card_name(BUILDER),
                province=a.province,
                count=self.pyramids[p],
            )

    def _do_free_farmer(self, s: int, a: A.FreeFarmer) -> None:
        p = self.cat.index[a.province]
        self._spend_card(s, FREE_FARMER)
        self.played[s] |= 1 << FREE_FARMER
        self.farmer_supply -= 1
        self.free_farmers[p] += 1
        if self.log.enabled:
            self.log.add(
                "{player} plays {card}: a farmer on the flat land of {province}.",
                player=self.players[s],
                card=self.card_name(FREE_FARMER),
                province=a.province,
            )

    def _do_done(self, s: int, a: A.Done) -> None:
        phase = self.phase
        if phase == MARKET:
            if self.log.enabled:
                self.log.add("{player} ends their market turn.", player=self.players[s])
            self.market_pos += 1
            self._market_turn()
        elif phase == REWARDS:
            if self.log.enabled:
                self.log.add("{player} takes no more rewards.", player=self.players[s])
            self.reward_queue.pop(0)
            self._rewards_next()
        elif phase == HARVEST:
            self._collect(s)
            self.harvest_pos += 1
            self._harvest_next()
        elif phase == SCORING:
            self.scoring_pos += 1
            self._scoring_next()

    def _do_offer(self, s: int, a: A.Offer) -> None:
        self.offers[s] = a
        if self.log.enabled:
            self.log.add("{player} commits an offering.", player=self.players[s])
        if self.log.enabled:
            self.log.add(
                "{player} secretly offers {offer}.",
                (s,),
                player=self.players[s],
                offer=self._offer_text(a),
            )
        if None not in self.offers:
            self._reveal_offering()

    def _do_adjust(self, s: int, a: A.Adjust) -> None:
        self.offering_total += a.delta
        if self.log.enabled:
            self.log.add(
                "{player} adjusts the offering by {delta:+d}: the total is now {total}.",
                player=self.players[s],
                delta=a.delta,
                total=self.offering_total,
            )
        self.adjust_pos += 1
        if self.adjust_pos < len(self.adjusters):
            self.current = self.adjusters[self.adjust_pos]
        else:
            self._finish_offering()

    def _reward_taken(self) -> None:
        entry = self.reward_queue[0]
        entry[1] -= 1
        if entry[1] <= 0:
            self.reward_queue.pop(0)
        self._rewards_next()

    def _do_take_card(self, s: int, a: A.TakeCard) -> None:
        if self.log.enabled:
            self.log.add(
                "{player} takes a {card} as a reward.",
                player=self.players[s],
                card=self.terms["card"],
            )
        self._draw_to_hand(s, 1)
        self._reward_taken()

    def _do_take_farmer(self, s: int, a: A.TakeFarmer) -> None:
        p = self.cat.index[a.province]
        self.farmer_supply -= 1
        self.field_farmers[p] += 1
        if self.log.enabled:
            self.log.add(
                "{player} takes a farmer as a reward into {province}.",
                player=self.players[s],
                province=a.province,
            )
        self._reward_taken()

    def _do_take_stone(self, s: int, a: A.TakeStone) -> None:
        p = self.cat.index[a.province]
        if self.log.enabled:
            self.log.add(
                "{player} takes a stone as a reward into {province}.",
                player=self.players[s],
                province=a.province,
            )
        self._place_stone(p)
        self._reward_taken()

    def _do_eight_gold(self, s: int, a: A.EightGold) -> None:
        p = self.cat.index[a.province]
        self._spend_card(s, EIGHT_GOLD)
        self.eight_gold_prov[s] = p
        if self.log.enabled:
            self.log.add(
                "{player} plays {card} on {province}.",
                player=self.players[s],
                card=self.card_name(EIGHT_GOLD),
                province=a.province,
            )
        self._after_harvest_card(s)

    def _do_increase(self, s: int, a: A.HarvestIncrease) -> None:
        p = self.cat.index[a.province]
        self._spend_card(s, HARVEST_INCREASE)
        self.increase_prov[s] = p
        if self.log.enabled:
            self.log.add(
                "{player} plays {card} on {province}.",
                player=self.players[s],
                card=self.card_name(HARVEST_INCREASE),
                province=a.province,
            )
        self._after_harvest_card(s)

    def _after_harvest_card(self, s: int) -> None:
        if not self._harvest_has_choice(s):
            self._collect(s)
            self.harvest_pos += 1
            self._harvest_next()

    def _do_bonus(self, s: int, a: A.PlayBonus) -> None:
        k = K[a.card]
        self._spend_card(s, k)
        self.played[s] |= 1 << k
        self.bonus_played[s] += 1
        self.bonus_kinds[s].append(a.card)
        if self.log.enabled:
            self.log.add(
                "{player} plays {card} for {points} points.",
                player=self.players[s],
                card=self.card_name(k),
                points=self.board.bonus_card_points,
            )
        if not self._scoring_has_choice(s):
            self.scoring_pos += 1
            self._scoring_next()

    def _do_pick(self, s: int, a: A.Pick) -> None:
        p = self.cat.index[a.province]
        self.picks[s] = p
        if self.log.enabled:
            self.log.add("{player} picks a province card.", player=self.players[s])
        if self.log.enabled:
            self.log.add(
                "{player} secretly picks {province}.",
                (s,),
                player=self.players[s],
                province=a.province,
            )
        if all(pick >= 0 for pick in self.picks):
            chosen = []
            for seat in range(self.n):
                self.prov_hand[seat].remove(self.picks[seat])
                chosen.append(self.picks[seat])
            self.revealed_picks = self.picks
            self.picks = [-1] * self.n
            if self.log.enabled:
                self.log.add(
                    "Province cards revealed: {picks}.",
                    picks=", ".join(
                        f"{self.players[seat]} {self._pname(p)}" for seat, p in enumerate(chosen)
                    ),
                )
            self._bring_out(chosen)

    # ------------------------------------------------------------------ explanations
    def explain_illegal(self, seat: int, action: Action) -> str:
        from karnak.games.amunre.rules.explain import explain

        return explain(self, seat, action)

    # ------------------------------------------------------------------ views
    def observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see, in the shape :class:`~karnak.games.amunre.view.AmunReObservation`
        declares."""
        from karnak.games.amunre.view import observe

        return cast(dict[str, Any], observe(self, seat))

    def observation_tensor(self, seat: int) -> FloatVector:
        return tensors.observation_tensor(self, seat)

    def information_state_tensor(self, seat: int) -> FloatVector:
        return tensors.information_state_tensor(self, seat)

    def observation_string(self, seat: int) -> str:
        return tensors.observation_string(self, seat)

    # ------------------------------------------------------------------ copies
    _LIST_FIELDS: ClassVar[tuple[str, ...]] = (
        "gold",
        "score",
        "discard",
        "deck",
        "owner",
        "field_farmers",
        "free_farmers",
        "stones",
        "pyramids",
        "free_gold",
        "on_auction",
        "used_this_kingdom",
        "province_deck",
        "picks",
        "revealed_picks",
        "bid_prov",
        "bid_space",
        "overbid",
        "blockade",
        "played",
        "offers",
        "revealed",
        "adjusters",
        "eight_gold_prov",
        "increase_prov",
        "bonus_played",
    )
    _NESTED_FIELDS: ClassVar[tuple[str, ...]] = (
        "hand",
        "face_down",
        "prov_hand",
        "reward_queue",
        "bonus_kinds",
        "own",
    )
    _SCALAR_FIELDS: ClassVar[tuple[str, ...]] = (
        "round",
        "phase",
        "temple",
        "bank",
        "farmer_supply",
        "stone_supply",
        "start",
        "current",
        "market_pos",
        "stage",
        "bought_farmers",
        "bought_stones",
        "offering_total",
        "adjust_pos",
        "new_start",
        "harvest_pos",
        "scoring_pos",
    )

    def clone(self, *, log: bool = True) -> AmunReState:
        """Written out field by field (one line per name of the field tuples above, which a
        test holds it to): search pays for a clone every iteration, and a compiled class
        (karnak.native) has neither ``__new__`` without ``__init__`` nor ``__dict__``."""
        other = AmunReState(self.game, self.board, self.players, self.seed, {}, blank=True)
        other.game = self.game
        other.board = self.board
        other.cat = self.cat
        other.players = self.players
        other.n = self.n
        other.seed = self.seed
        other.options = self.options
        other.edition = self.edition
        other.expert = self.expert
        other.offer_cards = self.offer_cards
        other.terms = self.terms
        other.history = list(self.history)
        other.log = self.log.copy(enabled=log and self.log.enabled)
        other.rng = self.rng.copy()
        other.round = self.round
        other.phase = self.phase
        other.temple = self.temple
        other.bank = self.bank
        other.farmer_supply = self.farmer_supply
        other.stone_supply = self.stone_supply
        other.start = self.start
        other.current = self.current
        other.market_pos = self.market_pos
        other.stage = self.stage
        other.bought_farmers = self.bought_farmers
        other.bought_stones = self.bought_stones
        other.offering_total = self.offering_total
        other.adjust_pos = self.adjust_pos
        other.new_start = self.new_start
        other.harvest_pos = self.harvest_pos
        other.scoring_pos = self.scoring_pos
        other.gold = list(self.gold)
        other.score = list(self.score)
        other.discard = list(self.discard)
        other.deck = list(self.deck)
        other.owner = list(self.owner)
        other.field_farmers = list(self.field_farmers)
        other.free_farmers = list(self.free_farmers)
        other.stones = list(self.stones)
        other.pyramids = list(self.pyramids)
        other.free_gold = list(self.free_gold)
        other.on_auction = list(self.on_auction)
        other.used_this_kingdom = list(self.used_this_kingdom)
        other.province_deck = list(self.province_deck)
        other.picks = list(self.picks)
        other.revealed_picks = list(self.revealed_picks)
        other.bid_prov = list(self.bid_prov)
        other.bid_space = list(self.bid_space)
        other.overbid = list(self.overbid)
        other.blockade = list(self.blockade)
        other.played = list(self.played)
        other.offers = list(self.offers)
        other.revealed = list(self.revealed)
        other.adjusters = list(self.adjusters)
        other.eight_gold_prov = list(self.eight_gold_prov)
        other.increase_prov = list(self.increase_prov)
        other.bonus_played = list(self.bonus_played)
        other.hand = [list(x) for x in self.hand]
        other.face_down = [list(x) for x in self.face_down]
        other.prov_hand = [list(x) for x in self.prov_hand]
        other.reward_queue = [list(x) for x in self.reward_queue]
        other.bonus_kinds = [list(x) for x in self.bonus_kinds]
        other.own = [list(x) for x in self.own]
        other.scorings = list(self.scorings)
        return other

    def resample(self, seat: int, rng: Rng, *, history: bool = True) -> AmunReState:
        """Re-deal everything hidden from ``seat``: other hands, the deck order, face-down
        cards, other seats' sealed offers and picks, other province hands, future shuffles.

        The result depends only on what ``seat`` knows and on ``rng``: every pool of hidden
        things is put in a canonical order before it is shuffled, so no trace of the true
        arrangement survives. The world has no history (it would hold hidden commitments).
        """
        world = self.clone(log=False)
        world.history = []
        world.province_deck.sort()
        rng.shuffle(world.province_deck)  # its order is hidden from everyone
        others = [s for s in range(self.n) if s != seat]
        pool: list[int] = list(world.deck)
        for s in others:
            for k in range(NKINDS):
                pool.extend([k] * world.hand[s][k])
        for cards in world.face_down:
            pool.extend(cards)
        pool.sort()
        rng.shuffle(pool)
        pos = 0
        world.deck = pool[pos : pos + len(self.deck)]
        pos += len(self.deck)
        for s in others:
            size = sum(self.hand[s])
            new = [0] * NKINDS
            for k in pool[pos : pos + size]:
                new[k] += 1
            world.hand[s] = new
            pos += size
        for p, cards in enumerate(self.face_down):
            world.face_down[p] = pool[pos : pos + len(cards)]
            pos += len(cards)
        if self.expert:
            # Other seats' province hands, plus (in the old kingdom) the cards dealt to nobody,
            # which left the game unseen: everything but one's own hand and what came out.
            if self.kingdom() == 0:
                seen = set(world.prov_hand[seat]) | set(world.used_this_kingdom)
                hidden = [p for p in range(len(self.board.provinces)) if p not in seen]
            else:
                hidden = sorted(p for s in others for p in world.prov_hand[s])
            rng.shuffle(hidden)
            pos = 0
            for s in others:
                size = len(self.prov_hand[s])
                world.prov_hand[s] = sorted(hidden[pos : pos + size])
                pos += size
                if world.picks[s] >= 0:
                    world.picks[s] = rng.choice(world.prov_hand[s])
        if self.phase == OFFERING:
            for s in others:
                if world.offers[s] is not None:
                    choices = [a for a in world._legal_offers(s) if isinstance(a, A.Offer)]
                    world.offers[s] = rng.choice(choices)
        world.rng = Rng(rng.next_u64())
        if history:
            self._keep_history(world, seat)
        return world

    # ------------------------------------------------------------------ serialisation
    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            **self.common_json(),
            "scorings": self.scorings,
        }
        # getattr, not __dict__: a compiled class keeps its fields in slots
        for name in self._SCALAR_FIELDS:
            data[name] = getattr(self, name)
        for name in self._LIST_FIELDS:
            value = getattr(self, name)
            if name in ("offers", "revealed"):
                value = [None if o is None else o.to_json() for o in value]
            data[name] = list(value)
        for name in self._NESTED_FIELDS:
            if name != "own":
                data[name] = [list(x) for x in getattr(self, name)]
        return data

    @classmethod
    def from_json(cls, game: AmunRe, board: Board, data: Mapping[str, Any]) -> AmunReState:
        state = cls(game, board, data["players"], data["seed"], data["options"], fresh=False)
        state.restore_common(data)
        state.scorings = [list(x) for x in data["scorings"]]
        for name in cls._SCALAR_FIELDS:
            setattr(state, name, data[name])
        for name in cls._LIST_FIELDS:
            value = list(data[name])
            if name in ("offers", "revealed"):
                value = [None if o is None else A.action_from_json(o) for o in value]
            setattr(state, name, value)
        for name in cls._NESTED_FIELDS:
            if name != "own":
                setattr(state, name, [list(x) for x in data[name]])
        state._rebuild_own()
        return state


def _detail(line: ScoreLines) -> str:
    parts = []
    for label, value in (
        ("pyramids", line.pyramids),
        ("complete sets", line.complete_sets),
        ("west bank", line.nile_west),
        ("east bank", line.nile_east),
        ("temples", line.temples),
        ("bonus cards", line.bonus_cards),
        ("gold ranking", line.gold_ranking),
    ):
        if value:
            parts.append(f"{label} {value}")
    return ", ".join(parts) or "nothing"
