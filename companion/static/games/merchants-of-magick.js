// Merchants of Magick: the round, its phase and its four dice large at the top, the Masteries in
// play, Ready and the host's Roll and Advance, and the player's shoppe sheet: on the phone (drawn
// from the layout, every mark checked by the server) or on paper (a score form). Every number the
// sheet shows is the layout's or the state's; nothing about the rules is decided here.
"use strict";
(() => {
  const {el, button} = window.SpellpressUI;
  const CATEGORIES = ["accessory", "weapon", "armour"];
  const ORDINALS = ["1st", "2nd", "3rd", "4th"];

  let layout = null;  // GET /layout, fetched once per page
  let layoutDue = false;
  let last = null;  // the arguments of the last render, to redraw after a local change
  const own = {key: null, seat: null};  // the caller's own whole seat: the live stream sends only summaries
  let reloading = false;
  let pick = {round: null, die: null, adjust: 0};  // the die chosen to spend, and the potions moving it
  let hint = "";
  const kept = new Map();  // forms kept across redraws while their inputs are unchanged (focus, typing)

  const redraw = () => { if (last) render(...last); };
  const capital = (word) => word[0].toUpperCase() + word.slice(1);
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const colName = (id) => (layout.columns.find((c) => c.id === id) || {name: id}).name;
  const sign = (row) => (row.side === "crafting" ? "≥" : "≤");
  const asOrder = (item, enchantment) => (enchantment.startsWith("of ") ? `${item} ${enchantment}` : `${enchantment} ${item}`);
  const playing = (s) => s.phase !== "setup" && s.phase !== "over";
  const rolled = (s) => Object.keys(s.dice).length > 0;
  const spendable = (s) => rolled(s) && (s.phase === "resource" || s.phase === "crafting");

  function loadLayout(code) {
    if (layout || layoutDue) return;
    layoutDue = true;
    fetch(`/api/tables/${encodeURIComponent(code)}/layout`)
      .then((res) => (res.ok ? res.json() : Promise.reject(new Error(String(res.status)))))
      .then((data) => { layout = data; redraw(); })
      .catch(() => setTimeout(() => { layoutDue = false; redraw(); }, 2000));
  }

  // The caller's seat: kept from the answers that carry it (GET and actions with the token), and
  // fetched again when the live stream shows its `rev` moved on.
  function ownSeat(table, you, summary) {
    const s = table.state;
    const key = `${table.code}:${you.actor}`;
    if (s.mine && s.mine.id === you.actor) {
      own.key = key;
      own.seat = s.mine;
      return s.mine;
    }
    const held = own.key === key ? own.seat : null;
    if (!held || held.rev !== summary.rev) reloadOwn();
    return held;
  }

  function reloadOwn() {
    if (reloading) return;
    reloading = true;
    // table.js's Spellpress (a global of the page's scripts) shows the answer; an answer older
    // than the table shown is dropped there, so look again: the next render asks anew if need be.
    Spellpress.reload().then(() => { reloading = false; redraw(); }, () => { reloading = false; });
  }

  // A node built again only when what it shows changed, and left in place: typing in a form or
  // an open picker survives another phone's move.
  function keep(key, inputs, build) {
    const sig = JSON.stringify(inputs);
    const held = kept.get(key);
    if (held && held.sig === sig) return held.node;
    const node = build();
    kept.set(key, {sig, node});
    return node;
  }

  function place(root, nodes) {
    nodes = nodes.filter(Boolean);
    nodes.forEach((node, i) => { if (root.children[i] !== node) root.insertBefore(node, root.children[i] || null); });
    while (root.children.length > nodes.length) root.lastElementChild.remove();
  }

  // --- for everyone ---------------------------------------------------------------------------

  function top(s, mine) {
    const heading = s.round ? `Round ${s.round} of ${s.rounds}` : `${s.rounds} rounds`;
    let dice;
    if (rolled(s)) {
      dice = el("div", {class: "mm-dice", "data-testid": "dice"}, ...layout.dice.map((d) =>
        el("div", {class: "mm-die", "data-testid": `die-${d.id}`, "aria-label": `${d.id}: ${s.dice[d.id]}`},
          el("span", {class: "mm-die-name"}, d.id), el("span", {class: "mm-die-value live"}, String(s.dice[d.id])))));
    } else if (playing(s)) {
      dice = el("p", {class: "mm-waiting", "data-testid": "dice"}, `Waiting for the roll of round ${s.round}`);
    }
    return el("section", {class: "card mm-top"},
      el("div", {class: "mm-head"}, el("h2", {"data-testid": "round"}, heading),
        el("span", {class: "mm-phase", "data-testid": "phase"}, s.phase_name)),
      dice || null,
      s.masteries.length ? el("div", {class: "mm-masteries"}, ...s.masteries.map((card) => mastery(card, mine))) : null);
  }

  // Circles marked in a column of a digital sheet, towards its Mastery.
  function columnMarks(mine, column) {
    return layout.rows.reduce((n, row, i) =>
      n + row.circles.filter((spot, k) => spot.column === column && mine.marked[i][k]).length, 0);
  }

  function mastery(card, mine) {
    const master = card.side === "master";
    let yours = "";
    if (mine && mine.mastered && mine.mastered.includes(card.name)) yours = " · you scored it ✓";
    else if (mine && mine.marked) yours = ` · you: ${Math.min(columnMarks(mine, card.column), card.circles)} of ${card.circles}`;
    return el("div", {class: "mm-mastery", "data-testid": `mastery-${card.type}`},
      el("div", {class: "mm-mastery-name"}, el("strong", {}, card.name),
        el("span", {class: "mm-side"}, `${master ? "Master" : "Apprentice"} ${card.side === "master" ? card.master : card.apprentice}`)),
      el("div", {class: "note"}, `${card.circles} circles in ${colName(card.column)}` +
        (master ? ` · then Apprentice ${card.apprentice}` : "") + yours));
  }

  function readyCard(s, seat, you, act) {
    if (!playing(s)) return null;
    const count = el("span", {class: "mm-ready-count live", "data-testid": "ready-count"}, `${s.ready_count} of ${s.players.length} ready`);
    const parts = [];
    if (seat && rolled(s)) {
      parts.push(seat.ready
        ? el("button", {class: "mm-wide mm-is-ready", disabled: true, "aria-pressed": "true"}, `Ready ✓ (${s.phase_name})`)
        : el("button", {class: "act mm-wide", onclick: () => act("ready", {phase: s.phase})}, `Ready: done with ${s.phase_name}`));
    }
    if (you.host) {
      const next = rolled(s) ? s.round + 1 : s.round;
      if ((!rolled(s) || s.phase === "customer") && next <= s.rounds) {
        parts.push(el("button", {class: "act mm-wide", "data-testid": "roll", onclick: () => act("roll", {round: next}, true)}, `Roll round ${next}`));
      }
      if (rolled(s)) {
        const last = s.phase === "mastery" && s.round >= s.rounds;
        parts.push(el("button", {class: "mm-wide", "data-testid": "advance", onclick: () => act("advance", {phase: s.phase}, true)},
          `End the ${s.phase_name} phase` + (last ? " (ends the game)" : "")));
      }
    }
    return el("section", {class: "card mm-ready"}, el("div", {class: "mm-head"}, el("h2", {}, "This phase"), count), ...parts);
  }

  function setupCard(s, seat, you, act) {
    if (s.phase !== "setup") return null;
    const who = s.players.length
      ? el("ul", {class: "mm-players"}, ...s.players.map((p) => el("li", {}, p.name, el("span", {class: "note"}, ` · ${p.sheet} sheet`))))
      : el("p", {class: "note"}, "No merchant has joined yet.");
    const parts = [el("h2", {}, "Setting up"), el("p", {class: "note"},
      s.cards === "printed" ? "Printed cards: deal the Adventurers, Orders and Masteries on the table." : "The companion deals the cards when the host starts."), who];
    if (you.host && s.cards === "printed") parts.push(masteryPickers(s, act));
    if (you.host) parts.push(el("button", {class: "act mm-wide", "data-testid": "start", onclick: () => act("start", {}, true)}, "Start the game"));
    else parts.push(el("p", {class: "note"}, "The host starts the game."));
    return el("section", {class: "card"}, ...parts);
  }

  function masteryPickers(s, act) {
    const chosen = Object.fromEntries(s.masteries.map((m) => [m.type, m.name]));
    return keep("masteries", chosen, () => {
      const select = (type) => {
        const node = el("select", {name: type, "aria-label": `${capital(type)} Mastery`, required: true},
          el("option", {value: ""}, `${capital(type)} Mastery…`),
          ...layout.masteries.filter((m) => m.type === type).map((m) =>
            el("option", {value: m.name}, `${m.name}: ${m.circles} in ${colName(m.column)}`)));
        node.value = chosen[type] || "";
        return node;
      };
      const material = select("material");
      const energy = select("energy");
      const form = el("form", {class: "mm-form"}, el("div", {class: "label"}, "The Mastery cards on the table"),
        material, energy, el("button", {class: "act"}, "Set the Masteries"));
      form.addEventListener("submit", (e) => { e.preventDefault(); act("masteries", {material: material.value, energy: energy.value}, true); });
      return form;
    });
  }

  function sheetChoice(s, seat, act) {
    if (!seat || s.rolls.length || s.phase === "over") return null;
    const option = (kind, label) => el("button", {class: seat.sheet === kind ? "mm-chosen" : "", "aria-pressed": String(seat.sheet === kind),
      onclick: () => act("sheet", {kind})}, label);
    return el("section", {class: "card"}, el("h2", {}, "Your sheet"),
      el("p", {class: "note"}, "Choose before the first roll: mark a printed sheet, or mark it here."),
      el("div", {class: "mm-two"}, option("paper", "Paper sheet"), option("digital", "Digital sheet")));
  }

  function standings(s, you) {
    if (!s.standings.length) return null;
    const ready = new Set(s.players.filter((p) => p.ready).map((p) => p.id));
    const rows = s.standings.map((r) => el("tr", {class: r.id === you.actor ? "mm-me" : ""},
      el("td", {}, String(r.place)), el("td", {}, r.name, ready.has(r.id) && playing(s) ? el("span", {class: "mm-tick", "aria-label": "ready"}, " ✓") : null),
      el("td", {class: "live"}, String(r.total)), el("td", {}, String(r.fulfilled)), el("td", {}, String(r.potions))));
    const parts = [el("h2", {}, s.phase === "over" ? "Final standings" : "Standings"),
      el("table", {class: "scores mm-standings", "data-testid": "standings"},
        el("thead", {}, el("tr", {}, ...["#", "Merchant", "Coins", "Orders", "Potions"].map((h) => el("th", {}, h)))),
        el("tbody", {}, ...rows))];
    if (s.solo && s.rating) parts.push(el("p", {class: "mm-rating", "data-testid": "rating"}, `Rating: ${s.rating}`));
    else if (s.solo && s.phase === "over") parts.push(el("p", {class: "note"}, `Below ${layout.ratings[0].least} coins: no rating yet.`));
    if (!s.solo) parts.push(el("p", {class: "note"}, "Ties: most fulfilled orders, then most potions."));
    return el("section", {class: "card"}, ...parts);
  }

  function resultsCard(s, table) {
    if (s.phase !== "over") return null;
    const base = `/api/tables/${encodeURIComponent(table.code)}/export`;
    return el("section", {class: "card"}, el("h2", {}, "Results"),
      el("div", {class: "mm-two"}, el("a", {class: "mm-link", href: `${base}?format=csv`, download: `${table.code}-results.csv`}, "Results (CSV)"),
        el("a", {class: "mm-link", href: base}, "Whole game (JSON)")));
  }

  // --- the digital sheet ------------------------------------------------------------------------

  function done(mine, name) {
    const i = layout.rows.findIndex((r) => r.name === name);
    return i >= 0 && !!mine.completed && mine.completed[i];  // a paper sheet's rows are on paper
  }

  // The dice to spend and what to do next: sticky above the sheet's rows while they scroll by.
  function spendBar(s, mine) {
    const open = spendable(s);
    const dice = el("div", {class: "mm-spend-dice"}, ...layout.dice.map((d) => {
      const spent = mine.used.includes(d.id);
      const chosen = pick.die === d.id;
      return el("button", {class: "mm-pick" + (chosen ? " mm-chosen" : "") + (spent ? " mm-spent" : ""), "aria-pressed": String(chosen),
        "aria-label": `${d.id} ${s.dice[d.id] ?? ""}${spent ? ", spent" : ""}`, "data-testid": `spend-${d.id}`,
        disabled: !open || spent || !!mine.free_circles || s.dice[d.id] === undefined,
        onclick: () => { pick = {...pick, die: chosen ? null : d.id}; hint = ""; redraw(); }},
      el("span", {class: "mm-die-name"}, d.id), el("span", {class: "mm-pick-value"}, s.dice[d.id] === undefined ? "–" : String(s.dice[d.id])));
    }));
    let prompt;
    if (mine.free_circles) prompt = `Free circle${mine.free_circles > 1 ? "s" : ""}: tap any empty circle.`;
    else if (!rolled(s)) prompt = "Waiting for the roll.";
    else if (!open) prompt = "Spending is over for this round.";
    else if (hint) prompt = hint;
    else if (pick.die) {
      const moved = pick.adjust ? ` ${pick.adjust > 0 ? "+" : "−"} ${Math.abs(pick.adjust)} = ${s.dice[pick.die] + pick.adjust}` : "";
      prompt = `The ${pick.die}'s ${s.dice[pick.die]}${moved}: tap a circle.`;
    } else prompt = "Tap a die, then a circle.";
    return el("div", {class: "mm-spend"}, dice, el("p", {class: "mm-prompt", "data-testid": "prompt"}, prompt));
  }

  // Potions: how many, moving the chosen die's result, and the Extra Dice slots they buy.
  function purse(s, mine) {
    const open = spendable(s);
    const move = (by) => { pick = {...pick, adjust: pick.adjust + by}; redraw(); };
    const adjust = el("div", {class: "mm-adjust"},
      el("button", {"aria-label": "One potion: −1", onclick: () => move(-1), disabled: !open || -pick.adjust >= mine.potions}, "−1"),
      el("span", {class: "mm-adjust-value", "data-testid": "adjust"},
        `Result ${pick.adjust > 0 ? "+" : pick.adjust < 0 ? "−" : "±"}${Math.abs(pick.adjust)}`),
      el("button", {"aria-label": "One potion: +1", onclick: () => move(1), disabled: !open || pick.adjust >= mine.potions}, "+1"));
    const extra = mine.spent >= layout.results_per_round;
    let cost = "the next is one of this round's results";
    if (mine.next_cost === null) cost = "no Extra Dice slot is left";
    else if (extra) cost = `the next takes an Extra Dice slot: ${mine.next_cost ? plural(mine.next_cost, "potion") : "free"}`;
    return el("section", {class: "card mm-purse"},
      el("div", {class: "mm-head"}, el("h2", {}, "Your shoppe sheet"),
        el("span", {class: "mm-potions", "data-testid": "potions"}, mine.potions ? plural(mine.potions, "potion") : "No potions")),
      mine.free_circles ? el("p", {class: "mm-free", role: "status", "data-testid": "free-banner"},
        `Your adventurer gives you ${plural(mine.free_circles, "free circle")}: tap any empty circle below.`) : null,
      adjust,
      el("p", {class: "note"}, `${plural(mine.spent, "result")} spent this round; ${cost}.`),
      extraDice(mine));
  }

  async function tapCircle(s, mine, row, circle, act) {
    if (mine.free_circles) return act("free", {row: row.name, circle});
    if (!pick.die) { hint = "Tap a die first."; redraw(); return false; }
    const ok = await act("spend", {die: pick.die, row: row.name, circle, adjust: pick.adjust});
    if (ok) { pick = {...pick, die: null, adjust: 0}; hint = ""; redraw(); }
    return ok;
  }

  function half(s, mine, side, title, act) {
    const cols = layout.columns.filter((c) => c.side === side);
    const rows = layout.rows.map((row, i) => ({row, i})).filter(({row}) => row.side === side);
    const slots = cols.map((c) => Math.max(1, ...rows.map(({row}) => row.circles.filter((x) => x.column === c.id).length)));
    const grid = `grid-template-columns: ${slots.map((n) => `minmax(0, ${n}fr)`).join(" ")}`;
    // a free circle is marked at once, whatever the phase (a Mastery-phase delivery gives one)
    const open = spendable(s) || (!!mine.free_circles && rolled(s));
    const value = pick.die ? s.dice[pick.die] + pick.adjust : null;
    const reach = pick.die && mine.reach ? mine.reach[pick.die] : null;  // the server's: null where it cannot
    return el("section", {class: `card mm-half mm-${side}`, "data-testid": `half-${side}`},
      el("h2", {}, title),
      el("div", {class: "mm-cols", style: grid}, ...cols.map((c) => el("div", {class: "mm-col"},
        el("strong", {}, c.name), el("span", {class: "mm-col-dice"}, c.dice.join(" "))))),
      ...rows.map(({row, i}) => {
        const complete = mine.completed[i];
        const charm = row.charm ? (row.charm.potions ? ` · +${plural(row.charm.potions, "potion")}` : ` · +${row.charm.coins} per ${row.charm.category} order`) : "";
        return el("div", {class: "mm-row" + (complete ? " mm-complete" : ""), "data-row": row.name},
          el("div", {class: "mm-row-head"},
            el("span", {class: "mm-row-name"}, row.name, complete ? el("span", {class: "mm-tick"}, " ✓ complete") : null),
            el("span", {class: "mm-coins" + (complete ? " mm-circled" : "")}, `${row.coins}¢`, el("span", {class: "note"}, charm))),
          el("div", {class: "mm-cells", style: grid}, ...cols.map((c) => el("div", {class: "mm-cell"},
            ...row.circles.map((spot, k) => ({spot, k})).filter(({spot}) => spot.column === c.id).map(({spot, k}) => {
              const marked = mine.marked[i][k];
              const fits = !marked && value !== null && c.dice.includes(pick.die) &&
                (side === "crafting" ? value >= spot.threshold : value <= spot.threshold);
              const out = !marked && reach !== null && reach[i][k] === null;  // not even with every potion
              return el("button", {class: "mm-circle" + (marked ? " mm-marked" : "") + (fits ? " mm-fits" : "") + (out ? " mm-out" : ""),
                "data-testid": `circle-${row.name}-${k}`, disabled: marked || !open,
                "aria-label": `${row.name}: ${sign(row)}${spot.threshold} in ${c.name}${marked ? ", marked" : out ? `, out of the ${pick.die}'s reach` : ""}`,
                onclick: () => tapCircle(s, mine, row, k, act)}, `${sign(row)}${spot.threshold}`);
            })))));
      }));
  }

  function extraDice(mine) {
    return el("div", {class: "mm-extra", "data-testid": "extra-dice"},
      el("span", {class: "label"}, "Extra Dice"),
      el("div", {class: "mm-slots"}, ...layout.extra_dice.map((cost, k) => el("span", {
        class: "mm-slot" + (k < mine.extra_used ? " mm-used" : ""), title: cost ? plural(cost, "potion") : "free",
        "aria-label": `Extra Dice slot ${k + 1}: ${cost ? plural(cost, "potion") : "free"}${k < mine.extra_used ? ", used" : ""}`}, String(cost)))),
      el("span", {class: "note"}, `${mine.extra_used} of ${layout.extra_dice.length} used. ${layout.results_per_round} results a round; each more marks the next slot and costs its potions.`));
  }

  function scoreBox(mine) {
    return el("section", {class: "card"}, el("h2", {}, "Score box"),
      el("table", {class: "scores mm-box", "data-testid": "score-box"}, el("tbody", {},
        ...layout.score_lines.map((line) => el("tr", {}, el("td", {}, line.label),
          el("td", {class: "mm-num", "data-testid": `line-${line.id}`}, String(mine.lines[line.id] ?? 0)))),
        el("tr", {class: "mm-total"}, el("td", {}, layout.total), el("td", {class: "mm-num live", "data-testid": "total"}, String(mine.total))))),
      el("p", {class: "note"}, `${plural(mine.fulfilled, "order")} fulfilled · ${plural(mine.potions, "potion")}`));
  }

  function ordersCard(s, mine, digital, act) {
    const claimable = new Set(mine.claimable || []);
    const open = playing(s) && s.phase !== "customer";
    const shop = mine.shop.map((o, slot) => {
      const missing = digital ? [o.item, o.prefix, o.suffix].filter((name) => name && !done(mine, name)) : [];
      const can = digital ? claimable.has(slot) : true;
      return el("li", {class: "mm-order"},
        el("div", {}, el("strong", {}, o.label),
          el("div", {class: "note"}, `${plural(o.coins, "coin")}` + (missing.length ? ` · needs ${missing.join(", ")}` : ""))),
        el("button", {class: "act", disabled: !open || !can, "data-testid": `claim-${slot}`,
          onclick: () => act("claim", {slot})}, "Claim"));
    });
    return el("section", {class: "card"}, el("h2", {}, "Orders in your shoppe"),
      digital ? null : el("p", {class: "note"}, "Claim an order when your paper sheet has its item and enchantments: on your word."),
      shop.length ? el("ul", {class: "mm-orders"}, ...shop) : el("p", {class: "note"}, "No orders face up."),
      mine.face_down ? el("p", {class: "note"}, `${plural(mine.face_down, "order")} face down until the Customer phase.`) : null,
      mine.claimed.length ? el("div", {}, el("div", {class: "label"}, "Claimed"),
        el("ul", {class: "mm-claimed"}, ...mine.claimed.map((o) => el("li", {}, `${o.label} · ${o.coins}¢`)))) : null);
  }

  function adventurerCard(s, mine, digital, act) {
    const hero = mine.adventurer;
    if (!hero) return null;
    const delivered = mine.delivered || [];
    const open = playing(s) && s.phase !== "customer";
    const rewards = layout.rewards.map((r, k) => {
      const what = [r.potions ? plural(r.potions, "potion") : "", r.free_circles ? plural(r.free_circles, "free circle") : "",
        r.card_coins ? `${hero.coins} coins` : ""].filter(Boolean).join(" and ");
      return `${ORDINALS[k]}: ${what}`;
    }).join(" · ");
    return el("section", {class: "card"}, el("h2", {}, `Sponsored Adventurer: ${hero.name}`),
      el("ul", {class: "mm-orders"}, ...CATEGORIES.filter((cat) => hero.items[cat]).map((cat) => {
        const item = hero.items[cat];
        const has = delivered.includes(cat);
        const ready = done(mine, item) && done(mine, hero.enchantment);
        return el("li", {class: "mm-order"},
          el("div", {}, el("strong", {}, asOrder(item, hero.enchantment)), el("div", {class: "note"}, capital(cat))),
          digital
            ? (has ? el("span", {class: "mm-tick"}, "Delivered ✓")
              : el("button", {class: "act", disabled: !open || !ready, "data-testid": `deliver-${cat}`,
                onclick: () => act("deliver", {category: cat})}, "Deliver"))
            : null);
      })),
      el("p", {class: "note"}, `Rewards, in the order delivered: ${rewards}.`));
  }

  // Printed cards at the table: a digital sheet's player enters the adventurer and the orders in front of them.
  function printedCards(s, mine, act) {
    const count = s.players.length <= 2 ? 4 : s.players.length <= 6 ? 3 : 2;
    const current = {hero: mine.adventurer && mine.adventurer.name, shop: mine.shop.map((o) => o.label), count};
    return keep("cards", current, () => {
      const hero = el("select", {name: "adventurer", "aria-label": "Your Sponsored Adventurer"},
        el("option", {value: ""}, "Sponsored Adventurer…"), ...layout.adventurers.map((name) => el("option", {value: name}, name)));
      hero.value = current.hero || "";
      const slots = Array.from({length: Math.max(count, current.shop.length)}, (_, k) => {
        const node = el("select", {name: `order-${k}`, "aria-label": `Order ${k + 1}`},
          el("option", {value: ""}, `Order ${k + 1}…`), ...layout.orders.map((label) => el("option", {value: label}, label)));
        node.value = current.shop[k] || "";
        return node;
      });
      const form = el("form", {class: "mm-form"}, hero, ...slots, el("button", {class: "act"}, "Save my cards"));
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        act("cards", {adventurer: hero.value || null, shop: slots.map((x) => x.value).filter(Boolean)});
      });
      return el("details", {class: "card mm-cards", open: !current.hero},
        el("summary", {}, "My printed cards"), el("p", {class: "note"}, "The adventurer and the orders face up in front of you. Each Customer phase the orders here move one space as yours do on the table; add the ones only the table shows: a card turned face up, one passed on from a paper sheet."), form);
    });
  }

  // The columns' headers stick under the spend bar, however tall its prompt wraps.
  const spendHeight = new ResizeObserver(([entry]) =>
    entry.target.parentNode.style.setProperty("--mm-spend", `${entry.target.offsetHeight}px`));

  function digitalSheet(s, mine, act) {
    const bar = spendBar(s, mine);
    spendHeight.disconnect();
    spendHeight.observe(bar);
    return [
      purse(s, mine),
      el("div", {class: "mm-sheet", "data-testid": "digital-sheet"}, bar,
        half(s, mine, "crafting", "Crafting", act), half(s, mine, "research", "Spell Research", act)),
      scoreBox(mine),
    ];
  }

  // --- the paper sheet ------------------------------------------------------------------------

  function paperForm(s, mine, act) {
    const inputs = {lines: mine.lines, fulfilled: mine.fulfilled, potions: mine.potions};
    return keep("paper", inputs, () => {
      const field = (name, label, value) => el("label", {class: "mm-field"}, el("span", {}, label),
        el("input", {name, type: "number", inputmode: "numeric", min: "0", max: "999", value: String(value ?? 0)}));
      const form = el("form", {class: "mm-form mm-paper", "data-testid": "paper-form"}, el("div", {class: "label"}, "Coins"),
        ...layout.score_lines.map((line) => field(line.id, line.label, mine.lines[line.id])),
        el("div", {class: "mm-sum"}, el("span", {}, layout.total), el("strong", {"data-testid": "paper-total"}, String(mine.total))),
        el("div", {class: "label"}, "Tie-breaks"),
        field("fulfilled", "Orders fulfilled", mine.fulfilled), field("potions", "Potions you have", mine.potions),
        el("button", {class: "act"}, "Save my score"));
      const total = form.querySelector("[data-testid=paper-total]");
      const read = (name) => Math.max(0, Math.min(999, Number(form.elements[name].value) || 0));
      form.addEventListener("input", () => { total.textContent = String(layout.score_lines.reduce((sum, line) => sum + read(line.id), 0)); });
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        const lines = Object.fromEntries(layout.score_lines.map((line) => [line.id, read(line.id)]));
        act("scores", {lines, fulfilled: read("fulfilled"), potions: read("potions")});
      });
      return el("section", {class: "card"}, el("h2", {}, "Your paper sheet's score box"),
        el("p", {class: "note"}, "Copy the coins from your sheet's score box; the orders and potions break ties."), form);
    });
  }

  function masteryClaims(s, mine, act) {
    if (s.phase !== "mastery") return null;
    return el("section", {class: "card"}, el("h2", {}, "Mastery phase"),
      el("p", {class: "note"}, "Did your sheet reach a Mastery? Say so, and the card flips at the end of this phase."),
      ...s.masteries.map((card) => {
        const had = mine.mastered.includes(card.name);
        const coins = card.side === "master" ? card.master : card.apprentice;
        return el("button", {class: had ? "mm-wide mm-is-ready" : "act mm-wide", disabled: had, onclick: () => act("mastery", {card: card.name})},
          had ? `${card.name}: scored ✓` : `I reached ${card.name} (${coins} coins)`);
      }));
  }

  // --- the panel ------------------------------------------------------------------------------

  function render(root, table, you, act) {
    last = [root, table, you, act];
    loadLayout(table.code);
    const s = table.state;
    if (!layout) {
      place(root, [keep("loading", 0, () => el("p", {class: "note"}, "Loading the shoppe sheet…"))]);
      return;
    }
    const summary = s.players.find((p) => p.id === you.actor) || null;
    const mine = summary ? ownSeat(table, you, summary) : null;
    const roundKey = `${s.round}:${s.rolls.length}`;
    if (pick.round !== roundKey || (mine && (mine.used || []).includes(pick.die))) pick = {round: roundKey, die: null, adjust: 0};
    if (mine && pick.adjust && Math.abs(pick.adjust) > mine.potions) pick = {...pick, adjust: 0};

    const started = mine && mine.lines ? mine : null;
    const parts = [top(s, started), setupCard(s, summary, you, act), readyCard(s, summary, you, act), sheetChoice(s, summary, act)];
    // a seat from before the start (names and zeros, no shoppe yet: the live stream shows the start
    // before this phone's own fetch) or of the other sheet waits for its fetch
    const current = mine && mine.shop && (mine.marked !== undefined) === (summary.sheet === "digital");
    const sheet = [];
    const orders = [];
    if (current && s.phase !== "setup") {
      if (summary.sheet === "digital") {
        if (s.cards === "printed") sheet.push(printedCards(s, mine, act));
        sheet.push(...digitalSheet(s, mine, act));
        orders.push(adventurerCard(s, mine, true, act), ordersCard(s, mine, true, act));
      } else {
        sheet.push(masteryClaims(s, mine, act), paperForm(s, mine, act));
        if (s.cards === "dealt") orders.push(ordersCard(s, mine, false, act), adventurerCard(s, mine, false, act));
      }
    } else if (summary && s.phase !== "setup") {
      sheet.push(el("p", {class: "note"}, "Fetching your sheet…"));
    }
    if (s.solo && s.waiting.length && playing(s)) {
      orders.push(el("section", {class: "card"}, el("h2", {}, "Waiting to enter your shoppe"),
        el("ul", {class: "mm-claimed"}, ...s.waiting.map((o) => el("li", {}, `${o.label} · ${o.coins}¢`)))));
    }
    const over = s.phase === "over";
    parts.push(...window.SpellpressSections.show([
      {id: "sheet", label: "Sheet", nodes: sheet},
      {id: "orders", label: "Orders", nodes: orders},
      {id: "standings", label: "Standings", nodes: [standings(s, you), resultsCard(s, table)]},
    ], over ? "standings" : "sheet", redraw));  // the game's end: its standings first
    place(root, parts);
  }

  // History lines in words.
  function describe(entry) {
    const p = entry.payload;
    switch (entry.type) {
      case "start": return p.deal && p.deal.masteries ? `started the game: ${p.deal.masteries.join(" and ")} in play` : "started the game";
      case "roll": {
        const order = layout ? layout.dice.map((d) => d.id) : Object.keys(p.dice || {});
        return `rolled round ${p.round}` + (p.dice ? `: ${order.filter((d) => d in p.dice).map((d) => `${d} ${p.dice[d]}`).join(", ")}` : "");
      }
      case "advance": return `ended the ${(layout && layout.phase_names[p.phase]) || p.phase} phase`;
      case "ready": return "is ready";
      case "sheet": return p.kind === "digital" ? "plays on a digital sheet" : "plays on a paper sheet";
      case "spend":
      case "free": {
        const row = layout && layout.rows.find((r) => r.name === p.row);
        const spot = row && row.circles[p.circle];
        const circle = spot ? `${p.row} ${spot.threshold}` : `${p.row} circle ${p.circle + 1}`;
        if (entry.type === "free") return `marked ${circle} for free`;
        const potions = p.adjust ? ` and ${plural(Math.abs(p.adjust), "potion")} (${p.adjust > 0 ? "+" : "−"}${Math.abs(p.adjust)})` : "";
        return `marked ${circle} with the ${p.die}${potions}`;
      }
      case "claim": return p.order ? `claimed ${p.order}` : `claimed the order in slot ${p.slot + 1}`;
      case "deliver": return `delivered the ${p.category} to their adventurer`;
      case "mastery": return `reached ${p.card}`;
      case "scores": return `wrote their score box: ${Object.values(p.lines || {}).reduce((a, b) => a + b, 0)} coins`;
      case "masteries": return `put ${p.material} and ${p.energy} in play`;
      case "cards": return `entered their cards` + (p.adventurer ? `: ${p.adventurer}` : "") + `, ${plural((p.shop || []).length, "order")}`;
      default: return null;
    }
  }

  const begun = (s) => s.phase !== "setup";  // table.js folds the invite then
  window.SpellpressGames["merchants-of-magick"] = {render, describe, begun};
})();
