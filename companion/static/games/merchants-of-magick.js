// Merchants of Magick: the round, its phase and its four dice at the top, the Masteries in play,
// Ready and the host's Roll and Advance, and the player's shoppe sheet: on the phone (drawn from
// the layout, a half a section) or on paper (a score form). Every number the sheet shows is the
// layout's or the state's, and every button is live only for a move the server offers this phone
// now (table.moves): which dice a circle takes, the potions that move a result there, which
// orders may be claimed. Nothing about the rules is decided here.
"use strict";
(() => {
  const {el, offers, offered, values} = window.SpellpressUI;

  let layout = null;  // GET /layout, fetched once per page
  let layoutDue = false;
  let last = null;  // the arguments of the last render, to redraw after a local change
  let pick = {round: null, die: null, adjust: 0};  // the die chosen to spend, and the potions moving it
  let fixing = null;  // the seat whose paper score box the host is putting right
  const kept = new Map();  // forms kept across redraws while their inputs are unchanged (focus, typing)

  const redraw = () => { if (last) render(...last); };
  const capital = (word) => word[0].toUpperCase() + word.slice(1);
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const colName = (id) => (layout.columns.find((c) => c.id === id) || {name: id}).name;
  const sign = (row) => (row.side === "crafting" ? "≥" : "≤");
  const asOrder = (item, enchantment) => (enchantment.startsWith("of ") ? `${item} ${enchantment}` : `${enchantment} ${item}`);
  const playing = (s) => s.phase === "playing";
  const rolled = (s) => Object.keys(s.dice).length > 0;

  function loadLayout(code) {
    if (layout || layoutDue) return;
    layoutDue = true;
    fetch(`/api/tables/${encodeURIComponent(code)}/layout`)
      .then((res) => (res.ok ? res.json() : Promise.reject(new Error(String(res.status)))))
      .then((data) => { layout = data; redraw(); })
      .catch(() => setTimeout(() => { layoutDue = false; redraw(); }, 2000));
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

  // The round, its phase, the dice and the Masteries (`full`: a digital sheet shows them on the
  // sheet) and the moves of the phase: Ready, and the host's.
  function top(s, table, mine, full, act) {
    const heading = {over: `Game over after ${s.rounds} rounds`, playing: `Round ${s.round} of ${s.rounds}`}[s.phase] || `${s.rounds} rounds`;
    let dice = null;
    if (full && playing(s) && rolled(s)) {
      dice = el("div", {class: "mm-dice", "data-testid": "dice"}, ...layout.dice.map((d) =>
        el("div", {class: "mm-die", "data-testid": `die-${d.id}`, "aria-label": `${d.id}: ${s.dice[d.id]}`},
          el("span", {class: "mm-die-name"}, d.id), el("span", {class: "mm-die-value live"}, String(s.dice[d.id])))));
    } else if (playing(s) && !rolled(s)) {
      dice = el("p", {class: "mm-waiting", "data-testid": "dice"}, `Waiting for the roll of round ${s.round}`);
    }
    const count = playing(s) ? el("span", {class: "mm-ready-count live", "data-testid": "ready-count"}, `${s.ready_count} of ${s.players.length} ready`) : null;
    return el("section", {class: "card mm-top"},
      el("div", {class: "mm-head"}, el("div", {}, el("h2", {"data-testid": "round"}, heading), count),
        el("span", {class: "mm-phase", "data-testid": "phase"}, playing(s) ? s.round_phase_name : "")),
      dice,
      full && s.masteries.length ? el("div", {class: "mm-masteries"}, ...s.masteries.map((card) => mastery(table, card, mine, act))) : null,
      turn(s, table, act));
  }

  // Circles marked in a column of a digital sheet, towards its Mastery.
  function columnMarks(mine, column) {
    return layout.rows.reduce((n, row, i) =>
      n + row.circles.filter((spot, k) => spot.column === column && mine.marked[i][k]).length, 0);
  }

  // A Mastery over its column: the circles marked towards it (or scored), and its coins now.
  function columnMastery(card, mine) {
    const scored = mine.mastered.includes(card.name);
    const coins = card.side === "master" ? card.master : card.apprentice;
    return el("span", {class: "mm-col-mastery", "data-testid": `mastery-${card.type}`, title: `${card.name}: ${card.circles} circles in ${colName(card.column)}, ${coins} coins`},
      scored ? `${card.name} ✓` : `${card.name} ${Math.min(columnMarks(mine, card.column), card.circles)}/${card.circles}`);
  }

  // A Mastery in play: what it asks, its coins now and after it flips; in the Mastery phase a paper
  // sheet's player taps it to say their sheet reached it.
  function mastery(table, card, mine, act) {
    const master = card.side === "master";
    const yours = mine && mine.mastered.includes(card.name) ? " · yours ✓" : "";
    const parts = [el("strong", {}, card.name), el("span", {class: "note"}, `${card.circles} in ${colName(card.column)}${yours}`),
      el("span", {class: "mm-side"}, `${master ? "Master" : "Apprentice"} ${master ? card.master : card.apprentice}`,
        master ? el("span", {class: "note"}, ` → ${card.apprentice}`) : null)];
    const claim = offers(table, "mastery").flatMap((m) => m.pick[0].one_of).find((o) => o.value === card.name);
    if (!claim) return el("div", {class: "mm-mastery", "data-testid": `mastery-${card.type}`}, ...parts);
    // its label: the coins it scores now (solo: the Apprentice side's)
    return el("button", {class: "mm-mastery mm-claim", "data-testid": `mastery-${card.type}`, "data-move": "mastery",
      "aria-label": `I reached ${card.name} (${claim.label})`, onclick: () => act("mastery", {card: card.name})},
    ...parts.slice(0, 2), el("span", {class: "mm-side"}, `I reached it: ${claim.label}`));
  }

  // Ready, and the host's Roll and End the phase: each drawn from the moves offered.
  function turn(s, table, act) {
    if (!playing(s)) return null;
    const seated = s.players.find((p) => p.id === s.you);
    const parts = [];
    const ready = offers(table, "ready")[0];
    if (ready) parts.push(el("button", {class: "act", "data-move": "ready", onclick: () => act("ready", ready.payload)}, "Ready"));
    else if (seated && seated.ready) parts.push(el("button", {class: "mm-is-ready", disabled: true, "aria-pressed": "true"}, "Ready ✓"));
    const advance = offers(table, "advance")[0];
    const ends = s.round >= s.rounds && s.round_phase === s.round_phases[s.round_phases.length - 1];
    if (advance) parts.push(el("button", {"data-move": "advance", "data-testid": "advance", "aria-label": `End the ${s.round_phase_name} phase`,
      onclick: () => act("advance", advance.payload, true)}, ends ? "End the game" : "End phase"));
    // a roll for the next round finishes what is left of this one: the host's main move only once it is all that is left
    const roll = offers(table, "roll")[0];
    const early = rolled(s) && s.round_phase !== "customer";
    if (roll) parts.push(el("button", {class: early ? "" : "act", "data-move": "roll", "data-testid": "roll",
      "aria-label": `Roll round ${roll.payload.round}` + (early ? `, ending round ${s.round}` : ""),
      onclick: () => act("roll", roll.payload, true)}, `Roll round ${roll.payload.round}`));
    return parts.length ? el("div", {class: "mm-turn"}, ...parts) : null;
  }

  // Before the start: each player's sheet, and with printed cards the host's Mastery cards.
  function setupCard(s, table, act) {
    if (s.phase !== "joining") return null;
    const me = s.players.find((p) => p.id === s.you);
    const parts = [el("h2", {}, "Setting up"), el("p", {class: "note"},
      s.cards === "printed" ? "Printed cards: deal the Adventurers, Orders and Masteries on the table." : "The companion deals the cards at the start.")];
    if (me) {
      const option = (kind, label) => {
        const chosen = me.sheet === kind;
        return el("button", {class: chosen ? "mm-chosen" : "", "aria-pressed": String(chosen), "data-move": "sheet",
          disabled: !offered(table, "sheet", {kind}), onclick: () => act("sheet", {kind})}, label);
      };
      parts.push(el("div", {class: "label"}, "Your sheet"),
        el("div", {class: "mm-two"}, option("paper", "Paper sheet"), option("digital", "Digital sheet")));
    }
    if (s.players.length) {
      parts.push(el("p", {class: "note"}, s.players.map((p) => `${p.name}: ${p.sheet}`).join(" · ")));
    }
    if (offers(table, "masteries").length) parts.push(masteryPickers(s, table, act));
    return el("section", {class: "card"}, ...parts);
  }

  function masteryPickers(s, table, act) {
    const chosen = Object.fromEntries(s.masteries.map((m) => [m.type, m.name]));
    return keep("masteries", chosen, () => {
      const select = (type) => {
        const cards = layout.masteries.filter((m) => values(table, "masteries", type).includes(m.name));
        const node = el("select", {name: type, "aria-label": `${capital(type)} Mastery`, required: true},
          el("option", {value: ""}, `${capital(type)} Mastery…`),
          ...cards.map((m) => el("option", {value: m.name}, `${m.name}: ${m.circles} in ${colName(m.column)}`)));
        node.value = chosen[type] || "";
        return node;
      };
      const [material, energy] = [select("material"), select("energy")];
      const form = el("form", {class: "mm-form"}, el("div", {class: "label"}, "The Mastery cards on the table"),
        material, energy, el("button", {class: "act", "data-move": "masteries"}, "Set the Masteries"));
      form.addEventListener("submit", (e) => { e.preventDefault(); act("masteries", {material: material.value, energy: energy.value}, true); });
      return form;
    });
  }

  // The scores section: the digital sheet's own box, the standings, the results once over; or, in
  // their place, the paper score box the host is putting right.
  function scores(s, table, mine, act) {
    // the host puts a paper score box right: the seats the server offers that correction for
    const fixable = new Set(offers(table, "scores").filter((m) => m.for !== s.you).map((m) => m.for));
    const seat = fixing && fixable.has(fixing) ? s.players.find((p) => p.id === fixing) : null;
    if (seat) {
      return [paperForm(table, seat, act, `Put ${seat.name}'s score box right`, true),
        el("button", {class: "mm-wide", onclick: () => { fixing = null; redraw(); }}, "Back to the standings")];
    }
    return [mine && mine.marked ? scoreBox(mine) : null, standings(s, fixable), resultsCard(s, table)];
  }

  function standings(s, fixable) {
    if (!s.standings.length) return null;
    const ready = new Set(s.players.filter((p) => p.ready).map((p) => p.id));
    const rows = s.standings.map((r) => el("tr", {class: r.id === s.you ? "mm-me" : ""},
      el("td", {}, String(r.place)),
      el("td", {}, r.name, ready.has(r.id) && playing(s) ? el("span", {class: "mm-tick", "aria-label": "ready"}, " ✓") : null,
        fixable.has(r.id) ? el("button", {class: "mm-fix", "data-move": "scores", "aria-label": `Put ${r.name}'s score box right`,
          onclick: () => { fixing = fixing === r.id ? null : r.id; redraw(); }}, "✎") : null),
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

  const done = (mine, name) => mine.completed[layout.rows.findIndex((r) => r.name === name)];  // a row of a digital sheet

  // The circles a move offered now may mark: "row:circle" -> the potions' moves [lowest, highest]
  // (a spend of `die`), or [0, 0] (a free circle).
  function markable(table, type, die = null) {
    const found = new Map();
    for (const m of offers(table, type)) {
      let rows = m.pick[0].one_of;
      if (type === "spend") rows = ((rows.find((o) => o.value === die) || {}).pick || [{one_of: []}])[0].one_of;
      for (const row of rows) {
        for (const circle of row.pick[0].one_of) {
          const adjust = (circle.pick || []).find((p) => p.field === "adjust");
          found.set(`${row.value}:${circle.value}`, adjust ? adjust.range : [0, 0]);
        }
      }
    }
    return found;
  }

  // The dice to spend, the potions moving the chosen one and what to do next: sticky above the
  // sheet's rows while they scroll by.
  function spendBar(s, table, mine, free) {
    const dice = values(table, "spend", "die");
    const moves = pick.die ? [...markable(table, "spend", pick.die).values()] : [];
    const diceRow = el("div", {class: "mm-spend-dice"}, ...layout.dice.map((d) => {
      const spent = mine.used.includes(d.id);
      const chosen = pick.die === d.id;
      return el("button", {class: "mm-pick" + (chosen ? " mm-chosen" : "") + (spent ? " mm-spent" : ""), "aria-pressed": String(chosen),
        "aria-label": `${d.id} ${s.dice[d.id] ?? ""}${spent ? ", spent" : ""}`, "data-testid": `spend-${d.id}`, "data-move": "spend",
        disabled: !dice.includes(d.id),
        onclick: () => { pick = {...pick, die: chosen ? null : d.id, adjust: 0}; redraw(); }},
      el("span", {class: "mm-die-name"}, d.id), el("span", {class: "mm-pick-value"}, s.dice[d.id] === undefined ? "–" : String(s.dice[d.id])));
    }));
    const move = (by) => { pick = {...pick, adjust: pick.adjust + by}; redraw(); };
    const can = (to) => moves.some(([low, high]) => low <= to && to <= high);
    let prompt;
    if (free.size) prompt = `Free circle${mine.free_circles > 1 ? "s" : ""}: tap any empty circle.`;
    else if (!rolled(s)) prompt = "Waiting for the roll.";
    else if (!dice.length) prompt = "No die to spend now.";
    else if (pick.die) {
      const moved = pick.adjust ? ` ${pick.adjust > 0 ? "+" : "−"} ${Math.abs(pick.adjust)} = ${s.dice[pick.die] + pick.adjust}` : "";
      prompt = `${pick.die} ${s.dice[pick.die]}${moved}: tap a circle.`;
    } else prompt = "Tap a die, then a circle.";
    const potion = (by, label) => el("button", {class: "mm-potion", "aria-label": `One potion: ${label}`, "data-move": "spend",
      onclick: () => move(by), disabled: !can(pick.adjust + by)}, label);
    diceRow.prepend(potion(-1, "−1"));
    diceRow.append(potion(1, "+1"));
    return el("div", {class: "mm-spend"}, diceRow, el("p", {class: "mm-prompt", "data-testid": "prompt"}, prompt));
  }

  async function tapCircle(free, row, circle, act) {
    if (free) return act("free", {row: row.name, circle});
    const ok = await act("spend", {die: pick.die, row: row.name, circle, adjust: pick.adjust});
    if (ok) { pick = {...pick, die: null, adjust: 0}; redraw(); }
    return ok;
  }

  // The columns' headers stick under the spend bar, however tall it wraps.
  const spendHeight = new ResizeObserver((entries) => entries.forEach((entry) =>
    entry.target.parentNode.style.setProperty("--mm-spend", `${entry.target.offsetHeight}px`)));

  // A half of the digital sheet, under its spend bar: its columns, then a row a line.
  function half(s, table, mine, side, title, act) {
    const free = markable(table, "free");
    const spend = pick.die ? markable(table, "spend", pick.die) : new Map();
    const cols = layout.columns.filter((c) => c.side === side);
    const rows = layout.rows.map((row, i) => ({row, i})).filter(({row}) => row.side === side);
    // a column's width: the circles of its fullest row, two at most side by side (a third wraps);
    // the rows' names take what is left
    const slots = cols.map((c) => Math.min(2, Math.max(1, ...rows.map(({row}) => row.circles.filter((x) => x.column === c.id).length))));
    const grid = `grid-template-columns: minmax(0, 1fr) ${slots.map((n) => `calc(${n} * var(--mm-circle) + ${n + 1}px)`).join(" ")}`;
    const head = el("div", {class: "mm-cols", style: grid},
      el("div", {class: "mm-col-title"}, el("strong", {}, title), el("span", {class: "note", "data-testid": "potions"}, mine.potions ? plural(mine.potions, "potion") : "No potions")),
      ...cols.map((c) => el("div", {class: "mm-col"}, el("strong", {}, c.name), el("span", {class: "mm-col-dice"}, c.dice.join(" ")),
        ...s.masteries.filter((card) => card.column === c.id).map((card) => columnMastery(card, mine)))));
    const bar = spendBar(s, table, mine, free);
    spendHeight.observe(bar);
    return el("section", {class: `card mm-half mm-${side}`, "data-testid": `half-${side}`}, bar, head,
      ...rows.map(({row, i}) => {
        const complete = mine.completed[i];
        const charm = row.charm ? (row.charm.potions ? `+${row.charm.potions}⚗` : `+${row.charm.coins}/${row.charm.category}`) : "";
        return el("div", {class: "mm-row" + (complete ? " mm-complete" : ""), "data-row": row.name, style: grid},
          el("div", {class: "mm-row-head"}, el("span", {class: "mm-row-name"}, row.name, complete ? el("span", {class: "mm-tick"}, " ✓") : null),
            el("span", {class: "mm-coins" + (complete ? " mm-circled" : "")}, `${row.coins}¢`, charm ? el("span", {class: "note"}, ` ${charm}`) : null)),
          ...cols.map((c) => el("div", {class: "mm-cell"},
            ...row.circles.map((spot, k) => ({spot, k})).filter(({spot}) => spot.column === c.id).map(({spot, k}) => {
              const marked = mine.marked[i][k];
              const key = `${row.name}:${k}`;
              const moves = spend.get(key);
              const fits = !!moves && moves[0] <= pick.adjust && pick.adjust <= moves[1];
              const out = !marked && !!pick.die && !moves;  // not even with every potion
              const live = free.has(key) || fits;
              return el("button", {class: "mm-circle" + (marked ? " mm-marked" : "") + (fits ? " mm-fits" : "") + (out ? " mm-out" : ""),
                "data-testid": `circle-${row.name}-${k}`, "data-move": free.size ? "free" : "spend", disabled: !live,
                "aria-label": `${row.name}: ${sign(row)}${spot.threshold} in ${c.name}${marked ? ", marked" : out ? `, out of the ${pick.die}'s reach` : ""}`,
                onclick: () => tapCircle(free.size > 0, row, k, act)}, `${sign(row)}${spot.threshold}`);
            }))));
      }));
  }

  // The Extra Dice slots, and what the next result spent this round costs.
  function extraDice(mine) {
    let next = mine.next_cost === null ? "no slot is left" : "the next is free";
    if (mine.next_cost !== null && mine.spent >= layout.results_per_round) next = `the next marks a slot: ${mine.next_cost ? plural(mine.next_cost, "potion") : "free"}`;
    return el("div", {class: "mm-extra", "data-testid": "extra-dice"},
      el("div", {class: "mm-slots"}, el("span", {class: "label"}, "Extra Dice"), ...layout.extra_dice.map((cost, k) => el("span", {
        class: "mm-slot" + (k < mine.extra_used ? " mm-used" : ""), title: cost ? plural(cost, "potion") : "free",
        "aria-label": `Extra Dice slot ${k + 1}: ${cost ? plural(cost, "potion") : "free"}${k < mine.extra_used ? ", used" : ""}`}, String(cost)))),
      el("p", {class: "note"}, `${plural(mine.spent, "result")} spent this round; ${next}.`));
  }

  // The digital sheet's score box, filled by the server: a line a cell, two side by side.
  function scoreBox(mine) {
    return el("section", {class: "card"}, el("h2", {}, "Your score box"),
      el("dl", {class: "mm-box", "data-testid": "score-box"},
        ...layout.score_lines.map((line) => el("div", {}, el("dt", {}, line.label),
          el("dd", {"data-testid": `line-${line.id}`}, String(mine.lines[line.id] ?? 0)))),
        el("div", {class: "mm-total"}, el("dt", {}, layout.total), el("dd", {class: "live", "data-testid": "total"}, String(mine.total)))),
      el("p", {class: "note"}, `${plural(mine.fulfilled, "order")} fulfilled · ${plural(mine.potions, "potion")}`),
      extraDice(mine));
  }

  function ordersCard(s, table, mine, digital, act) {
    const claimable = values(table, "claim", "slot");
    const shop = mine.shop.map((o, slot) => {
      const missing = digital ? [o.item, o.prefix, o.suffix].filter((name) => name && !done(mine, name)) : [];
      return el("li", {class: "mm-order"},
        el("div", {}, el("strong", {}, o.label),
          el("div", {class: "note"}, `${plural(o.coins, "coin")}` + (missing.length ? ` · needs ${missing.join(", ")}` : ""))),
        el("button", {class: "act", disabled: !claimable.includes(slot), "data-testid": `claim-${slot}`, "data-move": "claim",
          onclick: () => act("claim", {slot})}, "Claim"));
    });
    return el("section", {class: "card"}, el("h2", {}, "Orders in your shoppe"),
      digital ? null : el("p", {class: "note"}, "Claim one when your sheet has it all."),
      shop.length ? el("ul", {class: "mm-orders"}, ...shop) : el("p", {class: "note"}, "No orders face up."),
      mine.face_down ? el("p", {class: "note"}, `${plural(mine.face_down, "order")} face down until the Customer phase.`) : null,
      mine.claimed.length ? el("p", {class: "note", "data-testid": "claimed"}, el("strong", {}, "Claimed: "),
        mine.claimed.map((o) => `${o.label} (${o.coins}¢)`).join(" · ")) : null);
  }

  function adventurerCard(table, mine, digital, act) {
    const hero = mine.adventurer;
    if (!hero) return null;
    const delivered = mine.delivered || [];
    const due = values(table, "deliver", "category");
    const rewards = layout.rewards.map((r) => [r.potions ? plural(r.potions, "potion") : "",
      r.free_circles ? plural(r.free_circles, "free circle") : "", r.card_coins ? `${hero.coins} coins` : ""].filter(Boolean).join(" and ")).join(", then ");
    return el("section", {class: "card"}, el("div", {class: "label"}, "Sponsored Adventurer"), el("h2", {}, hero.name),
      el("ul", {class: "mm-orders"}, ...Object.keys(hero.items).map((cat) => {
        const state = !digital ? null : delivered.includes(cat) ? el("span", {class: "mm-tick"}, "Delivered ✓")
          : el("button", {class: "act", disabled: !due.includes(cat), "data-testid": `deliver-${cat}`, "data-move": "deliver",
            onclick: () => act("deliver", {category: cat})}, "Deliver");
        return el("li", {class: "mm-order"},
          el("div", {}, el("strong", {}, asOrder(hero.items[cat], hero.enchantment)), el("span", {class: "note"}, ` · ${cat}`)), state);
      })),
      el("p", {class: "note"}, `Rewards: ${rewards}.`));
  }

  // Printed cards at the table: a digital sheet's player enters the adventurer and the orders in front of them.
  function printedCards(table, mine, act) {
    const offer = offers(table, "cards")[0];
    if (!offer) return null;
    const shopPick = offer.pick.find((p) => p.field === "shop");
    const labels = shopPick.some_of.map((o) => o.value);
    const heroes = values(table, "cards", "adventurer").filter((name) => name !== null);
    const current = {hero: mine.adventurer && mine.adventurer.name, shop: mine.shop.map((o) => o.label), heroes, slots: shopPick.size[1]};
    return keep("cards", current, () => {
      const hero = el("select", {name: "adventurer", "aria-label": "Your Sponsored Adventurer"},
        el("option", {value: ""}, "Sponsored Adventurer…"), ...heroes.map((name) => el("option", {value: name}, name)));
      hero.value = current.hero || "";
      const slots = Array.from({length: Math.max(current.slots, current.shop.length)}, (_, k) => {
        const node = el("select", {name: `order-${k}`, "aria-label": `Order ${k + 1}`},
          el("option", {value: ""}, `Order ${k + 1}…`), ...labels.map((label) => el("option", {value: label}, label)));
        node.value = current.shop[k] || "";
        return node;
      });
      const form = el("form", {class: "mm-form"}, hero, ...slots, el("button", {class: "act", "data-move": "cards"}, "Save my cards"));
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        act("cards", {adventurer: hero.value || null, shop: slots.map((x) => x.value).filter(Boolean)});
      });
      return el("details", {class: "card mm-cards", open: !current.hero},
        el("summary", {}, "My printed cards"), el("p", {class: "note"}, "The adventurer and the orders face up in front of you. Each Customer phase the orders here move one space as yours do on the table; add the ones only the table shows: a card turned face up, one passed on from a paper sheet."), form);
    });
  }

  // --- the paper sheet ------------------------------------------------------------------------

  // A paper score box: its lines, the orders and potions; `seat` the player's summary (their own,
  // or one the host puts right, sent with the host's rights).
  function paperForm(table, seat, act, title, asHost = false) {
    const inputs = {id: seat.id, lines: seat.lines, fulfilled: seat.fulfilled, potions: seat.potions, title};
    return keep(`paper:${seat.id}:${asHost}`, inputs, () => {
      const field = (name, label, value) => el("label", {class: "mm-field"}, el("span", {}, label),
        el("input", {name, type: "number", inputmode: "numeric", min: "0", max: "999", value: String(value ?? 0)}));
      const form = el("form", {class: "mm-form mm-paper", "data-testid": asHost ? "fix-form" : "paper-form"}, el("div", {class: "label"}, "Coins"),
        ...layout.score_lines.map((line) => field(line.id, line.label, (seat.lines || {})[line.id])),
        el("div", {class: "mm-sum"}, el("span", {}, layout.total), el("strong", {"data-testid": "paper-total"}, String(seat.total ?? 0))),
        el("div", {class: "label"}, "Tie-breaks"),
        field("fulfilled", "Orders fulfilled", seat.fulfilled), field("potions", "Potions you have", seat.potions),
        el("button", {class: "act", "data-move": "scores"}, asHost ? "Save their score" : "Save my score"));
      const total = form.querySelector("[data-testid=paper-total]");
      const read = (name) => Math.max(0, Math.min(999, Math.floor(Number(form.elements[name].value)) || 0));
      form.addEventListener("input", () => { total.textContent = String(layout.score_lines.reduce((sum, line) => sum + read(line.id), 0)); });
      form.addEventListener("submit", async (e) => {
        e.preventDefault();
        const lines = Object.fromEntries(layout.score_lines.map((line) => [line.id, read(line.id)]));
        const sent = await act("scores", {lines, fulfilled: read("fulfilled"), potions: read("potions"), player: seat.id}, asHost);
        if (sent && asHost) { fixing = null; redraw(); }
      });
      return el("section", {class: "card mm-paper-card"}, el("h2", {}, title),
        asHost ? null : el("p", {class: "note"}, "Copy the coins from your sheet's score box; the orders and potions break ties."), form);
    });
  }

  // --- the panel ------------------------------------------------------------------------------

  function sheetSections(s, table, mine, act) {
    const seat = s.players.find((p) => p.id === s.you);
    if (!mine || !seat || s.phase === "joining") return [];
    const waiting = s.solo && s.waiting.length && playing(s) ? el("section", {class: "card"}, el("p", {class: "note", "data-testid": "waiting"},
      el("strong", {}, "Waiting to enter your shoppe: "), s.waiting.map((o) => `${o.label} (${o.coins}¢)`).join(" · "))) : null;
    if (seat.sheet === "digital") {
      return [
        {id: "crafting", label: "Items", nodes: [half(s, table, mine, "crafting", "Crafting", act)]},
        {id: "research", label: "Spells", nodes: [half(s, table, mine, "research", "Research", act)]},
        {id: "shoppe", label: "Shoppe", nodes: [printedCards(table, mine, act), ordersCard(s, table, mine, true, act),
          adventurerCard(table, mine, true, act), waiting]},
      ];
    }
    const orders = s.cards === "dealt" ? [ordersCard(s, table, mine, false, act), adventurerCard(table, mine, false, act)] : [];
    const form = offered(table, "scores", {player: s.you}) ? paperForm(table, {...mine, id: s.you}, act, "Your paper sheet's score box") : null;
    return [
      {id: "sheet", label: "Sheet", nodes: [form]},
      {id: "orders", label: "Orders", nodes: [...orders, waiting]},
    ];
  }

  function render(root, table, you, act) {
    last = [root, table, you, act];
    loadLayout(table.code);
    const s = table.state;
    if (!layout) return place(root, [keep("loading", 0, () => el("p", {class: "note"}, "Loading the shoppe sheet…"))]);
    const mine = s.mine;
    const roundKey = `${s.round}:${s.rolls.length}`;
    if (pick.round !== roundKey || !values(table, "spend", "die").includes(pick.die)) pick = {round: roundKey, die: null, adjust: 0};
    spendHeight.disconnect();  // the halves drawn now are watched anew
    const sections = [...sheetSections(s, table, mine, act), {id: "standings", label: "Scores", nodes: scores(s, table, mine, act)}];
    // the game's end: its standings first
    const shown = window.SpellpressSections.show(sections, s.phase === "over" ? "standings" : sections[0].id, redraw);
    // a digital sheet shows the dice in its spend bar and each Mastery over its column
    const digital = !!(mine && mine.marked);
    place(root, [top(s, table, mine && mine.lines ? mine : null, !digital, act), setupCard(s, table, act), ...shown]);
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
      case "scores": return `wrote ${entry.for_name ? "the" : "their"} score box: ${Object.values(p.lines || {}).reduce((a, b) => a + b, 0)} coins`;
      case "masteries": return `put ${p.material} and ${p.energy} in play`;
      case "cards": return `entered their cards` + (p.adventurer ? `: ${p.adventurer}` : "") + `, ${plural((p.shop || []).length, "order")}`;
      default: return null;
    }
  }

  window.SpellpressGames["merchants-of-magick"] = {render, describe};
})();
