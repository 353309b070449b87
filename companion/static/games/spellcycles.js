// Spellcycles: whose turn and its step, the knucklebone's last roll, the spell line with its moon
// crescents, each wizard's essence and certificate count and the viewer's own certificates. On the
// phones also the 8x8 casting field and the viewer's apothecary (tap a piece, then a square, to
// Contribute) and, at Reap, the spells that match, each with a Cast button; a spell's choices of
// pieces or squares are made by tapping the field, and after a text-only spell its changes are
// made by hand (pieces, crescents), each a logged move. With real pieces:
// Renew (and Roll again), a "Cast by hand" form and essence +/-. The server checks every move.
"use strict";
(() => {
  const {el, button} = window.SpellpressUI;
  // The Okabe-Ito inks of templates/spellcycles/sc-card.yaml, always with the colour's letter
  // (colour is never the only cue): R Y G B W K.
  const INKS = {red: "#d55e00", yellow: "#f0e442", green: "#009e73", blue: "#0072b2", white: "#ffffff", black: "#1a1a1a"};
  const LETTERS = {red: "R", yellow: "Y", green: "G", blue: "B", white: "W", black: "K"};
  const DARK = new Set(["red", "green", "blue", "black"]);  // inks that take a white letter
  const STEPS = {renew: "Renew", contribute: "Contribute", reap: "Reap"};
  const SUITS = [["♠", "spades"], ["♥", "hearts"], ["♦", "diamonds"], ["♣", "clubs"]];
  const RANKS = {1: "A", 11: "J", 12: "Q", 13: "K"};

  // What the player is choosing lives here, not in the DOM: every event redraws the whole panel.
  let picked = null;  // the index of the apothecary piece tapped, waiting for a square
  let chosen = null;  // the key of the match chosen at Reap ("position:match"), shown on the field
  let handSpell = null;  // with real pieces: the line position of the spell being cast by hand
  let marks = [];  // the squares tapped for the chosen spell's choice (or a change by hand), in order
  let markPieces = [];  // for pieces put on the field: the piece ("colour size") chosen for each tapped square
  let marksFor = null;  // what they were tapped for: another match, turn or change starts afresh
  let hand = {from: "field", to: "cauldron", piece: "", crescent: "", crescentTo: ""};  // a change by hand
  let redraw = () => {};

  const capital = (word) => word[0].toUpperCase() + word.slice(1);
  const letter = (colour) => LETTERS[colour] || colour[0].toUpperCase();
  const nameOf = (s, id) => ((s.players || []).find((p) => p.id === id) || {name: "?"}).name;
  const cardText = ([rank, suit]) => `${RANKS[rank] || rank}${SUITS[suit][0]}`;
  const cardName = ([rank, suit]) => `${RANKS[rank] || rank} of ${SUITS[suit][1]}`;
  const costText = (essence) => essence === "n" ? "any essence" : Array.isArray(essence) ? `${essence.join(" or ")} essence` : `${essence} essence`;

  // A colour as a swatch with its letter on it; `title` says its name to a screen reader.
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
    const last = r.colours[r.colours.length - 1];
    return el("div", {class: "sc-roll", "data-testid": "roll"},
      swatch(last, "sc-big"),
      el("div", {},
        el("div", {}, el("strong", {}, `${capital(last)} (${letter(last)})`), ` for ${nameOf(s, r.player)}`),
        el("div", {class: "note"}, r.colours.length > 1 ? `Rolled ${r.colours.map(capital).join(", then ")}. ` : "",
          r.piece ? `Took a large ${r.piece} piece.` : "No large piece of that colour was left.")));
  }

  function castLine(s) {
    const c = s.last_cast;
    if (!c) return null;
    return el("p", {class: "note", "data-testid": "last-cast"},
      `${nameOf(s, c.player)} cast ${c.spell}: paid ${c.paid} essence` + (c.recolours ? `, ${c.recolours} recoloured` : "") + `, ${c.prestige} prestige.`);
  }

  // --- choices made by tapping the field ---------------------------------------------------

  const upTo = (n, what) => (n > 1 ? `up to ${n} ${what}s` : `a ${what}`);
  const kindWords = (e) => [e.size && e.size !== "any" ? e.size : "", e.colour && e.colour !== "any" ? e.colour : ""].filter(Boolean).join(" ");

  // What an effect asks the caster to tap on the field, if anything: what each tap must be
  // ("piece": a square with a piece, "empty": a vacant one), the prompt, and the choice the taps
  // make, in the tracker's format. The server checks it all: a wrong tap is refused in words.
  function tapPlan(e, s) {
    const n = e.count || 1;
    const many = (kind) => Array(n).fill(kind);
    if (e.do === "swap-pieces") {
      return {kinds: ["piece", "piece"], prompt: "Tap the two pieces to swap.", choice: (m) => (m.length ? {spaces: m} : {})};
    }
    if (e.do === "move-piece") {
      const reach = e.spaces === "paid" ? "as many squares away as the essence you pay" : `up to ${e.spaces} away`;
      return {kinds: ["piece", "empty"], prompt: `Tap a piece beside the spell's ${e.beside} (not one of the spell's), then an empty square ${reach}.`,
        choice: (m) => (m.length ? {take: m[0], to: m[1]} : {})};
    }
    if (e.do === "return-pieces" && e.which === "any") {
      return {kinds: many("piece"), prompt: `Tap ${upTo(n, "piece")} to send back to the cauldron.`, choice: (m) => ({spaces: m})};
    }
    if (e.do === "move-pieces" && e.source === "field") {
      const what = kindWords(e);
      return {kinds: many("piece"), prompt: `Tap ${upTo(n, (what ? what + " " : "") + "piece")} to move ${e.to === "apothecary" ? "into your apothecary" : "back to the cauldron"}.`,
        choice: (m) => ({take: m})};
    }
    if (e.do === "move-pieces" && e.to === "field" && e.random) {
      return {kinds: many("empty"), prompt: `Tap ${upTo(n, "empty square")} for the random piece${n > 1 ? "s" : ""} from your ${e.source}.`,
        choice: (m) => ({to: m})};
    }
    if (e.do === "move-pieces" && e.to === "field") {  // the caster names the piece for each square
      const fits = (p) => (!e.colour || e.colour === "any" || p[0] === e.colour) && (!e.size || e.size === "any" || p[1] === e.size);
      const pool = piecesIn(s, e.source).filter(fits);
      return {kinds: many("empty"), pool, prompt: `Tap ${upTo(n, "empty square")}, and choose the piece from ${e.source === "cauldron" ? "the cauldron" : "your apothecary"} for each.`,
        choice: (m) => ({to: m, pieces: m.map((_, i) => pool.find((p) => pieceKey(p) === markPieces[i])).filter(Boolean)})};
    }
    return null;
  }

  const pieceKey = ([colour, size]) => `${colour} ${size}`;

  // The pieces in the cauldron or the apothecary of the wizard whose turn it is, each once.
  function piecesIn(s, place) {
    if (place === "cauldron") return Object.entries(s.cauldron || {}).flatMap(([colour, counts]) => counts.flatMap((n, size) => (n ? [[colour, s.sizes[size]]] : [])));
    const me = s.players.find((p) => p.id === s.turn.player);
    return me ? me.apothecary : [];
  }

  // With a text-only spell cast: a piece moved by hand, its field squares tapped (from, then to).
  function handPlan() {
    const kinds = [...(hand.from === "field" ? ["piece"] : []), ...(hand.to === "field" ? ["empty"] : [])];
    if (!kinds.length) return null;
    const prompt = kinds.length === 2 ? "Tap the piece to move, then an empty square." : kinds[0] === "piece" ? "Tap the piece to move." : "Tap the empty square it goes to.";
    return {kinds, prompt};
  }

  const byHandDue = (s) => s.line.some((sp) => sp.cast && sp.effects === null);

  // What the field's taps choose now, if anything (on the caster's phone at Reap): a change by
  // hand after a text-only spell, else the chosen match's spell's first effect that asks for taps.
  function tapping(s, you) {
    const t = s.turn;
    if (s.mode !== "phones" || !t || t.player !== you.actor || t.step !== "reap") return null;
    if (s.matches.length && !s.matches.some((m) => matchKey(m) === chosen)) chosen = matchKey(s.matches[0]);
    let plan = null, key = null;
    if (byHandDue(s) && handPlan()) {
      plan = handPlan();
      key = `hand:${t.number}:${hand.from}:${hand.to}`;
    } else {
      const match = s.matches.find((m) => matchKey(m) === chosen);
      const effects = (match && s.line[match.position].effects) || [];
      const index = effects.findIndex((e) => tapPlan(e, s));
      if (index >= 0) plan = {...tapPlan(effects[index], s), effect: index};
      key = `${t.number}:${chosen}`;
    }
    if (marksFor !== key) { marks = []; markPieces = []; marksFor = key; }
    return plan;
  }

  // The prompt, how far the taps have got, and a Clear.
  function tapPrompt(plan) {
    const done = marks.length >= plan.kinds.length;
    return el("div", {class: "sc-tapping", "data-testid": "tap-prompt"},
      el("p", {class: "sc-prompt"}, plan.prompt),
      el("div", {class: "row spread"},
        el("span", {class: "note", "data-testid": "tapped"}, marks.length ? `Tapped ${marks.length}${done ? " (all)" : ""}: ${marks.map(squareName).join("; ")}` : "Nothing tapped yet."),
        marks.length ? button("Clear", () => { marks = []; redraw(); }, "") : null),
      ...(plan.pool ? marks.map((space, i) => {
        const keys = plan.pool.map(pieceKey);
        if (!keys.includes(markPieces[i])) markPieces[i] = keys[Math.min(i, keys.length - 1)];
        const select = el("select", {name: `piece-${i}`}, ...plan.pool.map((p) => el("option", {value: pieceKey(p), selected: pieceKey(p) === markPieces[i]}, `${capital(p[1])} ${p[0]}`)));
        select.addEventListener("change", () => { markPieces[i] = select.value; });
        return el("label", {class: "sc-field"}, `Piece for ${squareName(space)}`, select);
      }) : []));
  }

  const squareName = (space) => `row ${Math.floor(space / 8) + 1}, column ${(space % 8) + 1}`;

  // --- the turn card: whose turn, its step, and the viewer's moves ----------------------------

  function turnCard(s, you, act, plan) {
    const t = s.turn;
    const mine = t && t.player === you.actor;
    const phones = s.mode === "phones";
    const parts = [
      el("div", {class: "row spread"}, el("h2", {"data-testid": "turn"}, `${mine ? "Your turn" : nameOf(s, t.player) + "'s turn"}: ${STEPS[t.step] || t.step}`),
        el("span", {class: "note"}, `Turn ${t.number}`)),
      rollLine(s), castLine(s),
    ];
    if (!mine) return el("section", {class: "card sc-turn"}, ...parts);
    if (t.step === "renew") parts.push(button("Roll the knucklebone", () => act("renew"), "act sc-wide"));
    if (t.step === "contribute") {
      parts.push(el("p", {class: "sc-prompt"}, picked === null ? "Tap a piece of your apothecary, then a square of the field." : "Now tap a square of the field."),
        button("Skip Contribute", () => act("skip_contribute"), "sc-wide"));
    }
    if (t.step === "reap") {
      const rolledNow = s.last_roll && s.last_roll.turn === t.number;
      if (!phones && !s.cauldron_tracked && rolledNow && !s.line.some((sp) => sp.cast)) {
        parts.push(button("Roll again: no large piece of that colour", () => act("reroll"), "sc-wide"));
      }
      if (phones && s.variants.accelerando && !s.accelerated) {
        parts.push(el("p", {class: "note"}, "Accelerando: tap a piece, then a square, to place one more for essence."));
      }
      parts.push(phones ? matchesList(s, act, plan) : castByHand(s, act), phones && byHandDue(s) ? changesByHand(s, act, plan) : null, progressButtons(s, act));
    }
    return el("section", {class: "card sc-turn sc-mine"}, ...parts);
  }

  const matchKey = (m) => `${m.position}:${m.match}`;

  // "Subtle Drain · way 2 of 2 · 2 recolours": a spell found twice is told apart by its way.
  function matchLabel(s, m) {
    const ways = s.matches.filter((other) => other.position === m.position).length;
    const recolours = m.recolours ? `${m.recolours} recolour${m.recolours > 1 ? "s" : ""}` : "no recolour";
    return [s.line[m.position].name, ways > 1 ? `way ${m.match + 1} of ${ways}` : null, recolours].filter(Boolean).join(" · ");
  }

  // At Reap on the phones: each matching active spell, the first chosen; Cast sends its match.
  function matchesList(s, act, plan) {
    if (!s.matches.length) return el("p", {class: "note", "data-testid": "no-match"}, "No active spell matches the field now.");
    return el("div", {class: "sc-matches", "data-testid": "matches"}, el("div", {class: "label"}, "Matching spells"),
      ...s.matches.map((m) => {
        const spell = s.line[m.position];
        const on = matchKey(m) === chosen;
        const form = castChoices(s, spell, s.turn.player, on && plan && plan.effect !== undefined ? plan : null);
        return el("div", {class: "sc-match" + (on ? " sc-on" : "")},
          el("button", {class: on ? "sc-chosen" : "", "aria-pressed": String(on), onclick: () => { chosen = matchKey(m); redraw(); }},
            matchLabel(s, m)),
          on ? form.nodes : null,
          on ? button(`Cast ${spell.name}`, () => act("cast", {position: m.position, match: m.match, ...form.read()}), "act") : null);
      }));
  }

  // The choices a spell asks for: what to pay (a choice of costs, or any), whom to drain or rob,
  // which crescent to move, and on the phones the squares tapped for the effect of `plan`.
  // Effects moving pieces chosen from elsewhere are left undone ("up to", "may").
  function castChoices(s, spell, actor, plan = null) {
    const nodes = [];
    let paid = () => undefined;
    if (spell.essence === "n" || Array.isArray(spell.essence)) {
      const input = spell.essence === "n"
        ? el("input", {type: "number", min: "1", value: "1", name: "paid", inputmode: "numeric"})
        : el("select", {name: "paid"}, ...spell.essence.map((c) => el("option", {value: String(c)}, String(c))));
      nodes.push(el("label", {class: "sc-field"}, "Essence to pay", input));
      paid = () => Number(input.value);
    }
    const others = s.players.filter((p) => p.id !== actor && !p.out);
    if (plan) nodes.push(tapPrompt(plan));
    const reads = (spell.effects || []).map((e, i) => {
      if (plan && plan.effect === i) return () => plan.choice([...marks]);
      if ((e.do === "drain-essence" || e.do === "take-certificates") && !e.each) {
        const select = el("select", {name: e.do}, ...others.map((p) => el("option", {value: p.id}, p.name)));
        nodes.push(el("label", {class: "sc-field"}, e.do === "drain-essence" ? "Drain whom" : "Take certificates from", select));
        return () => ({player: select.value});
      }
      if ((e.do === "move-crescent" || e.do === "remove-crescent") && s.crescents.length) {
        const select = el("select", {name: e.do}, ...[...new Set(s.crescents)].map((p) => el("option", {value: String(p)}, s.line[p].name)));
        nodes.push(el("label", {class: "sc-field"}, e.do === "move-crescent" ? "Move the crescent on" : "Remove the crescent on", select));
        return () => ({crescent: Number(select.value)});
      }
      return () => ({});
    });
    return {nodes: el("div", {class: "sc-choices"}, ...nodes), read: () => ({paid: paid(), choices: reads.map((r) => r())})};
  }

  // With real pieces: the spell cast on the board (its choices as on the phones), the prestige taken
  // (the spell's unless told) and how many pieces were recoloured.
  function castByHand(s, act) {
    const active = s.line.filter((sp) => sp.active && !sp.cast);
    if (!active.length) return null;
    if (!active.some((sp) => sp.position === handSpell)) handSpell = active[0].position;
    const spell = el("select", {name: "spell"}, ...active.map((sp) =>
      el("option", {value: String(sp.position), selected: sp.position === handSpell}, sp.name)));
    spell.addEventListener("change", () => { handSpell = Number(spell.value); redraw(); });
    const form = castChoices(s, s.line[handSpell], s.turn.player);
    const prestige = el("input", {type: "number", min: "0", name: "prestige", inputmode: "numeric", placeholder: String(s.line[handSpell].prestige)});
    const recolours = el("input", {type: "number", min: "0", value: "0", name: "recolours", inputmode: "numeric"});
    const number = (input) => (input.value === "" ? undefined : Number(input.value));
    return el("div", {class: "sc-byhand", "data-testid": "cast-by-hand"},
      el("div", {class: "label"}, "Cast by hand"),
      el("label", {class: "sc-field"}, "Spell", spell),
      form.nodes,
      el("div", {class: "sc-two"},
        el("label", {class: "sc-field"}, "Prestige taken", prestige),
        el("label", {class: "sc-field"}, "Recolours", recolours)),
      button("Cast", () => act("cast", {position: handSpell, ...form.read(), prestige: number(prestige), recolours: number(recolours) || 0}), "act"));
  }

  // After a text-only spell (its changes in words only): a piece moved between the field, the
  // cauldron and the caster's apothecary, or a moon crescent moved, each a logged by_hand move.
  function changesByHand(s, act, plan) {
    const places = {field: "The field", cauldron: "The cauldron", apothecary: "Your apothecary"};
    const choose = (name, options, value, onchange) => {
      const select = el("select", {name}, ...options.map(([v, words]) => el("option", {value: v, selected: v === value}, words)));
      select.addEventListener("change", () => { onchange(select.value); redraw(); });
      return select;
    };
    const pool = hand.from === "field" ? [] : piecesIn(s, hand.from);
    const pieceKeys = pool.map(pieceKey);
    if (pool.length && !pieceKeys.includes(hand.piece)) hand.piece = pieceKeys[0];
    const takeSpace = hand.from === "field" ? marks[0] : undefined;
    const toSpace = hand.to === "field" ? marks[hand.from === "field" ? 1 : 0] : undefined;
    const movePiece = async () => {
      const piece = pool.length && hand.from !== "field" ? pool[pieceKeys.indexOf(hand.piece)] : undefined;
      const sent = {take: hand.from === "field" ? takeSpace : hand.from, to: hand.to === "field" ? toSpace : hand.to, piece};
      if (await act("by_hand", sent)) { marks = []; redraw(); }
    };
    const on = [...new Set(s.crescents)];
    if (on.length && !on.includes(Number(hand.crescent))) hand.crescent = String(on[0]);
    const targets = [...s.line.map((sp) => [String(sp.position), `${sp.position + 1}. ${sp.name}`]), ["off", "Off the line"]];
    if (!targets.some(([v]) => v === hand.crescentTo)) hand.crescentTo = targets[0][0];
    const moveCrescent = () => act("by_hand", {crescent: Number(hand.crescent), crescent_to: hand.crescentTo === "off" ? null : Number(hand.crescentTo)});
    return el("div", {class: "sc-byhand", "data-testid": "changes-by-hand"},
      el("div", {class: "label"}, "Changes by hand (the spell's text says what)"),
      el("div", {class: "sc-two"},
        el("label", {class: "sc-field"}, "Move a piece from", choose("from", Object.entries(places), hand.from, (v) => { hand.from = v; })),
        el("label", {class: "sc-field"}, "to", choose("to", Object.entries(places), hand.to, (v) => { hand.to = v; }))),
      pool.length ? el("label", {class: "sc-field"}, "Which piece", choose("piece", pool.map(([colour, size], i) => [pieceKeys[i], `${capital(size)} ${colour}`]), hand.piece, (v) => { hand.piece = v; })) : null,
      hand.from !== "field" && !pool.length ? el("p", {class: "note"}, `${places[hand.from]} holds no piece.`) : null,
      plan ? tapPrompt(plan) : null,
      button("Move the piece", movePiece, "act"),
      on.length ? el("div", {class: "sc-two"},
        el("label", {class: "sc-field"}, "Move the crescent on", choose("crescent", on.map((p) => [String(p), s.line[p].name]), hand.crescent, (v) => { hand.crescent = v; })),
        el("label", {class: "sc-field"}, "to", choose("crescent_to", targets, hand.crescentTo, (v) => { hand.crescentTo = v; }))) : null,
      on.length ? button("Move the crescent", moveCrescent, "act") : null);
  }

  // Progress ends the turn: a crescent moves on, from the spell the wizard taps.
  function progressButtons(s, act) {
    const on = [...new Set(s.crescents)];
    return el("div", {class: "sc-progress"}, el("div", {class: "label"}, "Progress: move a crescent on (ends your turn)"),
      ...on.map((p) => button(`From ${s.line[p].name}`, () => act("progress", {position: p}), "sc-wide")));
  }

  // --- the field and the apothecary (on the phones) -----------------------------------------

  function fieldCard(s, you, act, plan) {
    const t = s.turn;
    const mine = t && t.player === you.actor;
    const placing = mine && (t.step === "contribute" || (t.step === "reap" && s.variants.accelerando && !s.accelerated));
    const match = t && t.step === "reap" && s.matches.find((m) => matchKey(m) === chosen);
    const lit = new Set(match ? match.squares : []);
    const recolour = new Set(match ? match.recolour_squares : []);
    const size = s.field_size;
    const me = s.players.find((p) => p.id === you.actor);
    const apothecary = me ? me.apothecary : [];
    if (picked !== null && (!placing || picked >= apothecary.length)) picked = null;
    const place = (space) => {
      if (picked === null) return;
      const sent = {piece: apothecary[picked], space};
      picked = null;
      act(t.step === "contribute" ? "contribute" : "accelerate", sent);
    };
    // a tap marks a square for the plan's next choice (a piece, or an empty square); tapped again,
    // it and the taps after it are undone
    const tappable = (space, stack) => {
      if (!plan || picked !== null) return false;
      if (marks.includes(space)) return true;
      const kind = plan.kinds[marks.length];
      return kind === "piece" ? stack.length > 0 : kind === "empty" ? !stack.length : false;
    };
    const tap = (space) => {
      const at = marks.indexOf(space);
      marks = at >= 0 ? marks.slice(0, at) : [...marks, space];
      redraw();
    };
    const squares = s.field.map((stack, space) => {
      const top = stack[stack.length - 1];
      const row = Math.floor(space / size), column = space % size;
      const mark = marks.indexOf(space);
      const marked = plan && mark >= 0;
      const cls = "sc-square" + (lit.has(space) ? " sc-lit" : "") + (recolour.has(space) ? " sc-recolour" : "") + (marked ? " sc-marked-square" : "");
      const placeHere = placing && picked !== null && !stack.length;
      return el("button", {class: cls, "data-testid": `space-${space}`, "data-space": String(space), "data-mark": marked ? String(mark + 1) : null,
        "aria-pressed": plan ? String(marked) : null,
        "aria-label": `Row ${row + 1}, column ${column + 1}: ` + (top ? `${top[1]} ${top[0]}` + (stack.length > 1 ? `, ${stack.length} high` : "") : "empty") + (marked ? `, tapped ${mark + 1}` : ""),
        disabled: !(placeHere || tappable(space, stack)), onclick: () => (placeHere ? place(space) : tap(space))},
      ...(top ? piece(top, stack.length) : []));
    });
    return el("section", {class: "card sc-field-card"},
      el("div", {class: "row spread"}, el("h2", {}, "Casting field"), match ? el("span", {class: "note"}, `Lit: ${s.line[match.position].name}`) : null),
      el("div", {class: "sc-board", style: `grid-template-columns: repeat(${size}, 1fr)`, "data-testid": "field"}, ...squares),
      me ? el("div", {class: "label"}, "Your apothecary") : null,
      me ? el("div", {class: "sc-apothecary", "data-testid": "apothecary"}, ...(apothecary.length ? apothecary.map((p, i) =>
        el("button", {class: "sc-pick" + (picked === i ? " sc-chosen" : ""), "aria-pressed": String(picked === i), "data-testid": `piece-${i}`,
          disabled: !placing, onclick: () => { picked = picked === i ? null : i; redraw(); }}, ...piece(p)))
        : [el("span", {class: "note"}, "Empty.")])) : null);
  }

  // --- the spell line -----------------------------------------------------------------------

  function lineCard(s, you, act) {
    const t = s.turn;
    const progressing = t && t.player === you.actor && t.step === "reap";
    return el("section", {class: "card"}, el("h2", {}, "The spell line"),
      el("ol", {class: "sc-line", "data-testid": "line"}, ...s.line.map((sp) => el("li", {class: "sc-spell" + (sp.active ? " sc-active" : "") + (sp.cast ? " sc-cast" : ""),
        "data-testid": `spell-${sp.position}`},
        el("div", {class: "sc-spell-head"},
          el("strong", {}, `${sp.position + 1}. ${sp.name}`),
          sp.crescents ? el("span", {class: "sc-moons", "aria-label": `${sp.crescents} moon crescent${sp.crescents > 1 ? "s" : ""}`}, "☾".repeat(sp.crescents)) : null),
        el("div", {class: "sc-spell-body"},
          pattern(sp.pattern),
          el("div", {class: "sc-spell-facts"},
            el("div", {}, `Costs ${costText(sp.essence)}` + (sp.certificates ? ` and ${sp.certificates} certificate${sp.certificates > 1 ? "s" : ""}` : "")),
            el("div", {}, `Prestige ${sp.prestige}`),
            el("div", {class: "sc-sr"}, `Pattern: ${patternWords(sp.pattern)}`),
            sp.active || sp.cast ? el("div", {class: "sc-tag"}, [sp.active ? "Active" : "", sp.cast ? "cast this turn" : ""].filter(Boolean).join(" · ")) : null,
            sp.effects === null ? el("div", {class: "note"}, "Its changes are made by hand.") : null)),
        progressing && sp.crescents ? button("Move a crescent on from here", () => act("progress", {position: sp.position}), "sc-wide") : null))));
  }

  // --- the wizards --------------------------------------------------------------------------

  function wizardsCard(s, you, act) {
    const over = s.phase === "over";
    // essence by hand: with real pieces anyone at the table, on the phones the host (a correction)
    const adjust = !over && (s.mode === "pieces" ? !!you.actor || you.host : you.host);
    const current = s.turn && s.turn.player;
    return el("section", {class: "card"}, el("h2", {}, "Wizards"),
      el("table", {class: "scores sc-wizards" + (adjust ? " sc-adjusting" : "") + (over ? " sc-over" : ""), "data-testid": "wizards"},
        el("thead", {}, el("tr", {}, el("th", {}, "Wizard"), el("th", {}, "Essence"), el("th", {}, "Cert."), over ? el("th", {}, "Score") : null)),
        el("tbody", {}, ...s.players.map((p) => el("tr", {class: (p.id === current ? "sc-now" : "") + (p.id === you.actor ? " me" : ""), "data-testid": `wizard-${p.id}`},
          el("td", {}, p.name + (p.id === you.actor ? " (you)" : ""), p.out ? el("span", {class: "note"}, " · out") : null,
            p.id === current ? el("span", {class: "note"}, " · to play") : null),
          el("td", {}, el("span", {class: "sc-essence"}, el("span", {class: "live"}, String(p.essence)),
            adjust ? button("−", () => act("essence", {wizard: p.id, change: -1}), "") : null,
            adjust ? button("+", () => act("essence", {wizard: p.id, change: 1}), "") : null)),
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

  // The cauldron's pieces by size; with real pieces its large ones are corrected by hand (the
  // knucklebone is rolled again for a colour with none left).
  function cauldronCard(s, you, act) {
    if (!s.cauldron) return null;
    const fix = s.mode === "pieces" && s.phase === "playing" && (!!you.actor || you.host);
    return el("section", {class: "card"}, el("h2", {}, "Cauldron"),
      el("div", {class: "sc-cauldron", "data-testid": "cauldron"}, ...Object.entries(s.cauldron).map(([colour, counts]) =>
        el("div", {class: "sc-pot"}, swatch(colour),
          s.mode === "pieces"
            ? el("span", {class: "sc-essence"}, el("span", {}, `${counts[2]} large`),
              fix ? button("−", () => act("cauldron", {colour, large: counts[2] - 1}), "") : null,
              fix ? button("+", () => act("cauldron", {colour, large: counts[2] + 1}), "") : null)
            : el("span", {class: "note"}, counts.map((n, i) => `${n} ${s.sizes[i]}`).join(" · "))))));
  }

  const rulingsCard = (s) => window.SpellpressUI.rulings(s.rulings, "sc-rulings");

  function render(root, table, you, act) {
    redraw = () => render(root, table, you, act);
    const s = table.state;
    const parts = [];
    const plan = s.phase === "playing" ? tapping(s, you) : null;
    if (s.phase === "joining") {
      parts.push(el("section", {class: "card"}, el("h2", {}, "Spellcycles"),
        el("p", {}, s.mode === "phones" ? "Everything on the phones." : "With real pieces on a board."),
        el("p", {"data-testid": "joined"}, `${s.players.length} wizard${s.players.length === 1 ? "" : "s"}: ${s.players.map((p) => p.name).join(", ") || "waiting"}`),
        you.host ? button("Start the game", () => act("start", {}, true), "act sc-wide") : el("p", {class: "note"}, "The host starts the game.")),
      rulingsCard(s));
      root.replaceChildren(...parts.filter(Boolean));
      return;
    }
    if (s.phase === "over") {
      const names = s.winners.map((id) => nameOf(s, id));
      parts.push(el("section", {class: "card", "data-testid": "over"}, el("h2", {}, "The game is over"),
        el("p", {class: "big"}, names.length > 1 ? `Tie: ${names.join(" and ")}` : `${names[0]} wins`),
        s.marker ? el("p", {class: "note"}, `Double-Plus marker: ${cardName(s.marker)}`) : null));
    } else {
      parts.push(turnCard(s, you, act, plan));
    }
    const phones = s.mode === "phones";
    parts.push(...window.SpellpressSections.show([
      {id: "table", label: phones ? "Field" : "Table", nodes: [phones ? fieldCard(s, you, act, plan) : null, wizardsCard(s, you, act), handCard(s, you)]},
      {id: "spells", label: "Spells", nodes: [lineCard(s, you, act)]},
      {id: "more", label: "More", nodes: [cauldronCard(s, you, act), rulingsCard(s)]},
    ], "table", () => redraw()));
    root.replaceChildren(...parts);
  }

  // History lines in words: the colour rolled, the piece placed, the spell cast.
  function describe(entry, table) {
    const p = entry.payload;
    const s = table ? table.state : {};
    const spellName = (position) => (s.line && s.line[position] ? s.line[position].name : `spell ${position + 1}`);
    switch (entry.type) {
      case "start": return "dealt the spells and started the game";
      case "renew": return "renewed: rolled the knucklebone" + (p.faces && p.faces.length ? ` (${p.faces.join(", ")})` : "");
      case "reroll": return "rolled the knucklebone again";
      case "contribute": return `placed a ${p.piece[1]} ${p.piece[0]} piece on ${squareName(p.space)}`;
      case "accelerate": return `placed an extra ${p.piece[1]} ${p.piece[0]} piece on ${squareName(p.space)} (Accelerando)`;
      case "skip_contribute": return "skipped Contribute";
      case "cast": {
        const cards = Array.isArray(p.cards) ? p.cards.length : p.cards || 0;
        return `cast ${spellName(p.position)}` + (cards ? `, drew ${cards} certificate${cards > 1 ? "s" : ""}` : "");
      }
      case "progress": return p.position === null || p.position === undefined ? "moved a moon crescent on" : `moved a moon crescent on from ${spellName(p.position)}`;
      case "essence": return `${p.change > 0 ? "+" : ""}${p.change} essence for ${nameOf(s, p.wizard)}`;
      case "cauldron": return `the cauldron holds ${p.large} large ${p.colour}`;
      case "by_hand": {
        if (p.crescent !== null && p.crescent !== undefined) {
          return `by hand: moved the moon crescent on ${spellName(p.crescent)} ` + (p.crescent_to === null || p.crescent_to === undefined ? "off the line" : `to ${spellName(p.crescent_to)}`);
        }
        const place = (where) => (typeof where === "number" ? squareName(where) : `the ${where}`);
        const what = p.piece ? `a ${p.piece[1]} ${p.piece[0]} piece` : "a piece";
        return `by hand: moved ${what} from ${place(p.take)} to ${place(p.to)}`;
      }
      default: return null;
    }
  }

  const begun = (s) => s.phase !== "joining";  // table.js folds the invite then
  window.SpellpressGames.spellcycles = {render, describe, begun};
})();
