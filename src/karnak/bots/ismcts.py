"""Information-set Monte Carlo tree search, generic over every game on the core.

Each iteration samples a world from the bot's information set (everything hidden from its
seat re-dealt at random, see :meth:`karnak.core.state.State.resample`), walks one shared tree
keyed by the actions taken from the current decision (single-observer ISMCTS, Cowling,
Powley and Whitehouse 2012), expands one node, finishes the world with a rollout and backs
up a reward per seat. Choices inside the tree use UCB1 with *availability* counts: an action
that is legal in only some worlds is judged by the visits of the worlds where it was legal.

Sealed simultaneous steps (an offering, a secret pick, a whole Egyptia round) are searched
with decoupled selection: at such a node every seat chooses from its own statistics, blind to
the others' choices. A sealed stretch (the moves from the state turning simultaneous until it
stops being so) may hold several decisions of one seat: an Amun-Re seat sells a card before
its offering, an Aton seat exchanges its cards before laying them out, Goofspiel's rounds of
sealed bids follow one another to the end of the game, and an Egyptia builder decides several
times a round, privately, and the game is never anything but sealed. So a stretch is walked
in passes, each seat then to move deciding once a pass, and every decision has its own tree
node: a seat's first decision of the stretch is judged at the node where the stretch began,
each later one at the node reached from there through that seat's *own* earlier choices of
the stretch, never through the others'. The others' choices inside the stretch are not
known to the seat (the game only promises that they are all revealed when the stretch ends),
and statistics split by them would let the search credit a seat with a reply to moves it has
not seen, the error that ISMCTS's information sets exist to prevent. When the stretch ends,
every seat knows all of it, and the next node is keyed by everything done in it. The cost is
that something revealed inside a stretch (Egyptia's columns once all have chosen, the bids
of an earlier Goofspiel round) is not used to tell nodes apart: the worlds the search
samples still hold it, only the statistics do not branch on it. A stretch in which each seat
decides once (Aton's allocation, Amun-Re's offering or pick without a sale or an exchange)
is one node with one child per joint choice, as it always was.

The budget is wall-clock time or a number of iterations; with an iteration budget the bot is
deterministic for a given seed. Rollouts use the game's heuristic policy and evaluator when
the game has them (``karnak.bots.<game>_heuristic`` with ``act`` and ``evaluate``), otherwise
uniform random play to the end. A module may also set ``ROLLOUT_DEPTH`` (actions before the
evaluator judges) and offer ``reward(state)`` for finished games: a solo game needs it, since
a lone player always ranks first and the rank rewards would make every move look the same.

Two more pieces of game knowledge are used where the heuristic module offers them, because a
second of search is only about a thousand noisy rollouts:

* ``candidates(state, seat, actions)`` narrows the moves worth searching at the bot's own
  decisions (for Amun-Re: selling a power card for 1 gold is legal at every decision and
  almost never right, yet it would take a share of every search). The policy's own move is
  always kept, so the search can never do worse than consider what the heuristic would do.
* the policy's move gets a *progressive bias* (Chaslot et al. 2008): a bonus of
  ``prior / (visits + 1)`` in its selection score, which fades as evidence accumulates. When
  rollouts cannot tell two moves apart, the heuristic's choice wins the tie.

Both are asked once per decision at the root, from the first world sampled: a policy and a
move filter must judge from what the seat sees (the heuristic modules do, and draw nothing
from the generator but to break exact ties), so every world of the information set gets
the same answer.

Mixed strategies at a sealed root (``sealed="regret"``). Modelling every other seat by the
heuristic makes the bot's sealed choice (Aton's lay-out, Amun-Re's offering, Egyptia's
column) the best reply to one predictable move, and so predictable itself: a person who
knows the heuristic can read it and answer it. With ``sealed="regret"``, when the decision
searched is sealed, the first decision of the stretch of the bot and of up to
``MIXED_SEATS`` others is chosen by regret matching instead (the decoupled SM-MCTS of
Lanctot, Lisy and Winands, 2013: each seat keeps regrets over its own moves, picks from the
positive regrets mixed with ``REGRET_EXPLORATION`` of uniform play, and learns from its
own reward by an importance-weighted estimate), every other seat's move in its candidate
filter plus its policy's move; later moves are the tree's and the policy's as always.
The bot then plays a move drawn from its average strategy, with moves under
``PURIFY`` of it left out (the usual purification: the rare moves are noise of the
search). Alone, nobody reads the bot, and the plain search is kept.

``sealed="respond"`` mixes the others only: their first sealed moves are learnt by regret
matching as above, while the bot's own move is searched by the tree as in the plain search
and chosen by its visits. Its choice is then a reply to the others' mixtures rather than to
the heuristic's one move. Measured in Aton at equal iterations (``bench/judged_parts.py``),
drawing the bot's own move from its average strategy costs it about a fifth of its games
against the plain search; whether answering mixtures costs anything is what the
``respond`` row there measures.

A bot with a style (:class:`~karnak.core.knowledge.Style`, see :meth:`ISMCTSBot.with_style`)
plays its own moves in rollouts, its move filter and its progressive bias with the style's
weights, and models the other seats with the plain ones: it does not know their styles.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from karnak.bots.base import Bot, Budget, SeatView, register_bot
from karnak.core.actions import Action
from karnak.core.knowledge import (
    Candidates,
    Evaluator,
    Knowledge,
    Policy,
    Reward,
    Style,
    final_rewards,
    styled_candidates,
    styled_policy,
)
from karnak.core.registry import plugin_for
from karnak.core.rng import Rng

if TYPE_CHECKING:
    from karnak.core.game import Game
    from karnak.core.state import State

DEFAULT_BUDGET: Final = Budget(seconds=1.0)
CHECK_EVERY: Final = 16  # iterations between checks whether the decision is already settled
#: Marks a child keyed by one seat's own choice inside a sealed stretch (see ``_sealed``).
_OWN: Final = "own"
#: How the search treats a sealed decision at its root (see the module's docstring).
SEALED_MODES: Final = ("pure", "regret", "respond")
#: Seats besides the bot whose first sealed move is mixed by regret matching; the others
#: (a big Egyptia table) follow the policy, which keeps an iteration's cost bounded.
MIXED_SEATS: Final = 4
#: Share of uniform play mixed into regret matching, so every move keeps being sampled.
REGRET_EXPLORATION: Final = 0.15
#: Moves under this share of the average strategy are dropped before the bot draws.
PURIFY: Final = 0.1


def _draw(moves: Sequence[Action], chances: Sequence[float], rng: Rng) -> Action:
    """One of ``moves`` drawn with its chance (they add up to one; the last takes what
    rounding leaves)."""
    x = rng.random()
    for move, p in zip(moves, chances, strict=True):
        x -= p
        if x < 0.0:
            return move
    return moves[-1]


class _Regrets:
    """One seat's regret matching over its moves at a sealed root (moves may differ from
    world to world: only those legal in the world at hand take part, as with availability).
    """

    __slots__ = ("average", "regret")

    def __init__(self) -> None:
        self.regret: dict[Action, float] = {}
        self.average: dict[Action, float] = {}

    def strategy(self, moves: Sequence[Action]) -> list[float]:
        """Regret matching over ``moves`` mixed with uniform play (``REGRET_EXPLORATION``)."""
        regret = self.regret
        positive = [max(regret.get(m, 0.0), 0.0) for m in moves]
        total = sum(positive)
        n = len(moves)
        gamma = REGRET_EXPLORATION
        if total <= 0.0:
            return [1.0 / n] * n
        return [gamma / n + (1.0 - gamma) * p / total for p in positive]

    def choose(self, moves: Sequence[Action], rng: Rng) -> tuple[Action, list[float]]:
        sigma = self.strategy(moves)
        average = self.average
        for move, p in zip(moves, sigma, strict=True):
            average[move] = average.get(move, 0.0) + p
        return _draw(moves, sigma, rng), sigma

    def learn(
        self, moves: Sequence[Action], sigma: Sequence[float], chosen: Action, reward: float
    ) -> None:
        """Regrets from one sampled reward: the chosen move's importance-weighted value
        (``reward / sigma``) against the reward itself, every other move's 0 against it."""
        regret = self.regret
        for move, p in zip(moves, sigma, strict=True):
            gain = reward / p if move == chosen else 0.0
            regret[move] = regret.get(move, 0.0) + gain - reward

    def mixed(self, moves: Sequence[Action]) -> list[tuple[Action, float]]:
        """The average strategy over ``moves``, purified (see ``PURIFY``)."""
        weights = [self.average.get(m, 0.0) for m in moves]
        total = sum(weights)
        if total <= 0.0:
            return [(m, 1.0 / len(moves)) for m in moves]
        kept = [(m, w / total) for m, w in zip(moves, weights, strict=True) if w / total >= PURIFY]
        if not kept:
            best = max(range(len(moves)), key=lambda i: weights[i])
            return [(moves[best], 1.0)]
        share = sum(p for _, p in kept)
        return [(m, p / share) for m, p in kept]


