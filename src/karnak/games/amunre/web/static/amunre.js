// Amun-Re on the game page: provinces marked where the seat can act, its moves (a bid and the
// offering each as one control with a confirm step, the other moves as buttons), its hand,
// the players and the final scoring. The board itself arrives as SVG in the view (public, the
// same for everyone). Only moves from view.legal are ever sent: the controls build a choice,
// look it up among the legal moves and send that move's own text.
import { $, el } from "/static/dom.js";

// The province clicked on the board: only its moves are listed (kept between renders).
let selectedProvince = null;
let view = null;
let ctx = null;
// What the player has picked in the bid and offering controls, kept while the position is
// the same (a re-render must not undo a half-made choice); a new position starts afresh.
let picked = { version: null, bid: {}, offer: {} };

function title(text) {
  return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();
}

function provinceName(name) {
  return name.split(" ").map(title).join(" ");
}

export function render(next, context) {
  view = next;
  ctx = context;
  if (picked.version !== view.version || picked.seat !== view.seat) {
    picked = { version: view.version, seat: view.seat, bid: {}, offer: {} };
  }
  renderBoard();
  renderMoves();
  renderHand();
  renderPlayers();
  renderResult();
}

function play(text) {
  selectedProvince = null;
  ctx.play(text);
}

// The name of a card kind in the game's edition, from the seat's hand (else its id).
function cardName(kind) {
  const held = view.page && view.page.hand ? view.page.hand.find((c) => c.card === kind) : null;
  return held ? held.name : kind.replaceAll("_", " ");
}

function letter(seat) {
  const letters = view.page && view.page.letters;
  return letters ? letters[seat] : String(seat + 1);
}

// A change in a control makes any confirm bar it opened stale (the shell withdraws it).
function withdrawConfirm() {
  ctx.withdrawConfirm();
}

// Ask for the confirm step; Change puts the focus back on the control's button.
function askConfirm(text, summary, back) {
  ctx.confirm(text, summary, back);
}

function renderBoard() {
  // The board is the same drawing for everyone; the provinces this seat can act on are
  // marked here, from its own moves.
  const movable = new Set(view.page ? view.page.provinces_of_moves.filter((p) => p) : []);
  const bidding = view.legal.some((m) => m.action.type === "bid");
  for (const node of document.querySelectorAll(".province")) {
    const name = node.dataset.province;
    if (!movable.has(name) || ctx.replayMode) continue;
    node.classList.add("movable");
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    const chosen = bidding ? picked.bid.province === name : name === selectedProvince;
    node.setAttribute("aria-pressed", chosen ? "true" : "false");
    node.setAttribute("aria-label", bidding ? `${provinceName(name)}: bid here` : `${provinceName(name)}: show its moves`);
    if (chosen) node.classList.add("selected");
    const choose = () => {
      if (bidding) {
        picked.bid.province = name;
        withdrawConfirm();
        ctx.rerender();
        const amount = $("bid-amount");
        if (amount) amount.focus();
        return;
      }
      selectedProvince = selectedProvince === name ? null : name;
      ctx.rerender();
    };
    node.addEventListener("click", choose);
    node.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); choose(); }
    });
  }
}

function renderMoves() {
  const box = $("moves");
  box.replaceChildren();
  $("move-error").textContent = "";
  const panel = $("moves-panel");
  if (view.seat === null || ctx.replayMode) { panel.hidden = true; return; }
  panel.hidden = false;
  if (view.can_undo) {
    box.append(ctx.undoButton());
  }
  if (!view.legal.length) {
    $("moves-note").textContent = view.status === "finished" ? "The game is over." : "Nothing to decide now: waiting for the others.";
    return;
  }
  const bids = view.legal.filter((m) => m.action.type === "bid");
  const offers = view.legal.filter((m) => m.action.type === "offer");
  if (bids.length) box.append(bidControl(bids));
  if (offers.length) box.append(offerControl(offers));
  const hints = view.page ? view.page.hints : [];
  const places = view.page ? view.page.provinces_of_moves : [];
  const others = [];
  view.legal.forEach((move, i) => {
    if (move.action.type !== "bid" && move.action.type !== "offer") others.push([move, hints[i] || "", places[i]]);
  });
  const byProvince = others.some(([, , place]) => place);
  $("moves-note").textContent = bids.length
    ? "Choose a province (or click it on the board), your bid, then confirm."
    : offers.length ? "Set your offering, then confirm: nobody sees it until all have committed."
      : !byProvince ? ""
        : selectedProvince ? `Moves for ${provinceName(selectedProvince)} (click it again to see all):`
          : "Click a glowing province to see only its moves.";
  const groups = new Map();
  for (const [move, hint, place] of others) {
    if (selectedProvince && place && place !== selectedProvince) continue;
    const type = move.action.type;
    const key = type === "sell" ? "Sell a card" : title(type.replaceAll("_", " "));
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push([move, hint]);
  }
  for (const [key, moves] of groups) {
    const group = el("div", { class: "move-group", role: "group", "aria-label": key }, el("h3", { text: key }));
    for (const [move, hint] of moves) {
      const button = el("button", { type: "button", class: `move move-${move.action.type}`, "data-move": move.text, "data-tip": hint || null },
        el("span", { class: "move-text", text: move.text }), hint ? el("small", { text: ` ${hint}` }) : "");
      button.addEventListener("click", () => play(move.text));
      group.append(button);
    }
    box.append(group);
  }
}

