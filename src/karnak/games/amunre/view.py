"""What one seat may see of an Amun-Re game: one function, tested for non-interference.

Public (ruling 12): the board, the temple track, scores, the start player, every player's
gold, how many power cards each holds, which cards were played or sold (the discard pile),
who has committed at a sealed step, offers after the reveal. Hidden: the identity of other
players' cards, the order of both decks, face-down free cards, sealed offers until all have
committed, and under ``expert_provinces`` the other players' province hands and picks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from karnak.games.amunre.rules.board import CARD_KINDS

if TYPE_CHECKING:
    from karnak.games.amunre.rules.state import AmunReState

PHASE_NAMES = {
    "2003": {
        "pick": "choose a province card",
        "auction": "acquire the provinces (bidding)",
        "market": "actions of players (market)",
        "offering": "the sacrifice for Amun-Re",
        "adjust": "sacrifice correction",
        "rewards": "Amun-Re's rewards",
        "harvest": "the harvest",
        "scoring": "scoring",
        "over": "game over",
    },
    "2016": {
        "pick": "choose a Province card",
        "auction": "Auction Phase",
        "market": "Market Phase",
        "offering": "Offering Phase",
        "adjust": "Offering Adjustment",
        "rewards": "Offering rewards",
        "harvest": "Harvest Phase",
        "scoring": "Intermediate Scoring",
        "over": "game over",
    },
}


def _counts(counts: list[int]) -> dict[str, int]:
    return {CARD_KINDS[k]: c for k, c in enumerate(counts) if c}


def observe(state: AmunReState, seat: int | None) -> dict[str, Any]:
    board = state.board
    spaces = board.bid_spaces
    provinces = []
    for p, prov in enumerate(board.provinces):
        bids = [
            {"seat": s, "amount": spaces[state.bid_space[s]], "overbid": state.overbid[s]}
            for s in range(state.n)
            if state.bid_prov[s] == p
        ]
        provinces.append(
            {
                "name": prov.name,
                "owner": state.owner[p],
                "on_auction": p in state.on_auction,
                "bids": bids,
                "farmers": state.field_farmers[p],
                "free_farmers": state.free_farmers[p],
                "printed_farmers": prov.printed_farmers,
                "empty_fields": prov.fields - state.field_farmers[p],
                "stones": state.stones[p],
                "pyramids": state.pyramids[p],
                "face_down_cards": len(state.face_down[p]),
                "free_gold": state.free_gold[p],
            }
        )
    players = []
    for s in range(state.n):
        entry: dict[str, Any] = {
            "seat": s,
            "name": state.players[s],
            "gold": state.gold[s],
            "cards": sum(state.hand[s]),
            "score": state.score[s],
            "provinces": [board.provinces[p].name for p in state.owned(s)],
            "blockade": state.blockade[s],
            "bonus_cards_played": list(state.bonus_kinds[s]),
        }
        if state.phase == "offering":
            entry["committed"] = state.offers[s] is not None
        if state.phase == "pick":
            entry["picked"] = state.picks[s] >= 0
        if state.expert:
            entry["province_cards"] = len(state.prov_hand[s])
            revealed = state.revealed_picks[s]
            entry["last_pick"] = None if revealed < 0 else board.provinces[revealed].name
        players.append(entry)
    obs: dict[str, Any] = {
        "game": "amunre",
        "edition": state.edition,
        "seat": seat,
        "round": state.round,
        "kingdom": min(state.kingdom(), 1),
        "phase": state.phase,
        "phase_name": PHASE_NAMES[state.edition][state.phase],
        "to_move": list(state.to_move()),
        "start_player": state.start,
        "temple": state.temple,
        "provinces": provinces,
        "players": players,
        "deck": len(state.deck),
        "discard": _counts(state.discard),
        "supply": {"farmers": state.farmer_supply, "stones": state.stone_supply},
        "province_deck": len(state.province_deck),
        "offers": [None if o is None else o.to_json() for o in state.revealed],
        "offering_total": state.offering_total if state.phase != "offering" else None,
        "adjusters": list(state.adjusters),
        "rewards_queue": [list(entry) for entry in state.reward_queue],
        "market": {
            "stage": ("cards", "farmers", "stones")[state.stage],
            "farmers_bought": state.bought_farmers,
            "stones_bought": state.bought_stones,
        },
        "harvest": {
            "eight_gold": [
                None if p < 0 else board.provinces[p].name for p in state.eight_gold_prov
            ],
            "harvest_increase": [
                None if p < 0 else board.provinces[p].name for p in state.increase_prov
            ],
        },
        "scorings": state.scorings,
        "scores": list(state.score),
        "over": state.is_over(),
        "winners": state.winners() if state.is_over() else [],
        "decision": decision_text(state),
    }
    if seat is not None:
        own: dict[str, Any] = {"hand": _counts(state.hand[seat])}
        if state.phase == "offering" and state.offers[seat] is not None:
            own["offer"] = state.offers[seat].to_json()  # type: ignore[union-attr]
        if state.expert:
            own["province_cards"] = [board.provinces[p].name for p in state.prov_hand[seat]]
            if state.picks[seat] >= 0:
                own["pick"] = board.provinces[state.picks[seat]].name
        obs["you"] = own
    return obs


def decision_text(state: AmunReState) -> str:
    """One line saying who decides what now (for clients and logs)."""
    phase = state.phase
    names = state.players
    if phase == "over":
        return "The game is over."
    if phase in ("offering", "pick"):
        waiting = ", ".join(names[s] for s in state.to_move())
        what = "commit an offering" if phase == "offering" else "pick a province card"
        return f"Waiting for {waiting} to {what} (sealed)."
    who = names[state.current]
    return {
        "auction": f"{who} must place a bid.",
        "market": f"{who} is shopping in the market.",
        "adjust": f"{who} adjusts the offering by +3 or -3.",
        "rewards": f"{who} takes Amun-Re's rewards.",
        "harvest": f"{who} may play harvest cards before collecting.",
        "scoring": f"{who} may play bonus cards before the scoring.",
    }[phase]
