// Magecraft at the table (pnp/games/magecraft/tracker.py has the view's shape and the payloads;
// pnp/games/magecraft/offered.py what each move offers). On the phones ("phones"): in sections, so
// a page is a screen or two. "Turn": whose turn and what the latest move did, your own hand (only
// yours is sent to you), your moves as the server offers them (Discard Shield, each spellbook whose
// next spell your hand pays with the ways to pay it and its targets, the Cantrip, Learning, Revision,
// Refresh) and the board of the wizard to play; "Boards": every wizard's public board (HP, shield,
// score toward the goal, discard, bag size, spellbooks left to right with the gems paid onto them);
// "Academy": its spells, each you can learn now with its Learn. With printed gems ("gems"): the duel
// dashboard, one phone for the table: HP, shield and score with - and +, whose turn and which phase,
// defeats and the winner, each seat's opening draw and discard. A button is drawn only for a move
// the server offers this phone now (table.moves), and carries its type as data-move.
"use strict";
(() => {
  const {el, rich, rulings, offers, offered, move} = window.SpellpressUI;
  // The printed set's inks (templates/magecraft/mc-card.yaml). A gem also carries its letter and
  // its printed symbol (flame, drop, mountain, star, moon: the view's gems[].symbol, the very outline
  // pnp/outlines.py prints), so none is told by colour alone.
  const INKS = {fire: "#d55e00", water: "#0072b2", earth: "#009e73", light: "#f0e442", darkness: "#3d2b56"};
  const WHITE_LETTER = new Set(["water", "darkness"]);  // inks dark enough for a white letter
  const WILD = "wild";
  const ICONS = {draw: "Draw", attack: "Attack", heal: "Heal", shield: "Shield", vanish: "Vanish"};
  const PHASES = {"discard-shield": "Discard Shield", casting: "Casting", studied: "Learning or Revision done", learning: "Learning or Revision", refresh: "Refresh"};
  const AREAS = {hp: "HP", shield: "shield", score: "score", discard: "discard", gems: "gems"};
  const PICKS = {rival: "Strikes", from: "Takes from", colour: "Gem"};  // a waiting icon's choices, by field
  // what each icon does, in the reference card's words (content/magecraft/reference.yaml)
  const ICON_WORDS = {draw: "A random gem from your bag.", attack: "A rival's shield gem to their Discard Area; no shield: their HP gem to your Score.",
    heal: "A gem to your HP Area; HP full: to your Score.", shield: "A gem to your Shield Area.", vanish: "A gem to your Score Area."};

  // What the player is choosing lives here, not in the DOM: every event redraws the whole panel.
  let picked = [];  // gems picked to discard (shield, opening hand, revision), by colour
  let composing = null;  // the cast or Cantrip whose choices are open: its offer's type and payload, as JSON
  let chosen = {};  // that move's choices so far: field -> value (the offer's first where none is chosen)
  let resolving = {};  // the waiting icons' choices so far: icon -> {field: value}
  let learnSpell = null;  // the Academy spell tapped to learn
  let arrangement = null;  // revision: each spellbook's spells as [book, position] of now
  let master = null;  // revision: "book:position" in the new arrangement to master
  let revising = false;  // the revision card unfolded
  let choiceKey = null;  // the moment these were made for: a new one starts afresh
  let redraw = () => {};

  // --- gems -----------------------------------------------------------------------------------

  let colours = [];  // the content's gem ids, in its order
  let printed = {};  // id -> {name, letter}: the content's (the view's "gems")
  let phaseWords = PHASES;  // the content's words for the turn's phases, over ours
  let wildLetter = "*";
  // The view in hand: its gems' names and letters, its phases' words.
  function readView(s) {
    colours = s.colours || colours;
    if (s.gems) printed = Object.fromEntries(s.gems.map((g) => [g.id, g]));
    phaseWords = {...PHASES, ...((s.words || {}).phases || {})};
    wildLetter = (s.words || {}).wild || wildLetter;
  }
  const capital = (word) => word.charAt(0).toUpperCase() + word.slice(1);
  const gemName = (c) => (c === WILD ? "Wild" : (printed[c] || {name: capital(String(c))}).name);
  const letter = (c) => (c === WILD ? wildLetter : (printed[c] || {letter: String(c).charAt(0).toUpperCase()}).letter);

  // A gem's printed symbol as an SVG in the letter's colour (none when the view has not said it).
  function symbol(c) {
    const NS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", "0 0 1 1");
    svg.setAttribute("class", "mc-sym");
    svg.setAttribute("aria-hidden", "true");
    svg.dataset.symbol = c;
    const path = document.createElementNS(NS, "path");
    path.setAttribute("d", (printed[c] || {}).symbol || "");
    path.setAttribute("fill", "currentColor");
    svg.append(path);
    return svg;
  }

  // A gem: its ink, its letter over its symbol; a Wild cost dashed with "*"; its name said to a
  // screen reader and in a tooltip.
  function gem(c, extra = "") {
    if (c === WILD) {
      return el("span", {class: `mc-gem mc-wild ${extra}`, role: "img", "aria-label": "Wild", title: "Wild: any colour pays"},
        el("span", {}, wildLetter), el("span", {class: "mc-any", "aria-hidden": "true"}, "any"));
    }
    return el("span", {class: `mc-gem ${extra}`, style: `--ink: ${INKS[c] || "#888"}`, "data-dark": WHITE_LETTER.has(c) ? "1" : null,
      role: "img", "aria-label": gemName(c), title: gemName(c)},
    el("span", {class: "mc-letter"}, letter(c)), symbol(c));
  }

  const each = (counts) => colours.flatMap((c) => Array((counts || {})[c] || 0).fill(c));  // {fire: 2} -> ["fire", "fire"]
  const total = (counts) => (typeof counts === "number" ? counts : Object.values(counts || {}).reduce((a, b) => a + b, 0));

  // An area's gems as counts by colour (the gem, "×3"); empty: "none".
  function counts(area, testid) {
    const shown = colours.filter((c) => (area || {})[c]);
    return el("span", {class: "mc-counts live", "data-testid": testid || null},
      ...(shown.length ? shown.map((c) => el("span", {class: "mc-count"}, gem(c), `×${area[c]}`)) : [el("span", {class: "mc-none"}, "none")]));
  }

  const nameOf = (s, id) => ((s.players || []).find((p) => p.id === id) || {name: "?"}).name;
  const effectWords = (effects) => Object.entries(effects || {}).filter(([, n]) => n).map(([k, n]) => `${ICONS[k] || k} ${n}`).join(" · ");
  const spellInfo = (s, name) => (s.spells || {})[name] || {cast: [], learn: [], effects: {}};

  // The gems of an area (the hand, the shield) as big gems; each tap passes its colour to onTap.
  // Gems already chosen (`used`) are dimmed.
  function gemRow(area, onTap, used = [], testid = "hand", composes = null) {
    const left = {...area};
    used.forEach((c) => { if (c) left[c] -= 1; });
    const seen = {};
    const gems = each(area);
    return el("div", {class: "mc-hand", "data-testid": testid}, ...(gems.length ? gems.map((c) => {
      seen[c] = (seen[c] || 0) + 1;
      const spent = seen[c] > left[c];
      if (!onTap) return el("span", {class: "mc-tap", "data-gem": c}, gem(c, "mc-big"));  // shown, not tapped
      return el("button", {class: "mc-tap" + (spent ? " mc-used" : ""), "data-gem": c, "data-move": composes, "aria-pressed": String(spent),
        disabled: spent, onclick: () => onTap(c), "aria-label": `${gemName(c)} gem` + (spent ? ", chosen" : "")}, gem(c, "mc-big"));
    }) : [el("span", {class: "note"}, "Empty.")]));
  }

  // Gems picked from an area (at most `most`) for a move of type `composes`: tap to pick, "Clear" to start again.
  function pickRow(area, most, testid, composes) {
    return gemRow(area, (c) => { if (picked.length < most) { picked.push(c); redraw(); } }, picked, testid, composes);
  }

  function pickedLine(label) {
    return el("div", {class: "row spread"},
      el("span", {class: "note", "data-testid": "picked"}, picked.length ? `${label}: ${picked.map(gemName).join(", ")}` : "Nothing picked yet."),
      picked.length ? el("button", {onclick: () => { picked = []; redraw(); }}, "Clear") : null);
  }

  // --- an offer's choices -----------------------------------------------------------------------

  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const keyOf = (m) => JSON.stringify([m.type, m.payload]);

  // Set the dotted `path` of `body` ("choices.shield.0.from"), making the objects and lists on the way.
  function place(body, path, value) {
    const keys = path.split(".").map((k) => (/^\d+$/.test(k) ? Number(k) : k));
    let here = body;
    keys.slice(0, -1).forEach((k, i) => {
      if (here[k] === undefined || here[k] === null) here[k] = typeof keys[i + 1] === "number" ? [] : {};
      here = here[k];
    });
    here[keys[keys.length - 1]] = value;
  }

  // The offer's body with the choices made (`chosen`, by field), each other pick at its first choice.
  function completed(m, made) {
    const body = JSON.parse(JSON.stringify(m.payload || {}));
    const fill = (picks) => picks.forEach((pick) => {
      const value = made[pick.field];
      if (pick.one_of) {
        const option = pick.one_of.find((o) => same(o.value, value)) || pick.one_of[0];
        place(body, pick.field, option.value);
        fill(option.pick || []);
      } else if (pick.range) {
        place(body, pick.field, value ?? pick.range[0]);
      } else {
        const pool = pick.some_of.flatMap((item) => Array(item.count).fill(item.value));
        place(body, pick.field, value ?? pool.slice(0, pick.size[0]));
      }
    });
    fill(m.pick || []);
    return body;
  }

  // The controls of a cast's or Cantrip's choice: its payment (or gem). Its icons come after, one
  // by one (resolveCard).
  function choiceControls(s, m) {
    const body = completed(m, chosen);
    return (m.pick || []).filter((pick) => pick.one_of.length > 1).map((pick) => {
      const f = pick.field;
      return el("div", {class: "mc-slots", role: "group", "aria-label": f === "gem" ? "Pay it with" : "Pay with"}, ...pick.one_of.map((o) => {
        const on = same(o.value, body[f]);
        const gems = (Array.isArray(o.value) ? o.value : [o.value]).map((c) => (c ? gem(c) : gem(WILD, "mc-golden")));
        return el("button", {class: "mc-pay-way" + (on ? " act" : ""), "aria-pressed": String(on), "aria-label": o.label || gemName(o.value),
          onclick: () => { chosen[f] = o.value; redraw(); }}, ...gems);
      }));
    });
  }

  // The spell being cast: its icons still waiting, each with its choices as the server offers them
  // now (the rival, where the gem comes from, its colour: a row of buttons each, wrapping at 360 px),
  // resolved in the order the caster taps them.
  function resolveCard(s, table, act) {
    const waiting = s.turn.resolving;
    const rows = offers(table, "resolve").map((m) => {
      const icon = m.payload.icon;
      const made = resolving[icon] || {};
      const body = completed(m, made);
      const controls = [];
      const lay = (picks) => picks.forEach((pick) => {
        const option = pick.one_of.find((o) => same(o.value, body[pick.field])) || pick.one_of[0];
        controls.push(el("div", {class: "mc-slots", role: "group", "aria-label": PICKS[pick.field] || pick.field, "data-testid": `resolve-${icon}-${pick.field}`},
          el("span", {class: "label"}, PICKS[pick.field] || pick.field),
          ...pick.one_of.map((o) => {
            const on = o === option;
            return el("button", {class: "mc-pick" + (on ? " act" : ""), "aria-pressed": String(on), "data-value": String(o.value),
              "aria-label": o.label || String(o.value), onclick: () => { resolving[icon] = {...made, [pick.field]: o.value}; redraw(); }},
            pick.field === "colour" ? gem(o.value) : null, pick.field === "colour" ? null : o.label);
          })));
        lay(option.pick || []);
      });
      lay(m.pick || []);
      const n = waiting.icons[icon] || 1;
      return el("div", {class: "mc-offer mc-open", "data-testid": `resolve-${icon}`},
        el("div", {class: "mc-offer-head"},
          el("div", {}, el("strong", {}, `${ICONS[icon] || icon}${n > 1 ? ` ×${n}` : ""}`),
            el("div", {class: "note"}, ICON_WORDS[icon] || "")),
          el("button", {class: "act", "data-move": "resolve", disabled: !offered(table, "resolve", body), onclick: () => act("resolve", body)}, "Resolve")),
        controls.length ? el("div", {class: "mc-choices"}, ...controls) : el("div", {class: "note"}, icon === "draw" || icon === "attack" ? "" : "Nothing to take: it does nothing."));
    });
    return el("div", {class: "mc-pay", "data-testid": "resolving"},
      el("strong", {}, `${waiting.spell}: resolve its icons in any order`), ...rows);
  }

  // --- the turn -------------------------------------------------------------------------------

  // Choices made for one moment of a turn are forgotten when the turn, its phase or its spell moves on.
  function settle(s) {
    const t = s.turn;
    const key = t ? `${t.number}:${t.player}:${t.phase}:${t.spellbook}:${t.next_spell}:${t.cantrip_cast}:${JSON.stringify(t.resolving)}` : `${s.phase}:${(s.players || []).map((p) => p.to_discard).join()}`;
    if (key === choiceKey) return;
    const sameTurn = choiceKey && t && choiceKey.startsWith(`${t.number}:${t.player}:`);
    choiceKey = key;
    picked = [];
    composing = null;
    chosen = {};
    resolving = {};
    learnSpell = null;
    if (!sameTurn) { arrangement = null; master = null; revising = false; }
  }

  // A spell or the Cantrip offered: its name, cost and icons, Cast, and its choices once unfolded.
  function castRow(s, table, act, m, info, where) {
    const open = composing === keyOf(m);
    const choosing = (m.pick || []).some((p) => (p.one_of ? p.one_of.length > 1 : true));
    const body = completed(m, open ? chosen : {});
    return el("div", {class: "mc-offer" + (open ? " mc-open" : ""), "data-testid": m.type === "cast" ? `cast-${m.payload.spellbook}` : "cantrip"},
      el("div", {class: "mc-offer-head"},
        el("div", {},
          el("div", {class: "mc-cost"}, el("strong", {}, m.label), ...info.cost.map((c) => gem(c))),
          el("div", {class: "note"}, `${where} · ${effectWords(info.effects)}`)),
        el("button", {class: "act", "data-move": m.type, disabled: !offered(table, m.type, body), onclick: () => act(m.type, body)}, "Cast")),
      info.text ? el("div", {class: "note"}, ...rich(info.text)) : null,
      choosing && !open ? el("button", {class: "mc-link", "data-move": m.type, onclick: () => { composing = keyOf(m); chosen = {}; redraw(); }},
        `Choose: ${describeBody(s, m, body)}`) : null,
      open ? el("div", {class: "mc-choices"}, ...choiceControls(s, m)) : null);
  }

  // The payment a body makes, in a few words: "Fire, Fire, Water".
  function describeBody(s, m, body) {
    const words = [];
    if (body.payment) words.push(body.payment.map((c) => (c ? gemName(c) : "golden")).join(", "));
    if (body.gem) words.push(gemName(body.gem));
    return words.join(" · ") || "defaults";
  }

  function castOffers(s, table, act, me) {
    const rows = offers(table, "cast").map((m) => {
      const b = m.payload.spellbook;
      const t = s.turn;
      const position = t.spellbook === b ? t.next_spell : 0;
      const info = spellInfo(s, m.label);
      return castRow(s, table, act, m, {cost: info.cast, effects: info.effects, text: info.text}, `Book ${b + 1}, ${position + 1} of ${me.spellbooks[b].length}`);
    });
    const c = me.cantrip;
    for (const m of offers(table, "cantrip")) rows.push(castRow(s, table, act, m, {cost: [c.gem], effects: c.effects, text: (s.rulings || {}).cantrip}, "Cantrip"));  // our ruling where it applies
    return rows;
  }

  // What the latest move did, in words (the other phones see the damage here and on the boards),
  // and the latest spell's, which stays after the turn moves on.
  function lastLine(s) {
    const cast = s.last_cast && s.last_cast !== s.last && !(s.last && ["cast", "cantrip"].includes(s.last.move)) ? s.last_cast : null;
    return [
      s.last ? el("p", {class: "note mc-last", "data-testid": "last"}, `${nameOf(s, s.last.player)} ${doneWords(s, s.last)}`) : null,
      cast ? el("p", {class: "note mc-last", "data-testid": "last-cast"}, `Last spell: ${nameOf(s, cast.player)} ${doneWords(s, cast)}`) : null,
    ];
  }

  function turnCard(s, table, you, act) {
    const t = s.turn;
    const me = s.players.find((p) => p.id === you.actor);
    const mine = !!me && t.player === me.id;
    const current = s.players.find((p) => p.id === t.player);
    const phase = t.step || t.phase;  // the projector's word for it too (the view's turn.step)
    const parts = [el("div", {class: "row spread"},
      el("h2", {"data-testid": "turn"}, `${mine ? "Your turn" : current.name + "'s turn"}: ${phaseWords[phase] || phase}`),
      el("span", {class: "note"}, `Turn ${t.number}`)), ...lastLine(s)];
    if (me) parts.push(handBlock(s, me));
    if (mine) {
      const [shield] = offers(table, "discard_shield");
      if (shield) {
        const most = shield.pick[0].size[1];
        parts.push(el("div", {class: "mc-pay", "data-testid": "discard-shield"},
          el("strong", {}, "Discard Shield (if you wish)"), pickRow(me.shield, most, "shield-pick", "discard_shield"), pickedLine("To discard"),
          picked.length ? el("button", {class: "mc-wide", "data-move": "discard_shield", onclick: () => act("discard_shield", {gems: picked})}, "Discard them") : null));
      }
      if (t.resolving) parts.push(resolveCard(s, table, act));
      parts.push(...castOffers(s, table, act, me));
      if (offered(table, "revise")) parts.push(revisePanel(s, table, me, act));
      const learn = offered(table, "learn") ? el("button", {"data-move": "learn", onclick: () => document.querySelector("[data-testid=jump-academy]").click()}, "Learn: in the Academy") : null;
      parts.push(el("div", {class: "mc-moves"}, learn, move(table, act, "Refresh: end the turn", "refresh", {}, t.phase === "studied" || !learn ? "act" : "")));
    }
    return el("section", {class: "card mc-turn" + (mine ? " mc-mine" : "")}, ...parts.filter(Boolean));
  }

  // Your own hand (only you are sent it) and, with the table's bag odds on, what your bag holds.
  function handBlock(s, me) {
    const bag = s.bag_contents;
    const left = total(bag);
    return el("div", {class: "mc-mine-hand"},
      el("div", {class: "label"}, `Your hand (${total(s.hand)}; only you see it)`), gemRow(s.hand, null, [], "my-hand"),
      bag ? el("div", {class: "mc-odds", "data-testid": "odds"}, el("span", {class: "label"}, `Left in your bag: ${left}`),
        ...colours.filter((c) => bag[c]).map((c) => el("span", {class: "mc-count"}, gem(c), ` ${Math.round((100 * bag[c]) / left)}%`))) : null);
  }

  // Revision: discard the rules' number of gems; rearrange the spells (◀ one place left, ▲ ▼ to the
  // spellbook above or below); master at most one.
  function revisePanel(s, table, me, act) {
    const [offer] = offers(table, "revise");
    const need = offer.pick[0].size[0];
    if (!arrangement) arrangement = me.spellbooks.map((cards, b) => cards.map((_, i) => [b, i]));
    const at = ([b, i]) => me.spellbooks[b][i];
    const moved = (fn) => () => { fn(); master = null; redraw(); };
    const tiny = (label, fn, name) => el("button", {"aria-label": name, onclick: fn}, label);
    const books = arrangement.map((places, b) => el("div", {class: "mc-book"},
      el("strong", {class: "mc-book-no"}, String(b + 1)),
      places.length ? el("div", {class: "mc-spells"}, ...places.map((place, i) => {
        const here = `${b}:${i}`;
        return el("div", {class: "mc-spell" + (master === here ? " mc-next" : "")},
          el("div", {class: "mc-spell-name"}, at(place).spell),
          el("div", {class: "mc-arrows"},
            i > 0 ? tiny("◀", moved(() => places.splice(i - 1, 0, places.splice(i, 1)[0])), "One place left") : null,
            b > 0 ? tiny("▲", moved(() => arrangement[b - 1].push(places.splice(i, 1)[0])), "To the spellbook above") : null,
            b < arrangement.length - 1 ? tiny("▼", moved(() => arrangement[b + 1].push(places.splice(i, 1)[0])), "To the spellbook below") : null),
          at(place).mastered ? el("span", {class: "mc-mastered"}, "★ Mastered")
            : el("button", {class: master === here ? "act" : "", onclick: () => { master = master === here ? null : here; redraw(); }}, master === here ? "★ To master" : "Master"));
      })) : el("span", {class: "mc-none"}, "empty")));
    const ready = picked.length === need && offered(table, "revise", {gems: picked});
    const toggle = el("button", {class: "mc-wide" + (revising ? " act" : ""), "aria-expanded": String(revising), "data-move": "revise",
      onclick: () => { revising = !revising; picked = []; redraw(); }}, `Revise: discard ${need}, rearrange, master one`);
    if (!revising) return toggle;
    return el("div", {class: "mc-pay", "data-testid": "revise"}, toggle,
      pickRow(s.hand, need, "revise-hand", "revise"), pickedLine("Discard"),
      ...books,
      ready ? el("button", {class: "act mc-wide", "data-move": "revise",
        onclick: () => act("revise", {gems: picked, arrangement, master: master === null ? null : master.split(":").map(Number)})}, "Revise") : null);
  }

  // Before the first turn: each seat that must discard from its opening hand picks the gems.
  function openingCard(s, table, you, act) {
    const [offer] = offers(table, "opening_discard");
    const due = offer ? offer.pick[0].size[0] : 0;
    const me = s.players.find((p) => p.id === you.actor);
    const waiting = s.players.filter((p) => p.to_discard).map((p) => `${p.name} (${p.to_discard})`);
    return el("section", {class: "card mc-turn" + (due ? " mc-mine" : "")},
      el("h2", {"data-testid": "turn"}, "Opening hands"),
      el("p", {class: "note"}, waiting.length ? `Still to discard: ${waiting.join(", ")}.` : "Every opening hand is settled."),
      due ? el("p", {class: "mc-prompt"}, `Tap ${due} gem${due > 1 ? "s" : ""} of your opening hand to discard.`) : null,
      due ? pickRow(s.hand, due, "opening-hand", "opening_discard") : me ? handBlock(s, me) : null, due ? pickedLine("To discard") : null,
      due && picked.length === due && offered(table, "opening_discard", {gems: picked})
        ? el("button", {class: "act mc-wide", "data-move": "opening_discard", onclick: () => act("opening_discard", {gems: picked})}, "Discard") : null);
  }

  // --- the boards and the Academy -------------------------------------------------------------

  function spellCard(s, card, position, book, owner) {
    const info = spellInfo(s, card.spell);
    const t = s.turn;
    const next = t && t.player === owner.id && t.spellbook === book && position === t.next_spell;
    // a mastered spell once cast has sent its first, golden gem on (rules.py: _golden_moves)
    const paid = card.mastered && card.paid.length && card.paid.length === info.cast.length - 1 ? [null, ...card.paid] : card.paid;
    const first = card.mastered ? " mc-golden" : "";
    return el("div", {class: "mc-spell" + (next ? " mc-next" : "") + (card.paid.length ? " mc-cast" : ""), "data-testid": `spell-${owner.id}-${book}-${position}`,
      title: effectWords(info.effects)},
    el("span", {class: "mc-spell-name"}, (card.mastered ? "★ " : "") + card.spell),
    el("span", {class: "mc-cost", "aria-label": `Cost ${info.cast.map(gemName).join(", ")}` + (card.paid.length ? `; paid ${card.paid.map(gemName).join(", ")}` : "")},
      ...info.cast.map((c, i) => (paid[i] ? gem(paid[i], i === 0 ? first : "") : gem(c, "mc-empty" + (i === 0 ? first : ""))))));
  }

  function boardCard(s, p, you) {
    const t = s.turn;
    const mine = p.id === you.actor;
    const now = t && t.player === p.id;
    const status = [p.out ? "defeated" : null, now ? "to play" : null, s.winner === p.id ? "winner" : null].filter(Boolean).join(" · ");
    const stat = (area, label) => el("div", {class: "mc-stat"}, el("span", {class: "big live", "data-testid": `${area}-${p.id}`}, String(p[`${area}_total`])), el("span", {class: "label"}, label));
    const area = (label, gems, testid) => el("span", {class: "mc-area"}, el("span", {class: "label"}, label), counts(gems, testid));
    return el("section", {class: "card mc-board" + (now ? " mc-now" : "") + (p.out ? " mc-out" : "") + (mine ? " me" : ""), "data-testid": `board-${p.id}`},
      el("div", {class: "mc-board-head"}, el("div", {}, el("h3", {}, p.name + (mine ? " (you)" : "")), status ? el("div", {class: "note"}, status) : null),
        el("div", {class: "mc-stats"}, stat("hp", `HP /${s.hp_full}`), stat("shield", "shield"), stat("score", `score /${s.score_to_win}`))),
      el("div", {class: "mc-goal", role: "img", "aria-label": `${p.score_total} of ${s.score_to_win} gems toward winning`}, el("span", {style: `width: ${Math.min(100, (100 * p.score_total) / s.score_to_win)}%`})),
      el("div", {class: "mc-areas"},
        area("HP", p.hp), area("Shield", p.shield), area("Discard", p.discard, `discard-${p.id}`),
        el("span", {class: "mc-area live"}, el("span", {class: "label"}, "Bag"), el("span", {"data-testid": `bag-${p.id}`}, String(p.bag)),
          el("span", {class: "label"}, " hand"), String(p.hand), p.golden ? el("span", {}, el("span", {class: "label"}, " golden"), gem(p.golden, "mc-golden")) : null)),
      el("div", {class: "mc-books"}, ...p.spellbooks.map((cards, b) => el("div", {class: "mc-book" + (now && t.spellbook === b ? " mc-chosen" : ""), "data-testid": `book-${p.id}-${b}`},
        el("strong", {class: "mc-book-no", "aria-label": `Spellbook ${b + 1}, left to right`}, String(b + 1)),
        cards.length ? el("div", {class: "mc-spells"}, ...cards.map((card, i) => spellCard(s, card, i, b, p))) : el("span", {class: "mc-none"}, "empty")))),
      p.cantrip ? el("div", {class: "note mc-cantrip", title: p.character}, `Cantrip ${p.cantrip.name}: ${gemName(p.cantrip.gem)} · ${effectWords(p.cantrip.effects)}`) : null);
  }

  // The Academy's spells; each the hand can learn now with Learn, then the spellbook it goes to the
  // left of and, when there are several, the way to pay for it (the server's offer).
  function academyCard(s, table, act) {
    const [offer] = offers(table, "learn");
    const learnable = offer ? Object.fromEntries(offer.pick[0].one_of.map((o) => [o.value, o])) : {};
    return el("section", {class: "card"}, el("div", {class: "mc-areas"}, el("h2", {}, "The Academy"), counts(s.academy.gems, "academy-gems")),
      el("div", {class: "mc-academy", "data-testid": "academy"}, ...s.academy.spells.map(({name, cards}) => {
        const info = spellInfo(s, name);
        const option = learnable[name];
        const on = !!option && learnSpell === name;
        return el("div", {class: "mc-learn", "aria-pressed": String(on), "data-testid": `academy-${name}`},
          el("div", {},
            el("div", {class: "mc-cost"}, el("strong", {class: "mc-spell-name"}, name), el("span", {class: "note"}, `×${cards}`),
              ...(info.learn.length ? info.learn.map((c) => gem(c)) : [el("span", {class: "note"}, "free")]),
              el("span", {class: "note", "aria-label": "to learn; to cast"}, "→"), ...info.cast.map((c) => gem(c)),
              el("span", {class: "note"}, effectWords(info.effects))),
            info.text ? el("div", {class: "note mc-text"}, ...rich(info.text)) : null,
            on ? learnChoices(offer, option, name, act) : null),
          option && !on ? el("button", {"data-move": "learn", onclick: () => { learnSpell = name; chosen = {}; redraw(); }}, "Learn") : null);
      })));
  }

  function learnChoices(offer, option, name, act) {
    const [books, pay] = option.pick;
    const body = completed(offer, {spell: name, ...chosen});
    return el("div", {class: "mc-choices", "data-testid": "learn"},
      pay.one_of.length > 1 ? el("div", {class: "mc-slots", role: "group", "aria-label": "Pay with"}, ...pay.one_of.map((o) =>
        el("button", {class: "mc-pay-way" + (same(o.value, body.payment) ? " act" : ""), "aria-label": o.label, onclick: () => { chosen.payment = o.value; redraw(); }},
          ...o.value.map((c) => gem(c))))) : null,
      el("div", {class: "note"}, `Put ${name} on the left of:`),
      el("div", {class: "mc-moves"}, ...books.one_of.map((o) => el("button", {class: "act", "data-move": "learn",
        onclick: async () => { if (await act("learn", {...body, spellbook: o.value})) document.querySelector("[data-testid=jump-turn]").click(); }}, o.label))),
      el("button", {onclick: () => { learnSpell = null; redraw(); }}, "Another spell"));
  }

  // --- the gems dashboard (printed gems and boards) ---------------------------------------------

  function dashboard(s, table, you, act) {
    const t = s.turn;
    const step = (p, area, said, change) => {
      const body = {player: p.id, area, change};
      return offered(table, "count", body)
        ? el("button", {"aria-label": `${said} ${change > 0 ? "+1" : "−1"} for ${p.name}`, "data-move": "count", onclick: () => act("count", body)}, change > 0 ? "+" : "−")
        : el("span", {class: "mc-no-step"});
    };
    // a count between its − and +, three side by side
    const stepper = (p, area, label, said) => el("div", {class: "mc-adjust"},
      el("span", {class: "label"}, label),
      el("div", {class: "mc-step"}, step(p, area, said, -1), el("span", {class: "big live", "data-testid": `${area}-${p.id}`}, String(p[area])), step(p, area, said, 1)));
    return el("section", {class: "mc-duel", "data-testid": "dashboard"},
      t ? el("div", {class: "card"},
        el("div", {class: "row spread"}, el("h2", {"data-testid": "turn"}, `${nameOf(s, t.player)}'s turn: ${phaseWords[t.phase] || t.phase}`), el("span", {class: "note"}, `Turn ${t.number}`)),
        el("div", {class: "mc-phases", role: "list", "aria-label": "The turn's phases"}, ...["discard-shield", "casting", "learning", "refresh"].map((ph) =>
          el("span", {role: "listitem", class: "mc-phase" + (t.phase === ph ? " mc-on" : ""), "aria-current": t.phase === ph ? "step" : null}, phaseWords[ph]))),
        move(table, act, t.phase === "refresh" ? "Next wizard's turn" : "Next phase", "next_phase", {}, "act mc-wide")) : null,
      ...s.players.map((p) => el("div", {class: "card mc-seat" + (t && t.player === p.id ? " mc-now" : "") + (p.out ? " mc-out" : ""), "data-testid": `seat-${p.id}`},
        el("div", {class: "row spread"}, el("strong", {}, p.name + (p.id === you.actor ? " (you)" : "")),
          el("span", {class: "note"}, [p.out ? "defeated" : null, s.winner === p.id ? "winner" : null, t && t.player === p.id ? "to play" : null].filter(Boolean).join(" · "))),
        p.opening ? el("div", {class: "note", "data-testid": `opening-${p.id}`}, `Seat ${p.seat + 1}: opening hand draw ${p.opening.draw}, discard ${p.opening.discard}`) : null,
        el("div", {class: "mc-steppers"}, stepper(p, "hp", `HP /${s.hp_full}`, "HP"), stepper(p, "shield", "Shield", "Shield"), stepper(p, "score", `Score /${s.score_to_win}`, "Score")))));
  }

  // --- the panel ------------------------------------------------------------------------------

  function overCard(s) {
    const how = s.ended === "score" ? `${s.score_to_win} gems in the Score Area` : "being the last wizard standing";
    return el("section", {class: "card", "data-testid": "over"}, el("h2", {}, "The game is over"),
      el("p", {class: "mc-winner"}, `${nameOf(s, s.winner)} wins`), el("p", {class: "note"}, `By ${how}.`),
      s.defeated && s.defeated.length ? el("p", {class: "note"}, `Defeated: ${s.defeated.map((id) => nameOf(s, id)).join(", ")}.`) : null);
  }

  function render(root, table, you, act) {
    redraw = () => render(root, table, you, act);
    const s = table.state;
    readView(s);
    if (s.phase === "joining") {  // the lobby (table.js) has who has joined and Start
      root.replaceChildren(el("p", {class: "note", "data-testid": "mode"}, s.mode === "gems"
        ? "With printed gems and boards: one phone keeps the duel's numbers."
        : "Everything on the phones: the server keeps every bag and hand."));
      return;
    }
    settle(s);
    const over = s.phase === "over" ? overCard(s) : null;
    if (s.mode === "gems") {
      root.replaceChildren(...window.SpellpressSections.show([
        {id: "duel", label: "Duel", nodes: [over, dashboard(s, table, you, act), rulings(s.rulings)]},
      ], "duel", () => redraw()));
      return;
    }
    // your own board first, then the others' in seat order after yours
    const seat = s.players.findIndex((p) => p.id === you.actor);
    const order = seat < 0 ? s.players : [...s.players.slice(seat), ...s.players.slice(0, seat)];
    const current = s.turn && s.players.find((p) => p.id === s.turn.player);
    // the board of the wizard to play, unless it is yours (your moves fill the card then)
    const watched = current && current.id !== you.actor ? boardCard(s, current, you) : null;
    const turn = s.phase === "over" ? [over] : [s.turn ? turnCard(s, table, you, act) : openingCard(s, table, you, act), watched];
    root.replaceChildren(...window.SpellpressSections.show([
      {id: "turn", label: s.phase === "over" ? "Result" : "Turn", nodes: [...turn, rulings(s.rulings)]},
      {id: "boards", label: "Boards", nodes: order.map((p) => boardCard(s, p, you))},
      {id: "academy", label: "Academy", nodes: [academyCard(s, table, act)]},
    ], "turn", () => redraw()));
  }

  // --- history --------------------------------------------------------------------------------

  // What a move did to the public areas: "Bo HP −1 · Ada score +1".
  function changeWords(s, changes) {
    return Object.entries(changes || {}).flatMap(([who, areas]) => Object.entries(areas).map(([area, byColour]) => {
      const n = total(byColour);
      if (!n) return null;
      const whose = who === "academy" ? "the Academy" : nameOf(s, who);
      return `${whose}'s ${AREAS[area] || area} ${n > 0 ? "+" : "−"}${Math.abs(n)}`;
    })).filter(Boolean).join(" · ");
  }

  function doneWords(s, done) {
    const spell = done.spell ? ` ${done.spell}` : "";
    const verb = {cast: `cast${spell}`, resolve: `resolved${spell}'s ${ICONS[done.icon] || done.icon}`, cantrip: `cast the Cantrip${spell}`, learn: `learned${spell}`, revise: "revised", refresh: "refreshed",
      discard_shield: "discarded shield gems", opening_discard: "discarded from the opening hand"}[done.move] || done.move.replaceAll("_", " ");
    const changed = changeWords(s, done.changes);
    const paid = done.paid && done.paid.length && done.move !== "learn" ? `, paying ${done.paid.map(gemName).join(", ")}` : "";
    return verb + paid + (changed ? `: ${changed}` : "") + (done.reshuffled ? "; the Discard Area went back into the bag" : "");
  }

  // A draw's gems are named only to the wizard who drew them (the server sends the others a count).
  function drawWords(drawn) {
    if (Array.isArray(drawn)) return drawn.length ? `drew ${drawn.map(gemName).join(", ")}` : "";
    return drawn ? `drew ${drawn} gem${drawn === 1 ? "" : "s"}` : "";
  }

  // History lines in words: what each move did, and the gems drawn only as this viewer may see them.
  function describe(entry, table) {
    const p = entry.payload;
    const s = table ? table.state : {};
    readView(s);
    const gems = (list) => (Array.isArray(list) ? list.map(gemName).join(", ") : `${list} gems`);
    const drew = drawWords(p.drawn);
    const withDraw = (words) => [words, drew].filter(Boolean).join("; ");
    switch (entry.type) {
      case "start": return s.mode === "gems" ? "seated the wizards in a random order" : "seated the wizards in a random order, dealt the Academy and drew the opening hands";
      case "count": {
        const n = Math.abs(p.change), whose = entry.for_name ? "their" : `${nameOf(s, p.player)}'s`;
        const what = `${n} gem${n === 1 ? "" : "s"}`, area = `${whose} ${AREAS[p.area] || p.area} area`;
        return p.change > 0 ? `put ${what} on ${area}` : `took ${what} off ${area}`;
      }
      case "next_phase": return "moved the turn on";
      case "opening_discard": return `discarded ${gems(p.gems)} from the opening hand`;
      case "discard_shield": return withDraw(`discarded shield gems: ${gems(p.gems)}`);
      case "cast": case "cantrip": case "resolve": case "learn": case "revise": case "refresh":
        return withDraw(p.done ? doneWords(s, p.done) : entry.type);
      default: return null;
    }
  }

  const begun = (s) => s.phase !== "joining";  // table.js folds the invite then
  window.SpellpressGames.magecraft = {render, describe, begun};
})();