// ------------------------------------------------------------------ the bid
// One control: the province, the amount (only amounts legal there), the power cards that
// may go with the bid (bidding blockade, overbid in the same province) as toggles; then a
// summary and the confirm step. Every combination shown is one of the legal bids.
function bidControl(bids) {
  const provinces = [...new Set(bids.map((m) => m.action.province))];
  const choice = picked.bid;
  if (!provinces.includes(choice.province)) {
    choice.province = provinces.includes(selectedProvince) ? selectedProvince : provinces[0];
  }
  const form = el("fieldset", { class: "amunre-control bid-control", id: "bid-control" },
    el("legend", { text: "Your bid" }));
  const provinceSelect = el("select", { id: "bid-province", "aria-describedby": "bid-summary" },
    ...provinces.map((p) => el("option", { value: p, text: provinceName(p) })));
  const amountSelect = el("select", { id: "bid-amount", "aria-describedby": "bid-summary" });
  const blockade = el("input", { type: "checkbox", id: "bid-blockade" });
  const overbid = el("input", { type: "checkbox", id: "bid-overbid" });
  const blockadeRow = el("label", { class: "toggle", for: "bid-blockade", "data-tip": "Whoever overbids you must skip a bid space (the card is used up)" },
    blockade, ` play ${cardName("blockade")}`);
  const overbidRow = el("label", { class: "toggle", for: "bid-overbid", "data-tip": "Stay on the province where you were overbid, with a higher bid (the card is used up)" },
    overbid, ` play ${cardName("overbid")}`);
  const summary = el("p", { class: "summary", id: "bid-summary", "aria-live": "polite" });
  const review = el("button", { type: "button", class: "review", id: "bid-review" }, "Bid…");
  const mayOverbid = bids.some((m) => m.action.overbid);
  const mayBlock = bids.some((m) => m.action.blockade);
  blockadeRow.hidden = !mayBlock;
  overbidRow.hidden = !mayOverbid;

  const onProvince = () => bids.filter((m) => m.action.province === choice.province);
  const refresh = () => {
    provinceSelect.value = choice.province;
    const here = onProvince();
    const overbids = new Set(here.map((m) => m.action.overbid));
    if (!overbids.has(Boolean(choice.overbid))) choice.overbid = overbids.has(true);
    overbid.checked = Boolean(choice.overbid);
    const withOverbid = here.filter((m) => m.action.overbid === overbid.checked);
    const blocks = new Set(withOverbid.map((m) => m.action.blockade));
    if (!blocks.has(Boolean(choice.blockade))) choice.blockade = blocks.has(true);
    blockade.checked = Boolean(choice.blockade);
    blockade.disabled = blocks.size < 2;
    const fitting = withOverbid.filter((m) => m.action.blockade === blockade.checked);
    const amounts = [...new Set(fitting.map((m) => m.action.amount))].sort((a, b) => a - b);
    if (!amounts.includes(choice.amount)) choice.amount = amounts[0];
    amountSelect.replaceChildren(...amounts.map((a) => el("option", { value: String(a), text: `${a} gold` })));
    amountSelect.value = String(choice.amount);
    const move = fitting.find((m) => m.action.amount === choice.amount);
    const cards = [blockade.checked ? cardName("blockade") : null, overbid.checked ? cardName("overbid") : null].filter(Boolean);
    summary.textContent = `Bid ${choice.amount} gold on ${provinceName(choice.province)}${cards.length ? `, playing ${cards.join(" and ")}` : ""}`;
    review.disabled = !move;
    review.dataset.move = move ? move.text : "";
    for (const node of document.querySelectorAll(".province.movable")) {
      const on = node.dataset.province === choice.province;
      node.classList.toggle("selected", on);
      node.setAttribute("aria-pressed", on ? "true" : "false");
    }
  };
  provinceSelect.addEventListener("change", () => { choice.province = provinceSelect.value; withdrawConfirm(); refresh(); });
  amountSelect.addEventListener("change", () => { choice.amount = Number(amountSelect.value); withdrawConfirm(); refresh(); });
  blockade.addEventListener("change", () => { choice.blockade = blockade.checked; withdrawConfirm(); refresh(); });
  overbid.addEventListener("change", () => {
    // The overbid card belongs to one province (the one where the seat was overbid): turning
    // it on or off moves the choice to a province where that is possible.
    choice.overbid = overbid.checked;
    if (!onProvince().some((m) => m.action.overbid === overbid.checked)) {
      const other = bids.find((m) => m.action.overbid === overbid.checked);
      if (other) choice.province = other.action.province;
    }
    withdrawConfirm();
    refresh();
  });
  review.addEventListener("click", () => {
    if (!review.dataset.move) return;
    askConfirm(review.dataset.move, summary.textContent, "bid-review");
  });
  form.append(
    el("div", { class: "row" },
      el("label", { for: "bid-province", text: "Province " }), provinceSelect,
      el("label", { for: "bid-amount", text: "Bid " }), amountSelect),
    el("div", { class: "row toggles" }, blockadeRow, overbidRow),
    el("div", { class: "row" }, summary, review));
  refresh();
  return form;
}

