"""Egyptia's rules as a deterministic state machine (``rules/egyptia.txt``, RULINGS Egyptia).

A round: the six dice are rolled and sorted into the four columns of the resource board.
Every builder, sealed and at the same time, chooses a column and produces one resource per
die in it (plus their productivity for that resource). Once all have chosen, the choices
are revealed; then each builder, again on their own, suffers a plague if the column held
three dice or more, and builds exactly one building that a die of the column shows (the d20
shows any, for a favor more), or a Burial Mound. What a builder does after the reveal is
seen by the others when the round ends. Ships can be used at any point: whenever the
builder decides, and also while the builder waits for the others (column chosen, or done
building). Such a ship belongs to the round under way: it is a private step like the
builder's others, shown to all at the round's end, and a red dot it circles ends the game
when that round is over, as any red dot does.

The round's steps of one builder are private steps of a simultaneous round: every seat with
something left to decide is "to move" at once, and nobody waits for anybody but at the
reveal and at the end of the round. A waiting builder is not "to move" (nobody waits for
their ship), but ``legal_actions`` offers their unused ships.

The game ends after the round in which a builder circled a red dot, or when the maps are
full. Choices are asked only where they matter: a cost with a single way to pay it is paid.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING, Any, ClassVar, Final, cast

from karnak.core.actions import Action
from karnak.core.events import EventLog
from karnak.core.rng import Rng
from karnak.core.state import State
from karnak.core.tensors import FloatVector
from karnak.games.egyptia.rules.actions import (
    PLAGUE_TITLES,
    PLAGUES,
    Build,
    Choose,
    Gain,
    Pay,
    Plague,
    UseShip,
    bundle_words,
)
from karnak.games.egyptia.rules.market import (
    BASIC_FOR_BASIC,
    BASIC_FOR_FAVOR,
    CostTable,
    affordable,
    any_three,
    cost_table,
    only_way,
    payments,
    picked,
)
from karnak.games.egyptia.rules.pharaoh import EMPTY, card_parts, end_extras
from karnak.games.egyptia.rules.sheet import (
    BUILDINGS,
    FAVOR,
    LETTERS_OF_CARDS,
    MOUND,
    RESOURCES,
    WILD,
    Bundle,
    Sheet,
)

if TYPE_CHECKING:
    from karnak.games.egyptia.rules.game import Egyptia

# A builder's stage within the round.
CHOOSE, CHOSEN, PLAGUE, PLAGUE_PAY, BUILD, BUILD_PAY, GAIN, DONE = (
    "choose",
    "chosen",
    "plague",
    "plague_pay",
    "build",
    "build_pay",
    "gain",
    "done",
)
DECIDING: Final = (CHOOSE, PLAGUE, PLAGUE_PAY, BUILD, BUILD_PAY, GAIN)
_DECIDING: Final = frozenset(DECIDING)
STAGE_NAMES: Final = {
    CHOOSE: "choosing a column",
    CHOSEN: "has chosen a column",
    PLAGUE: "choosing a plague",
    PLAGUE_PAY: "paying for the plague",
    BUILD: "choosing a building",
    BUILD_PAY: "paying for the building",
    GAIN: "taking the Burial Mound's resources",
    DONE: "done for this round",
}
MOUND_CODE: Final = len(BUILDINGS)
CODES: Final = {**{name: i for i, name in enumerate(BUILDINGS)}, MOUND: MOUND_CODE}
NAMES: Final = (*BUILDINGS, MOUND)
TITLES: Final = {
    "pyramid": "Pyramid",
    "quarry": "Quarry",
    "mine": "Mine",
    "obelisk": "Obelisk",
    "field": "Field",
    "mound": "Burial Mound",
}
PLAGUE_COST: Final[dict[str, Bundle]] = {
    "locusts": (2, 0, 0, 0),
    "blood": (0, 2, 0, 0),
    "dust-storm": (0, 0, 2, 0),
    "flies": (0, 0, 0, 1),
}
SHIP_UNUSED, SHIP_USED, SHIP_LOST = 0, 1, 2
#: Plagues crossed off the sheet (Death is never crossed off: it may come again).
CROSSABLE: Final = tuple(p for p in PLAGUES if p != "death")
#: Plagues that only restrict this round's building.
RESTRICTIONS: Final = ("darkness", "boils", "death")


class Tables:
    """What the engine reads on every move, made once per sheet and shared by every state
    of it: the moves as shared values (they are frozen, so a list of legal moves needs no
    new objects), the hexes' labels and kinds, and memos of what a column offers and what
    its buildings cost (one per set of dice, 64 with six; what a builder can afford is worked
    out afresh, see :meth:`afford`). Memos are keyed by the values they depend on, never by
    a state, so a state changed by hand (as the tests do) is still read right."""

    #: Entries a memo keeps before it starts afresh (bounded memory in long runs).
    MEMO_LIMIT: ClassVar[int] = 1 << 16

    def __init__(self, sheet: Sheet):
        self.sheet = sheet
        self.sides = tuple(d.sides for d in sheet.dice)
        self.dots = sheet.dots
        #: the circle count past which a track's red dots are reached (never, without any)
        self.red_from = tuple(
            d - r if r else sys.maxsize for d, r in zip(sheet.dots, sheet.red, strict=True)
        )
        self.labels = tuple(h.label for h in sheet.hexes)
        self.sacred = tuple(h.sacred for h in sheet.hexes)
        self.buildable = sheet.buildable
        self.near_oasis = frozenset(sheet.neighbours[sheet.oasis])
        #: Build moves by building code (NAMES order, the Burial Mound last), then by hex
        self.builds = tuple(tuple(Build(name, label) for label in self.labels) for name in NAMES)
        self.choose = tuple(Choose(c) for c in range(4))
        self.use_ship = tuple(UseShip(i + 1) for i in range(len(sheet.ships)))
        self.hail_fire = tuple(Plague("hail-fire", i + 1) for i in range(len(sheet.ships)))
        self.plague = {name: Plague(name) for name in PLAGUES}
        self.gains = tuple(Gain(g) for g in _mound_gains(sheet))
        self.card_ids_of = {
            letter: tuple(c.id for c in sheet.cards_of(letter)) for letter in LETTERS_OF_CARDS
        }
        self.card_texts: dict[tuple[str, ...], str] = {}
        #: a roll's words in the log, by the dice's values (every new game logs its first)
        self.roll_texts: dict[tuple[int, ...], str] = {}
        #: each die's words in the log, by value (index 0 unused)
        self.die_texts = tuple(
            (
                "",
                *(
                    f"d{d.sides}={v} ({TITLES.get(d.building, 'any')})"
                    for v in range(1, d.sides + 1)
                ),
            )
            for d in sheet.dice
        )
        self.ship_moves: dict[tuple[int, ...], tuple[UseShip, ...]] = {}
        #: the last marks asked of :meth:`ships_of` and their moves, one pair (set at once,
        #: so that threads sharing the tables never pair one's marks with another's moves)
        self.last_ships: tuple[list[int], tuple[UseShip, ...]] = ([], ())
        self.offers: dict[tuple[int, ...], tuple[tuple[str, bool], ...]] = {}
        self.offer_dicts: dict[tuple[int, ...], dict[str, bool]] = {}
        self.costs_of_offer: dict[
            tuple[int, ...], tuple[tuple[int, int, int, int, int, int], ...]
        ] = {}

    def ships_of(self, ships: list[int]) -> tuple[UseShip, ...]:
        """:meth:`unused_ships` for the legal moves, which ask it at every step: the marks
        rarely change, and comparing them with the last ones asked costs less than the
        tuple a lookup needs."""
        last = self.last_ships
        if ships == last[0]:
            return last[1]
        found = self.unused_ships(ships)
        self.last_ships = (ships[:], found)
        return found

    def unused_ships(self, ships: list[int]) -> tuple[UseShip, ...]:
        key = tuple(ships)
        found = self.ship_moves.get(key)
        if found is None:
            found = tuple(self.use_ship[i] for i, used in enumerate(ships) if used == SHIP_UNUSED)
            self.ship_moves[key] = found
        return found

    def offer(self, dice: tuple[int, ...]) -> tuple[tuple[str, bool], ...]:
        """What a column holding ``dice`` (indexes) offers, in the order the moves list it:
        (building, built through the wild d20)."""
        found = self.offers.get(dice)
        if found is None:
            direct: set[str] = set()
            wild = False
            for i in dice:
                building = self.sheet.dice[i].building
                if building == WILD:
                    wild = True
                else:
                    direct.add(building)
            offered: dict[str, bool] = {b: False for b in BUILDINGS if b in direct}
            if wild:
                for b in BUILDINGS:
                    offered.setdefault(b, True)
            found = self.offers[dice] = tuple(offered.items())
            self.offer_dicts[dice] = offered
        return found

    def offer_dict(self, dice: tuple[int, ...]) -> dict[str, bool]:
        """:meth:`offer` as a dictionary (shared: read it, never change it)."""
        found = self.offer_dicts.get(dice)
        if found is None:
            self.offer(dice)
            found = self.offer_dicts[dice]
        return found

    def offer_costs(self, dice: tuple[int, ...]) -> tuple[tuple[int, int, int, int, int, int], ...]:
        """For each building a column holding ``dice`` offers: its code, its basic cost and
        its favor cost on an ordinary hex and on a Sacred Site (the d20 adds its favor)."""
        found = self.costs_of_offer.get(dice)
        if found is None:
            sheet = self.sheet
            rows = []
            for building, wild in self.offer(dice):
                g, d, s, f = sheet.costs[building]
                f += sheet.wild_favor if wild else 0
                rows.append((CODES[building], g, d, s, f, f + sheet.sacred_favor))
            found = self.costs_of_offer[dice] = tuple(rows)
        return found

    def afford(
        self, dice: tuple[int, ...], have: Bundle, market: bool
    ) -> list[tuple[int, bool, bool]]:
        """For each building the column offers: its code, whether it can be paid on an
        ordinary hex and whether on a Sacred Site (one favor more).

        :func:`~karnak.games.egyptia.rules.market.affordable` worked out inline for both favor
        costs at once (every building decision asks it of up to five buildings). Worked out
        afresh each time: random play meets tens of thousands of holdings, and a memo that
        large missed half the time and cost more in cache misses than the sums it saved."""
        h0, h1, h2, h3 = have
        flags = []
        for code, c0, c1, c2, plain_favor, holy_favor in self.offer_costs(dice):
            if not market:
                basic = h0 >= c0 and h1 >= c1 and h2 >= c2
                flags.append((code, basic and h3 >= plain_favor, basic and h3 >= holy_favor))
                continue
            matched = (h0 if h0 < c0 else c0) + (h1 if h1 < c1 else c1) + (h2 if h2 < c2 else c2)
            spare_basic = h0 + h1 + h2 - matched
            short_basic = c0 + c1 + c2 - matched
            # the ordinary hex, then the Sacred Site (more favor)
            m3 = h3 if h3 < plain_favor else plain_favor
            by_favor = h3 - m3 if h3 - m3 < short_basic else short_basic
            plain = (
                BASIC_FOR_BASIC * (short_basic - by_favor) + BASIC_FOR_FAVOR * (plain_favor - m3)
                <= spare_basic
            )
            m3 = h3 if h3 < holy_favor else holy_favor
            by_favor = h3 - m3 if h3 - m3 < short_basic else short_basic
            holy = (
                BASIC_FOR_BASIC * (short_basic - by_favor) + BASIC_FOR_FAVOR * (holy_favor - m3)
                <= spare_basic
            )
            flags.append((code, plain, holy))
        return flags


def tables_of(sheet: Sheet) -> Tables:
    """The sheet's :class:`Tables` (made on first use, kept in the sheet's memo)."""
    found = sheet.memo.get("engine_tables")
    if found is None:
        found = sheet.memo["engine_tables"] = Tables(sheet)
    assert isinstance(found, Tables)
    return found


def _mound_gains(sheet: Sheet) -> list[Bundle]:
    amount = sheet.mound_basic
    gains: list[Bundle] = [
        (g, d, amount - g - d, 0) for g in range(amount, -1, -1) for d in range(amount - g, -1, -1)
    ]
    if sheet.mound_favor:
        gains.append((0, 0, 0, sheet.mound_favor))
    return gains


#: One shared Pay move per bundle (moves are frozen values).
_PAYS: Final[dict[Bundle, Pay]] = {}


def _pay_of(bundle: Bundle) -> Pay:
    found = _PAYS.get(bundle)
    if found is None:
        found = _PAYS[bundle] = Pay(bundle)
    return found


#: Each cost's table and its ways as Pay moves, in the table's order.
_PAY_ROWS: Final[dict[Bundle, tuple[CostTable, tuple[Pay, ...]]]] = {}


def _pay_moves(cost: Bundle, have: Bundle, market: bool) -> list[Action]:
    """The moves of paying ``cost`` from ``have`` (:func:`payments` as moves, a new list)."""
    if not market:
        return list(map(_pay_of, payments(cost, have, market)))
    row = _PAY_ROWS.get(cost)
    if row is None:
        table = cost_table(cost)
        row = _PAY_ROWS[cost] = (table, tuple(map(_pay_of, table.ways)))
    return picked(row[1], row[0].within(have))


@lru_cache(maxsize=4096)
def _frogs_moves(have: Bundle) -> tuple[Pay, ...]:
    return tuple(map(_pay_of, any_three(have)))


#: Whether a rules version is 1.1 or newer (waiting builders may use ships; the end-of-game
#: trade stops at the end of the favor track), by version.
_RULES_1_1: Final[dict[str, bool]] = {}


def article(title: str) -> str:
    return f"{'an' if title[0] in 'AEIOU' else 'a'} {title}"


#: "a Pyramid", "an Obelisk" ... by building name
ARTICLED: Final = {name: article(title) for name, title in TITLES.items()}
#: A bundle of ``amount`` of one resource, by resource index.
_ONE: Final[tuple[Callable[[int], Bundle], ...]] = (
    lambda a: (a, 0, 0, 0),
    lambda a: (0, a, 0, 0),
    lambda a: (0, 0, a, 0),
    lambda a: (0, 0, 0, a),
)


@lru_cache(maxsize=4096)
def _words(bundle: Bundle) -> str:
    """:func:`bundle_words`, remembered: every payment and gain writes a note."""
    return bundle_words(bundle)


def build_cost(sheet: Sheet, building: str, hex_index: int, wild: bool) -> Bundle:
    """What ``building`` costs on the hex ``hex_index``: the printed cost, a favor more
    through the wild d20 and on a Sacred Site (a Burial Mound is free everywhere)."""
    if building == MOUND:
        return (0, 0, 0, 0)
    g, d, s, f = sheet.costs[building]
    if wild:
        f += sheet.wild_favor
    if sheet.hexes[hex_index].sacred:
        f += sheet.sacred_favor
    return (g, d, s, f)


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


class EgyptiaState(State):
    """The whole game: the dice, the Pharaoh cards and every builder's sheet and round."""

    #: The game at the rules version this state plays (its sheet and rulings).
    game: Egyptia

    # per-seat lists copied element-wise (each element is a list)
    _SHEET: ClassVar[tuple[str, ...]] = (
        "circled",
        "spent",
        "productivity",
        "crossed",
        "ships",
        "city",
    )
    _ROUND: ClassVar[tuple[str, ...]] = (
        "stage",
        "column",
        "restriction",
        "pending",
        "deaths",
        "red",
        "round_notes",
    )

    def __init__(
        self,
        game: Egyptia,
        sheet: Sheet,
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
        self.sheet = sheet
        self.tables = tables_of(sheet)
        self.players = tuple(players)
        self.n = len(self.players)
        self.seed = seed
        self.options = dict(options)
        self.history: list[tuple[int, Action]] = []
        self.log = EventLog(log)  # off: the same play, no words
        self.rng = Rng(seed)
        self.round = 0
        self.over = False
        self.revealed = False
        self.cards: list[str] = []
        self.dice: list[int] = []  # the value of each die of sheet.dice this round
        #: the last roll whose columns were asked, never changed in place (clones share it)
        self._seen_dice: list[int] | None = None
        self._seen_columns: tuple[tuple[int, ...], ...] = ()
        n, hexes = self.n, len(sheet.hexes)
        # the sheets
        self.circled = [list(sheet.start) for _ in range(n)]
        self.spent = [[0, 0, 0, 0] for _ in range(n)]
        self.productivity = [[0, 0, 0] for _ in range(n)]
        self.crossed: list[list[str]] = [[] for _ in range(n)]
        self.ships = [[SHIP_UNUSED] * len(sheet.ships) for _ in range(n)]
        self.city = [[EMPTY] * hexes for _ in range(n)]
        self.deaths = [0] * n
        self.red = [False] * n
        # the round
        #: each builder's stage: change it only through the engine, which keeps ``_movers``
        self.stage = [CHOOSE] * n
        #: the builders with something to decide, in seat order (``None``: to be worked out).
        #: Kept as builders finish deciding, so that ``to_move`` does not read every stage
        #: at every step (a table of 99 builders spent a quarter of its time there).
        self._movers: tuple[int, ...] | None = None
        self.column = [-1] * n
        self.restriction: list[str | None] = [None] * n
        #: what a builder is paying for: ["plague", name] or ["build", building, hex, wild]
        self.pending: list[list[Any] | None] = [None] * n
        #: what each builder did this round after the reveal, shown to all at the round's end
        #: (words for people: written only while the log is on)
        self.round_notes: list[list[str]] = [[] for _ in range(n)]
        #: each sheet as the others last saw it (at the reveal or the end of a round)
        self.public: list[dict[str, Any]] = []
        #: the public sheets as views and scores, made once per publication (clones share it)
        self.public_cache: dict[int, dict[str, Any]] = {}
        self.final: list[dict[str, Any]] | None = None
        if fresh:
            self._draw_cards()
            self._start_round()

    # ------------------------------------------------------------------ setup
    def _draw_cards(self) -> None:
        chosen = self.options.get("cards") or ""
        wanted = [c.strip().upper() for c in str(chosen).split(",") if c.strip()]
        by_letter = {w[0]: w for w in wanted}
        t = self.tables
        for letter in LETTERS_OF_CARDS:
            if letter in by_letter:
                self.cards.append(by_letter[letter])
            else:
                self.cards.append(self.rng.choice(t.card_ids_of[letter]))
        if self.log.enabled:
            key = tuple(self.cards)
            texts = t.card_texts.get(key)
            if texts is None:
                texts = ", ".join(f"{c} ({self.sheet.card(c).text})" for c in self.cards)
                if len(t.card_texts) >= t.MEMO_LIMIT:
                    t.card_texts.clear()
                t.card_texts[key] = texts
            self.log.add("The Pharaoh's demands: {cards}.", cards=texts)

    def _start_round(self) -> None:
        self.round += 1
        self.revealed = False
        self.dice = self.rng.roll(self.tables.sides)
        n = self.n
        self.stage = [CHOOSE] * n
        self._movers = None
        self.column = [-1] * n
        self.restriction = [None] * n
        self.pending = [None] * n
        self.round_notes = [[] for _ in range(n)]
        self._publish()
        if self.log.enabled:  # search copies skip the words
            t = self.tables
            key = tuple(self.dice)
            shown = t.roll_texts.get(key)
            if shown is None:
                columns = self._columns()
                shown = "; ".join(
                    f"{RESOURCES[c]}: " + (", ".join(map(self._die_text, columns[c])) or "-")
                    for c in range(4)
                )
                if len(t.roll_texts) >= t.MEMO_LIMIT:
                    t.roll_texts.clear()
                t.roll_texts[key] = shown
            self.log.add("Round {round}: the dice fall as {dice}.", round=self.round, dice=shown)

    def _die_text(self, index: int) -> str:
        value = self.dice[index]
        texts = self.tables.die_texts[index]
        if 0 < value < len(texts):
            return texts[value]
        die = self.sheet.dice[index]
        return f"d{die.sides}={value} ({TITLES.get(die.building, 'any')})"

    # ------------------------------------------------------------------ reading the board
    def _columns(self) -> tuple[tuple[int, ...], ...]:
        """The dice (indexes) of each column this round: the sheet's remembered answer,
        kept for the roll it was asked for (a list compared is cheaper than a tuple made
        and hashed; the dice may also be set by hand, so they are compared every time)."""
        if self.dice == self._seen_dice:
            return self._seen_columns
        seen = self.dice[:]
        found = self.sheet.columns_of(seen)
        self._seen_dice, self._seen_columns = seen, found
        return found

    def _column_dice(self, column: int) -> tuple[int, ...]:
        """The dice (indexes) of ``column`` this round, as the remembered tuple."""
        return self._columns()[column]

    def dice_in(self, column: int) -> list[int]:
        """Indexes (into ``sheet.dice``) of the dice lying in ``column`` this round."""
        return list(self._columns()[column])

    def column_size(self, column: int) -> int:
        return len(self._columns()[column])

    def have(self, seat: int) -> Bundle:
        c, s = self.circled[seat], self.spent[seat]
        return (c[0] - s[0], c[1] - s[1], c[2] - s[2], c[3] - s[3])

    def modifier(self, seat: int, resource: int) -> int:
        steps = self.productivity[seat][resource] if resource < FAVOR else 0
        return self.sheet.steps[steps - 1] if steps else 0

    def market_open(self, seat: int) -> bool:
        return self.restriction[seat] != "darkness"

    def empty_hexes(self, seat: int) -> list[int]:
        city = self.city[seat]
        return [i for i in self.tables.buildable if city[i] == EMPTY]

    def allowed_hexes(self, seat: int, restriction: str | None = None) -> list[int]:
        """Empty hexes the builder may build on under this round's plague."""
        rule = restriction if restriction is not None else self.restriction[seat]
        city = self.city[seat]
        buildable = self.tables.buildable
        if rule == "darkness":
            sacred = self.tables.sacred
            return [h for h in buildable if city[h] == EMPTY and not sacred[h]]
        if rule == "boils":
            near = self.tables.near_oasis
            return [h for h in buildable if city[h] == EMPTY and h not in near]
        return [h for h in buildable if city[h] == EMPTY]

    def offered_buildings(self, seat: int) -> dict[str, bool]:
        """Buildings the chosen column offers: name -> built through the wild d20."""
        if self.restriction[seat] == "death":
            return {}
        return dict(self.tables.offer_dict(self._column_dice(self.column[seat])))

    def build_cost(self, building: str, hex_index: int, wild: bool) -> Bundle:
        return build_cost(self.sheet, building, hex_index, wild)

    def mound_gains(self) -> list[Bundle]:
        return _mound_gains(self.sheet)

    # ------------------------------------------------------------------ who decides
    def to_move(self) -> tuple[int, ...]:
        if self.over:
            return ()
        movers = self._movers
        if movers is None:
            stage = self.stage
            movers = self._movers = tuple([s for s in range(self.n) if stage[s] in _DECIDING])
        return movers

    def _settled(self, seat: int) -> bool:
        """``seat`` has stopped deciding (chosen its column, or done for the round): take it
        off the movers. Whether nobody is left deciding (then the round moves on)."""
        movers = self._movers
        if movers is None:
            movers = self.to_move()
        if movers and movers[0] == seat:  # random play and the bots take the first mover
            movers = movers[1:]
        else:
            movers = tuple([s for s in movers if s != seat])
        self._movers = movers
        return not movers

    def is_simultaneous(self) -> bool:
        return not self.over

    def legal_actions(self, seat: int) -> list[Action]:
        if self.over or not 0 <= seat < self.n:
            return []
        stage = self.stage[seat]
        t = self.tables
        ships = t.ships_of(self.ships[seat])
        moves: list[Action]
        if stage == BUILD:
            moves = self._build_moves(seat)
        elif stage == CHOOSE:
            return [*t.choose, *ships]
        elif stage == GAIN:
            return [*t.gains, *ships]
        elif stage in (PLAGUE_PAY, BUILD_PAY):
            moves = self._pay_moves(seat)
        elif stage == PLAGUE:
            moves = self._plague_moves(seat)
        else:
            # A builder waiting for the others (column chosen, or done building) may still
            # use a ship: the book allows it at any point of the game (rules 1.1).
            return list(ships) if self._rules_1_1() else []
        moves += ships
        return moves

    def _rules_1_1(self) -> bool:
        """Whether the game plays rules 1.1 or newer (asked on many moves, so remembered
        by version)."""
        version = self.game.version
        found = _RULES_1_1.get(version)
        if found is None:
            found = _RULES_1_1[version] = self.game.rules_at_least("1.1")
        return found

    def _plague_moves(self, seat: int) -> list[Action]:
        have = self.have(seat)
        crossed = self.crossed[seat]
        t = self.tables
        moves: list[Action] = []
        for name in PLAGUES:
            if name in crossed:
                continue
            if name in PLAGUE_COST:
                if not affordable(PLAGUE_COST[name], have, True):
                    continue
            elif name == "frogs":
                if sum(have) < 3:
                    continue
            elif name in ("darkness", "boils"):
                if not self.allowed_hexes(seat, name):
                    continue
            elif name == "hail-fire":
                moves.extend(
                    t.hail_fire[i] for i, used in enumerate(self.ships[seat]) if used == SHIP_UNUSED
                )
                continue
            moves.append(t.plague[name])
        return moves

    def _build_moves(self, seat: int) -> list[Action]:
        t = self.tables
        rule = self.restriction[seat]
        city = self.city[seat]
        hexes = [h for h in t.buildable if city[h] == EMPTY]
        if rule is not None:
            if rule == "darkness":
                sacred = t.sacred
                hexes = [h for h in hexes if not sacred[h]]
            elif rule == "boils":
                near = t.near_oasis
                hexes = [h for h in hexes if h not in near]
        if len(hexes) < 2:  # itemgetter below wants two hexes or more to give a tuple
            return self._build_moves_on(seat, hexes)
        moves: list[Action] = []
        pick = itemgetter(*hexes)
        if rule != "death":
            dice = self._columns()[self.column[seat]]
            c, s = self.circled[seat], self.spent[seat]
            have = (c[0] - s[0], c[1] - s[1], c[2] - s[2], c[3] - s[3])
            flags = t.afford(dice, have, rule != "darkness")
            plain_hexes: list[int] | None = None
            holy_hexes: list[int] | None = None
            for code, plain, holy in flags:
                row = t.builds[code]
                if plain and holy:
                    moves += pick(row)
                elif plain:
                    if plain_hexes is None:
                        sacred = t.sacred
                        plain_hexes = [h for h in hexes if not sacred[h]]
                    moves += [row[h] for h in plain_hexes]
                elif holy:
                    if holy_hexes is None:
                        sacred = t.sacred
                        holy_hexes = [h for h in hexes if sacred[h]]
                    moves += [row[h] for h in holy_hexes]
        moves += pick(t.builds[MOUND_CODE])
        return moves

    def _build_moves_on(self, seat: int, hexes: list[int]) -> list[Action]:
        """:meth:`_build_moves` on the given hexes (the general way, for one hex or none)."""
        t = self.tables
        rule = self.restriction[seat]
        moves: list[Action] = []
        if rule != "death":
            dice = self._columns()[self.column[seat]]
            sacred = t.sacred
            for code, plain, holy in t.afford(dice, self.have(seat), rule != "darkness"):
                row = t.builds[code]
                moves += [row[h] for h in hexes if (holy if sacred[h] else plain)]
        row = t.builds[MOUND_CODE]
        moves += [row[h] for h in hexes]
        return moves

    def _pay_moves(self, seat: int) -> list[Action]:
        """The ways to pay what is pending, as a new list of moves."""
        pending = self.pending[seat]
        assert pending is not None
        have = self.have(seat)
        if pending[0] == "plague":
            name = pending[1]
            if name == "frogs":
                return list(_frogs_moves(have))
            return _pay_moves(PLAGUE_COST[name], have, True)
        _, building, hex_index, wild = pending
        return _pay_moves(
            self.build_cost(building, hex_index, wild), have, self.restriction[seat] != "darkness"
        )

    def _single_payment(self, seat: int) -> Bundle | None:
        """The pending cost's payment when there is only one way (then nobody is asked)."""
        pending = self.pending[seat]
        assert pending is not None
        if pending[0] == "plague" and pending[1] == "frogs":
            ways = any_three(self.have(seat))
            return ways[0] if len(ways) == 1 else None
        if pending[0] == "plague":
            return only_way(PLAGUE_COST[pending[1]], self.have(seat), True)
        _, building, hex_index, wild = pending
        cost = self.build_cost(building, hex_index, wild)
        return only_way(cost, self.have(seat), self.market_open(seat))

    def explain_illegal(self, seat: int, action: Action) -> str:
        stage = self.stage[seat] if 0 <= seat < self.n else None
        if isinstance(action, UseShip):
            if not 1 <= action.ship <= len(self.sheet.ships):
                return f"the ships are numbered 1 to {len(self.sheet.ships)}"
            return "that ship is already crossed off"
        if stage is None or stage not in DECIDING:
            if stage is not None and not self.over:
                waiting = "chosen your column" if stage == CHOSEN else "built this round"
                return f"you have {waiting} and wait for the others; meanwhile only a ship"
            return "you have nothing to decide now"
        if isinstance(action, Choose):
            return "the column is chosen at the start of the round" + (
                "" if stage == CHOOSE else ", and yours is chosen"
            )
        if isinstance(action, Plague):
            ships = len(self.sheet.ships)
            if action.name == "hail-fire" and not 1 <= action.ship <= ships:
                return f"the ships are numbered 1 to {ships}"
            if stage != PLAGUE:
                return "a plague is suffered only after choosing a column of 3 or more dice"
            if action.name in self.crossed[seat]:
                return f"{PLAGUE_TITLES[action.name]} is already crossed off your sheet"
            return "you cannot pay for or keep to that plague now"
        if isinstance(action, Build):
            if stage != BUILD:
                return f"you are {STAGE_NAMES[stage]}"
            index = self.sheet.by_label.get(action.hex)
            if index is None:
                return f"there is no hex {action.hex} on the sheet"
            if index == self.sheet.oasis:
                return "nothing may be built on the Oasis"
            if self.city[seat][index] != EMPTY:
                return f"{action.hex} is already built on"
            if index not in self.allowed_hexes(seat):
                return f"{PLAGUE_TITLES[self.restriction[seat] or 'death']} forbids that hex"
            offered = self.offered_buildings(seat)
            if action.building != MOUND and action.building not in offered:
                if self.restriction[seat] == "death":
                    return "Death makes you build a Burial Mound this round"
                return "no die in your column shows that building"
            return "you cannot pay for it"
        if isinstance(action, Pay):
            if stage not in (PLAGUE_PAY, BUILD_PAY):
                return "there is nothing to pay for now"
            return "that is not a way to pay the cost (market: 2 basic for 1, 3 basic for a favor)"
        if isinstance(action, Gain):
            if stage != GAIN:
                return "only a Burial Mound gives resources"
            return f"a Burial Mound gives {self.sheet.mound_basic} basic resources or a favor"
        return "it is not among the legal actions at this point"

    # ------------------------------------------------------------------ applying
    def apply_unchecked(self, seat: int, action: Action) -> None:
        self.history.append((seat, action))
        # the kinds are disjoint, so the order only puts the frequent ones first
        if isinstance(action, Build):
            self._build(seat, action.building, self.sheet.by_label[action.hex])
        elif isinstance(action, Choose):
            self._choose(seat, action.column)
        elif isinstance(action, Pay):
            self._pay(seat, action.bundle)
        elif isinstance(action, Gain):
            self._gain_mound(seat, action.bundle)
        elif isinstance(action, UseShip):
            self._use_ship(seat, action.ship - 1)
        elif isinstance(action, Plague):
            self._plague(seat, action.name, action.ship - 1)
        else:  # pragma: no cover - the parser makes only these kinds
            raise TypeError(f"not an Egyptia move: {action!r}")

    def _note(self, seat: int, text: str) -> None:
        """A private line now; the round's notes are shown to everyone at its end.

        Notes are words for people, kept with the log: callers write them only while the
        log is on (search copies switch it off and skip the formatting)."""
        self.round_notes[seat].append(text)
        if self.n > 1:  # alone, the round's end tells the same
            self.log.add("{who} {what}.", audience=(seat,), who=self.players[seat], what=text)

    def _circle(self, seat: int, bundle: Bundle) -> Bundle:
        """Circle resources on the tracks (what does not fit on a track is lost)."""
        circled = self.circled[seat]
        d0, d1, d2, d3 = self.tables.dots
        a0, a1, a2, a3 = bundle
        room = d0 - circled[0]
        t0 = a0 if a0 < room else room
        room = d1 - circled[1]
        t1 = a1 if a1 < room else room
        room = d2 - circled[2]
        t2 = a2 if a2 < room else room
        room = d3 - circled[3]
        t3 = a3 if a3 < room else room
        circled[0] += t0
        circled[1] += t1
        circled[2] += t2
        circled[3] += t3
        r0, r1, r2, r3 = self.tables.red_from
        if circled[0] > r0 or circled[1] > r1 or circled[2] > r2 or circled[3] > r3:
            self.red[seat] = True
        return (t0, t1, t2, t3)

    def _choose(self, seat: int, column: int) -> None:
        self.column[seat] = column
        self.stage[seat] = CHOSEN
        everyone = self._settled(seat)
        if self.log.enabled:
            self.log.add(
                "{who} chooses the {column} column.",
                audience=(seat,),
                who=self.players[seat],
                column=RESOURCES[column],
            )
        if everyone:  # before the reveal a builder is choosing or has chosen
            self._reveal()

    def _reveal(self) -> None:
        self.revealed = True
        columns = self._columns()
        log = self.log.enabled
        stage = self.stage
        steps = self.sheet.steps
        for seat in range(self.n):
            column = self.column[seat]
            size = len(columns[column])
            step = self.productivity[seat][column] if column < FAVOR else 0
            amount = size + steps[step - 1] if step else size  # the productivity bonus
            bundle = _ONE[column](amount)
            got = self._circle(seat, bundle)[column]
            if log:
                plague = " and must suffer a plague" if size >= 3 else ""
                lost = f" ({amount - got} do not fit on the track)" if got < amount else ""
                self.log.add(
                    "{who} takes the {column} column ({size}): {got} {column}{lost}{plague}.",
                    who=self.players[seat],
                    column=RESOURCES[column],
                    size=plural(size, "die", "dice"),
                    got=got,
                    lost=lost,
                    plague=plague,
                )
            stage[seat] = PLAGUE if size >= 3 else BUILD
        self._movers = None
        self._publish()

    def _use_ship(self, seat: int, ship: int) -> None:
        self.ships[seat][ship] = SHIP_USED
        got = self._circle(seat, self.sheet.ships[ship])
        if self.log.enabled:
            self._note(seat, f"uses ship {ship + 1} for {_words(got)}")

    def _plague(self, seat: int, name: str, ship: int) -> None:
        if name != "death":
            self.crossed[seat].append(name)
        else:
            self.deaths[seat] += 1
        words = self.log.enabled
        self.stage[seat] = BUILD
        if name in RESTRICTIONS:
            self.restriction[seat] = name
            if words:
                self._note(seat, f"suffers {PLAGUE_TITLES[name]}")
        elif name == "hail-fire":
            self.ships[seat][ship] = SHIP_LOST
            if words:
                self._note(seat, f"suffers Hail-fire: ship {ship + 1} is lost")
        elif name == "pestilence":
            if words:
                points = self.sheet.pestilence_points
                self._note(seat, f"suffers Pestilence ({points} points at the end)")
        else:
            self.pending[seat] = ["plague", name]
            single = self._single_payment(seat)
            if single is not None:
                self._pay(seat, single)
            else:
                self.stage[seat] = PLAGUE_PAY

    def _build(self, seat: int, building: str, hex_index: int) -> None:
        if building == MOUND:
            self.city[seat][hex_index] = MOUND_CODE
            if self.log.enabled:
                self._note(seat, f"builds a Burial Mound on {self.tables.labels[hex_index]}")
            self.stage[seat] = GAIN
            return
        if self.restriction[seat] == "death":
            raise KeyError(building)  # as reading the empty offer would: nothing is offered
        t = self.tables
        sheet = self.sheet
        dice = self._columns()[self.column[seat]]
        offered = t.offer_dicts.get(dice)
        if offered is None:
            offered = t.offer_dict(dice)
        wild = offered[building]
        g, d, s, f = sheet.costs[building]  # build_cost, inline
        if wild:
            f += sheet.wild_favor
        if t.sacred[hex_index]:
            f += sheet.sacred_favor
        self.pending[seat] = ["build", building, hex_index, wild]
        # whether to ask at all: only when there is more than one way to pay
        c, p = self.circled[seat], self.spent[seat]
        have = (c[0] - p[0], c[1] - p[1], c[2] - p[2], c[3] - p[3])
        single = only_way((g, d, s, f), have, self.restriction[seat] != "darkness")
        if single is not None:
            self._pay(seat, single)
        else:
            self.stage[seat] = BUILD_PAY

    def _pay(self, seat: int, bundle: Bundle) -> None:
        pending = self.pending[seat]
        assert pending is not None
        self.pending[seat] = None
        spent = self.spent[seat]
        spent[0] += bundle[0]
        spent[1] += bundle[1]
        spent[2] += bundle[2]
        spent[3] += bundle[3]
        words = self.log.enabled
        if pending[0] == "plague":
            if words:
                title = PLAGUE_TITLES[pending[1]]
                self._note(seat, f"suffers {title}, losing {_words(bundle)}")
            self.stage[seat] = BUILD
            return
        _, building, hex_index, wild = pending
        self.city[seat][hex_index] = CODES[building]
        track = self.sheet.productivity.get(building)
        boost = ""
        if track is not None and self.productivity[seat][track] < len(self.sheet.steps):
            self.productivity[seat][track] += 1
            if words:
                boost = f" ({RESOURCES[track]} productivity +{self.modifier(seat, track)})"
        if words:
            how = " through the d20" if wild else ""
            self._note(
                seat,
                f"builds {ARTICLED[building]}{how} on {self.tables.labels[hex_index]}, "
                f"paying {_words(bundle)}{boost}",
            )
        self._finish(seat)

    def _gain_mound(self, seat: int, bundle: Bundle) -> None:
        got = self._circle(seat, bundle)
        if self.log.enabled:
            self._note(seat, f"takes {_words(got)} for the Burial Mound")
        self._finish(seat)

    def _finish(self, seat: int) -> None:
        self.stage[seat] = DONE
        if self._settled(seat):  # after the reveal nobody waits but those done
            self._end_round()

    def _end_round(self) -> None:
        if self.log.enabled:
            for seat in range(self.n):
                self.log.add(
                    "{who} {what}.", who=self.players[seat], what="; ".join(self.round_notes[seat])
                )
            built = sum(1 for b in self.city[0] if b != EMPTY)
            self.log.add(
                "Round {round} ends: every city has {built}.",
                round=self.round,
                built=plural(built, "building"),
            )
        # full: no hex is empty but the oasis (the sheet has exactly one; never built on,
        # though a hand may set it)
        oasis = self.sheet.oasis
        full = True
        for city in self.city:
            if city.count(EMPTY) > (city[oasis] == EMPTY):
                full = False
                break
        red = any(self.red)
        if full or red:
            if self.log.enabled:
                reds = ", ".join(self.players[s] for s in range(self.n) if self.red[s])
                why = "the maps are full" if full else f"{reds} circled a red dot"
                self.log.add("The game ends: {why}.", why=why)
            self._finish_game()
        else:
            self._start_round()

    def _finish_game(self) -> None:
        self.over = True
        for seat in range(self.n):
            self.stage[seat] = DONE
        self._movers = ()
        self._publish()
        self.final = [self.score_sheet(s) for s in range(self.n)]
        if not self.log.enabled:  # search copies skip the words
            return
        for seat, result in enumerate(self.final):
            parts = ", ".join(f"{c['card']} {c['points']}" for c in result["cards"])
            self.log.add(
                "{who} scores {total}: {parts}, favor {favor}, ships {ships}, pestilence {pest}.",
                who=self.players[seat],
                total=result["total"],
                parts=parts,
                favor=result["favor_points"],
                ships=result["ship_points"],
                pest=-result["pestilence"],
            )
        if self.n == 1:
            self.log.add("Builder status: {rank}.", rank=self.sheet.rank(self.final[0]["total"]))

    # ------------------------------------------------------------------ scoring
    def score_sheet(self, seat: int, view: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Points of a sheet: each Pharaoh card (with its parts), favor, ships, pestilence.

        ``view`` scores a published snapshot instead of the live sheet (what others see).
        """
        if view is not None:
            city, circled, spent = view["city"], view["circled"], view["spent"]
            ship_marks, crossed = view["ships"], view["crossed"]
        else:  # the live sheet, read in place (nothing here changes it)
            city, circled, spent = self.city[seat], self.circled[seat], self.spent[seat]
            ship_marks, crossed = self.ships[seat], self.crossed[seat]
        have = tuple(c - s for c, s in zip(circled, spent, strict=True))
        sheet = self.sheet
        cards: list[dict[str, Any]] = []
        card_total = 0
        for card_id in self.cards:
            parts = card_parts(sheet, sheet.cards_by_id[card_id], city)
            points = sum(parts)
            card_total += points
            cards.append({"card": card_id, "parts": parts, "points": points})
        # The trade circles favor on its track: it stops where the track ends (rules 1.1).
        ships = list(ship_marks).count(SHIP_UNUSED)
        favor, favor_points, ship_points, pestilence = end_extras(
            sheet, have, circled, ships, "pestilence" in crossed, self._rules_1_1()
        )
        total = card_total + favor_points + ship_points - pestilence
        return {
            "cards": cards,
            "favor": favor,
            "favor_points": favor_points,
            "ships_unused": ships,
            "ship_points": ship_points,
            "pestilence": pestilence,
            "plagues": len(crossed),
            "total": total,
        }

    def is_over(self) -> bool:
        return self.over

    def scores(self) -> list[int]:
        if self.final is not None:
            return [r["total"] for r in self.final]
        return [self.score_sheet(s)["total"] for s in range(self.n)]

    def ranking_key(self, seat: int) -> tuple[int, ...]:
        """Points, then fewer plagues crossed off, then more unused favor; else shared."""
        result = self.final[seat] if self.final is not None else self.score_sheet(seat)
        return (result["total"], -result["plagues"], result["favor"])

    def solo_rank(self) -> str | None:
        if self.n != 1 or not self.over:
            return None
        return self.sheet.rank(self.scores()[0])

    # ------------------------------------------------------------------ seeing
    def _sheet_of(self, seat: int) -> dict[str, Any]:
        return {
            "circled": self.circled[seat][:],
            "spent": self.spent[seat][:],
            "productivity": self.productivity[seat][:],
            "crossed": self.crossed[seat][:],
            "deaths": self.deaths[seat],
            "ships": self.ships[seat][:],
            "city": self.city[seat][:],
            "red": self.red[seat],
        }

    def _publish(self) -> None:
        """The moment every sheet becomes public (the reveal, a round's end)."""
        if self.n == 1:
            self.public = [self._sheet_of(0)]
        else:
            self.public = list(map(self._sheet_of, range(self.n)))
        self.public_cache = {}

    def public_stage(self, seat: int) -> str:
        """What the others may know of a builder's progress: deciding, waiting or done."""
        stage = self.stage[seat]
        if stage == CHOSEN:
            return "chosen"
        if stage == DONE:
            return "done"
        return "choosing" if stage == CHOOSE else "building"

    def private_step(self, seat: int, before: State) -> bool:
        """A step after which the others still see the builder at the same stage of the
        same round: their views do not change at all (tested by the property suite)."""
        return (
            isinstance(before, EgyptiaState)
            and not self.over
            and self.round == before.round
            and self.revealed == before.revealed
            and self.public_stage(seat) == before.public_stage(seat)
        )

    def observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see, in the shape
        :class:`~karnak.games.egyptia.view.EgyptiaObservation` declares."""
        from karnak.games.egyptia.view import observe

        return cast(dict[str, Any], observe(self, seat))

    def observation_tensor(self, seat: int) -> FloatVector:
        from karnak.games.egyptia.research.tensors import observation_tensor

        return observation_tensor(self, seat)

    def information_state_tensor(self, seat: int) -> FloatVector:
        from karnak.games.egyptia.research.tensors import information_state_tensor

        return information_state_tensor(self, seat)

    def observation_string(self, seat: int) -> str:
        from karnak.games.egyptia.research.tensors import observation_string

        return observation_string(self, seat)

    def resample(self, seat: int, rng: Rng, *, history: bool = True) -> EgyptiaState:
        """Re-deal what ``seat`` cannot see: the others' sealed columns and their steps since
        the last public moment (drawn anew from what they were known to have done), and
        every future roll."""
        world = self.clone(log=False)
        world.history = []
        world.rng = Rng(rng.next_u64())
        for other in range(self.n):
            if other == seat:
                continue
            world._restore_public(other)
        for other in range(self.n):
            if other == seat or self.over:
                continue
            target = self.public_stage(other)
            if target in ("chosen", "done"):
                world._play_randomly(other, target, rng)
        if history:
            self._keep_history(world, seat)
        return world

    def _restore_public(self, seat: int) -> None:
        snapshot = self.public[seat]
        self.circled[seat] = list(snapshot["circled"])
        self.spent[seat] = list(snapshot["spent"])
        self.productivity[seat] = list(snapshot["productivity"])
        self.crossed[seat] = list(snapshot["crossed"])
        self.deaths[seat] = snapshot["deaths"]
        self.ships[seat] = list(snapshot["ships"])
        self.city[seat] = list(snapshot["city"])
        self.red[seat] = snapshot["red"]
        self.restriction[seat] = None
        self.pending[seat] = None
        self.round_notes[seat] = []
        self._movers = None
        if self.over:
            return
        if not self.revealed:
            self.stage[seat] = CHOOSE
            self.column[seat] = -1
        else:
            self.stage[seat] = PLAGUE if self.column_size(self.column[seat]) >= 3 else BUILD

    def _play_randomly(self, seat: int, target: str, rng: Rng) -> None:
        """Bring a builder to ``target`` (chosen / done) by random moves, ships left alone."""
        goal = CHOSEN if target == "chosen" else DONE
        while self.stage[seat] != goal and not self.over:
            if self.stage[seat] == BUILD:
                move = self._random_build(seat, rng)
            else:
                moves = [m for m in self.legal_actions(seat) if not isinstance(m, UseShip)]
                move = moves[rng.below(len(moves))]
            self.apply_unchecked(seat, move)

    def _random_build(self, seat: int, rng: Rng) -> Action:
        """A random legal building: a hex first, then what may stand there (listing every
        building on every hex made resampling a table of 99 builders slow)."""
        hexes = self.allowed_hexes(seat)
        where = hexes[rng.below(len(hexes))]
        have, market = self.have(seat), self.market_open(seat)
        choices = [
            building
            for building, wild in self.offered_buildings(seat).items()
            if affordable(self.build_cost(building, where, wild), have, market)
        ]
        choices.append(MOUND)
        return Build(choices[rng.below(len(choices))], self.sheet.hexes[where].label)

    # ------------------------------------------------------------------ copies
    def clone(self, *, log: bool = True) -> EgyptiaState:
        # Field by field through ``__init__`` (not ``__new__`` and ``__dict__``): a compiled
        # class always runs ``__init__`` and keeps its fields in slots.
        other = EgyptiaState(self.game, self.sheet, self.players, self.seed, {}, blank=True)
        other.game, other.sheet, other.tables = self.game, self.sheet, self.tables
        other.players, other.n, other.seed, other.options = (
            self.players,
            self.n,
            self.seed,
            self.options,
        )
        other.round, other.over, other.revealed = self.round, self.over, self.revealed
        other.cards = self.cards  # drawn once at the start, never changed
        other._seen_dice, other._seen_columns = self._seen_dice, self._seen_columns
        other.public, other.public_cache = self.public, self.public_cache
        other.final = self.final
        other.history = self.history[:]
        other.log = self.log.copy(enabled=True) if log and self.log.enabled else EventLog(False)
        other.rng = Rng(self.rng.state)
        other.dice = self.dice[:]
        # per-seat lists copied element-wise (each element is a list)
        other.circled = [x[:] for x in self.circled]
        other.spent = [x[:] for x in self.spent]
        other.productivity = [x[:] for x in self.productivity]
        other.crossed = [x[:] for x in self.crossed]
        other.ships = [x[:] for x in self.ships]
        other.city = [x[:] for x in self.city]
        other.stage = self.stage[:]
        other._movers = self._movers  # a tuple, replaced and never changed in place
        other.column = self.column[:]
        other.restriction = self.restriction[:]
        other.pending = [None if p is None else p[:] for p in self.pending]
        other.deaths = self.deaths[:]
        other.red = self.red[:]
        other.round_notes = [x[:] for x in self.round_notes]
        # published snapshots and the final result are replaced, never changed in place
        return other

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            **self.common_json(),
            "round": self.round,
            "over": self.over,
            "revealed": self.revealed,
            "cards": list(self.cards),
            "dice": list(self.dice),
            "stage": list(self.stage),
            "column": list(self.column),
            "restriction": list(self.restriction),
            "pending": [None if p is None else list(p) for p in self.pending],
            "deaths": list(self.deaths),
            "red": list(self.red),
            "round_notes": [list(x) for x in self.round_notes],
            "public": [dict(p) for p in self.public],
            "final": self.final,
        }
        for name in self._SHEET:
            data[name] = [list(x) for x in getattr(self, name)]
        return data

    @classmethod
    def from_json(cls, game: Egyptia, sheet: Sheet, data: Mapping[str, Any]) -> EgyptiaState:
        state = cls(game, sheet, data["players"], data["seed"], data["options"], fresh=False)
        state.restore_common(data)
        state.round = int(data["round"])
        state.over = bool(data["over"])
        state.revealed = bool(data["revealed"])
        state.cards = list(data["cards"])
        state.dice = list(data["dice"])
        state.stage = list(data["stage"])
        state._movers = None
        state.column = list(data["column"])
        state.restriction = list(data["restriction"])
        state.pending = [None if p is None else list(p) for p in data["pending"]]
        state.deaths = list(data["deaths"])
        state.red = list(data["red"])
        state.round_notes = [list(x) for x in data["round_notes"]]
        state.public = [dict(p) for p in data["public"]]
        state.final = data["final"]
        for name in cls._SHEET:
            setattr(state, name, [list(x) for x in data[name]])
        return state


__all__ = ["EgyptiaState"]
