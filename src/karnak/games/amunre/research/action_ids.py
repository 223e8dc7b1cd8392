"""Amun-Re's fixed integer action space: one id for most moves, offerings spelled in parts.

The ids, for a board of ``P`` provinces (15 printed), ``S`` bid spaces (9 printed: 0 to 36),
``B`` the largest card limit of a province (4 printed) and the 12 power-card kinds
(``board.CARD_KINDS`` order; the 5 scoring bonus kinds in ``BONUS_KINDS`` order):

| ids | name | move |
|---|---|---|
| 0 | ``done`` | :class:`~karnak.games.amunre.rules.actions.Done` |
| 1 | ``take card`` | a power card as a reward |
| 2, 3 | ``adjust +3``, ``adjust -3`` | a revealed correction card |
| 4 .. 3+B | ``buy-cards 1`` .. ``buy-cards B`` | power cards in the market |
| then 12 | ``sell KIND`` | sell a power card |
| then 5 | ``bonus KIND`` | a scoring bonus card |
| then 9 blocks of P | ``MOVE PROVINCE`` | one id a province, for each MOVE of ``PROVINCE_MOVES`` |
| then 4PS | ``bid PROVINCE AMOUNT [+blockade] [+overbid]`` | see below |
| then 1 | ``offer theft`` | an offering: its first part |
| then 100 | ``offer 0`` .. ``offer 99`` | an offering of that much gold: its first part |
| then 1 | ``offer +100`` | 100 more gold (before ``offer G``, as often as needed) |
| then 12 | ``card KIND`` | a power card in the offering (option ``offer_cards``) |
| then 1 | ``+correction`` | the offering carries a correction card |
| then 1 | ``offer done`` | the offering is complete |

The province blocks are ``farmer``, ``stone``, ``builder``, ``free-farmer``, ``take farmer``,
``take stone``, ``eight-gold``, ``harvest-increase`` and ``pick``, provinces in board order
(by name). The bid on province ``p`` at bid space ``a`` (index into the bid track) is
``bid base + 4(S·p + a) + 2·blockade + overbid``: every amount of the track, 0 included.

Every move but an offering is one id, and that id's name is the move's text. An offering
``Offer(gold, theft, correction, cards)`` is spelled ``offer theft`` or (``offer +100``
``gold // 100`` times, ``offer gold % 100``), then ``card KIND`` for each offered card in sorted
order, then ``+correction`` if it carries one, then ``offer done``. The last id ends every
offering and only offerings, so no legal spelling begins another: the spellings are
prefix-free, and an offering of any size has exactly one spelling. (Gold past 99 is rare:
the carry id keeps the vocabulary small without capping the amount.) The vocabulary is the
same for every table size and option; ``pick`` ids, ``card`` ids and the like are simply never
legal where the options rule them out, so ids mean the same thing across variants.

``max_game_length`` is a bound derived from the rules, not a measured cap. With ``R`` rounds
(kingdoms times rounds a kingdom, 6 printed), ``r`` rounds a kingdom, ``n`` seats:

* Auction: each bid raises the highest bid space on the card it goes to (a newcomer on a card
  above the others there, an overbid seat above the one who overbid it), and never lowers
  another card's, so an auction has at most ``n·S`` bids.
* Cards: every card-spending id (``sell``, ``builder``, ``free-farmer``, ``eight-gold``,
  ``harvest-increase``, ``bonus``, ``card KIND``, ``+correction``) takes a card from the hand,
  and a seat gets at most ``C = start builders + R·(B + most face-down cards + 3 rewards)``.
* Gold: a seat receives at most ``G = start gold + R·(most income + most free gold + theft)
  + sell price · C``; the most income counts every own province (``r`` at most) at the best
  temple space with full fields, printed and free farmers (one free farmer a market turn),
  its gold and caravans, the harvest increase and the treasury.
* Market turns: one ``buy-cards`` and one ``done``; farmers (and ``take farmer``) only fill
  fields of own provinces, at most ``r·most fields`` a kingdom; the k-th stone of a turn costs
  k gold, so the stones of all turns cost at least the sum of triangle numbers, which the
  gold ``G`` bounds (computed by the cheapest-stone-first greedy).
* Rewards: at most 3 items and a ``done`` a round; offerings: the gold part (at most
  ``1 + G // 100`` ids) and ``offer done``; an adjustment, a harvest ``done``, a pick (expert
  rules) a round; a scoring ``done`` a kingdom.

The bound is loose (the gold bound is far above real play), which is sound: a game never
reaches it, so an environment never truncates one. On the printed board it is 966, 1,288 and
1,610 ids at 3, 4 and 5 seats (24, 24 and 30 more with expert provinces); the longest of
6,300 random games (uniform ids, and ids that avoid ``done`` to drag the game out; every
table size, expert provinces, offered cards) took 378 ids, at 5 seats with expert provinces.

Spellings are cached per move (moves are frozen, hashable values): the Speller spells every
legal move at every mask, and the cache makes a mask cost about 2.5 times ``legal_actions``
instead of 6 times.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from karnak.core.action_ids import ActionIdError, ActionSpace, Spelling
from karnak.games.amunre.rules import actions as A
from karnak.games.amunre.rules.board import BONUS_KINDS, CARD_KINDS, Board

DONE_ID = 0
TAKE_CARD_ID = 1
ADJUST_UP_ID, ADJUST_DOWN_ID = 2, 3
BUY_BASE = 4
#: Gold amounts with an id of their own; more is spelled with ``offer +GOLD_CARRY`` ids.
GOLD_CARRY = 100
#: The moves with one id a province, in the order of their blocks.
PROVINCE_MOVES: tuple[type[Any], ...] = (
    A.Farmer,
    A.Stone,
    A.Builder,
    A.FreeFarmer,
    A.TakeFarmer,
    A.TakeStone,
    A.EightGold,
    A.HarvestIncrease,
    A.Pick,
)
_CARD_INDEX = {kind: i for i, kind in enumerate(CARD_KINDS)}
_BONUS_INDEX = {kind: i for i, kind in enumerate(BONUS_KINDS)}
#: Entries kept in the spelling cache before it starts afresh (offers with cards are many).
_CACHE_LIMIT = 200_000


def _most_stones(turns: int, gold: int) -> int:
    """The most stones ``turns`` market turns can buy with ``gold`` in all, the k-th stone of
    a turn costing k: buy the cheapest next stone while the gold lasts (costs are convex, so
    this greedy is optimal)."""
    if turns <= 0:
        return 0
    per_turn = [0] * turns
    bought = 0
    while True:
        t = min(range(turns), key=per_turn.__getitem__)
        cost = per_turn[t] + 1
        if cost > gold:
            return bought
        gold -= cost
        per_turn[t] += 1
        bought += 1


class AmunReActionSpace(ActionSpace):
    """The ids of Amun-Re on ``board`` at a table of ``players`` with ``options``."""

    def __init__(self, board: Board, players: int, options: Mapping[str, Any]):
        self.board = board
        self.players = players
        self.options = dict(options)
        self.provinces = board.province_names
        self.province_index = {name: i for i, name in enumerate(self.provinces)}
        self.bid_spaces = board.bid_spaces
        self.space_index = {amount: i for i, amount in enumerate(board.bid_spaces)}
        self.most_cards = max(p.card_limit for p in board.provinces)
        np_, ns = len(self.provinces), len(self.bid_spaces)
        self.sell_base = BUY_BASE + self.most_cards
        self.bonus_base = self.sell_base + len(CARD_KINDS)
        self.province_base = self.bonus_base + len(BONUS_KINDS)
        self.bid_base = self.province_base + len(PROVINCE_MOVES) * np_
        self.theft_id = self.bid_base + 4 * np_ * ns
        self.gold_base = self.theft_id + 1
        self.carry_id = self.gold_base + GOLD_CARRY
        self.card_base = self.carry_id + 1
        self.correction_id = self.card_base + len(CARD_KINDS)
        self.offer_done_id = self.correction_id + 1
        self.size = self.offer_done_id + 1
        self.most_gold = self._most_gold()
        self.max_game_length = self._max_game_length()
        # Every part of an offering but ``offer done`` can stand in an unfinished spelling;
        # ``offer +100`` as often as the most gold allows, a card kind as often as it exists.
        self.spelling_ids = tuple(range(self.theft_id, self.offer_done_id))
        most_of_a_kind = max(board.card(kind).count for kind in CARD_KINDS)
        self.spelling_repeats = max(self.most_gold // GOLD_CARRY, most_of_a_kind, 1)
        self._cache: dict[object, Spelling] = {}

    # ------------------------------------------------------------------ bounds
    def _rounds(self) -> int:
        return self.board.kingdoms * self.board.rounds_per_kingdom

    def _most_cards_received(self) -> int:
        """Power cards one seat can receive in a game (bought, found, taken, dealt)."""
        board = self.board
        found = max(p.bonus_cards for p in board.provinces)
        return board.start_builders + self._rounds() * (self.most_cards + found + 3)

    def _most_income(self) -> int:
        """The most gold one harvest can pay a seat (see the module docstring)."""
        board = self.board
        r = board.rounds_per_kingdom
        multiplier = len(board.temple_thresholds) + 1  # the best temple space
        values = sorted(
            (
                multiplier * (p.fields + p.printed_farmers) + p.gold + p.caravan
                for p in board.provinces
            ),
            reverse=True,
        )
        # Free farmers (one a market turn of the kingdom), the harvest increase's +1 a farmer
        # of one province, and the treasury's 8 counted on top of the province it replaces.
        most_farmers = max(p.fields + p.printed_farmers for p in board.provinces) + r
        return sum(values[:r]) + multiplier * r + most_farmers + board.treasury_gold

    def _most_gold(self) -> int:
        """The most gold one seat can receive in a whole game (so hold at any time)."""
        board = self.board
        free_gold = max(p.bonus_gold for p in board.provinces)
        per_round = self._most_income() + free_gold + board.theft_gold
        received = board.start_gold + self._rounds() * per_round
        return received + board.sell_price * self._most_cards_received()

    def _most_stones_bought(self) -> int:
        return _most_stones(self._rounds(), self.most_gold)

    def _max_game_length(self) -> int:
        board = self.board
        rounds, r, n = self._rounds(), board.rounds_per_kingdom, self.players
        most_fields = max(p.fields for p in board.provinces)
        per_seat = (
            rounds * 2  # buy-cards and the market's done
            + board.kingdoms * r * most_fields  # farmers bought or taken onto fields
            + self._most_stones_bought()
            + rounds * (3 + 1)  # reward items and the rewards' done
            + rounds * (1 + self.most_gold // GOLD_CARRY + 1)  # an offering's gold part, done
            + rounds  # an adjustment
            + rounds  # the harvest's done
            + board.kingdoms  # the scoring's done
            + (rounds if self.options.get("expert_provinces") else 0)  # picks
            + self._most_cards_received()  # every card-spending id
        )
        bids = rounds * n * len(board.bid_spaces)
        return n * per_seat + bids

    def most_pyramids(self) -> int:
        """The most pyramids the whole board can hold: each takes two or three stone
        placements, and stones are placed only when bought, taken or found on a card."""
        board = self.board
        rounds, n = self._rounds(), self.players
        found = max(p.bonus_stones for p in board.provinces)
        placements = n * (self._most_stones_bought() + 3 * rounds) + rounds * n * found
        return placements // 2

    def score_bounds(self) -> tuple[int, int]:
        """(0, most): every scoring line is a count times a non-negative board figure, so
        points only grow; the most adds, each kingdom, every pyramid on the board (counted
        again for complete sets), both Nile sides, the best temple space for the temples of
        ``r`` provinces, each bonus kind once; and the best gold ranking at the end."""
        board = self.board
        temple_best = len(board.temple_thresholds) + 1
        r = board.rounds_per_kingdom
        temples = sorted((p.temples for p in board.provinces), reverse=True)[:r]
        per_scoring = (
            self.most_pyramids() * (1 + board.complete_set_points)
            + 2 * board.nile_side_points
            + temple_best * sum(temples)
            + board.bonus_card_points * len(BONUS_KINDS)
        )
        return 0, board.kingdoms * per_scoring + max(board.gold_ranking_points)

    # ------------------------------------------------------------------ spelling
    def spell(self, action: object) -> Spelling:
        try:
            return self._cache[action]
        except KeyError:
            pass
        except TypeError:  # an unhashable non-action
            raise ActionIdError(f"{action!r} is not an Amun-Re move") from None
        spelling = self._spell(action)
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache.clear()
        self._cache[action] = spelling
        return spelling

    def _province(self, action: object, name: str) -> int:
        p = self.province_index.get(name)
        if p is None:
            raise ActionIdError(f"{action!r}: no province {name!r} on this board")
        return p

    def _spell(self, action: object) -> Spelling:
        if isinstance(action, A.Done):
            return (DONE_ID,)
        if isinstance(action, A.TakeCard):
            return (TAKE_CARD_ID,)
        if isinstance(action, A.Adjust) and action.delta in (3, -3):
            return (ADJUST_UP_ID if action.delta == 3 else ADJUST_DOWN_ID,)
        if isinstance(action, A.BuyCards) and 1 <= action.count <= self.most_cards:
            return (BUY_BASE + action.count - 1,)
        if isinstance(action, A.Sell) and action.card in _CARD_INDEX:
            return (self.sell_base + _CARD_INDEX[action.card],)
        if isinstance(action, A.PlayBonus) and action.card in _BONUS_INDEX:
            return (self.bonus_base + _BONUS_INDEX[action.card],)
        if isinstance(action, PROVINCE_MOVES):
            block = PROVINCE_MOVES.index(type(action))
            p = self._province(action, action.province)
            return (self.province_base + block * len(self.provinces) + p,)
        if isinstance(action, A.Bid) and action.amount in self.space_index:
            p = self._province(action, action.province)
            code = len(self.bid_spaces) * p + self.space_index[action.amount]
            return (self.bid_base + 4 * code + 2 * action.blockade + action.overbid,)
        if isinstance(action, A.Offer):
            return self._spell_offer(action)
        raise ActionIdError(f"{action!r} is not an Amun-Re move this space can spell")

    def _spell_offer(self, offer: A.Offer) -> Spelling:
        if offer.theft:
            if offer.gold or offer.cards:
                raise ActionIdError(f"{offer!r}: the theft card goes alone (or with a correction)")
            head: Spelling = (self.theft_id,)
        elif offer.gold < 0:
            raise ActionIdError(f"{offer!r}: an offering cannot be negative")
        else:
            carries, rest = divmod(offer.gold, GOLD_CARRY)
            head = (self.carry_id,) * carries + (self.gold_base + rest,)
        unknown = [c for c in offer.cards if c not in _CARD_INDEX]
        if unknown:
            raise ActionIdError(f"{offer!r}: unknown power card(s) {unknown}")
        cards = tuple(self.card_base + _CARD_INDEX[c] for c in sorted(offer.cards))
        correction = (self.correction_id,) if offer.correction else ()
        return (*head, *cards, *correction, self.offer_done_id)

    # ------------------------------------------------------------------ names
    def action_of_id(self, action_id: int) -> A.AmunReAction | None:
        """The one-id move ``action_id`` names, or None for a part of an offering."""
        self.check_id(action_id)
        i = int(action_id)
        if i == DONE_ID:
            return A.DONE
        if i == TAKE_CARD_ID:
            return A.TAKE_CARD
        if i in (ADJUST_UP_ID, ADJUST_DOWN_ID):
            return A.Adjust(3 if i == ADJUST_UP_ID else -3)
        if i < self.sell_base:
            return A.BuyCards(i - BUY_BASE + 1)
        if i < self.bonus_base:
            return A.Sell(CARD_KINDS[i - self.sell_base])
        if i < self.province_base:
            return A.PlayBonus(BONUS_KINDS[i - self.bonus_base])
        if i < self.bid_base:
            block, p = divmod(i - self.province_base, len(self.provinces))
            move: A.AmunReAction = PROVINCE_MOVES[block](self.provinces[p])
            return move
        if i < self.theft_id:
            code, flags = divmod(i - self.bid_base, 4)
            p, space = divmod(code, len(self.bid_spaces))
            blockade, overbid = divmod(flags, 2)
            return A.Bid(self.provinces[p], self.bid_spaces[space], bool(blockade), bool(overbid))
        return None

    def id_name(self, action_id: int) -> str:
        action = self.action_of_id(action_id)
        if action is not None:
            return action.to_text()
        i = int(action_id)
        if i == self.theft_id:
            return "offer theft"
        if i < self.carry_id:
            return f"offer {i - self.gold_base}"
        if i == self.carry_id:
            return f"offer +{GOLD_CARRY}"
        if i < self.correction_id:
            return f"card {CARD_KINDS[i - self.card_base]}"
        if i == self.correction_id:
            return "+correction"
        return "offer done"