// ------------------------------------------------------------------ the offering
// One control: gold (a number bounded by the legal amounts, with - and + for a thumb) or the
// theft card, the correction card and (with the offer_cards option) each offerable power
// card as toggles; one summary line and one confirm. A combination that is not a legal move
// is refused here, with the reason, and cannot be sent.
function offerControl(offers) {
  const choice = picked.offer;
  const plain = offers.filter((m) => !m.action.theft && !m.action.cards.length);
  const golds = plain.map((m) => m.action.gold);
  const withCards = offers.filter((m) => m.action.cards.length);
  const lowest = Math.min(...offers.filter((m) => !m.action.theft).map((m) => m.action.gold), Infinity);
  const highest = Math.max(...offers.filter((m) => !m.action.theft).map((m) => m.action.gold), -Infinity);
  const mayCorrect = offers.some((m) => m.action.correction);
  const mayGold = Number.isFinite(highest);
  // Each card that may be offered, once per copy that may go at once (a toggle each).
  const copies = new Map();
  for (const m of withCards) {
    const counts = {};
    for (const c of m.action.cards) counts[c] = (counts[c] || 0) + 1;
    for (const [kind, n] of Object.entries(counts)) copies.set(kind, Math.max(copies.get(kind) || 0, n));
  }
  if (choice.theft === undefined) {
    choice.theft = !mayGold;
    choice.gold = golds.length ? Math.min(...golds) : Math.max(lowest, 0);
    choice.correction = false;
    choice.cards = {};
  }
  const form = el("fieldset", { class: "amunre-control offer-control", id: "offer-control" },
    el("legend", { text: "Your offering (sealed)" }));
  const goldRadio = el("input", { type: "radio", name: "offer-kind", id: "offer-kind-gold", value: "gold" });
  const theftRadio = el("input", { type: "radio", name: "offer-kind", id: "offer-kind-theft", value: "theft" });
  const gold = el("input", {
    type: "number", id: "offer-gold", inputmode: "numeric", step: "1",
    min: mayGold ? String(lowest) : "0", max: mayGold ? String(highest) : "0", "aria-describedby": "offer-summary",
  });
  const less = el("button", { type: "button", class: "step", id: "offer-less", "aria-label": "one gold less" }, "−");
  const more = el("button", { type: "button", class: "step", id: "offer-more", "aria-label": "one gold more" }, "+");
  const correction = el("input", { type: "checkbox", id: "offer-correction" });
  const summary = el("p", { class: "summary", id: "offer-summary", "aria-live": "polite" });
  const problem = el("p", { class: "error problem", id: "offer-problem", role: "status" });
  const review = el("button", { type: "button", class: "review", id: "offer-review" }, "Offer…");
  const cardBoxes = [];
  for (const [kind, n] of copies) {
    for (let i = 0; i < n; i += 1) {
      const box = el("input", { type: "checkbox", id: `offer-card-${kind}-${i}`, "data-card": kind });
      cardBoxes.push(box);
    }
  }

  const candidate = () => {
    const cards = choice.theft ? [] : cardBoxes.filter((b) => b.checked).map((b) => b.dataset.card).sort();
    return { gold: choice.theft ? 0 : choice.gold, theft: choice.theft, correction: Boolean(choice.correction), cards };
  };
  const same = (a, b) => a.gold === b.gold && a.theft === b.theft && a.correction === b.correction
    && a.cards.length === b.cards.length && a.cards.every((c, i) => c === [...b.cards].sort()[i]);
  const words = (c) => {
    const parts = [c.theft ? "the theft card (−3)" : `${c.gold} gold`];
    if (c.cards.length) parts.push(`${c.cards.length} card${c.cards.length > 1 ? "s" : ""} (${c.cards.map(cardName).join(", ")})`);
    if (c.correction) parts.push("correction");
    return `Offer ${parts.join(" + ")}, sealed`;
  };
  const heldCorrections = (view.page.hand || []).filter((h) => h.card === "correction").reduce((n, h) => n + h.count, 0);
  const why = (c) => {
    if (c.correction && c.cards.filter((k) => k === "correction").length >= heldCorrections) {
      return "Your correction card cannot be offered and played at once: untick one of them.";
    }
    if (c.theft && c.cards.length) return "The theft card goes alone, with at most a correction card.";
    if (!c.theft && !Number.isInteger(c.gold)) return "Offer a whole number of gold.";
    if (!c.theft && c.gold > highest) return `You have ${highest} gold: offer at most that.`;
    if (!c.theft && c.gold < 1 && !c.cards.length) return "Offer at least 1 gold (or the theft card).";
    if (!c.theft && c.gold < 0) return "An offering cannot be negative.";
    return "That combination is not a legal offering.";
  };
  const refresh = () => {
    goldRadio.checked = !choice.theft;
    theftRadio.checked = choice.theft;
    goldRadio.disabled = !mayGold;
    gold.disabled = choice.theft;
    less.disabled = choice.theft || choice.gold <= lowest;
    more.disabled = choice.theft || choice.gold >= highest;
    if (document.activeElement !== gold) gold.value = String(choice.gold);
    correction.checked = Boolean(choice.correction);
    for (const b of cardBoxes) b.disabled = choice.theft;
    const c = candidate();
    const move = offers.find((m) => same(c, m.action));
    summary.textContent = words(c);
    problem.textContent = move ? "" : why(c);
    review.disabled = !move;
    review.dataset.move = move ? move.text : "";
    gold.setAttribute("aria-invalid", move || choice.theft ? "false" : "true");
  };
  const changed = () => { withdrawConfirm(); refresh(); };
  goldRadio.addEventListener("change", () => { choice.theft = false; changed(); });
  theftRadio.addEventListener("change", () => { choice.theft = true; changed(); });
  gold.addEventListener("input", () => { choice.gold = gold.value === "" ? NaN : Number(gold.value); changed(); });
  gold.addEventListener("change", () => { gold.value = String(choice.gold); });
  gold.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); review.click(); } });
  less.addEventListener("click", () => { choice.gold = Math.max(lowest, (Number.isFinite(choice.gold) ? choice.gold : lowest) - 1); gold.value = String(choice.gold); changed(); });
  more.addEventListener("click", () => { choice.gold = Math.min(highest, (Number.isFinite(choice.gold) ? choice.gold : lowest) + 1); gold.value = String(choice.gold); changed(); });
  correction.addEventListener("change", () => { choice.correction = correction.checked; changed(); });
  for (const b of cardBoxes) b.addEventListener("change", changed);
  review.addEventListener("click", () => {
    if (!review.dataset.move) return;
    askConfirm(review.dataset.move, summary.textContent, "offer-review");
  });

  const kinds = el("div", { class: "row", role: "radiogroup", "aria-label": "gold or the theft card" },
    el("label", { class: "toggle", for: "offer-kind-gold" }, goldRadio, " gold"),
    el("label", { class: "toggle", for: "offer-kind-theft", "data-tip": "Take 3 gold from the bank and lower the total by 3; no reward" }, theftRadio, " theft card (−3)"));
  form.append(kinds,
    el("div", { class: "row amount" }, el("label", { for: "offer-gold", text: "Gold " }), less, gold, more,
      el("small", { text: mayGold ? `${lowest} to ${highest}` : "you have no gold" })));
  if (mayCorrect) {
    form.append(el("div", { class: "row toggles" },
      el("label", { class: "toggle", for: "offer-correction", "data-tip": "After the reveal, move the total up or down by 3" },
        correction, ` add ${cardName("correction")}`)));
  }
  if (cardBoxes.length) {
    const list = el("fieldset", { class: "offer-cards" }, el("legend", { text: "Power cards to add (1 gold each)" }));
    const seen = {};
    for (const b of cardBoxes) {
      const kind = b.dataset.card;
      seen[kind] = (seen[kind] || 0) + 1;
      const nth = (copies.get(kind) || 0) > 1 ? ` (${seen[kind]} of ${copies.get(kind)})` : "";
      list.append(el("label", { class: "toggle", for: b.id }, b, ` ${cardName(kind)}${nth}`));
    }
    form.append(list);
  }
  form.append(el("div", { class: "row" }, summary, review), problem);
  refresh();
  return form;
}

