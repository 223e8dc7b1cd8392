// Amun-Re on the game page: provinces marked where the seat can act, its moves (a bid and the
// offering each as one control with a confirm step, the other moves as buttons), its hand,
// the players and the final scoring. The board itself arrives as SVG in the view (public, the
// same for everyone). Only moves from view.legal are ever sent: the controls build a choice,
// look it up among the legal moves and send that move's own text.
import { $, el } from "/static/dom.js";
import { resultHeadline } from "/static/result.js";
import { t, nt } from "/static/i18n.js";

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

// A province's name in the reader's language (the page data names each), else its own.
function provinceName(name) {
  const names = view && view.page && view.page.province_names;
  if (names && names[name]) return names[name];
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
  renderFigures();
  renderResult();
}

function play(text) {
  selectedProvince = null;
  ctx.play(text);
}

// The name of a card kind in the game's edition and the reader's language (else its id).
function cardName(kind) {
  const names = view.page && view.page.card_names;
  if (names && names[kind]) return names[kind];
  return kind.replaceAll("_", " ");
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
    node.setAttribute("aria-label", bidding
      ? t("{province}: bid here", { province: provinceName(name) })
      : t("{province}: show its moves", { province: provinceName(name) }));
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
    $("moves-note").textContent = view.status === "finished" ? t("The game is over.") : t("Nothing to decide now: waiting for the others.");
    return;
  }
  const bids = view.legal.filter((m) => m.action.type === "bid");
  const offers = view.legal.filter((m) => m.action.type === "offer");
  if (bids.length) box.append(bidControl(bids));
  if (offers.length) box.append(offerControl(offers));
  // Each move in a player's words (page.labels), with a few words under it (page.hints)
  // and its heading (page.groups); the engine's text is what is sent (data-move).
  const page = view.page || {};
  const hints = page.hints || [];
  const labels = page.labels || [];
  const headings = page.groups || [];
  const places = page.provinces_of_moves || [];
  const others = [];
  view.legal.forEach((move, i) => {
    if (move.action.type !== "bid" && move.action.type !== "offer") {
      others.push({ move, hint: hints[i] || "", place: places[i], label: labels[i] || move.text, heading: headings[i] || t("Moves") });
    }
  });
  const byProvince = others.some((o) => o.place);
  $("moves-note").textContent = bids.length
    ? t("Choose a province (or click it on the board), your bid, then confirm.")
    : offers.length ? t("Set your offering, then confirm: nobody sees it until all have committed.")
      : !byProvince ? ""
        : selectedProvince ? t("Moves for {province} (click it again to see all):", { province: provinceName(selectedProvince) })
          : t("Click a glowing province to see only its moves.");
  const groups = new Map();
  for (const item of others) {
    if (selectedProvince && item.place && item.place !== selectedProvince) continue;
    if (!groups.has(item.heading)) groups.set(item.heading, []);
    groups.get(item.heading).push(item);
  }
  for (const [key, items] of groups) {
    const group = el("div", { class: "move-group", role: "group", "aria-label": key }, el("h3", { text: key }));
    for (const { move, hint, label } of items) {
      const button = el("button", { type: "button", class: `move move-${move.action.type}`, "data-move": move.text, "data-tip": hint || null },
        el("span", { class: "move-text", text: label }), hint ? el("small", { class: "move-hint", text: ` ${hint}` }) : "");
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
    el("legend", { text: t("Your bid") }));
  const provinceSelect = el("select", { id: "bid-province", "aria-describedby": "bid-summary" },
    ...provinces.map((p) => el("option", { value: p, text: provinceName(p) })));
  const amountSelect = el("select", { id: "bid-amount", "aria-describedby": "bid-summary" });
  const blockade = el("input", { type: "checkbox", id: "bid-blockade" });
  const overbid = el("input", { type: "checkbox", id: "bid-overbid" });
  const blockadeRow = el("label", { class: "toggle", for: "bid-blockade", "data-tip": t("Whoever overbids you must skip a bid space (the card is used up)") },
    blockade, " " + t("play {card}", { card: cardName("blockade") }));
  const overbidRow = el("label", { class: "toggle", for: "bid-overbid", "data-tip": t("Stay on the province where you were overbid, with a higher bid (the card is used up)") },
    overbid, " " + t("play {card}", { card: cardName("overbid") }));
  const summary = el("p", { class: "summary", id: "bid-summary", "aria-live": "polite" });
  const review = el("button", { type: "button", class: "review", id: "bid-review" }, t("Bid…"));
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
    amountSelect.replaceChildren(...amounts.map((a) => el("option", { value: String(a), text: t("{n} gold", { n: a }) })));
    amountSelect.value = String(choice.amount);
    const move = fitting.find((m) => m.action.amount === choice.amount);
    const cards = [blockade.checked ? cardName("blockade") : null, overbid.checked ? cardName("overbid") : null].filter(Boolean);
    summary.textContent = cards.length === 2
      ? t("Bid {amount} gold on {province}, playing {first} and {second}", { amount: choice.amount, province: provinceName(choice.province), first: cards[0], second: cards[1] })
      : cards.length
        ? t("Bid {amount} gold on {province}, playing {card}", { amount: choice.amount, province: provinceName(choice.province), card: cards[0] })
        : t("Bid {amount} gold on {province}", { amount: choice.amount, province: provinceName(choice.province) });
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
      el("label", { for: "bid-province", text: t("Province") + " " }), provinceSelect,
      el("label", { for: "bid-amount", text: t("Bid") + " " }), amountSelect),
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
    el("legend", { text: t("Your offering (sealed)") }));
  const goldRadio = el("input", { type: "radio", name: "offer-kind", id: "offer-kind-gold", value: "gold" });
  const theftRadio = el("input", { type: "radio", name: "offer-kind", id: "offer-kind-theft", value: "theft" });
  const gold = el("input", {
    type: "number", id: "offer-gold", inputmode: "numeric", step: "1",
    min: mayGold ? String(lowest) : "0", max: mayGold ? String(highest) : "0", "aria-describedby": "offer-summary",
  });
  const less = el("button", { type: "button", class: "step", id: "offer-less", "aria-label": t("one gold less") }, "−");
  const more = el("button", { type: "button", class: "step", id: "offer-more", "aria-label": t("one gold more") }, "+");
  const correction = el("input", { type: "checkbox", id: "offer-correction" });
  const summary = el("p", { class: "summary", id: "offer-summary", "aria-live": "polite" });
  const problem = el("p", { class: "error problem", id: "offer-problem", role: "status" });
  const review = el("button", { type: "button", class: "review", id: "offer-review" }, t("Offer…"));
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
    const parts = [c.theft ? t("the theft card (−3)") : t("{n} gold", { n: c.gold })];
    if (c.cards.length) parts.push(nt("{n} card ({cards})", "{n} cards ({cards})", c.cards.length, { cards: c.cards.map(cardName).join(", ") }));
    if (c.correction) parts.push(t("correction"));
    return t("Offer {what}, sealed", { what: parts.join(" + ") });
  };
  const heldCorrections = (view.page.hand || []).filter((h) => h.card === "correction").reduce((n, h) => n + h.count, 0);
  const why = (c) => {
    if (c.correction && c.cards.filter((k) => k === "correction").length >= heldCorrections) {
      return t("Your correction card cannot be offered and played at once: untick one of them.");
    }
    if (c.theft && c.cards.length) return t("The theft card goes alone, with at most a correction card.");
    if (!c.theft && !Number.isInteger(c.gold)) return t("Offer a whole number of gold.");
    if (!c.theft && c.gold > highest) return t("You have {n} gold: offer at most that.", { n: highest });
    if (!c.theft && c.gold < 1 && !c.cards.length) return t("Offer at least 1 gold (or the theft card).");
    if (!c.theft && c.gold < 0) return t("An offering cannot be negative.");
    return t("That combination is not a legal offering.");
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

  const kinds = el("div", { class: "row", role: "radiogroup", "aria-label": t("gold or the theft card") },
    el("label", { class: "toggle", for: "offer-kind-gold" }, goldRadio, " " + t("gold")),
    el("label", { class: "toggle", for: "offer-kind-theft", "data-tip": t("Take 3 gold from the bank and lower the total by 3; no reward") }, theftRadio, " " + t("theft card (−3)")));
  form.append(kinds,
    el("div", { class: "row amount" }, el("label", { for: "offer-gold", text: t("Gold") + " " }), less, gold, more,
      el("small", { text: mayGold ? t("{low} to {high}", { low: lowest, high: highest }) : t("you have no gold") })));
  if (mayCorrect) {
    form.append(el("div", { class: "row toggles" },
      el("label", { class: "toggle", for: "offer-correction", "data-tip": t("After the reveal, move the total up or down by 3") },
        correction, " " + t("add {card}", { card: cardName("correction") }))));
  }
  if (cardBoxes.length) {
    const list = el("fieldset", { class: "offer-cards" }, el("legend", { text: t("Power cards to add (1 gold each)") }));
    const seen = {};
    for (const b of cardBoxes) {
      const kind = b.dataset.card;
      seen[kind] = (seen[kind] || 0) + 1;
      const nth = (copies.get(kind) || 0) > 1 ? " " + t("({nth} of {count})", { nth: seen[kind], count: copies.get(kind) }) : "";
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
  $("gold").textContent = t("Gold: {n}", { n: me.gold });
  const list = $("hand");
  list.replaceChildren();
  for (const card of view.page.hand) {
    list.append(el("li", {}, el("strong", { text: `${card.name}${card.count > 1 ? ` ×${card.count}` : ""}` }), el("span", { text: ` ${card.effect}` })));
  }
  if (!view.page.hand.length) list.append(el("li", { class: "empty", text: t("no power cards") }));
}

function renderPlayers() {
  const table = $("players");
  const obs = view.observation;
  table.replaceChildren(el("tr", {}, ...[t("Player"), t("Gold"), t("Cards"), t("Score"), t("Provinces")].map((h) => el("th", { scope: "col", text: h }))));
  obs.players.forEach((p, seat) => {
    const info = view.players[seat];
    const mark = letter(seat);
    const name = el("td", {}, ctx.chip(seat, p.name),
      el("span", { class: "seat-letter", "data-tip": t("{player}'s markers on the board carry the letter {letter}", { player: p.name, letter: mark }), "aria-label": t("board letter {letter}", { letter: mark }) }, mark));
    // a bot by its level ("Medium bot"), the bot behind it on hover (the view's seat.bot)
    if (info.kind === "bot" && info.bot) {
      name.title = info.bot.spec;
      if (info.name !== info.bot.label) name.append(el("small", { text: " " + t("bot {name}", { name: info.bot.label }) }));
    }
    if (obs.start_player === seat) name.append(el("small", { text: " " + t("(start)"), "data-tip": t("The start player: first to bid, to buy and to collect") }));
    if (view.to_move.includes(seat) && view.status !== "finished") name.append(el("small", { class: "to-move", text: " · " + t("to move") }));
    const cardTip = seat === view.seat
      ? nt("{n} power card: your hand below says what each does", "{n} power cards: your hand below says what each does", p.cards)
      : nt("{n} power card: which one stays hidden until it is played or sold", "{n} power cards: which ones stays hidden until they are played or sold", p.cards);
    table.append(el("tr", { class: seat === view.seat ? "me" : "" }, name,
      el("td", { text: p.gold }), el("td", { text: p.cards, "data-tip": cardTip, tabindex: "0" }), el("td", { text: p.score }),
      el("td", { text: p.provinces.map(provinceName).join(", ") || "·" })));
  });
}

// "About these figures": where the board's figures come from (a note about our data, not
// about the game, so it stays out of the play tooltips), folded under the board.
function renderFigures() {
  const about = view.page && view.page.about_figures;
  const board = $("board");
  if (!about || !board || !board.parentNode) return;
  let panel = document.getElementById("amunre-figures");
  if (panel && panel.dataset.language === document.documentElement.lang) return;
  const open = panel ? panel.open : false;
  if (panel) panel.remove();
  const items = about.provinces.map((p) => {
    const parts = [];
    if (p.reconstructed.length) parts.push(t("reconstructed: {figures}", { figures: p.reconstructed.join(", ") }));
    if (p.one_source.length) parts.push(t("from one source: {figures}", { figures: p.one_source.join(", ") }));
    return el("li", {}, el("strong", { text: p.province }), ` ${parts.join("; ")}`);
  });
  panel = el("details", { id: "amunre-figures", class: "about-figures", "data-language": document.documentElement.lang },
    el("summary", { text: t("About these figures") }),
    el("p", { text: about.note }),
    el("p", { class: "source", text: t("Sources: {source}", { source: about.source }) }),
    el("ul", {}, ...items));
  panel.open = open;
  board.parentNode.insertBefore(panel, board.nextSibling);
}

function renderResult() {
  const panel = $("result-panel");
  if (!view.result) { panel.hidden = true; return; }
  panel.hidden = false;
  const lines = view.page ? view.page.scoring_lines : [];
  const table = $("result");
  table.replaceChildren(el("tr", {}, el("th", { text: t("Player") }), el("th", { text: t("Scoring") }),
    ...lines.map((l) => el("th", { text: l.label })), el("th", { text: t("Total") })));
  const scorings = view.observation.scorings || [];
  view.players.forEach((p, seat) => {
    scorings.forEach((scoring, index) => {
      const line = scoring[seat];
      table.append(el("tr", {}, el("td", {}, index === 0 ? ctx.chip(seat, p.name) : ""),
        el("td", { text: t("kingdom {n}", { n: index + 1 }) }),
        ...lines.map((l) => el("td", { text: line[l.key] || "·" })), el("td", { text: line.total })));
    });
    table.append(el("tr", { class: "total-row" }, el("td"), el("td", { text: t("game, rank {rank}", { rank: view.result.ranks[seat] }) }),
      ...lines.map(() => el("td")), el("td", { class: "final-score", text: view.result.scores[seat] })));
  });
  $("winners").textContent = resultHeadline(view); // ranked as the ratings rank (/static/result.js)
}
