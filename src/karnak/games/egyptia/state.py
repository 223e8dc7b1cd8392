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

from collections.abc import Mapping, Sequence
from typing import Any

from karnak.core.actions import Action
from karnak.core.events import EventLog
from karnak.core.rng import Rng
from karnak.core.state import State
from karnak.core.tensors import FloatVector
from karnak.games.egyptia.actions import (
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
from karnak.games.egyptia.market import affordable, any_three, end_favor, only_way, payments
from karnak.games.egyptia.pharaoh import EMPTY, card_parts
from karnak.games.egyptia.sheet import (
    BUILDINGS,
    FAVOR,
    LETTERS_OF_CARDS,
    MOUND,
    RESOURCES,
    WILD,
    Bundle,
    Sheet,
)

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
DECIDING = (CHOOSE, PLAGUE, PLAGUE_PAY, BUILD, BUILD_PAY, GAIN)
STAGE_NAMES = {
    CHOOSE: "choosing a column",
    CHOSEN: "has chosen a column",
    PLAGUE: "choosing a plague",
    PLAGUE_PAY: "paying for the plague",
    BUILD: "choosing a building",
    BUILD_PAY: "paying for the building",
    GAIN: "taking the Burial Mound's resources",
    DONE: "done for this round",
}
MOUND_CODE = len(BUILDINGS)
CODES = {**{name: i for i, name in enumerate(BUILDINGS)}, MOUND: MOUND_CODE}
NAMES = (*BUILDINGS, MOUND)
TITLES = {
    "pyramid": "Pyramid",
    "quarry": "Quarry",
    "mine": "Mine",
    "obelisk": "Obelisk",
    "field": "Field",
    "mound": "Burial Mound",
}
PLAGUE_COST: dict[str, Bundle] = {
    "locusts": (2, 0, 0, 0),
    "blood": (0, 2, 0, 0),
    "dust-storm": (0, 0, 2, 0),
    "flies": (0, 0, 0, 1),
}
SHIP_UNUSED, SHIP_USED, SHIP_LOST = 0, 1, 2
#: Plagues crossed off the sheet (Death is never crossed off: it may come again).
CROSSABLE = tuple(p for p in PLAGUES if p != "death")
#: Plagues that only restrict this round's building.
RESTRICTIONS = ("darkness", "boils", "death")


def article(title: str) -> str:
    return f"{'an' if title[0] in 'AEIOU' else 'a'} {title}"


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


class EgyptiaState(State):
    """The whole game: the dice, the Pharaoh cards and every builder's sheet and round."""

    # per-seat lists copied element-wise (each element is a list)
    _SHEET = ("circled", "spent", "productivity", "crossed", "ships", "city")
    _ROUND = ("stage", "column", "restriction", "pending", "deaths", "red", "round_notes")

    def __init__(
        self,
        game: Any,
        sheet: Sheet,
        players: Sequence[str],
        seed: int,
        options: Mapping[str, Any],
        *,
        fresh: bool = True,
    ):
        self.game = game
        self.sheet = sheet
        self.players = tuple(players)
        self.n = len(self.players)
        self.seed = seed
        self.options = dict(options)
        self.history: list[tuple[int, Action]] = []
        self.log = EventLog()
        self.rng = Rng(seed)
        self.round = 0
        self.over = False
        self.revealed = False
        self.cards: list[str] = []
        self.dice: list[int] = []  # the value of each die of sheet.dice this round
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
        self.stage = [CHOOSE] * n
        self.column = [-1] * n
        self.restriction: list[str | None] = [None] * n
        #: what a builder is paying for: ["plague", name] or ["build", building, hex, wild]
        self.pending: list[list[Any] | None] = [None] * n
        #: what each builder did this round after the reveal, shown to all at the round's end
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
        for letter in LETTERS_OF_CARDS:
            if letter in by_letter:
                self.cards.append(by_letter[letter])
            else:
                self.cards.append(self.rng.choice(self.sheet.cards_of(letter)).id)
        texts = ", ".join(f"{c} ({self.sheet.card(c).text})" for c in self.cards)
        self.log.add("The Pharaoh's demands: {cards}.", cards=texts)

    def _start_round(self) -> None:
        self.round += 1
        self.revealed = False
        self.dice = [1 + self.rng.below(d.sides) for d in self.sheet.dice]
        for s in range(self.n):
            self.stage[s] = CHOOSE
            self.column[s] = -1
            self.restriction[s] = None
            self.pending[s] = None
            self.round_notes[s] = []
        self._publish()
        if self.log.enabled:  # search copies skip the words
            shown = "; ".join(
                f"{RESOURCES[c]}: " + (", ".join(self._die_text(i) for i in self.dice_in(c)) or "-")
                for c in range(4)
            )
            self.log.add("Round {round}: the dice fall as {dice}.", round=self.round, dice=shown)

    def _die_text(self, index: int) -> str:
        die = self.sheet.dice[index]
        return f"d{die.sides}={self.dice[index]} ({TITLES.get(die.building, 'any')})"

    # ------------------------------------------------------------------ reading the board
    def dice_in(self, column: int) -> list[int]:
        """Indexes (into ``sheet.dice``) of the dice lying in ``column`` this round."""
        return list(self.sheet.columns_of(tuple(self.dice))[column])

    def column_size(self, column: int) -> int:
        return len(self.sheet.columns_of(tuple(self.dice))[column])

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
        return [i for i in self.sheet.buildable if city[i] == EMPTY]

    def allowed_hexes(self, seat: int, restriction: str | None = None) -> list[int]:
        """Empty hexes the builder may build on under this round's plague."""
        rule = restriction if restriction is not None else self.restriction[seat]
        hexes = self.empty_hexes(seat)
        if rule == "darkness":
            hexes = [h for h in hexes if not self.sheet.hexes[h].sacred]
        elif rule == "boils":
            near = self.sheet.neighbours[self.sheet.oasis]
            hexes = [h for h in hexes if h not in near]
        return hexes

    def offered_buildings(self, seat: int) -> dict[str, bool]:
        """Buildings the chosen column offers: name -> built through the wild d20."""
        if self.restriction[seat] == "death":
            return {}
        direct: set[str] = set()
        wild = False
        for i in self.dice_in(self.column[seat]):
            building = self.sheet.dice[i].building
            if building == WILD:
                wild = True
            else:
                direct.add(building)
        offered = {b: False for b in BUILDINGS if b in direct}
        if wild:
            for b in BUILDINGS:
                offered.setdefault(b, True)
        return offered

    def build_cost(self, building: str, hex_index: int, wild: bool) -> Bundle:
        if building == MOUND:
            return (0, 0, 0, 0)
        g, d, s, f = self.sheet.costs[building]
        if wild:
            f += self.sheet.wild_favor
        if self.sheet.hexes[hex_index].sacred:
            f += self.sheet.sacred_favor
        return (g, d, s, f)

    def mound_gains(self) -> list[Bundle]:
        amount = self.sheet.mound_basic
        gains: list[Bundle] = [
            (g, d, amount - g - d, 0)
            for g in range(amount, -1, -1)
            for d in range(amount - g, -1, -1)
        ]
        if self.sheet.mound_favor:
            gains.append((0, 0, 0, self.sheet.mound_favor))
        return gains

    # ------------------------------------------------------------------ who decides
    def to_move(self) -> tuple[int, ...]:
        if self.over:
            return ()
        return tuple(s for s in range(self.n) if self.stage[s] in DECIDING)

    def is_simultaneous(self) -> bool:
        return not self.over

    def legal_actions(self, seat: int) -> list[Action]:
        if self.over or not 0 <= seat < self.n:
            return []
        stage = self.stage[seat]
        if stage not in DECIDING:
            # A builder waiting for the others (column chosen, or done building) may still
            # use a ship: the book allows it at any point of the game (rules 1.1).
            return self._ship_moves(seat) if self.game.rules_at_least("1.1") else []
        moves: list[Action] = []
        if stage == CHOOSE:
            moves.extend(Choose(c) for c in range(4))
        elif stage == PLAGUE:
            moves.extend(self._plague_moves(seat))
        elif stage in (PLAGUE_PAY, BUILD_PAY):
            moves.extend(Pay(p) for p in self._pending_payments(seat))
        elif stage == BUILD:
            moves.extend(self._build_moves(seat))
        elif stage == GAIN:
            moves.extend(Gain(g) for g in self.mound_gains())
        moves.extend(self._ship_moves(seat))
        return moves

    def _ship_moves(self, seat: int) -> list[Action]:
        return [UseShip(i + 1) for i, used in enumerate(self.ships[seat]) if used == SHIP_UNUSED]

    def _plague_moves(self, seat: int) -> list[Action]:
        have = self.have(seat)
        crossed = self.crossed[seat]
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
                    Plague(name, i + 1)
                    for i, used in enumerate(self.ships[seat])
                    if used == SHIP_UNUSED
                )
                continue
            moves.append(Plague(name))
        return moves

    def _build_moves(self, seat: int) -> list[Action]:
        have = self.have(seat)
        market = self.market_open(seat)
        hexes = self.allowed_hexes(seat)
        sheet = self.sheet
        labels = [sheet.hexes[h].label for h in hexes]
        sacred = [sheet.hexes[h].sacred for h in hexes]
        moves: list[Action] = []
        for building, wild in self.offered_buildings(seat).items():
            g, d, s, f = sheet.costs[building]
            f += sheet.wild_favor if wild else 0
            plain = affordable((g, d, s, f), have, market)
            holy = affordable((g, d, s, f + sheet.sacred_favor), have, market)
            for label, on_site in zip(labels, sacred, strict=True):
                if holy if on_site else plain:
                    moves.append(Build(building, label))
        moves.extend(Build(MOUND, label) for label in labels)
        return moves

    def _pending_payments(self, seat: int) -> tuple[Bundle, ...]:
        pending = self.pending[seat]
        assert pending is not None
        have = self.have(seat)
        if pending[0] == "plague":
            name = pending[1]
            if name == "frogs":
                return any_three(have)
            return payments(PLAGUE_COST[name], have, True)
        _, building, hex_index, wild = pending
        return payments(self.build_cost(building, hex_index, wild), have, self.market_open(seat))

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
        if isinstance(action, Choose):
            self._choose(seat, action.column)
        elif isinstance(action, UseShip):
            self._use_ship(seat, action.ship - 1)
        elif isinstance(action, Plague):
            self._plague(seat, action.name, action.ship - 1)
        elif isinstance(action, Build):
            self._build(seat, action.building, self.sheet.by_label[action.hex])
        elif isinstance(action, Pay):
            self._pay(seat, action.bundle)
        elif isinstance(action, Gain):
            self._gain_mound(seat, action.bundle)
        else:  # pragma: no cover - the parser makes only these kinds
            raise TypeError(f"not an Egyptia move: {action!r}")

    def _note(self, seat: int, text: str) -> None:
        """A private line now; the round's notes are shown to everyone at its end."""
        self.round_notes[seat].append(text)
        if self.n > 1:  # alone, the round's end follows at once and tells the same
            self.log.add("{who} {what}.", audience=(seat,), who=self.players[seat], what=text)

    def _circle(self, seat: int, bundle: Bundle) -> Bundle:
        """Circle resources on the tracks (what does not fit on a track is lost)."""
        got = []
        circled = self.circled[seat]
        dots, red = self.sheet.dots, self.sheet.red
        for i, amount in enumerate(bundle):
            take = min(amount, dots[i] - circled[i])
            circled[i] += take
            got.append(take)
            if red[i] and circled[i] > dots[i] - red[i]:
                self.red[seat] = True
        return (got[0], got[1], got[2], got[3])

    def _spend(self, seat: int, bundle: Bundle) -> None:
        spent = self.spent[seat]
        for i, amount in enumerate(bundle):
            spent[i] += amount

    def _choose(self, seat: int, column: int) -> None:
        self.column[seat] = column
        self.stage[seat] = CHOSEN
        self.log.add(
            "{who} chooses the {column} column.",
            audience=(seat,),
            who=self.players[seat],
            column=RESOURCES[column],
        )
        if all(stage == CHOSEN for stage in self.stage):
            self._reveal()

    def _reveal(self) -> None:
        self.revealed = True
        for seat in range(self.n):
            column = self.column[seat]
            size = self.column_size(column)
            amount = size + self.modifier(seat, column)
            bundle = [0, 0, 0, 0]
            bundle[column] = amount
            got = self._circle(seat, (bundle[0], bundle[1], bundle[2], bundle[3]))
            plague = " and must suffer a plague" if size >= 3 else ""
            lost = (
                f" ({amount - got[column]} do not fit on the track)" if got[column] < amount else ""
            )
            self.log.add(
                "{who} takes the {column} column ({size}): {amount}{lost}{plague}.",
                who=self.players[seat],
                column=RESOURCES[column],
                size=plural(size, "die", "dice"),
                amount=f"{got[column]} {RESOURCES[column]}",
                lost=lost,
                plague=plague,
            )
            self.stage[seat] = PLAGUE if size >= 3 else BUILD
        self._publish()

    def _use_ship(self, seat: int, ship: int) -> None:
        self.ships[seat][ship] = SHIP_USED
        got = self._circle(seat, self.sheet.ships[ship])
        self._note(seat, f"uses ship {ship + 1} for {bundle_words(got)}")

    def _plague(self, seat: int, name: str, ship: int) -> None:
        if name != "death":
            self.crossed[seat].append(name)
        else:
            self.deaths[seat] += 1
        title = PLAGUE_TITLES[name]
        self.stage[seat] = BUILD
        if name in RESTRICTIONS:
            self.restriction[seat] = name
            self._note(seat, f"suffers {title}")
        elif name == "hail-fire":
            self.ships[seat][ship] = SHIP_LOST
            self._note(seat, f"suffers Hail-fire: ship {ship + 1} is lost")
        elif name == "pestilence":
            self._note(
                seat, f"suffers Pestilence ({self.sheet.pestilence_points} points at the end)"
            )
        else:
            self.pending[seat] = ["plague", name]
            single = self._single_payment(seat)
            if single is not None:
                self._pay(seat, single)
            else:
                self.stage[seat] = PLAGUE_PAY

    def _build(self, seat: int, building: str, hex_index: int) -> None:
        if building == MOUND:
            self.city[seat][hex_index] = CODES[MOUND]
            self._note(seat, f"builds a Burial Mound on {self.sheet.hexes[hex_index].label}")
            self.stage[seat] = GAIN
            return
        wild = self.offered_buildings(seat)[building]
        self.pending[seat] = ["build", building, hex_index, wild]
        single = self._single_payment(seat)
        if single is not None:
            self._pay(seat, single)
        else:
            self.stage[seat] = BUILD_PAY

    def _pay(self, seat: int, bundle: Bundle) -> None:
        pending = self.pending[seat]
        assert pending is not None
        self.pending[seat] = None
        self._spend(seat, bundle)
        if pending[0] == "plague":
            title = PLAGUE_TITLES[pending[1]]
            self._note(seat, f"suffers {title}, losing {bundle_words(bundle)}")
            self.stage[seat] = BUILD
            return
        _, building, hex_index, wild = pending
        self.city[seat][hex_index] = CODES[building]
        track = self.sheet.productivity.get(building)
        boost = ""
        if track is not None and self.productivity[seat][track] < len(self.sheet.steps):
            self.productivity[seat][track] += 1
            boost = f" ({RESOURCES[track]} productivity +{self.modifier(seat, track)})"
        how = " through the d20" if wild else ""
        self._note(
            seat,
            f"builds {article(TITLES[building])}{how} on {self.sheet.hexes[hex_index].label}, "
            f"paying {bundle_words(bundle)}{boost}",
        )
        self._finish(seat)

    def _gain_mound(self, seat: int, bundle: Bundle) -> None:
        got = self._circle(seat, bundle)
        self._note(seat, f"takes {bundle_words(got)} for the Burial Mound")
        self._finish(seat)

    def _finish(self, seat: int) -> None:
        self.stage[seat] = DONE
        if all(stage == DONE for stage in self.stage):
            self._end_round()

    def _end_round(self) -> None:
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
        full = all(not self.empty_hexes(s) for s in range(self.n))
        red = [self.players[s] for s in range(self.n) if self.red[s]]
        if full or red:
            why = "the maps are full" if full else f"{', '.join(red)} circled a red dot"
            self.log.add("The game ends: {why}.", why=why)
            self._finish_game()
        else:
            self._start_round()

    def _finish_game(self) -> None:
        self.over = True
        for seat in range(self.n):
            self.stage[seat] = DONE
        self._publish()
        self.final = [self.score_sheet(s) for s in range(self.n)]
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
        src = view if view is not None else self._sheet_of(seat)
        city = src["city"]
        have = tuple(c - s for c, s in zip(src["circled"], src["spent"], strict=True))
        cards: list[dict[str, Any]] = []
        for card_id in self.cards:
            card = self.sheet.cards_by_id[card_id]
            parts = card_parts(self.sheet, card, city)
            cards.append({"card": card_id, "parts": parts, "points": sum(parts)})
        # The trade circles favor on its track: it stops where the track ends (rules 1.1).
        room = (
            self.sheet.dots[FAVOR] - src["circled"][FAVOR]
            if self.game.rules_at_least("1.1")
            else None
        )
        favor = end_favor((have[0], have[1], have[2], have[3]), self.sheet.basic_per_favor, room)
        favor_points = favor // self.sheet.favor_per_point
        ships = sum(1 for s in src["ships"] if s == SHIP_UNUSED)
        ship_points = ships * self.sheet.ship_points
        pestilence = self.sheet.pestilence_points if "pestilence" in src["crossed"] else 0
        total = sum(int(c["points"]) for c in cards) + favor_points + ship_points - pestilence
        return {
            "cards": cards,
            "favor": favor,
            "favor_points": favor_points,
            "ships_unused": ships,
            "ship_points": ship_points,
            "pestilence": pestilence,
            "plagues": len(src["crossed"]),
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
            "circled": list(self.circled[seat]),
            "spent": list(self.spent[seat]),
            "productivity": list(self.productivity[seat]),
            "crossed": list(self.crossed[seat]),
            "deaths": self.deaths[seat],
            "ships": list(self.ships[seat]),
            "city": list(self.city[seat]),
            "red": self.red[seat],
        }

    def _publish(self) -> None:
        """The moment every sheet becomes public (the reveal, a round's end)."""
        self.public = [self._sheet_of(s) for s in range(self.n)]
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
        from karnak.games.egyptia.view import observe

        return observe(self, seat)

    def observation_tensor(self, seat: int) -> FloatVector:
        from karnak.games.egyptia.tensors import observation_tensor

        return observation_tensor(self, seat)

    def information_state_tensor(self, seat: int) -> FloatVector:
        from karnak.games.egyptia.tensors import information_state_tensor

        return information_state_tensor(self, seat)

    def observation_string(self, seat: int) -> str:
        from karnak.games.egyptia.tensors import observation_string

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
        other = EgyptiaState.__new__(EgyptiaState)
        d, src = other.__dict__, self.__dict__
        d.update(src)
        other.history = list(self.history)
        other.log = self.log.copy(enabled=log and self.log.enabled)
        other.rng = self.rng.copy()
        other.dice = list(self.dice)
        for name in self._SHEET:
            d[name] = [list(x) for x in src[name]]
        other.stage = list(self.stage)
        other.column = list(self.column)
        other.restriction = list(self.restriction)
        other.pending = [None if p is None else list(p) for p in self.pending]
        other.deaths = list(self.deaths)
        other.red = list(self.red)
        other.round_notes = [list(x) for x in self.round_notes]
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
            data[name] = [list(x) for x in self.__dict__[name]]
        return data

    @classmethod
    def from_json(cls, game: Any, sheet: Sheet, data: Mapping[str, Any]) -> EgyptiaState:
        state = cls(game, sheet, data["players"], data["seed"], data["options"], fresh=False)
        state.restore_common(data)
        state.round = int(data["round"])
        state.over = bool(data["over"])
        state.revealed = bool(data["revealed"])
        state.cards = list(data["cards"])
        state.dice = list(data["dice"])
        state.stage = list(data["stage"])
        state.column = list(data["column"])
        state.restriction = list(data["restriction"])
        state.pending = [None if p is None else list(p) for p in data["pending"]]
        state.deaths = list(data["deaths"])
        state.red = list(data["red"])
        state.round_notes = [list(x) for x in data["round_notes"]]
        state.public = [dict(p) for p in data["public"]]
        state.final = data["final"]
        for name in cls._SHEET:
            state.__dict__[name] = [list(x) for x in data[name]]
        return state


__all__ = ["EgyptiaState"]