// ------------------------------------------------------------------ the seat's hand, the players
function renderHand() {
  const panel = $("hand-panel");
  if (view.seat === null || !view.page || !view.page.hand) { panel.hidden = true; return; }
  panel.hidden = false;
  const me = view.observation.players[view.seat];
  $("gold").textContent = `Gold: ${me.gold}`;
  const list = $("hand");
  list.replaceChildren();
  for (const card of view.page.hand) {
    list.append(el("li", {}, el("strong", { text: `${card.name}${card.count > 1 ? ` ×${card.count}` : ""}` }), el("span", { text: ` ${card.effect}` })));
  }
  if (!view.page.hand.length) list.append(el("li", { class: "empty", text: "no power cards" }));
}

function renderPlayers() {
  const table = $("players");
  const obs = view.observation;
  table.replaceChildren(el("tr", {}, ...["Player", "Gold", "Cards", "Score", "Provinces"].map((h) => el("th", { scope: "col", text: h }))));
  obs.players.forEach((p, seat) => {
    const info = view.players[seat];
    const mark = letter(seat);
    const name = el("td", {}, ctx.chip(seat, p.name),
      el("span", { class: "seat-letter", "data-tip": `${p.name}'s markers on the board carry the letter ${mark}`, "aria-label": `board letter ${mark}` }, mark));
    if (info.kind === "bot") name.append(el("small", { text: ` bot ${info.bot}` }));
    if (obs.start_player === seat) name.append(el("small", { text: " (start)", "data-tip": "The start player: first to bid, to buy and to collect" }));
    if (view.to_move.includes(seat) && view.status !== "finished") name.append(el("small", { class: "to-move", text: " · to move" }));
    const cards = p.cards === 1 ? "1 power card" : `${p.cards} power cards`;
    const cardTip = seat === view.seat
      ? `${cards}: your hand below says what each does`
      : `${cards}: which ones stays hidden until they are played or sold`;
    table.append(el("tr", { class: seat === view.seat ? "me" : "" }, name,
      el("td", { text: p.gold }), el("td", { text: p.cards, "data-tip": cardTip, tabindex: "0" }), el("td", { text: p.score }),
      el("td", { text: p.provinces.map(provinceName).join(", ") || "·" })));
  });
}

