"""What one seat may see of an Amun-Re game: one function, tested for non-interference.

Public (ruling 12): the board, the temple track, scores, the start player, every player's
gold, how many power cards each holds, which cards were played or sold (the discard pile),
who has committed at a sealed step, offers after the reveal, the table's options, and the
ranks once the game is over. Hidden: the identity of other players' cards, the order of
both decks, face-down free cards, sealed offers until all have committed, and under
``expert_provinces`` the other players' province hands and picks.

:class:`AmunReObservation` declares the shape :func:`observe` returns; every client (the
terminal, the web board and guide, the page script) reads that shape and nothing else.
"""

# No ``from __future__ import annotations`` here: a TypedDict's ``NotRequired`` keys are only
# known at run time (``__optional_keys__``, the JSON schema) when its annotations are real.

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, cast

from karnak.games.amunre.i18n import N_, _, t
from karnak.games.amunre.rules.board import CARD_KINDS

if TYPE_CHECKING:
    from karnak.games.amunre.rules.actions import Offer
    from karnak.games.amunre.rules.state import AmunReState


class BidView(TypedDict):
    """A bidding marker on a province card up for auction."""

    seat: int
    amount: int
    #: Another bid went above it: its bidder must move (or re-bid with an overbid card).
    overbid: bool


class ProvinceView(TypedDict):
    """One province (``board.provinces`` order: by name) and what stands on it."""

    name: str
    #: The owning seat, -1 for nobody.
    owner: int
    on_auction: bool
    bids: list[BidView]
    #: Farmers on fields, free farmers (no field needed) and the card's printed farmers.
    farmers: int
    free_farmers: int
    printed_farmers: int
    empty_fields: int
    stones: int
    pyramids: int
    #: Free power cards lying on the card for its winner (their identities are hidden).
    face_down_cards: int
    free_gold: int


class PlayerView(TypedDict):
    """One seat's public holdings."""

    seat: int
    name: str
    gold: int
    #: How many power cards the seat holds (which ones is hidden from the others).
    cards: int
    score: int
    provinces: list[str]
    #: A bidding blockade was played with the seat's bid in this auction.
    blockade: bool
    bonus_cards_played: list[str]
    #: Offering phase only: whether the seat has committed its sealed offer.
    committed: NotRequired[bool]
    #: Pick phase only (``expert_provinces``): whether the seat has picked.
    picked: NotRequired[bool]
    #: ``expert_provinces`` only: how many province cards the seat holds.
    province_cards: NotRequired[int]
    #: ``expert_provinces`` only: the province the seat last picked (revealed), or None.
    last_pick: NotRequired[str | None]


class OfferView(TypedDict):
    """An offering as its JSON form writes it (``Offer.to_json``)."""

    type: str
    gold: int
    theft: bool
    correction: bool
    cards: list[str]


class OptionsView(TypedDict):
    """The table's options (public: everyone plays by them)."""

    edition: str
    expert_provinces: bool
    offer_cards: bool


class SupplyView(TypedDict):
    farmers: int
    stones: int


class MarketView(TypedDict):
    """The market turn under way: which stage, and what was bought in it (prices rise)."""

    stage: str
    farmers_bought: int
    stones_bought: int


class HarvestView(TypedDict):
    """Per seat, the province its harvest cards were laid on this harvest (None: not used)."""

    eight_gold: list[str | None]
    harvest_increase: list[str | None]


class ScoringLine(TypedDict):
    """One seat's points at one scoring, line by line (``ScoreLines.to_json``)."""

    pyramids: int
    complete_sets: int
    nile_west: int
    nile_east: int
    temples: int
    bonus_cards: int
    gold_ranking: int
    total: int


class YouView(TypedDict):
    """What only the observing seat sees of its own."""

    #: Power cards held, by kind (kinds held only).
    hand: dict[str, int]
    #: The seat's own sealed offer, between committing it and the reveal.
    offer: NotRequired[OfferView]
    #: ``expert_provinces`` only: the seat's province cards, and its sealed pick.
    province_cards: NotRequired[list[str]]
    pick: NotRequired[str]


class AmunReObservation(TypedDict):
    """All that one seat (or a spectator, ``seat`` None) may see of an Amun-Re game."""

    game: str
    edition: str
    options: OptionsView
    seat: int | None
    round: int
    #: 0 for the old kingdom (rounds 1-3), 1 for the new.
    kingdom: int
    phase: str
    phase_name: str
    to_move: list[int]
    start_player: int
    #: The temple's space: 0 beside the track (before the first offering), then 1 to 4.
    temple: int
    provinces: list[ProvinceView]
    players: list[PlayerView]
    #: Cards left in the power deck.
    deck: int
    discard: dict[str, int]
    supply: SupplyView
    province_deck: int
    #: Each seat's revealed offer of the last offering (None: not revealed, or none).
    offers: list[OfferView | None]
    #: The revealed offering total (None while offers are sealed).
    offering_total: int | None
    #: Seats still to play their revealed correction card, in turn order.
    adjusters: list[int]
    #: ``[seat, items left]`` of each seat still to take rewards, in order.
    rewards_queue: list[list[int]]
    market: MarketView
    harvest: HarvestView
    #: Each scoring so far, each a line per seat.
    scorings: list[list[ScoringLine]]
    scores: list[int]
    over: bool
    winners: list[int]
    #: Standard competition ranks (1 = best): points, then pyramids, then stones in owned
    #: provinces; final once the game is over.
    ranks: list[int]
    decision: str
    you: NotRequired[YouView]


