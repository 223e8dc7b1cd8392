"""Goofspiel's state machine: prizes turned one a round, sealed bids, the highest takes it.

What is hidden: the order of the prizes still face down (their values are public: every
value is dealt once), and each bid until every seat has bid. A seat's hand is public once
its bid is revealed (it is the cards it started with, less those it bid), so the
observation shows each hand with its sealed bid still in it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from karnak.core.actions import Action
from karnak.core.events import EventLog
from karnak.core.rng import Rng
from karnak.core.state import State
from karnak_goofspiel.research import tensors
from karnak_goofspiel.rules.actions import Bid

if TYPE_CHECKING:
    from karnak.core.tensors import FloatVector
    from karnak_goofspiel.rules.game import Goofspiel


class GoofspielState(State):
    game: Goofspiel

    def __init__(
        self,
        game: Goofspiel,
        players: Sequence[str],
        seed: int,
        options: Mapping[str, Any],
        *,
        log: bool = True,
        fresh: bool = True,
    ):
        self.game = game
        self.players = tuple(players)
        self.seed = seed
        self.options = dict(options)
        self.history: list[tuple[int, Action]] = []
        self.log = EventLog(log)
        self.rng = Rng(seed)
        self.prizes: int = int(self.options["prizes"])
        seats = len(self.players)
        #: The prizes still face down, in the order they will be turned (hidden).
        self.deck = list(range(1, self.prizes + 1))
        #: The prize on offer this round (None once the game is over).
        self.prize: int | None = None
        self.round = 0
        #: Each seat's cards, less the one it has bid this round.
        self.hands = [list(range(1, self.prizes + 1)) for _ in range(seats)]
        #: This round's sealed bids (None: not yet bid).
        self.bids: list[int | None] = [None] * seats
        self.won: list[list[int]] = [[] for _ in range(seats)]
        self.unclaimed: list[int] = []
        #: Every finished round: its prize and the bids revealed (public).
        self.past: list[tuple[int, tuple[int, ...]]] = []
        if fresh:
            self.rng.shuffle(self.deck)
            self._turn_prize()

    # ------------------------------------------------------------------ the rounds
    def _turn_prize(self) -> None:
        if not self.deck:
            self.prize = None
            self.log.add("The game is over: {result}.", result=self._result_text())
            return
        self.prize = self.deck.pop(0)
        self.round += 1
        self.log.add("Round {round}: the prize is {prize}.", round=self.round, prize=self.prize)

    def _reveal(self) -> None:
        bids = tuple(cast(int, b) for b in self.bids)
        prize = cast(int, self.prize)
        best = max(bids)
        holders = [s for s, b in enumerate(bids) if b == best]
        shown = ", ".join(f"{self.players[s]} {b}" for s, b in enumerate(bids))
        if len(holders) == 1:
            self.won[holders[0]].append(prize)
            outcome = f"{self.players[holders[0]]} takes the prize {prize}"
        else:
            self.unclaimed.append(prize)
            outcome = f"a tie for the highest bid: the prize {prize} goes unclaimed"
        self.log.add("Bids revealed: {shown}; {outcome}.", shown=shown, outcome=outcome)
        self.past.append((prize, bids))
        self.bids = [None] * len(self.players)
        self._turn_prize()

    def _result_text(self) -> str:
        scores = self.scores()
        best = max(scores)
        winners = [self.players[s] for s, points in enumerate(scores) if points == best]
        verb = "wins" if len(winners) == 1 else "share the victory"
        return f"{' and '.join(winners)} {verb} with {best} points"

    # ------------------------------------------------------------------ who decides
    def to_move(self) -> tuple[int, ...]:
        if self.prize is None:
            return ()
        return tuple(s for s, bid in enumerate(self.bids) if bid is None)

    def is_simultaneous(self) -> bool:
        return self.prize is not None

    def legal_actions(self, seat: int) -> list[Action]:
        if self.prize is None or not 0 <= seat < len(self.players) or self.bids[seat] is not None:
            return []
        return [Bid(card) for card in self.hands[seat]]

    def explain_illegal(self, seat: int, action: Action) -> str:
        if self.bids[seat] is not None:
            return "it has bid this round already"
        if isinstance(action, Bid):
            held = " ".join(str(c) for c in self.hands[seat])
            return f"it holds no {action.card} (its hand: {held})"
        return "Goofspiel's only move is a bid"

    def apply_unchecked(self, seat: int, action: Action) -> None:
        assert isinstance(action, Bid)
        self.hands[seat].remove(action.card)
        self.bids[seat] = action.card
        self.history.append((seat, action))
        self.log.add("{name} bids {card}.", (seat,), name=self.players[seat], card=action.card)
        self.log.add("{name} lays a bid face down.", name=self.players[seat])
        if all(bid is not None for bid in self.bids):
            self._reveal()

    # ------------------------------------------------------------------ the end
    def is_over(self) -> bool:
        return self.prize is None

    def scores(self) -> list[int]:
        return [sum(prizes) for prizes in self.won]

    def ranking_key(self, seat: int) -> tuple[int, ...]:
        return (sum(self.won[seat]),)

    # ------------------------------------------------------------------ seeing
    def observation(self, seat: int | None) -> dict[str, Any]:
        from karnak_goofspiel.view import observe

        return cast(dict[str, Any], observe(self, seat))

    def shown_hand(self, seat: int) -> list[int]:
        """The cards of ``seat`` nobody has seen played: its hand and its sealed bid."""
        bid = self.bids[seat]
        return sorted(self.hands[seat] if bid is None else [*self.hands[seat], bid])

    def observation_tensor(self, seat: int) -> FloatVector:
        return tensors.observation_tensor(self, seat)

    def information_state_tensor(self, seat: int) -> FloatVector:
        return tensors.information_state_tensor(self, seat)

    def observation_string(self, seat: int) -> str:
        return tensors.observation_string(self, seat)

    def resample(self, seat: int, rng: Rng, *, history: bool = True) -> GoofspielState:
        """Re-deal what ``seat`` cannot see: the order of the prizes to come and the other
        seats' sealed bids (each any card of that seat's unseen cards)."""
        world = self._copy(log=False, history=[])  # the history holds the others' bids
        world.rng = Rng(rng.next_u64())
        world.deck.sort()  # the world depends on what the seat knows, not the true order
        rng.shuffle(world.deck)
        for other, bid in enumerate(self.bids):
            if other == seat or bid is None:
                continue
            pool = self.shown_hand(other)
            world.bids[other] = pool.pop(rng.below(len(pool)))
            world.hands[other] = pool
        if history:
            self._keep_history(world, seat)
        return world

    # ------------------------------------------------------------------ copies
    def clone(self, *, log: bool = True) -> GoofspielState:
        return self._copy(log=log, history=list(self.history))

    def _copy(self, *, log: bool, history: list[tuple[int, Action]]) -> GoofspielState:
        other = GoofspielState(self.game, self.players, self.seed, self.options, fresh=False)
        other.history = history
        other.log = self.log.copy(enabled=log and self.log.enabled)
        other.rng = Rng(self.rng.state)
        other.deck = list(self.deck)
        other.prize = self.prize
        other.round = self.round
        other.hands = [list(hand) for hand in self.hands]
        other.bids = list(self.bids)
        other.won = [list(prizes) for prizes in self.won]
        other.unclaimed = list(self.unclaimed)
        other.past = list(self.past)
        return other

    def to_json(self) -> dict[str, Any]:
        return {
            **self.common_json(),
            "deck": list(self.deck),
            "prize": self.prize,
            "round": self.round,
            "hands": [list(hand) for hand in self.hands],
            "bids": list(self.bids),
            "won": [list(prizes) for prizes in self.won],
            "unclaimed": list(self.unclaimed),
            "past": [[prize, list(bids)] for prize, bids in self.past],
        }

    @classmethod
    def from_json(cls, game: Goofspiel, data: Mapping[str, Any]) -> GoofspielState:
        state = cls(game, data["players"], data["seed"], data["options"], fresh=False)
        state.restore_common(data)
        state.deck = [int(c) for c in data["deck"]]
        state.prize = None if data["prize"] is None else int(data["prize"])
        state.round = int(data["round"])
        state.hands = [[int(c) for c in hand] for hand in data["hands"]]
        state.bids = [None if b is None else int(b) for b in data["bids"]]
        state.won = [[int(c) for c in prizes] for prizes in data["won"]]
        state.unclaimed = [int(c) for c in data["unclaimed"]]
        state.past = [(int(prize), tuple(int(b) for b in bids)) for prize, bids in data["past"]]
        return state