function renderResult() {
  const panel = $("result-panel");
  if (!view.result) { panel.hidden = true; return; }
  panel.hidden = false;
  const lines = view.page ? view.page.scoring_lines : [];
  const table = $("result");
  table.replaceChildren(el("tr", {}, el("th", { text: "Player" }), el("th", { text: "Scoring" }),
    ...lines.map((l) => el("th", { text: l.label })), el("th", { text: "Total" })));
  const scorings = view.observation.scorings || [];
  view.players.forEach((p, seat) => {
    scorings.forEach((scoring, index) => {
      const line = scoring[seat];
      table.append(el("tr", {}, el("td", {}, index === 0 ? ctx.chip(seat, p.name) : ""),
        el("td", { text: `kingdom ${index + 1}` }),
        ...lines.map((l) => el("td", { text: line[l.key] || "·" })), el("td", { text: line.total })));
    });
    table.append(el("tr", { class: "total-row" }, el("td"), el("td", { text: `game, rank ${view.result.ranks[seat]}` }),
      ...lines.map(() => el("td")), el("td", { class: "final-score", text: view.result.scores[seat] })));
  });
  const names = view.result.winners.map((s) => view.players[s].name).join(" and ");
  $("winners").textContent = view.result.winners.length > 1 ? `Shared victory: ${names}` : `Winner: ${names}`;
}
