// Spellcycles: whose turn and its step, the knucklebone's last roll, the spell line with its moon
// crescents, each wizard's essence and certificate count and the viewer's own certificates. On the
// phones also the 8x8 casting field and the apothecaries. Every move is drawn from the moves the
// server offers this phone (table.moves): Renew, a piece placed (tap it, then a square), Skip
// Contribute only when the server would take it, each castable spell with its ways on the field
// and what its effects let the caster choose (squares tapped on the field, a rival, a crescent,
// what to pay), Progress, changes by hand after a text-only spell, essence and the cauldron put
// right. A cast is sent only once every choice its offer leaves is made.
"use strict";
(() => {
  const {el, button, move, offers, offered, values} = window.SpellpressUI;
  // The Okabe-Ito inks of templates/spellcycles/sc-card.yaml, always with the colour's letter
  // (colour is never the only cue): R Y G B W K.
  const INKS = {red: "#d55e00", yellow: "#f0e442", green: "#009e73", blue: "#0072b2", white: "#ffffff", black: "#1a1a1a"};
  const LETTERS = {red: "R", yellow: "Y", green: "G", blue: "B", white: "W", black: "K"};
  const DARK = new Set(["red", "green", "blue", "black"]);  // inks that take a white letter
  const STEPS = {renew: "Renew", contribute: "Contribute", reap: "Reap"};
  const SUITS = [["♠", "spades"], ["♥", "hearts"], ["♦", "diamonds"], ["♣", "clubs"]];
  const RANKS = {1: "A", 11: "J", 12: "Q", 13: "K"};
  const TAPPED = /^choices\.\d+\.(take|to|spaces)$/;  // choices made by tapping the field

  // What the player is composing lives here, not in the DOM: every event redraws the whole panel.
  let picked = null;  // {type, piece}: the apothecary piece tapped for Contribute or Accelerando
  let cast = null;  // {key, body}: the cast being composed (key: the turn and spell it is for)
  const unchanged = (turn) => ({turn, from: "field", to: "field", piece: null, take: null, space: null, crescent: null, crescentTo: null});
  let hand = unchanged(null);  // a change by hand being made, afresh each turn
  let redraw = () => {};

  const capital = (word) => word[0].toUpperCase() + word.slice(1);
  const letter = (colour) => LETTERS[colour] || colour[0].toUpperCase();
  const nameOf = (s, id) => ((s.players || []).find((p) => p.id === id) || {name: "?"}).name;
  const cardText = ([rank, suit]) => `${RANKS[rank] || rank}${SUITS[suit][0]}`;
  const cardName = ([rank, suit]) => `${RANKS[rank] || rank} of ${SUITS[suit][1]}`;
  const costText = (essence) => essence === "n" ? "any essence" : Array.isArray(essence) ? `${essence.join(" or ")} essence` : `${essence} essence`;
  const squareName = (space) => `row ${Math.floor(space / 8) + 1}, column ${(space % 8) + 1}`;
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const pieceWords = ([colour, size]) => `${size} ${colour}`;

  // A colour as a swatch with its letter on it; `aria-label` says its name to a screen reader.
  function swatch(colour, extra = "") {
    return el("span", {class: `sc-swatch ${extra}`, style: `--ink: ${INKS[colour] || "#888"}`, "data-dark": DARK.has(colour) ? "1" : null,
      role: "img", "aria-label": capital(colour)}, letter(colour));
  }

  // A piece: its colour's disc with its letter, larger for a larger piece, and beside it (in the
  // square's corner) pips 1-3 for its size and the stack's height when more than one.
  function piece([colour, size], stack = 1) {
    const pips = {small: 1, medium: 2, large: 3}[size] || 1;
    return [
      el("span", {class: `sc-piece sc-${size}`, style: `--ink: ${INKS[colour] || "#888"}`, "data-dark": DARK.has(colour) ? "1" : null,
        "aria-label": `${size} ${colour}` + (stack > 1 ? `, a stack of ${stack}` : "")}, letter(colour)),
      el("span", {class: "sc-pips", "aria-hidden": "true"}, "•".repeat(pips)),
      stack > 1 ? el("span", {class: "sc-height", "aria-hidden": "true"}, String(stack)) : null,
    ];
  }

  // A spell's pattern, small: a colour's cell with its letter, vacant a ring, marked a cross, a gap dotted.
  function pattern(rows) {
    const width = Math.max(...rows.map((r) => r.length));
    return el("div", {class: "sc-pattern", style: `grid-template-columns: repeat(${width}, 22px)`, "aria-hidden": "true"},
      ...rows.flatMap((row) => [...row, ...Array(width - row.length).fill("gap")].map((cell) => {
        if (Array.isArray(cell)) return el("span", {class: "sc-cell sc-stack"}, cell.map(letter).join(""));
        if (cell === "vacant") return el("span", {class: "sc-cell sc-vacant", title: "empty"});
        if (cell === "marked") return el("span", {class: "sc-cell sc-marked", title: "any piece"}, "×");
        if (cell === "gap") return el("span", {class: "sc-cell sc-gap"});
        return el("span", {class: "sc-cell", style: `--ink: ${INKS[cell] || "#888"}`, "data-dark": DARK.has(cell) ? "1" : null}, letter(cell));
      })));
  }

  const patternWords = (rows) => rows.map((row) => row.map((c) => Array.isArray(c) ? c.join("/") : c).join(", ")).join("; ");

  function rollLine(s) {
    const r = s.last_roll;
    if (!r) return el("p", {class: "note", "data-testid": "roll"}, "The knucklebone has not been rolled yet.");
    if (!r.colours.length) return el("p", {class: "note", "data-testid": "roll"}, "No large piece was left to roll for.");
    const last = r.colours[r.colours.length - 1];
    return el("div", {class: "sc-roll", "data-testid": "roll"},
      swatch(last, "sc-big"),
      el("div", {},
        el("div", {}, el("strong", {}, `${capital(last)} (${letter(last)})`), ` for ${nameOf(s, r.player)}`),
        el("div", {class: "note"}, r.colours.length > 1 ? `Rolled ${r.colours.map(capital).join(", then ")}. ` : "",
          r.piece ? `Took a large ${r.piece} piece.` : "No large piece of that colour was left.")));
  }

  // What a cast paid, in words: "2 essence for the spell and 2 for 2 recolours", "nothing".
  function paidWords(c) {
    const parts = [];
    const recolours = c.recolours ? `${c.recolour_essence} for ${c.recolours} recolour${c.recolours > 1 ? "s" : ""}` : "";
    if (c.paid && recolours) parts.push(`${c.paid} essence for the spell and ${recolours}`);
    else if (c.paid) parts.push(`${c.paid} essence`);
    else if (recolours) parts.push(recolours.replace(" for ", " essence for "));
    if (c.certificates) parts.push(`${c.certificates} certificate${c.certificates > 1 ? "s" : ""}`);
    return parts.length ? parts.join(" and ") : "nothing";
  }

  function castLine(s) {
    const c = s.last_cast;
    if (!c) return null;
    return el("p", {class: "note", "data-testid": "last-cast"}, `${nameOf(s, c.player)} cast ${c.spell}: paid ${paidWords(c)}, ${c.prestige} prestige.`);
  }

  // --- a cast composed from its offer --------------------------------------------------------

  const at = (body, path) => path.split(".").reduce((v, k) => (v === undefined || v === null ? undefined : v[k]), body);
  function setAt(body, path, value) {
    const keys = path.split(".");
    let here = body;
    keys.slice(0, -1).forEach((k, i) => {
      const list = /^\d+$/.test(keys[i + 1]);
      if (Array.isArray(here)) while (here.length <= Number(k)) here.push({});
      if (here[k] === undefined || here[k] === null) here[k] = list ? [] : {};
      here = here[k];
    });
    if (value === undefined) delete here[keys[keys.length - 1]];
    else here[keys[keys.length - 1]] = value;
  }

  // Every field the picks (and their options' picks) may set: what a changed choice clears.
  const fieldsOf = (picks) => picks.flatMap((p) => [p.field, ...(p.one_of || []).flatMap((o) => fieldsOf(o.pick || []))]);

  // The picks of `offer` the body has reached: each one_of's chosen option opens its own.
  function reached(offer, body) {
    const found = [];
    const walk = (picks) => picks.forEach((pick) => {
      found.push(pick);
      if (!pick.one_of) return;
      const chosen = pick.one_of.find((o) => same(o.value, at(body, pick.field)));
      if (chosen) walk(chosen.pick || []);
    });
    walk(offer.pick || []);
    return found;
  }

  const tapped = (pick) => TAPPED.test(pick.field);
  const answered = (pick, body) => {
    const value = at(body, pick.field);
    if (pick.some_of) return (Array.isArray(value) ? value : []).length >= pick.size[0];
    return value !== undefined && (!pick.one_of || pick.one_of.some((o) => same(o.value, value)));
  };

  // The body with each choice that has a natural first answer (a way, a price, a rival) made.
  function settled(offer, body) {
    for (let guard = 0; guard < 20; guard++) {
      const open = reached(offer, body).find((p) => !tapped(p) && !p.some_of && !answered(p, body));
      if (!open) break;
      setAt(body, open.field, open.one_of ? open.one_of[0].value : open.range[0]);
    }
    return body;
  }

  function choose(offer, body, pick, value) {
    if (pick.one_of) fieldsOf(pick.one_of.flatMap((o) => o.pick || [])).forEach((f) => setAt(body, f, undefined));
    setAt(body, pick.field, value);
    settled(offer, body);
    redraw();
  }

  // The cast offers this phone has, and the one being composed (the first, unless one was chosen).
  function composing(table) {
    const s = table.state;
    const found = offers(table, "cast");
    if (!found.length) { cast = null; return null; }
    const key = (o) => `${s.turn.number}:${o.payload.position}`;
    let current = cast && found.find((o) => key(o) === cast.key);
    if (!current || !offered(table, "cast", cast.body)) {  // a new turn, or the table moved on under it
      current = current || found[0];
      cast = {key: key(current), body: settled(current, {...current.payload})};
    }
    return {offer: current, body: cast.body, all: found};
  }

  function pickSpell(table, o) {
    cast = {key: `${table.state.turn.number}:${o.payload.position}`, body: settled(o, {...o.payload})};
    redraw();
  }

  // What a choice among values asks for, in words: what to pay, whom, which crescent.
  function chooseWords(s, c, pick) {
    if (pick.field === "paid") return "Essence to pay";
    const e = (s.line[c.body.position].effects || [])[Number(pick.field.split(".")[1])] || {};
    return {"drain-essence": "Drain essence from", "take-certificates": "Take certificates from",
      "move-crescent": `Move ${e.direction || "on"} the crescent on`, "remove-crescent": "Remove the crescent on"}[e.do] || "Choose";
  }

  // What a tap pick asks for, in words.
  function prompt(s, c, pick) {
    const spell = s.line[c.body.position];
    const index = Number(pick.field.split(".")[1]);
    const e = (spell.effects || [])[index] || {};
    const [low, high] = pick.size || [1, 1];
    const most = low === high ? `${high}` : `up to ${high}`;
    if (e.do === "swap-pieces") return "Tap the two pieces to swap.";
    if (e.do === "move-piece") return pick.field.endsWith("take") ? `Tap a piece beside the spell's ${e.beside} to move.` : "Tap the empty square it moves to.";
    if (e.do === "return-pieces") return `Tap ${most} piece${high > 1 ? "s" : ""} to send back to the cauldron.`;
    if (pick.field.endsWith("take")) return `Tap ${most} piece${high > 1 ? "s" : ""} to move ${e.to === "apothecary" ? "into your apothecary" : "to the cauldron"}.`;
    return `Tap ${most} empty square${high > 1 ? "s" : ""} for the piece${high > 1 ? "s" : ""} from your ${e.source || "apothecary"}.`;
  }

  // The field squares the cast's next tap may choose, what a tap on one does, and every square
  // tapped so far for it (shown marked).
  function castTaps(c) {
    if (!c) return null;
    const picks = reached(c.offer, c.body).filter(tapped);
    if (!picks.length) return null;
    const chosen = picks.flatMap((p) => [at(c.body, p.field)].flat().filter((v) => v !== undefined));
    const pick = picks.find((p) => p.some_of || !answered(p, c.body));
    if (!pick) return {type: "cast", chosen, can: () => false, tap: () => null};  // all tapped: Clear undoes
    const mine = pick.some_of ? at(c.body, pick.field) || [] : [];
    const spaces = pick.one_of ? pick.one_of.map((o) => o.value) : pick.some_of.map((i) => i.value);
    return {
      type: "cast",
      chosen,
      can: (space) => mine.includes(space) || (spaces.includes(space) && mine.length < (pick.size ? pick.size[1] : 1)),
      tap: (space) => {
        if (pick.one_of) return choose(c.offer, c.body, pick, space);
        setAt(c.body, pick.field, mine.includes(space) ? mine.filter((x) => x !== space) : [...mine, space]);
        return redraw();
      },
    };
  }

  // The ways a spell is found on the field, the choices its effects leave, and Cast.
  function castCard(table, act, c) {
    const s = table.state;
    const nodes = [];
    if (c.all.length > 1) {
      nodes.push(el("div", {class: "sc-row"}, ...c.all.map((o) => el("button", {class: o === c.offer ? "sc-chosen" : "",
        "aria-pressed": String(o === c.offer), "data-move": "cast", onclick: () => pickSpell(table, o)}, o.label))));
    }
    const body = c.body;
    for (const pick of reached(c.offer, body)) {
      const value = at(body, pick.field);
      if (pick.field === "match") {  // numbered, the chosen one in words: four ways take one row, not four
        const chosen = pick.one_of.findIndex((o) => same(o.value, value));
        nodes.push(el("div", {class: "label"}, "Where on the field"), el("div", {class: "sc-row sc-ways"}, ...pick.one_of.map((o, i) =>
          el("button", {class: i === chosen ? "sc-chosen" : "", "aria-pressed": String(i === chosen), "data-move": "cast",
            onclick: () => choose(c.offer, body, pick, o.value)}, `${i + 1}`))),
        chosen >= 0 ? el("p", {class: "note", "data-testid": "way"}, `Way ${chosen + 1}: ${pick.one_of[chosen].label}`) : null);
      } else if (tapped(pick)) {
        const taps = pick.some_of ? (value || []) : value === undefined ? [] : [value];
        nodes.push(el("div", {class: "sc-tapping", "data-testid": "tap-prompt"},
          el("p", {class: "sc-prompt"}, prompt(s, c, pick)),
          el("div", {class: "row spread"}, el("span", {class: "note", "data-testid": "tapped"},
            taps.length ? `Tapped: ${taps.map(squareName).join("; ")}` : "Nothing tapped yet."),
          taps.length ? button("Clear", () => choose(c.offer, body, pick, undefined), "") : null)));
      } else if (pick.some_of) {  // pieces from the cauldron or the apothecary
        const chosen = value || [];
        nodes.push(el("div", {class: "label"}, `Pieces (up to ${pick.size[1]})`), el("div", {class: "sc-apothecary"},
          ...pick.some_of.map((item) => {
            const n = chosen.filter((v) => same(v, item.value)).length;
            return el("button", {class: "sc-pick" + (n ? " sc-chosen" : ""), "aria-label": `${pieceWords(item.value)}, ${n} chosen`,
              disabled: n >= item.count || chosen.length >= pick.size[1], onclick: () => { setAt(body, pick.field, [...chosen, item.value]); redraw(); }},
            ...piece(item.value), n ? el("span", {class: "sc-height"}, String(n)) : null);
          }),
          chosen.length ? button("Clear", () => choose(c.offer, body, pick, []), "") : null));
      } else if (pick.range) {
        const input = el("input", {type: "number", min: String(pick.range[0]), max: String(pick.range[1]), value: String(value), inputmode: "numeric",
          name: pick.field});
        input.addEventListener("change", () => {
          const n = Math.min(pick.range[1], Math.max(pick.range[0], Math.round(Number(input.value)) || pick.range[0]));
          choose(c.offer, body, pick, n);
        });
        nodes.push(el("label", {class: "sc-field"}, pick.field === "paid" ? "Essence to pay" : "Pieces recoloured", input));
      } else {
        const select = el("select", {name: pick.field}, ...pick.one_of.map((o, i) =>
          el("option", {value: String(i), selected: same(o.value, value)}, o.label || String(o.value))));
        select.addEventListener("change", () => choose(c.offer, body, pick, pick.one_of[Number(select.value)].value));
        nodes.push(el("label", {class: "sc-field"}, chooseWords(s, c, pick), select));
      }
    }
    const ready = reached(c.offer, body).every((p) => answered(p, body)) && offered(table, "cast", body);
    const prestige = s.way === "pieces" ? el("input", {type: "number", min: "0", name: "prestige", inputmode: "numeric",
      placeholder: String(s.line[body.position].prestige)}) : null;
    const send = () => {
      const sent = JSON.parse(JSON.stringify(body));
      if (prestige && prestige.value !== "") sent.prestige = Math.max(0, Math.round(Number(prestige.value)));
      act("cast", sent);
    };
    const spell = s.line[body.position];
    return el("div", {class: "sc-cast", "data-testid": "cast"},
      spell.effect ? el("p", {class: "sc-effect", "data-testid": "cast-effect"}, ...window.SpellpressUI.rich(spell.effect)) : null,
      ...spellRulings(s, spell),
      ...nodes,
      prestige ? el("label", {class: "sc-field"}, "Prestige taken", prestige) : null,
      el("button", {class: "act sc-wide", "data-move": "cast", disabled: !ready, onclick: send}, `Cast ${s.line[body.position].name}`));
  }

  // --- the turn card: whose turn, its step, and the viewer's moves ----------------------------

  // Whose turn it is and its step: in sight whichever section is.
  function turnLine(s, you) {
    const t = s.turn;
    const mine = t.player === you.actor;
    return el("section", {class: "card sc-status" + (mine ? " sc-mine" : "")},
      el("div", {class: "row spread"}, el("h2", {"data-testid": "turn"}, `${mine ? "Your turn" : nameOf(s, t.player) + "'s turn"}: ${STEPS[t.step] || t.step}`),
        el("span", {class: "note"}, `Turn ${t.number}`)));
  }

  function turnCard(table, you, act, c) {
    const s = table.state;
    const parts = [
      rollLine(s), castLine(s),
      move(table, act, "Roll the knucklebone", "renew", {}, "act sc-wide"),
      move(table, act, "Roll again: no large piece of that colour", "reroll", {}, "sc-wide"),
    ];
    if (offered(table, "contribute")) {
      parts.push(el("p", {class: "sc-prompt"}, picked ? "Now tap a square of the field." : "Tap a piece of your apothecary, then a square of the field."));
    }
    parts.push(move(table, act, "Skip Contribute", "skip_contribute", {}, "sc-wide"));
    if (offered(table, "accelerate")) parts.push(el("p", {class: "note"}, "Accelerando: tap a piece, then a square, to place one more for essence."));
    if (c) parts.push(castCard(table, act, c));
    if (offered(table, "by_hand")) parts.push(byHandCard(table, act));
    parts.push(progressButtons(table, act));
    return el("section", {class: "card sc-turn"}, ...parts.filter(Boolean));
  }

  // Progress ends the turn: a crescent moves on, from a spell the server offers.
  function progressButtons(table, act) {
    const s = table.state;
    if (!offered(table, "progress")) return null;
    const from = values(table, "progress", "position");
    const last = s.line.length - 1;
    return el("div", {class: "sc-progress"}, el("div", {class: "label"}, "Progress (ends your turn)"),
      el("div", {class: "sc-row sc-halves"}, ...(from.length ? from.map((p) => move(table, act, `From ${s.line[p].name}` + (p === last ? " (off the line)" : ""), "progress", {position: p}, ""))
        : [move(table, act, "End the turn", "progress", {}, "")])),
      from.includes(last) && from.length > 1 ? rulingNote(s, "crescent-off") : null);
  }

  // After a text-only spell: a piece moved between the field, the cauldron and the caster's
  // apothecary, or a moon crescent moved, each as the server offers them.
  const PLACES = {field: "The field", cauldron: "The cauldron", apothecary: "Your apothecary"};

  // Where a piece moved by hand may come from, as offered: a square of the field, or a place.
  function handFrom(table) {
    const takes = values(table, "by_hand", "take");
    return [...(takes.some(Number.isInteger) ? ["field"] : []), ...takes.filter((v) => typeof v === "string")];
  }

  // The body of the piece's move as far as it is chosen: where from (the square tapped), which piece.
  const handBody = () => ({take: hand.from === "field" ? hand.take : hand.from, ...(hand.from === "field" ? {} : {piece: hand.piece})});

  function byHandCard(table, act) {
    const s = table.state;
    if (hand.turn !== s.turn.number) hand = unchanged(s.turn.number);
    const select = (name, options, value, onchange) => {
      const node = el("select", {name}, ...options.map(([v, words], i) => el("option", {value: String(i), selected: same(v, value)}, words)));
      node.addEventListener("change", () => { onchange(options[Number(node.value)][0]); redraw(); });
      return node;
    };
    const parts = [el("div", {class: "label"}, "By hand, as the spell's text says")];
    const crescents = values(table, "by_hand", "crescent");
    if (crescents.length) {
      if (!crescents.includes(hand.crescent)) hand.crescent = crescents[0];
      const to = values(table, "by_hand", "crescent_to", {crescent: hand.crescent});
      if (!to.some((v) => same(v, hand.crescentTo))) hand.crescentTo = to[0];
      const named = (p) => (p === null ? "Off the line" : `${p + 1}. ${s.line[p].name}`);
      const sent = {crescent: hand.crescent, crescent_to: hand.crescentTo};
      parts.push(el("div", {class: "sc-three"},
        el("label", {class: "sc-field"}, "A crescent on", select("crescent", crescents.map((p) => [p, named(p)]), hand.crescent, (v) => { hand.crescent = v; })),
        el("label", {class: "sc-field"}, "to", select("crescent_to", to.map((p) => [p, named(p)]), hand.crescentTo, (v) => { hand.crescentTo = v; })),
        offered(table, "by_hand", sent) ? el("button", {class: "act", "data-move": "by_hand", "aria-label": "Move the crescent", onclick: () => act("by_hand", sent)}, "Move") : null));
    }
    const from = handFrom(table);
    if (from.length) {
      if (!from.includes(hand.from)) { hand.from = from[0]; hand.take = null; }
      const pieces = hand.from === "field" ? [] : values(table, "by_hand", "piece", {take: hand.from});
      if (pieces.length && !pieces.some((p) => same(p, hand.piece))) hand.piece = pieces[0];
      const to = values(table, "by_hand", "to", hand.from === "field" ? {} : handBody());
      const places = [...(to.some(Number.isInteger) ? ["field"] : []), ...to.filter((v) => typeof v === "string" && v !== hand.from)];
      if (!places.includes(hand.to)) { hand.to = places[0]; hand.space = null; }
      const sent = {...handBody(), to: hand.to === "field" ? hand.space : hand.to};
      const whole = sent.take !== null && sent.to !== null;
      parts.push(el("div", {class: "sc-three"},
        el("label", {class: "sc-field"}, "A piece from", select("from", from.map((p) => [p, PLACES[p]]), hand.from, (v) => { hand.from = v; hand.take = null; })),
        el("label", {class: "sc-field"}, "to", select("to", places.map((p) => [p, PLACES[p]]), hand.to, (v) => { hand.to = v; hand.space = null; })),
        whole && offered(table, "by_hand", sent) ? el("button", {class: "act", "data-move": "by_hand", "aria-label": "Move the piece", onclick: async () => {
          if (await act("by_hand", sent)) { hand.take = null; hand.space = null; redraw(); }
        }}, "Move") : null),
      pieces.length ? el("label", {class: "sc-field"}, "Which piece", select("piece", pieces.map((p) => [p, capital(pieceWords(p))]), hand.piece, (v) => { hand.piece = v; })) : null,
      el("p", {class: "note", "data-testid": "tapped"}, [hand.from === "field" ? `From: ${hand.take === null ? "tap a piece" : squareName(hand.take)}. ` : "",
        hand.to === "field" ? `To: ${hand.space === null ? "tap an empty square" : squareName(hand.space)}.` : ""].join("")));
    }
    return el("div", {class: "sc-byhand", "data-testid": "changes-by-hand"}, ...parts.filter(Boolean));
  }

  // The field's taps for a piece moved by hand: the piece to take, then the empty square.
  function handTaps(table) {
    if (!handFrom(table).length) return null;
    if (hand.from === "field" && hand.take === null) {
      return {type: "by_hand", chosen: [], can: (space) => offered(table, "by_hand", {take: space}), tap: (space) => { hand.take = space; redraw(); }};
    }
    if (hand.to !== "field") return null;
    return {type: "by_hand", chosen: [hand.take, hand.space].filter((v) => v !== null), can: (space) => offered(table, "by_hand", {...handBody(), to: space}),
      tap: (space) => { hand.space = hand.space === space ? null : space; redraw(); }};
  }

  // --- the field and the apothecary (on the phones) -----------------------------------------

  function fieldCard(table, you, act, c) {
    const s = table.state;
    const placing = ["contribute", "accelerate"].find((type) => offered(table, type)) || null;
    if (picked && (picked.type !== placing || !offered(table, placing, {piece: picked.piece}))) picked = null;
    const match = c && c.offer.pick[0].field === "match" ? c.offer.pick[0].one_of.find((o) => same(o.value, c.body.match)) : null;
    const lit = new Set(match ? match.squares : []);
    const recolour = new Set(match ? match.recolour : []);
    const taps = picked ? null : castTaps(c) || handTaps(table);
    const marked = new Set(taps ? taps.chosen : []);
    const size = s.field_size;
    const squares = s.field.map((stack, space) => {
      const top = stack[stack.length - 1];
      const row = Math.floor(space / size), column = space % size;
      const place = picked && offered(table, picked.type, {piece: picked.piece, space});
      const tap = !picked && taps && taps.can(space);
      const cls = "sc-square" + (lit.has(space) ? " sc-lit" : "") + (recolour.has(space) ? " sc-recolour" : "") + (marked.has(space) ? " sc-marked-square" : "");
      return el("button", {class: cls, "data-testid": `space-${space}`, "data-space": String(space), "data-move": place ? picked.type : tap ? taps.type : null,
        "aria-pressed": taps ? String(marked.has(space)) : null,
        "aria-label": `Row ${row + 1}, column ${column + 1}: ` + (top ? `${top[1]} ${top[0]}` + (stack.length > 1 ? `, ${stack.length} high` : "") : "empty"),
        disabled: !(place || tap), onclick: () => {
          if (!place) return taps.tap(space);
          const sent = {piece: picked.piece, space};
          const type = picked.type;
          picked = null;
          return act(type, sent);
        }},
      ...(top ? piece(top, stack.length) : []));
    });
    const me = s.players.find((p) => p.id === you.actor);
    const apothecary = me ? me.apothecary : [];
    return el("section", {class: "card sc-field-card"},
      el("div", {class: "row spread"}, el("h2", {}, "Casting field"), match ? el("span", {class: "note"}, `Lit: ${s.line[c.body.position].name}`) : null),
      el("div", {class: "sc-board", style: `grid-template-columns: repeat(${size}, 1fr)`, "data-testid": "field"}, ...squares),
      me ? el("div", {class: "label"}, "Your apothecary") : null,
      me ? el("div", {class: "sc-apothecary", "data-testid": "apothecary"}, ...(apothecary.length ? apothecary.map((p, i) => {
        const can = placing && offered(table, placing, {piece: p});
        const on = picked && same(picked.piece, p);
        return el("button", {class: "sc-pick" + (on ? " sc-chosen" : ""), "aria-pressed": String(!!on), "data-testid": `piece-${i}`,
          "data-move": can ? placing : null, disabled: !can, onclick: () => { picked = on ? null : {type: placing, piece: p}; redraw(); }}, ...piece(p));
      }) : [el("span", {class: "note"}, "Empty.")])) : null);
  }

  // --- the spell line -----------------------------------------------------------------------

  // Each spell a row: its pattern, small, beside its name, crescents, cost and prestige.
  function lineCard(s) {
    const cost = (sp) => `${costText(sp.essence)}` + (sp.certificates ? ` + ${sp.certificates} cert.` : "") + (sp.swift_time ? " (Swift Time)" : "");
    return el("section", {class: "card"}, el("h2", {}, "The spell line"),
      el("ol", {class: "sc-line", "data-testid": "line"}, ...s.line.map((sp) => el("li", {class: "sc-spell" + (sp.active ? " sc-active" : "") + (sp.cast ? " sc-cast-now" : ""),
        "data-testid": `spell-${sp.position}`},
        pattern(sp.pattern),
        el("div", {class: "sc-spell-facts"},
          el("div", {class: "sc-spell-head"},
            el("strong", {}, `${sp.position + 1}. ${sp.name}`),
            sp.crescents ? el("span", {class: "sc-moons", "aria-label": `${sp.crescents} moon crescent${sp.crescents > 1 ? "s" : ""}`}, "☾".repeat(sp.crescents)) : null),
          el("div", {}, `${cost(sp)} · prestige ${sp.prestige}`,
            sp.active || sp.cast ? el("span", {class: "sc-tag"}, " · " + [sp.active ? "active" : "", sp.cast ? "cast this turn" : ""].filter(Boolean).join(", ")) : null),
          el("div", {class: "sc-sr"}, `Pattern: ${patternWords(sp.pattern)}`),
          sp.effect ? el("div", {class: "sc-effect", "data-testid": `effect-${sp.position}`}, ...window.SpellpressUI.rich(sp.effect)) : null,
          sp.effects === null ? el("div", {class: "note"}, "Its changes are made by hand.") : null)))));
  }

  // --- the wizards --------------------------------------------------------------------------

  function wizardsCard(table, you, act) {
    const s = table.state;
    const over = s.phase === "over";
    const current = s.turn && s.turn.player;
    // essence put right, as offered: with real pieces by anyone, on the phones the host's correction (or one's own)
    const adjust = (id, change, label) => move(table, act, label, "essence", {wizard: id, change}, "");
    const adjusting = offered(table, "essence");
    return el("section", {class: "card"}, el("h2", {}, "Wizards"),
      el("table", {class: "scores sc-wizards" + (adjusting ? " sc-adjusting" : "") + (over ? " sc-over" : ""), "data-testid": "wizards"},
        el("thead", {}, el("tr", {}, el("th", {}, "Wizard"), el("th", {}, "Essence"), el("th", {}, "Cert."), over ? el("th", {}, "Score") : null)),
        el("tbody", {}, ...s.players.map((p) => el("tr", {class: (p.id === current ? "sc-now" : "") + (p.id === you.actor ? " me" : ""), "data-testid": `wizard-${p.id}`},
          el("td", {}, p.name + (p.id === you.actor ? " (you)" : ""), p.out ? el("span", {class: "note"}, " · out") : null,
            p.id === current ? el("span", {class: "note"}, " · to play") : null),
          el("td", {}, el("span", {class: "sc-essence"}, el("span", {class: "live"}, String(p.essence)), adjust(p.id, -1, "−"), adjust(p.id, 1, "+"))),
          el("td", {class: "live", "data-testid": `certificates-${p.id}`}, String(p.certificates)),
          over ? el("td", {class: "live"}, String(p.score)) : null)))));
  }

  function handCard(s, you) {
    if (!s.players.some((p) => p.id === you.actor)) return null;
    return el("section", {class: "card"}, el("h2", {}, "Your certificates"),
      s.hand.length
        ? el("ul", {class: "sc-hand", "data-testid": "hand"}, ...s.hand.map((c) =>
          el("li", {class: "sc-cert" + (c[1] === 1 || c[1] === 2 ? " sc-redsuit" : ""), "aria-label": cardName(c)}, cardText(c))))
        : el("p", {class: "note", "data-testid": "hand"}, "None yet. Only you see yours; the others see how many."));
  }

  // The cauldron's pieces by size; with real pieces its large ones are put right by hand, as offered.
  function cauldronCard(table, act) {
    const s = table.state;
    if (!s.cauldron) return null;
    return el("section", {class: "card"}, el("h2", {}, "Cauldron"),
      el("div", {class: "sc-cauldron", "data-testid": "cauldron"}, ...Object.entries(s.cauldron).map(([colour, counts]) =>
        el("div", {class: "sc-pot"}, swatch(colour),
          s.way === "pieces"
            ? el("span", {class: "sc-essence"}, el("span", {}, `${counts[2]} large`),
              move(table, act, "−", "cauldron", {colour, large: counts[2] - 1}, ""),
              move(table, act, "+", "cauldron", {colour, large: counts[2] + 1}, ""))
            : el("span", {class: "note"}, counts.map((n, i) => `${n} ${s.sizes[i]}`).join(" · "))))));
  }

  // Who goes first (the rules: "Choose a player to go first"): the host starts the game with a
  // wizard's button; at a table whose server draws it, the lobby's Start.
  function firstCard(table, act) {
    const s = table.state;
    if (s.first === "drawn") return el("p", {class: "note", "data-testid": "first"}, "The server draws who goes first at Start.");
    const firsts = values(table, "start", "first");
    if (!firsts.length) return null;
    return el("section", {class: "card", "data-testid": "first"}, el("h2", {}, "Who goes first?"),
      el("p", {class: "note"}, "The rules: choose a player to go first. Start the game with them:"),
      el("div", {class: "sc-row"}, ...firsts.map((pid) =>
        move(table, act, `${nameOf(s, pid)} goes first`, "start", {first: pid}, "act", true))));
  }

  // Our rulings where they apply (content/spellcycles/rulings.yaml): beside the cast or the move they settle.
  const rulingNote = (s, key) => s.rulings && s.rulings[key]
    ? el("p", {class: "note sc-ruling", "data-testid": `ruling-${key}`}, "Our ruling: ", ...window.SpellpressUI.rich(s.rulings[key])) : null;

  function spellRulings(s, spell) {
    const effects = spell.effects || [];
    const keys = [];
    if (effects.some((e) => e.do === "move-piece")) keys.push("diagonals");
    if (spell.certificates || effects.some((e) => e.do === "take-certificates" && e.source === "player")) keys.push("certificates-paid");
    if (effects.some((e) => e.do === "return-pieces" && e.which === "spell")) keys.push("killing-time");
    if (s.variants && s.variants.duel) keys.push("duel-last-essence");
    return keys.map((key) => rulingNote(s, key));
  }

  const rulingsCard = (s) => window.SpellpressUI.rulings(s.rulings, "sc-rulings");

  function render(root, table, you, act) {
    redraw = () => render(root, table, you, act);
    const s = table.state;
    if (s.phase === "joining") {  // the lobby (table.js) has who joined; Start here when the host chooses who goes first
      root.replaceChildren(el("p", {class: "note"}, s.way === "phones" ? "Everything on the phones." : "With real pieces on a board."),
        firstCard(table, act));
      return;
    }
    const parts = [];
    const c = s.phase === "playing" ? composing(table) : null;
    if (s.phase === "over") {
      const names = s.winners.map((id) => nameOf(s, id));
      parts.push(el("section", {class: "card", "data-testid": "over"}, el("h2", {}, "The game is over"),
        el("p", {class: "winner-line"}, names.length > 1 ? `Tie: ${names.join(" and ")}` : `${names[0]} wins`),
        s.marker ? el("p", {class: "note"}, `Double-Plus marker: ${cardName(s.marker)}`) : null));
    } else {
      parts.push(turnLine(s, you));
    }
    const phones = s.way === "phones";
    parts.push(...window.SpellpressSections.show([
      {id: "play", label: "Play", nodes: [s.phase === "playing" ? turnCard(table, you, act, c) : null, phones ? fieldCard(table, you, act, c) : null]},
      {id: "wizards", label: "Wizards", nodes: [wizardsCard(table, you, act), handCard(s, you)]},
      {id: "spells", label: "Spells", nodes: [lineCard(s)]},
      {id: "more", label: "More", nodes: [cauldronCard(table, act), rulingsCard(s)]},
    ], "play", () => redraw()));
    root.replaceChildren(...parts);
  }

  // History lines in words: the colour rolled, the piece placed, the spell cast.
  function describe(entry, table) {
    const p = entry.payload;
    const s = table ? table.state : {};
    const spellName = (position) => (s.line && s.line[position] ? s.line[position].name : `spell ${position + 1}`);
    switch (entry.type) {
      case "start": {
        const first = s.first_player ? `; ${nameOf(s, s.first_player)} goes first` + (s.first === "drawn" ? " (drawn by the server)" : " (the host's choice)") : "";
        return "dealt the spells and started the game" + first;
      }
      case "renew": return "rolled the knucklebone for Renew" + (p.faces && p.faces.length ? ` (${p.faces.join(", ")})` : "");
      case "reroll": return "rolled the knucklebone again";
      case "contribute": return `placed a ${p.piece[1]} ${p.piece[0]} piece on ${squareName(p.space)}`;
      case "accelerate": return `placed an extra ${p.piece[1]} ${p.piece[0]} piece on ${squareName(p.space)} (Accelerando)`;
      case "skip_contribute": return "skipped Contribute";
      case "cast": {
        const cards = Array.isArray(p.cards) ? p.cards.length : p.cards || 0;
        return `cast ${spellName(p.position)}` + (cards ? `, drew ${cards} certificate${cards > 1 ? "s" : ""}` : "");
      }
      case "progress": return p.position === null || p.position === undefined ? "moved a moon crescent on" : `moved a moon crescent on from ${spellName(p.position)}`;
      case "essence": return p.change > 0 ? `gave ${nameOf(s, p.wizard)} ${p.change} essence` : `took ${-p.change} essence from ${nameOf(s, p.wizard)}`;
      case "cauldron": return `counted ${p.large} large ${p.colour} in the cauldron`;
      case "by_hand": {
        if (p.crescent !== null && p.crescent !== undefined) {
          return `moved the moon crescent on ${spellName(p.crescent)} ` + (p.crescent_to === null || p.crescent_to === undefined ? "off the line" : `to ${spellName(p.crescent_to)}`) + " by hand";
        }
        const place = (where) => (typeof where === "number" ? squareName(where) : `the ${where}`);
        const what = p.piece ? `a ${p.piece[1]} ${p.piece[0]} piece` : "a piece";
        return `moved ${what} from ${place(p.take)} to ${place(p.to)} by hand`;
      }
      default: return null;
    }
  }

  const begun = (s) => s.phase !== "joining";  // table.js folds the invite then
  window.SpellpressGames.spellcycles = {render, describe, begun, drawsStart: true};  // firstCard: Start with who goes first
})();
