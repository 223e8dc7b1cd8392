"""Egyptia's fixed integer action space: one id a move, but a payment spelled in parts.

Every builder acts on their own sheet only, so no move names another seat and the space is
the same at every table size: it depends on the sheet alone. For the printed sheet (3 ships,
18 buildable hexes, 18/18/18/12 dots on the grain/diamond/stone/favor tracks, a Burial
Mound giving 2 basic resources or 1 favor) there are 201 ids, ``S`` ships and ``H``
buildable hexes in general:

| ids (printed sheet) | what | name |
|---|---|---|
| 0 .. 3 | choose a column: grain, diamond, stone, favor | ``choose grain`` |
| 4 .. 6 (``S``) | use a ship | ``ship 1`` |
| 7 .. 15 (9) | a plague but Hail-fire, in the book's order | ``plague locusts`` |
| 16 .. 18 (``S``) | Hail-fire, losing ship ``k`` | ``plague hail-fire 2`` |
| 19 .. 126 (``6H``) | build, by building then hex (below) | ``build quarry B2`` |
| 127 .. 133 (7) | a Burial Mound's resources, each mix allowed | ``gain 1g+1s`` |
| 134 .. 199 (dots) | a payment's part: ``n`` (1 .. dots) of one resource | ``pay part 2g`` |
| 200 | the end of a payment | ``pay done`` |

Buildings go pyramid, quarry, mine, obelisk, field, mound, each over the buildable hexes in
the sheet's order (``19 + H * building + hex``); parts go grain 1 .. 18, diamond 1 .. 18,
stone 1 .. 18, favor 1 .. 12.

Every move but ``pay`` is one id, named by the move's own text. A payment (any minimal mix
of resources, :mod:`karnak.games.egyptia.rules.market`) is spelled as its non-zero resources in
the order grain, diamond, stone, favor, one "part" id each (``n`` of that resource), then
``pay done``: ``pay 1g+2d`` is ``pay part 1g``, ``pay part 2d``, ``pay done``. That is a
function of the payment, so each payment has one spelling; the final ``pay done`` keeps the
spellings prefix-free. A count is at most the track's dots because a builder never has more
of a resource than the track holds. Spelling one id per resource unit would need only 4 part
ids, but as many ids a payment as resources paid; (resource, count) parts take 5 at most.

:meth:`EgyptiaActionSpace.spell` remembers each move it has spelled (moves are frozen,
hashable values), since :class:`~karnak.core.action_ids.Speller` spells every legal move of
a position for each mask.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from karnak.core.action_ids import ActionIdError, ActionSpace, Spelling
from karnak.core.actions import Action
from karnak.games.egyptia.rules.actions import (
    PLAGUES,
    Build,
    Choose,
    Gain,
    Pay,
    Plague,
    UseShip,
)
from karnak.games.egyptia.rules.pharaoh import RULES
from karnak.games.egyptia.rules.sheet import (
    BASIC,
    BUILDINGS,
    FAVOR,
    LETTERS,
    LETTERS_OF_CARDS,
    MOUND,
    RESOURCES,
    Sheet,
)
from karnak.games.egyptia.rules.state import PLAGUE_COST

HAIL_FIRE = "hail-fire"
#: The plagues that are one id each (Hail-fire is one id per ship it may take).
PLAIN_PLAGUES = tuple(p for p in PLAGUES if p != HAIL_FIRE)
#: The plagues whose loss the builder may have to pay in a chosen mix (each once a game:
#: they are crossed off the sheet when suffered).
PAID_PLAGUES = (*PLAGUE_COST, "frogs")
BUILT = (*BUILDINGS, MOUND)
#: The most ids a payment takes: a part per kind of resource, and ``pay done``.
LONGEST_PAYMENT = len(RESOURCES) + 1


class EgyptiaActionSpace(ActionSpace):
    """The ids of Egyptia on ``sheet`` at a table of ``players`` (see the module's table)."""

    def __init__(self, sheet: Sheet, players: int):
        self.players = players
        ships = len(sheet.ships)
        self.hexes = tuple(sheet.hexes[h].label for h in sheet.buildable)
        self.gains = _mound_gains(sheet)
        self.dots = tuple(sheet.dots)
        moves: list[Action] = [Choose(c) for c in range(len(RESOURCES))]
        moves += [UseShip(k) for k in range(1, ships + 1)]
        moves += [Plague(name) for name in PLAIN_PLAGUES]
        moves += [Plague(HAIL_FIRE, k) for k in range(1, ships + 1)]
        moves += [Build(building, label) for building in BUILT for label in self.hexes]
        moves += [Gain(bundle) for bundle in self.gains]
        names = [move.to_text() for move in moves]
        self._ids = {move: i for i, move in enumerate(moves)}
        #: part_ids[r][n - 1]: the id of "n of resource r" in a payment
        self.part_ids: list[list[int]] = []
        for resource, dots in enumerate(self.dots):
            self.part_ids.append(list(range(len(names), len(names) + dots)))
            names += [f"pay part {n}{LETTERS[resource]}" for n in range(1, dots + 1)]
        #: Every payment part can stand in an unfinished spelling (one of each resource).
        self.spelling_ids = tuple(id_ for ids in self.part_ids for id_ in ids)
        self.pay_done = len(names)
        names.append("pay done")
        self._names = tuple(names)
        self.size = len(names)
        self._spelled: dict[Action, Spelling] = {}
        self.max_game_length = players * seat_game_length(sheet)

    def spell(self, action: object) -> Spelling:
        if not isinstance(action, Choose | UseShip | Plague | Build | Pay | Gain):
            raise ActionIdError(f"{action!r} is not an Egyptia move")
        spelled = self._spelled.get(action)
        if spelled is None:
            spelled = self._spell(action)
            self._spelled[action] = spelled
        return spelled

    def _spell(self, action: Action) -> Spelling:
        if isinstance(action, Pay):
            parts = []
            for resource, count in enumerate(action.bundle):
                if count < 0 or count > self.dots[resource]:
                    raise ActionIdError(f"{action.to_text()!r} pays more than a track holds")
                if count:
                    parts.append(self.part_ids[resource][count - 1])
            return (*parts, self.pay_done)
        action_id = self._ids.get(action)
        if action_id is None:
            raise ActionIdError(f"{action!r} is not a move on this sheet")
        return (action_id,)

    def id_name(self, action_id: int) -> str:
        self.check_id(action_id)
        return self._names[int(action_id)]


def _mound_gains(sheet: Sheet) -> tuple[tuple[int, int, int, int], ...]:
    """The Burial Mound's mixes, as :meth:`EgyptiaState.mound_gains` lists them."""
    amount = sheet.mound_basic
    gains = [
        (g, d, amount - g - d, 0) for g in range(amount, -1, -1) for d in range(amount - g, -1, -1)
    ]
    if sheet.mound_favor:
        gains.append((0, 0, 0, sheet.mound_favor))
    return tuple(gains)


def seat_game_length(sheet: Sheet) -> int:
    """The most ids one builder spells in a whole game, from the rules.

    Every round each builder builds exactly one building or Burial Mound on an empty hex of
    their own map (the round ends only when all have), so a game has at most ``H`` rounds,
    the buildable hexes. A round takes a builder: one ``choose``, at most one ``plague``, one
    ``build``, then either a payment (at most :data:`LONGEST_PAYMENT` ids) or one ``gain``.
    A plague's own payment comes only from the five paid plagues, each crossed off once
    suffered: at most five payments a game. Each ship is used at most once a game (Hail-fire
    takes a ship without a ship move). So ``H * (3 + 5) + 5 * 5 + S`` on the printed sheet:
    18 * 8 + 25 + 3 = 172 ids a builder.
    """
    per_round = 3 + LONGEST_PAYMENT  # a payment is longer than a gain
    return len(sheet.buildable) * per_round + len(PAID_PLAGUES) * LONGEST_PAYMENT + len(sheet.ships)


# -------------------------------------------------------------------- score bounds
#: Rules whose part for one building is its value times that building's Sacred neighbours.
PER_SACRED_NEIGHBOUR = frozenset({"field_sacred_sites"})


def score_bounds(
    sheet: Sheet, options: Mapping[str, object], favor_capped: bool
) -> tuple[int, int]:
    """The least and most points a builder's sheet can show at any time.

    A score is the Pharaoh cards' points + favor points + unused ships' points - Pestilence.
    Least: cards never score below 0 (every card's values are 0 or more, a part is a value
    or 0), favor and ships 0, and Pestilence crossed off. Most: every ship unused; favor at
    most the favor track's dots (``favor_capped``, rules 1.1: the end trade stops where the
    track ends), or those dots plus every basic dot traded (rules 1.0); the cards as below.

    Each card scores buildings of one kind, and a city has at most ``H`` buildings, so the
    cards' total is at most the best split of ``H`` among the five kinds, a card giving for
    ``k`` buildings of its kind at most ``k`` times its largest value (times the most Sacred
    Sites a hex touches, for the per-Sacred-neighbour rule), or the largest entry of its
    table up to ``k`` for a counted rule. A letter the ``cards`` option leaves out may be any
    of its cards. On the printed sheet: -2 to 201 (189 of them D2's 18 Obelisks).
    """
    wanted = [c.strip().upper() for c in str(options.get("cards") or "").split(",")]
    fixed = {card[0]: card for card in wanted if card}
    hexes = len(sheet.buildable)
    sacred_near = max(
        (sum(1 for n in near if sheet.hexes[n].sacred) for near in sheet.neighbours), default=0
    )

    def most(card_id: str) -> tuple[int, list[int]]:
        """The card's kind (an index of BUILDINGS), and its most points for 0 .. H of them."""
        card = sheet.cards_by_id[card_id]
        kind = RULES[card.rule].kind  # the engine's code of a building is its BUILDINGS index
        if RULES[card.rule].points == 0:  # a table read at a count of at most k
            return kind, [max(card.points[:k], default=0) for k in range(hexes + 1)]
        part = max(card.points, default=0)
        part *= sacred_near if card.rule in PER_SACRED_NEIGHBOUR else 1
        return kind, [k * part for k in range(hexes + 1)]

    letters = [
        [most(fixed[letter])]
        if letter in fixed
        else [most(card.id) for card in sheet.cards_of(letter)]
        for letter in LETTERS_OF_CARDS
    ]
    top_cards = max(
        sum(max(points[split[kind]] for kind, points in cards) for cards in letters)
        for split in _splits(hexes, len(BUILDINGS))
    )
    favor = sheet.dots[FAVOR]
    if not favor_capped:
        favor += sum(sheet.dots[i] for i in BASIC) // sheet.basic_per_favor
    ships = len(sheet.ships) * sheet.ship_points
    return -sheet.pestilence_points, top_cards + favor // sheet.favor_per_point + ships


def _splits(total: int, parts: int) -> list[tuple[int, ...]]:
    """Every way of writing ``total`` as ``parts`` counts of 0 or more (cards' points grow
    with their buildings, so the best split fills every hex)."""
    return [
        tuple(b - a - 1 for a, b in itertools.pairwise((-1, *cuts, total + parts - 1)))
        for cuts in itertools.combinations(range(total + parts - 1), parts - 1)
    ]