def as_observation(view: Mapping[str, Any]) -> AmunReObservation:
    """A view handed to a client, read as Amun-Re's observation (checked to be one)."""
    if view.get("game") != "amunre":
        raise TypeError(f"not an Amun-Re observation: game {view.get('game')!r}")
    return cast(AmunReObservation, view)


def _offer(offer: "Offer") -> OfferView:
    return cast(OfferView, offer.to_json())


PHASE_NAMES = {
    "2003": {
        "pick": N_("choose a province card"),
        "auction": N_("acquire the provinces (bidding)"),
        "market": N_("actions of players (market)"),
        "offering": N_("the sacrifice for Amun-Re"),
        "adjust": N_("sacrifice correction"),
        "rewards": N_("Amun-Re's rewards"),
        "harvest": N_("the harvest"),
        "scoring": N_("scoring"),
        "over": N_("game over"),
    },
    "2016": {
        "pick": N_("choose a Province card"),
        "auction": N_("Auction Phase"),
        "market": N_("Market Phase"),
        "offering": N_("Offering Phase"),
        "adjust": N_("Offering Adjustment"),
        "rewards": N_("Offering rewards"),
        "harvest": N_("Harvest Phase"),
        "scoring": N_("Intermediate Scoring"),
        "over": N_("game over"),
    },
}


def _counts(counts: list[int]) -> dict[str, int]:
    return {CARD_KINDS[k]: c for k, c in enumerate(counts) if c}


def observe(state: "AmunReState", seat: int | None) -> AmunReObservation:
    board = state.board
    spaces = board.bid_spaces
    provinces: list[ProvinceView] = []
    for p, prov in enumerate(board.provinces):
        bids: list[BidView] = [
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
    players: list[PlayerView] = []
    for s in range(state.n):
        entry: PlayerView = {
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
    over = state.is_over()
    obs: AmunReObservation = {
        "game": "amunre",
        "edition": state.edition,
        "options": {
            "edition": state.edition,
            "expert_provinces": state.expert,
            "offer_cards": state.offer_cards,
        },
        "seat": seat,
        "round": state.round,
        "kingdom": min(state.kingdom(), 1),
        "phase": state.phase,
        "phase_name": _(PHASE_NAMES[state.edition][state.phase]),
        "to_move": list(state.to_move()),
        "start_player": state.start,
        "temple": state.temple,
        "provinces": provinces,
        "players": players,
        "deck": len(state.deck),
        "discard": _counts(state.discard),
        "supply": {"farmers": state.farmer_supply, "stones": state.stone_supply},
        "province_deck": len(state.province_deck),
        "offers": [None if o is None else _offer(o) for o in state.revealed],
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
        "scorings": cast(list[list[ScoringLine]], state.scorings),
        "scores": list(state.score),
        "over": over,
        "winners": state.winners() if over else [],
        "ranks": state.ranks(),
        "decision": decision_text(state),
    }
    if seat is not None:
        own: YouView = {"hand": _counts(state.hand[seat])}
        offer = state.offers[seat]
        if state.phase == "offering" and offer is not None:
            own["offer"] = _offer(offer)
        if state.expert:
            own["province_cards"] = [board.provinces[p].name for p in state.prov_hand[seat]]
            if state.picks[seat] >= 0:
                own["pick"] = board.provinces[state.picks[seat]].name
        obs["you"] = own
    return obs


#: Who decides what now, by phase (``{player}``: the seat to move).
DECISIONS = {
    "auction": N_("{player} must place a bid."),
    "market": N_("{player} is shopping in the market."),
    "adjust": N_("{player} adjusts the offering by +3 or -3."),
    "rewards": N_("{player} takes Amun-Re's rewards."),
    "harvest": N_("{player} may play harvest cards before collecting."),
    "scoring": N_("{player} may play bonus cards before the scoring."),
}


def decision_text(state: "AmunReState") -> str:
    """One line saying who decides what now (for clients and logs), in the reader's
    language."""
    phase = state.phase
    names = state.players
    if phase == "over":
        return _("The game is over.")
    if phase in ("offering", "pick"):
        waiting = ", ".join(names[s] for s in state.to_move())
        if phase == "offering":
            return t("Waiting for {players} to commit an offering (sealed).", players=waiting)
        return t("Waiting for {players} to pick a province card (sealed).", players=waiting)
    return _(DECISIONS[phase]).format(player=names[state.current])
