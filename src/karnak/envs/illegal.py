"""What an environment does with an id its mask forbids: the illegal-action policy.

Every adapter takes ``illegal=``, one of :data:`ILLEGAL_POLICIES`:

- ``"raise"`` (the default when an env class is built directly): the id raises
  :class:`~karnak.core.action_ids.ActionIdError` and changes nothing. The mask tells a
  learner every legal id, so an illegal one is a bug in the caller, reported as one.
- ``"penalty"`` (what the registered, versioned environments use: ``karnak/Aton-v1``,
  ``karnak.envs.aton_v1``; see :mod:`karnak.envs.versions`): the episode ends at once,
  as in Pgx and PettingZoo's classic games. Nothing of the rules is played (the game
  stays as it was before the step), every agent is terminated, and each seat's rewards
  still add up to its result for the episode: the offender's result is the bottom of the
  declared utility range (:attr:`GameDescription.min_utility
  <karnak.core.description.GameDescription.min_utility>`: -1 under the ``"win"`` and
  ``"rank"`` schemes), every other seat's is 0, a draw's value. Under ``"win"`` and
  ``"rank"``, which pay nothing before the end, that step pays the offender -1 and the
  others 0. The info of every agent says why, under :data:`INFO_KEY`:
  ``{"seat_1": {"action": 31, "reason": "allocate 1 2 4 3 (31) is not legal for seat_1
  here"}}``: the id and its name, nothing of what the offender could have chosen (that
  would tell the others what it holds).

Under either policy an id outside the action space (not a whole number from 0 to
``num_actions - 1``, or None for an agent that must act) is not an action at all and raises
ActionIdError, as PettingZoo's ``AssertOutOfBoundsWrapper`` would.

Gymnasium's ``check_env`` and PettingZoo's ``parallel_seed_test`` step with
``action_space.sample()``, blind to the mask: under ``"raise"`` they stop at the first
illegal id, under ``"penalty"`` they see short, well-formed episodes. That is why the
registered environments use the penalty (docs/research.md, "Checkers and the
illegal-action policy").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from karnak.core.action_ids import ActionIdError, ActionSpace
from karnak.core.description import GameDescription
from karnak.core.errors import InvalidOptionError

__all__ = [
    "ILLEGAL_POLICIES",
    "INFO_KEY",
    "IllegalPolicy",
    "check_policy",
    "checked_id",
    "penalty",
    "results",
]

IllegalPolicy = Literal["raise", "penalty"]
#: The policies, the default of a directly built environment first.
ILLEGAL_POLICIES: tuple[IllegalPolicy, ...] = ("raise", "penalty")
#: The info key that says which agents chose an illegal id, which and why.
INFO_KEY = "illegal_actions"


def check_policy(policy: object) -> IllegalPolicy:
    """``policy`` if it names a policy, or InvalidOptionError saying which there are."""
    for known in ILLEGAL_POLICIES:
        if policy == known:
            return known
    raise InvalidOptionError(
        f"illegal must be one of {', '.join(ILLEGAL_POLICIES)} (what an illegal id does: "
        f"raise ActionIdError, or end the episode with a penalty), not {policy!r}"
    )


def checked_id(space: ActionSpace, agent: str, action: Any) -> int:
    """``action`` as an id of ``space``, or ActionIdError (under either policy): None, or a
    number outside the space, is not an action."""
    if type(action) is int and 0 <= action < space.size:  # the common case, checked at once
        return action
    if action is None:
        raise ActionIdError(f"{agent} is to move and must choose an action id, not None")
    try:
        space.check_id(action)
    except (ActionIdError, TypeError, ValueError) as error:
        message = str(error) if isinstance(error, ActionIdError) else f"not an id: {action!r}"
        raise ActionIdError(f"{agent}: {message}") from None
    return int(action)


def penalty(description: GameDescription) -> float:
    """The offender's result: the bottom of the declared utility range."""
    return description.min_utility


def results(description: GameDescription, offenders: Iterable[int]) -> list[float]:
    """Each seat's result of an episode ended by illegal ids of the seats ``offenders``:
    :func:`penalty` for them, 0 for every other seat."""
    bottom = penalty(description)
    ended = set(offenders)
    return [bottom if seat in ended else 0.0 for seat in range(description.players)]


def offence(space: ActionSpace, agent: str, action_id: int) -> dict[str, Any]:
    """One offender's entry under :data:`INFO_KEY`, for every agent's info: the id and its
    name, never what the offender could have chosen (its legal ids would tell the others
    what it holds)."""
    return {
        "action": action_id,
        "reason": f"{space.id_name(action_id)} ({action_id}) is not legal for {agent} here",
    }