@dataclass(slots=True)
class _Stat:
    visits: int = 0
    reward: float = 0.0
    available: int = 0


@dataclass(slots=True)
class _Node:
    # seat -> action -> statistics of choosing that action here
    stats: dict[int, dict[Action, _Stat]] = field(default_factory=dict)
    children: dict[Any, _Node] = field(default_factory=dict)

    def table(self, seat: int) -> dict[Action, _Stat]:
        found = self.stats.get(seat)
        if found is None:
            found = self.stats[seat] = {}
        return found


def random_policy(state: State, seat: int, rng: Rng) -> Action:
    actions = state.legal_actions(seat)
    return actions[rng.below(len(actions))]


def game_knowledge(game: Game) -> Knowledge:
    """The game's heuristic policy, evaluator and move filter, where its plugin has them."""
    return plugin_for(game).load_knowledge() or Knowledge()


class ISMCTSBot(Bot):
    """Single-observer ISMCTS with decoupled selection at sealed simultaneous steps."""

    name = "ismcts"

    def __init__(
        self,
        budget: Budget = DEFAULT_BUDGET,
        *,
        policy: Policy | None = None,
        evaluator: Evaluator | None = None,
        candidates: Candidates | None = None,
        reward: Reward | None = None,
        exploration: float = 0.7,
        prior: float | None = None,
        rollout_depth: int | None = None,
        model_opponents: bool | None = None,
        sealed: str = "pure",
    ):
        if sealed not in SEALED_MODES:
            raise ValueError(f"sealed must be one of {', '.join(SEALED_MODES)}, not {sealed!r}")
        self.sealed = sealed
        #: Regret matching per seat at a sealed root being searched (None: not mixing).
        self._mixing: dict[int, _Regrets] | None = None
        self.budget = budget
        self.policy: Policy = policy or random_policy
        #: The policy of the bot's own moves (the policy itself unless styled).
        self.own_policy: Policy = self.policy
        self.evaluator = evaluator
        self.candidates = candidates
        self.reward: Reward = reward or final_rewards
        self.exploration = exploration
        # The progressive bias only means something when the policy knows better than chance.
        self.prior = (0.1 if policy is not None else 0.0) if prior is None else prior
        # With a real policy, opponents move by it and the tree branches only on the bot's
        # own decisions: a second of search is a few hundred iterations, too few to spread
        # over every opponent reply. Without one, every seat is searched in the tree.
        self.model_opponents = policy is not None if model_opponents is None else model_opponents
        # With an evaluator, rollouts stop early and the evaluator judges the position.
        self.rollout_depth = (
            rollout_depth
            if rollout_depth is not None
            else (40 if evaluator is not None else 10_000)
        )
        self.last_iterations = 0
        #: The bot's moves at the root of its last search, with how often each was chosen
        #: there (every iteration chooses exactly one); empty when nothing was searched.
        self.last_visits: dict[Action, int] = {}
        #: The root's (moves, policy's move) for the decision being searched.
        self._root_moves: tuple[Sequence[Action], Action | None] | None = None
        #: Asked after every iteration: True ends the search early with the best move so far
        #: (a server stopping while the bot thinks in one of its threads).
        self.stop: Callable[[], bool] | None = None

    def label(self) -> str:
        return f"{self.name}:{self.budget}"

    def with_style(self, style: Style) -> ISMCTSBot:
        """This bot with ``style`` for its own moves: the policy and move filter of its seat
        (rollouts, candidates, progressive bias) use the style's weights and tie-breaks;
        the other seats are modelled with the plain policy."""
        self.style = style
        self.own_policy = styled_policy(self.policy, style)
        if self.candidates is not None:
            self.candidates = styled_candidates(self.candidates, style)
        return self

    # ------------------------------------------------------------------ the search
    def choose(self, view: SeatView, rng: Rng) -> Action:
        legal = view.legal_actions
        self.last_visits = {}
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        me = view.seat
        start = time.perf_counter()
        self._root_moves = None
        self._mixing = None
        if self.model_opponents:
            # The root's candidates depend only on what the seat sees, so any world will do.
            first = view.infoset.sample(rng)
            root_moves = self._own_moves(first, me, legal, rng)[0]
            if len(root_moves) == 1:
                self.last_iterations = 0
                return root_moves[0]
            legal = root_moves
            # ... and so do the policy's move and the candidates every iteration would ask
            # for again at the root: ask once (the policies draw nothing from ``rng``).
            self._root_moves = self._own_moves(first, me, first.legal_actions(me), rng)
            # a sealed root with others to read the bot: mix (see the module's docstring)
            if self.sealed != "pure" and first.is_simultaneous() and len(first.players) > 1:
                self._mixing = {}
        root = _Node()
        budget = self.budget
        deadline = None if budget.seconds is None else start + budget.seconds
        limit = budget.iterations if budget.iterations is not None else 1 << 62
        iterations = 0
        iterate = self._iterate_own if self.model_opponents else self._iterate
        stop = self.stop
        while iterations < limit:
            world = view.infoset.sample(rng)
            iterate(root, world, me, rng)
            iterations += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
            if stop is not None and stop():
                break
            if (
                self._mixing is None
                and iterations % CHECK_EVERY == 0
                and self._decided(root.table(me), iterations, limit, start, deadline)
            ):
                break
        self.last_iterations = iterations
        if self._mixing is not None and self.sealed == "regret":
            return self._mixed_choice(me, legal, rng)
        self._mixing = None
        table = root.table(me)
        self.last_visits = {action: stat.visits for action, stat in table.items()}
        best = max(
            legal,
            key=lambda a: (table[a].visits, table[a].reward) if a in table else (-1, 0.0),
        )
        return best

    def _mixed_choice(self, me: int, legal: Sequence[Action], rng: Rng) -> Action:
        """The move drawn from the bot's average strategy at the sealed root."""
        assert self._mixing is not None
        own = self._mixing.get(me)
        self._mixing = None
        if own is None:  # no iteration reached the decision
            return legal[0]
        mixed = own.mixed(legal)
        self.last_visits = {move: round(1000 * p) for move, p in mixed}
        return _draw([m for m, _ in mixed], [p for _, p in mixed], rng)

    def _mixed_move(
        self,
        seat: int,
        moves: Sequence[Action],
        rng: Rng,
        taken: list[tuple[_Regrets, Sequence[Action], list[float], int, Action]],
    ) -> Action:
        """``seat``'s first move of the sealed root stretch, by its regret matching."""
        assert self._mixing is not None
        regrets = self._mixing.get(seat)
        if regrets is None:
            regrets = self._mixing[seat] = _Regrets()
        move, sigma = regrets.choose(moves, rng)
        taken.append((regrets, moves, sigma, seat, move))
        return move

    @staticmethod
    def _decided(
        table: dict[Action, _Stat],
        iterations: int,
        limit: int,
        start: float,
        deadline: float | None,
    ) -> bool:
        """True when the most visited action can no longer be overtaken in the budget left.

        The answer is the most visited root action, and one iteration adds one visit to one
        root action; if the leader's margin exceeds the iterations left, searching on only
        spends time. With a time budget the iterations left are estimated from the rate so far.
        """
        visits = sorted((stat.visits for stat in table.values()), reverse=True)
        if len(visits) < 2:
            return True
        left = limit - iterations
        if deadline is not None:
            now = time.perf_counter()
            rate = iterations / max(now - start, 1e-9)
            left = min(left, int(rate * max(deadline - now, 0.0) * 1.2) + 1)
        return visits[0] - visits[1] > left

    def _own_moves(
        self, world: State, me: int, actions: Sequence[Action], rng: Rng
    ) -> tuple[Sequence[Action], Action | None]:
        """The moves worth searching for ``me`` in ``world`` and the policy's preferred one."""
        if self.prior <= 0.0 and self.candidates is None:
            return actions, None
        preferred = self.own_policy(world, me, rng)
        if self.candidates is not None:
            moves = self.candidates(world, me, actions)
            if preferred not in moves:
                moves = [*moves, preferred] if preferred in actions else moves or actions
            actions = moves
        return actions, preferred if self.prior > 0.0 else None

    def _select(
        self,
        node: _Node,
        seat: int,
        actions: Sequence[Action],
        rng: Rng,
        preferred: Action | None = None,
    ) -> Action:
        """UCB1 with availability; an untried action is always tried first (at random).

        ``preferred`` (the policy's move) gets the progressive bias ``prior / (visits + 1)``.
        """
        table = node.table(seat)
        untried = []
        for action in actions:
            stat = table.get(action)
            if stat is None:
                table[action] = _Stat(available=1)
                untried.append(action)
            else:
                stat.available += 1
                if stat.visits == 0:
                    untried.append(action)
        if untried:
            return untried[rng.below(len(untried))]
        c = self.exploration
        best_action = actions[0]
        best_score = -math.inf
        for action in actions:
            stat = table[action]
            score = stat.reward / stat.visits + c * math.sqrt(
                math.log(stat.available) / stat.visits
            )
            if action == preferred:
                score += self.prior / (stat.visits + 1)
            if score > best_score:
                best_score, best_action = score, action
        return best_action

    def _iterate_own(self, root: _Node, world: State, me: int, rng: Rng) -> None:
        """One iteration where only ``me`` is searched; the others follow the policy.

        Opponents' moves then act like chance events inside the bot's information set; at a
        sealed step the bot commits first and the others decide without seeing it.
        """
        path: list[tuple[_Node, Action]] = []
        node = root
        policy = self.policy
        at_root = self._root_moves
        # regret matching over the first moves of the sealed root stretch, where mixing
        mixing = self._mixing is not None
        decided: set[int] = set()
        taken: list[tuple[_Regrets, Sequence[Action], list[float], int, Action]] = []
        while not world.is_over():
            movers = world.to_move()
            if mixing and not world.is_simultaneous():
                mixing = False  # the stretch is over: everything in it is known to all
            if me not in movers:
                seat = movers[0]
                if mixing and seat not in decided and len(decided) <= MIXED_SEATS:
                    decided.add(seat)
                    moves = self._their_moves(world, seat, rng)
                    if len(moves) > 1:
                        world.apply_unchecked(seat, self._mixed_move(seat, moves, rng, taken))
                        continue
                    world.apply_unchecked(seat, moves[0])
                    continue
                world.apply_unchecked(seat, policy(world, seat, rng))
                continue
            if at_root is not None:
                actions, preferred = at_root
                at_root = None
            else:
                actions, preferred = self._own_moves(world, me, world.legal_actions(me), rng)
            if mixing and me not in decided and self.sealed == "regret":
                decided.add(me)
                action = self._mixed_move(me, actions, rng, taken)
                world.apply_unchecked(me, action)
                found = node.children.get(action)
                if found is None:
                    found = node.children[action] = _Node()
                node = found
                continue
            if len(actions) == 1:
                world.apply_unchecked(me, actions[0])
                continue
            action = self._select(node, me, actions, rng, preferred)
            path.append((node, action))
            world.apply_unchecked(me, action)
            child = node.children.get(action)
            if child is None:
                node.children[action] = _Node()
                break
            node = child
        rewards = self._rollout(world, rng, me)
        reward = rewards[me]
        for owner, action in path:
            stat = owner.stats[me][action]
            stat.visits += 1
            stat.reward += reward
        for regrets, moves, sigma, seat, move in taken:
            regrets.learn(moves, sigma, move, rewards[seat])

    def _their_moves(self, world: State, seat: int, rng: Rng) -> Sequence[Action]:
        """Another seat's moves mixed at the sealed root: its candidates (with its policy's
        move), as the bot's own are narrowed; all its legal moves without a filter."""
        legal = world.legal_actions(seat)
        if self.candidates is None:
            return legal
        moves = list(self.candidates(world, seat, legal))
        preferred = self.policy(world, seat, rng)
        if preferred not in moves and preferred in legal:
            moves.append(preferred)
        return moves or legal

    def _iterate(self, root: _Node, world: State, me: int, rng: Rng) -> None:
        # Each entry: (node, seat, action) whose statistics receive the reward of `seat`.
        path: list[tuple[_Node, int, Action]] = []
        node: _Node | None = root
        while node is not None and not world.is_over():
            if world.is_simultaneous():
                node = self._sealed(node, world, rng, path)
                continue
            seat = world.to_move()[0]
            actions = world.legal_actions(seat)
            if len(actions) == 1:  # forced: no statistics needed, no branching
                world.apply_unchecked(seat, actions[0])
                continue
            action = self._select(node, seat, actions, rng)
            fresh = node.table(seat)[action].visits == 0
            path.append((node, seat, action))
            world.apply_unchecked(seat, action)
            node = self._child(node, (seat, action), fresh)
        rewards = self._rollout(world, rng, me)
        for owner, seat, action in path:
            stat = owner.stats[seat][action]
            stat.visits += 1
            stat.reward += rewards[seat]

    @staticmethod
    def _child(node: _Node, key: Any, fresh: bool) -> _Node | None:
        """The child under ``key``, or None where the descent ends: the child is new (made
        now) or ``fresh`` (an action was tried for the first time at ``node``)."""
        child = node.children.get(key)
        if child is None:
            node.children[key] = _Node()
            return None
        return None if fresh else child

    def _sealed(
        self, start: _Node, world: State, rng: Rng, path: list[tuple[_Node, int, Action]]
    ) -> _Node | None:
        """Walk the sealed stretch that begins at ``start``: the node after it, or None
        where the descent ends inside it.

        The stretch is walked in passes: in a pass every seat then to move decides once.
        A seat's first decision of the stretch is judged at ``start``, its later ones at the
        node reached from there through its own earlier choices of the stretch, keyed
        ``(_OWN, seat, action)``: never through the others' choices, which it has not seen.
        A pass in which some seat tried a move for the first time ends the descent. When
        the stretch ends, everything done in it is known to all, and the next node is keyed
        by all of it, in the order it was done.
        """
        joint: list[tuple[int, Action]] = []
        at: dict[int, _Node] = {}  # where each seat that has decided in the stretch did so
        last: dict[int, Action] = {}  # ... and what it chose there
        fresh = False
        while True:
            for seat in world.to_move():
                if seat not in world.to_move():
                    continue  # an earlier move of the pass took the seat off the movers
                if seat in last:  # a later decision of the seat's, in a new pass
                    key = (_OWN, seat, last[seat])
                    found = at[seat].children.get(key)
                    if found is None:
                        found = at[seat].children[key] = _Node()
                else:
                    found = start
                at[seat] = found
                actions = world.legal_actions(seat)
                table = found.table(seat)
                fresh = fresh or any(table.get(a) is None for a in actions)
                action = self._select(found, seat, actions, rng)
                path.append((found, seat, action))
                joint.append((seat, action))
                last[seat] = action
                world.apply_unchecked(seat, action)
                if not world.is_simultaneous():
                    break
            if not world.is_simultaneous() or world.is_over():
                return self._child(start, tuple(joint), fresh)
            if fresh:
                return None

    def _rollout(self, world: State, rng: Rng, me: int) -> Sequence[float]:
        policy = self.policy
        own = self.own_policy
        steps = self.rollout_depth
        while not world.is_over():
            if steps <= 0 and self.evaluator is not None:
                return self.evaluator(world)
            seat = world.to_move()[0]
            world.apply_unchecked(seat, (own if seat == me else policy)(world, seat, rng))
            steps -= 1
        return self.reward(world)


def make_ismcts(game: Game, budget: Budget | None = None, **kwargs: Any) -> ISMCTSBot:
    knowledge = game_knowledge(game)
    if knowledge.rollout_depth is not None:
        kwargs.setdefault("rollout_depth", knowledge.rollout_depth)
    return ISMCTSBot(
        budget or DEFAULT_BUDGET,
        policy=knowledge.policy,
        evaluator=knowledge.evaluator,
        candidates=knowledge.candidates,
        reward=knowledge.reward,
        **kwargs,
    )


register_bot(
    "ismcts",
    make_ismcts,
    help="information-set Monte Carlo tree search (budget: ismcts:1s, ismcts:250ms, ismcts:2000)",
    takes_budget=True,
)
