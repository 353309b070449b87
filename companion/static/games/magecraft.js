// Magecraft at the table (pnp/games/magecraft/tracker.py has the view's shape and the payloads).
// On the phones ("phones"): your own hand (only yours is sent to you), every wizard's public board
// (HP, shield, score toward the goal, discard, bag size, spellbooks left to right with the gems
// paid onto them, mastered spells and the golden gem) and the Academy; on your turn the phases as
// the rules order them: Discard Shield, Casting (tap a spellbook, pay its next spell gem by gem from
// your hand, name the targets at a table of 3-4, cast; the Cantrip before or after), Learning or
// Revision, Refresh. With printed gems ("gems"): the duel dashboard, one phone for the table: HP,
// shield and score with - and +, whose turn and which phase, defeats and the winner, and each seat's
// opening draw and discard. The server's rules engine checks every move and says why it refuses one.
"use strict";
(() => {
  const {el, button, rich, rulings} = window.SpellpressUI;
  // The printed set's inks (templates/magecraft/mc-card.yaml). A gem also carries its letter and a
  // symbol (content/magecraft/set.yaml: fire, water, earth, star, moon), so none is told by colour alone.
  const INKS = {fire: "#d55e00", water: "#0072b2", earth: "#009e73", light: "#f0e442", darkness: "#3d2b56"};
  const WHITE_LETTER = new Set(["water", "darkness"]);  // inks dark enough for a white letter
  const SYMBOLS = {fire: "▲", water: "≈", earth: "■", light: "★", darkness: "☾"};  // by gem id
  const WILD = "wild";
  const ICONS = {draw: "Draw", attack: "Attack", heal: "Heal", shield: "Shield", vanish: "Vanish"};
  const PHASES = {"discard-shield": "Discard Shield", casting: "Casting", studied: "Learning or Revision done", learning: "Learning or Revision", refresh: "Refresh"};
  const AREAS = {hp: "HP", shield: "shield", score: "score", discard: "discard", gems: "gems"};

  // What the player is choosing lives here, not in the DOM: every event redraws the whole panel.
  let chosenBook = null;  // the spellbook tapped to cast this turn
  let payment = [];  // colours paying the next spell's cost slots (null: not yet)
  let targets = {};  // "cast" / "cantrip" -> the spell's choices: the rival each Attack strikes, Shield and Vanish sources
  let cantripGem = null;  // the hand's colour chosen for a Wild Cantrip
  let picked = [];  // gems picked to discard (shield, opening hand, revision), by colour
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

  // A gem: its ink, its letter over its symbol; a Wild cost dashed with "*"; its name said to a
  // screen reader and in a tooltip.
  function gem(c, extra = "") {
    if (c === WILD) {
      return el("span", {class: `mc-gem mc-wild ${extra}`, role: "img", "aria-label": "Wild", title: "Wild: any colour pays"},
        el("span", {}, wildLetter), el("span", {class: "mc-sym", "aria-hidden": "true"}, "any"));
    }
    return el("span", {class: `mc-gem ${extra}`, style: `--ink: ${INKS[c] || "#888"}`, "data-dark": WHITE_LETTER.has(c) ? "1" : null,
      role: "img", "aria-label": gemName(c), title: gemName(c)},
    el("span", {}, letter(c)), el("span", {class: "mc-sym", "aria-hidden": "true"}, SYMBOLS[c] || ""));
  }

  const each = (counts) => colours.flatMap((c) => Array((counts || {})[c] || 0).fill(c));  // {fire: 2} -> ["fire", "fire"]
  const total = (counts) => (typeof counts === "number" ? counts : Object.values(counts || {}).reduce((a, b) => a + b, 0));

  // An area's gems as counts by colour ("F▲ ×3"); empty: "none".
  function counts(area, testid) {
    const shown = colours.filter((c) => (area || {})[c]);
    return el("div", {class: "mc-counts live", "data-testid": testid || null},
      ...(shown.length ? shown.map((c) => el("span", {class: "mc-count"}, gem(c), `×${area[c]}`)) : [el("span", {class: "mc-none"}, "none")]));
  }

  const nameOf = (s, id) => ((s.players || []).find((p) => p.id === id) || {name: "?"}).name;
  const effectWords = (effects) => Object.entries(effects || {}).filter(([, n]) => n).map(([k, n]) => `${ICONS[k] || k} ${n}`).join(" · ");
  const costWords = (cost) => (cost || []).map(gemName).join(", ");
  const spellInfo = (s, name) => (s.spells || {})[name] || {cast: [], learn: [], effects: {}};

  // The hand as big gems; each tap passes its colour to onTap. Gems already chosen (`used`) are dimmed.
  function handRow(hand, onTap, used = [], testid = "hand") {
    const left = {...hand};
    used.forEach((c) => { if (c) left[c] -= 1; });
    const seen = {};
    const gems = each(hand);
    return el("div", {class: "mc-hand", "data-testid": testid}, ...(gems.length ? gems.map((c) => {
      seen[c] = (seen[c] || 0) + 1;
      const spent = seen[c] > left[c];
      if (!onTap) return el("span", {class: "mc-tap" + (spent ? " mc-used" : ""), "data-gem": c}, gem(c, "mc-big"));  // shown, not tapped
      return el("button", {class: "mc-tap" + (spent ? " mc-used" : ""), "data-gem": c, "aria-pressed": String(spent),
        disabled: spent, onclick: () => onTap(c), "aria-label": `${gemName(c)} gem` + (spent ? ", chosen" : "")}, gem(c, "mc-big"));
    }) : [el("span", {class: "note"}, "Empty.")]));
  }

  // --- the turn -------------------------------------------------------------------------------

  // Choices made for one moment of a turn are forgotten when the turn, its phase or its spell moves on.
  function settle(s) {
    const t = s.turn;
    const key = t ? `${t.number}:${t.player}:${t.phase}:${t.spellbook}:${t.next_spell}:${t.cantrip_cast}` : `${s.phase}:${(s.players || []).map((p) => p.to_discard).join()}`;
    if (key === choiceKey) return;
    const sameTurn = choiceKey && t && choiceKey.startsWith(`${t.number}:${t.player}:`);
    choiceKey = key;
    payment = [];
    targets = {};
    cantripGem = null;
    picked = [];
    learnSpell = null;
    if (!sameTurn) { arrangement = null; master = null; revising = false; }
    chosenBook = t && t.spellbook !== null && t.spellbook !== undefined ? t.spellbook : sameTurn ? chosenBook : null;
  }

  // Where a spell's Shield and Vanish gems come from, one choice for all the icons of a kind; ""
  // leaves it to the engine (the first place that has a gem).
  const SOURCES = {
    shield: {label: "Shield gems from", from: {"": "the Academy (empty: your Discard Area)", academy: "the Academy only", discard: "your Discard Area"}},
    vanish: {label: "Vanish gems from", from: {"": "your hand (empty: your HP Area)", hand: "your hand only", hp: "your HP Area"}},
  };

  // The spell's choices on the phone: the rival each Attack strikes when more than one is still in
  // the Arena (our ruling "targets"), the colour its Heals take (our ruling "heal-empty": the
  // healer chooses), and where its Shield and Vanish gems come from. `choices()`
  // gives them in the tracker's format, read when the spell is cast (a select changed since the
  // panel was drawn counts).
  function iconChoices(s, me, info, key) {
    const effects = info.effects || {};
    const rivals = s.players.filter((p) => p.id !== me.id && !p.out);
    const attacks = effects.attack || 0;
    const made = (targets[key] = targets[key] || {attack: [], heal: "", shield: "", vanish: ""});
    const nodes = [];
    const naming = attacks && info.special !== "attack-each" && rivals.length > 1;
    if (naming) {
      for (let i = 0; i < attacks; i++) {
        if (!rivals.some((r) => r.id === made.attack[i])) made.attack[i] = rivals[0].id;
        const select = el("select", {name: `${key}-target-${i}`},  // named by its label
          ...rivals.map((r) => el("option", {value: r.id, selected: r.id === made.attack[i]}, `${r.name} · HP ${r.hp_total} · shield ${r.shield_total}`)));
        select.addEventListener("change", () => { made.attack[i] = select.value; });
        nodes.push(el("label", {class: "mc-target"}, attacks > 1 ? `Attack ${i + 1} strikes` : "The Attack strikes", select));
      }
    }
    if (effects.heal) {  // "": the engine takes a colour the Academy has
      const select = el("select", {name: `${key}-heal`},
        el("option", {value: "", selected: !made.heal}, "any colour there is"),
        ...s.colours.map((c) => el("option", {value: c, selected: made.heal === c}, gemName(c))));
      select.addEventListener("change", () => { made.heal = select.value; });
      nodes.push(el("label", {class: "mc-target"}, info.special === "heal-from-discard" ? "Heal with a gem from your discard of" : "Heal with a gem of", select));
    }
    for (const [icon, {label, from}] of Object.entries(SOURCES)) {
      if (!effects[icon]) continue;
      const select = el("select", {name: `${key}-${icon}`},
        ...Object.entries(from).map(([value, words]) => el("option", {value, selected: made[icon] === value}, words)));
      select.addEventListener("change", () => { made[icon] = select.value; });
      nodes.push(el("label", {class: "mc-target"}, label, select));
    }
    const choices = () => ({
      ...(naming ? {attack: made.attack.slice(0, attacks).map((id) => ({player: id}))} : {}),
      ...(effects.heal && made.heal ? {heal: Array(effects.heal).fill(made.heal)} : {}),
      ...Object.fromEntries(Object.keys(SOURCES).filter((icon) => effects[icon] && made[icon]).map((icon) => [icon, Array(effects[icon]).fill({from: made[icon]})])),
    });
    return {nodes, choices};
  }

  // The slot of a cost the golden gem pays: one of its own colour, else a Wild (our ruling
  // "golden-match"); -1 when it pays none.
  function goldenSlot(cost, golden) {
    if (!golden) return -1;
    return cost.includes(golden) ? cost.indexOf(golden) : cost.indexOf(WILD);
  }

  // Casting: the chosen spellbook's next spell, its cost slots paid by taps from the hand (a paid
  // slot tapped again is cleared), the targets of its Attacks, and Cast.
  function castPanel(s, me, act) {
    const t = s.turn;
    if (t.closed) return el("p", {class: "note", "data-testid": "cast-prompt"}, "Your Cantrip came after your last spell: no more spells this turn.");
    if (chosenBook === null) return el("p", {class: "mc-prompt", "data-testid": "cast-prompt"}, "Casting: tap “Cast this” on one of your spellbooks below; its spells are cast left to right.");
    const cards = me.spellbooks[chosenBook] || [];
    const position = t.spellbook === chosenBook ? t.next_spell : 0;
    if (position >= cards.length) return el("p", {class: "note", "data-testid": "cast-prompt"}, `Spellbook ${chosenBook + 1} has no spell left to cast this turn.`);
    const card = cards[position];
    const info = spellInfo(s, card.spell);
    const cost = info.cast;
    const golden = goldenSlot(cost, me.golden);
    payment = cost.map((_, i) => payment[i] || null);
    const pay = (c) => {
      // the first open slot this gem pays: one of its own colour first, else a Wild
      const open = cost.map((_, i) => i).filter((i) => i !== golden && !payment[i]);
      const slot = open.find((i) => cost[i] === c) ?? open.find((i) => cost[i] === WILD);
      if (slot === undefined) {
        document.getElementById("act-error").textContent = `${gemName(c)} pays no open slot of ${card.spell}: it costs ${costWords(cost)}.`;
        return;
      }
      payment[slot] = c;
      redraw();
    };
    const slots = cost.map((want, i) => {
      if (i === golden) return el("span", {class: "mc-slot", title: "paid by the golden gem", "aria-label": `Slot ${i + 1}: the golden ${gemName(me.golden)} gem pays it`}, gem(me.golden, "mc-golden"));
      const paid = payment[i];
      return el("button", {class: "mc-slot", "data-testid": `slot-${i}`, onclick: () => { payment[i] = null; redraw(); },
        "aria-label": paid ? `Slot ${i + 1}: paid with ${gemName(paid)}; tap to take it back` : `Slot ${i + 1}: ${gemName(want)}, not paid yet`},
      paid ? gem(paid) : gem(want, "mc-empty"));
    });
    const aim = iconChoices(s, me, info, "cast");
    const ready = cost.every((_, i) => i === golden || payment[i]);
    // unpaid, the server pays from the hand (a Wild with the colour held most) or says what it lacks
    const send = () => act("cast", {spellbook: chosenBook, payment: ready ? payment.map((c, i) => (i === golden ? null : c)) : null, choices: aim.choices()});
    return el("div", {class: "mc-pay", "data-testid": "pay"},
      el("div", {}, el("strong", {}, card.spell), el("span", {class: "note"}, ` · spell ${position + 1} of ${cards.length} in Spellbook ${chosenBook + 1}`)),
      el("div", {class: "note"}, `Costs ${costWords(cost)} · ${effectWords(info.effects)}`),
      info.text ? el("div", {class: "note"}, ...rich(info.text)) : null,
      el("div", {class: "mc-slots"}, ...slots),
      el("div", {class: "note"}, ready ? "Paid: cast it, or tap a slot to take its gem back." : "Tap your gems to pay the slots (a Wild takes any colour), or cast and let your hand pay."),
      handRow(s.hand, ready ? null : pay, payment.filter((c, i) => c && i !== golden)),
      ...aim.nodes,
      button(ready ? `Cast ${card.spell}` : `Cast ${card.spell}, my hand pays`, send, "act mc-wide"));
  }

  function cantripPanel(s, me, act) {
    const c = me.cantrip;
    const t = s.turn;
    if (!c || t.cantrip_cast) return null;
    const held = colours.filter((g) => (s.hand[g] || 0) && (c.gem === WILD || c.gem === g));
    if (!held.includes(cantripGem)) cantripGem = held[0] || null;  // a Wild Cantrip: the gem tapped pays it
    const aim = iconChoices(s, me, {effects: c.effects}, "cantrip");
    return el("div", {class: "mc-pay", "data-testid": "cantrip"},
      el("div", {}, el("strong", {}, `Cantrip: ${c.name}`), el("span", {class: "note"}, ` · one ${gemName(c.gem)} gem · ${effectWords(c.effects)}`)),
      el("div", {class: "note"}, t.spellbook === null ? "Before your spellbook's first spell, or after its last (then no more spells)." : "After your spells: no more spells this turn."),
      held.length ? null : el("p", {class: "note"}, `Your hand has no ${gemName(c.gem)} gem for it.`),
      c.gem === WILD && held.length > 1 ? el("div", {class: "mc-slots"}, ...held.map((g) => el("button", {class: "mc-slot", "aria-pressed": String(cantripGem === g),
        "aria-label": `Pay it with ${gemName(g)}`, onclick: () => { cantripGem = g; redraw(); }}, gem(g)))) : null,
      ...aim.nodes,
      held.length ? button(`Cast ${c.name}`, () => act("cantrip", {gem: cantripGem, choices: aim.choices()}), "mc-wide") : null);
  }

  // Gems picked from an area to discard: tap to pick, "Clear" to start again.
  function pickRow(area, limit, testid) {
    return handRow(area, (c) => { if (limit === undefined || picked.length < limit) { picked.push(c); redraw(); } }, picked, testid);
  }

  function pickedLine(label) {
    return el("div", {class: "row spread"},
      el("span", {class: "note", "data-testid": "picked"}, picked.length ? `${label}: ${picked.map(gemName).join(", ")}` : "Nothing picked yet."),
      picked.length ? button("Clear", () => { picked = []; redraw(); }, "") : null);
  }

  // Learning: a spell tapped in the Academy, then the spellbook it goes to the left of.
  function learnPanel(s, me, act) {
    const academy = () => document.querySelector("[data-testid=jump-academy]").click();
    if (!learnSpell) {
      const payable = s.can ? Object.keys(s.can.learn) : null;
      return el("div", {},
        button("Learn a spell: choose it in the Academy", academy, "mc-wide"),
        payable ? el("p", {class: "note", "data-testid": "learnable"}, payable.length ? `Your hand pays for: ${payable.join(", ")}.` : "Your hand pays for no Academy spell now.") : null);
    }
    const info = spellInfo(s, learnSpell);
    return el("div", {class: "mc-pay", "data-testid": "learn"},
      el("strong", {}, `Learn ${learnSpell} (ends the casting)`),
      el("div", {class: "mc-cost"}, el("span", {class: "note"}, "Its learn cost, from your hand to your Discard Area:"), ...info.learn.map((c) => gem(c))),
      el("div", {class: "note"}, "Put it on the left of:"),
      el("div", {class: "mc-moves"}, ...me.spellbooks.map((_, b) => button(`Spellbook ${b + 1}`, () => act("learn", {spell: learnSpell, spellbook: b, payment: null}), "act"))),
      button("Another spell", academy, ""));
  }

  // Revision: discard the rules' number of gems; rearrange the spells (◀ one place left, ▲ ▼ to the
  // spellbook above or below); master at most one.
  function revisePanel(s, me, act) {
    const need = 4;
    if (!arrangement) arrangement = me.spellbooks.map((cards, b) => cards.map((_, i) => [b, i]));
    const at = ([b, i]) => me.spellbooks[b][i];
    const move = (fn) => () => { fn(); master = null; redraw(); };
    const books = arrangement.map((places, b) => el("div", {class: "mc-book"},
      el("div", {class: "mc-book-head"}, el("strong", {}, `Spellbook ${b + 1}`)),
      places.length ? el("div", {class: "mc-spells"}, ...places.map((place, i) => {
        const here = `${b}:${i}`;
        return el("div", {class: "mc-spell" + (master === here ? " mc-next" : "")},
          el("div", {class: "mc-spell-name"}, at(place).spell),
          el("div", {class: "mc-arrows"},
            i > 0 ? button("◀", move(() => places.splice(i - 1, 0, places.splice(i, 1)[0])), "") : null,
            b > 0 ? button("▲", move(() => arrangement[b - 1].push(places.splice(i, 1)[0])), "") : null,
            b < arrangement.length - 1 ? button("▼", move(() => arrangement[b + 1].push(places.splice(i, 1)[0])), "") : null),
          at(place).mastered ? el("span", {class: "mc-mastered"}, "★ Mastered")
            : button(master === here ? "★ To master" : "Master", () => { master = master === here ? null : here; redraw(); }, master === here ? "act" : ""));
      })) : el("span", {class: "mc-none"}, "empty")));
    const box = el("details", {class: "mc-pay", "data-testid": "revise", open: revising},
      el("summary", {}, el("strong", {}, `Revision: discard ${need}, rearrange, master one`)),
      pickRow(s.hand, need, "revise-hand"), pickedLine("Discard"),
      ...books,
      button("Revise", () => act("revise", {gems: picked, arrangement, master: master === null ? null : master.split(":").map(Number)}), "act mc-wide"));
    box.addEventListener("toggle", () => { revising = box.open; });  // open still after a redraw
    return box;
  }

  // What the latest move did, in words (the other phones see the damage here and on the boards).
  // and the latest spell's, which stays after the turn moves on
  function lastLine(s) {
    const cast = s.last_cast && s.last_cast !== s.last && !(s.last && ["cast", "cantrip"].includes(s.last.move)) ? s.last_cast : null;
    return [
      s.last ? el("p", {class: "note mc-last", "data-testid": "last"}, `${nameOf(s, s.last.player)} ${doneWords(s, s.last)}`) : null,
      cast ? el("p", {class: "note mc-last", "data-testid": "last-cast"}, `Last spell: ${nameOf(s, cast.player)} ${doneWords(s, cast)}`) : null,
    ];
  }

  function turnCard(s, you, act) {
    const t = s.turn;
    const mine = t.player === you.actor;
    const me = s.players.find((p) => p.id === you.actor);
    const current = s.players.find((p) => p.id === t.player);
    // with no shield to discard, the Discard Shield phase is the casting's start
    const phase = t.phase === "discard-shield" && !current.shield_total ? "casting" : t.phase;
    const head = el("div", {class: "row spread"},
      el("h2", {"data-testid": "turn"}, `${mine ? "Your turn" : current.name + "'s turn"}: ${phaseWords[phase] || phase}`),
      el("span", {class: "note"}, `Turn ${t.number}`));
    if (!mine || !me) return el("section", {class: "card mc-turn"}, head, ...lastLine(s));
    const parts = [head, ...lastLine(s)];
    if (t.phase === "discard-shield" && me.shield_total) {
      parts.push(el("div", {class: "mc-pay", "data-testid": "discard-shield"},
        el("strong", {}, "Discard Shield (if you wish)"),
        pickRow(me.shield, undefined, "shield-pick"), pickedLine("To discard"),
        picked.length ? button("Discard them", () => act("discard_shield", {gems: picked}), "mc-wide") : null));
    }
    if (t.phase !== "studied") {
      parts.push(castPanel(s, me, act), cantripPanel(s, me, act), learnPanel(s, me, act), s.can && !s.can.revise ? null : revisePanel(s, me, act));
    }
    parts.push(button("Refresh: discard and draw 4, end the turn", () => act("refresh"), t.phase === "studied" ? "act mc-wide" : "mc-wide"));
    return el("section", {class: "card mc-turn mc-mine"}, ...parts);
  }

  // Before the first turn: each seat that must discard from its opening hand picks the gems.
  function openingCard(s, you, act) {
    const me = s.players.find((p) => p.id === you.actor);
    const due = me ? me.to_discard : 0;
    const waiting = s.players.filter((p) => p.to_discard).map((p) => `${p.name} (${p.to_discard})`);
    return el("section", {class: "card mc-turn" + (due ? " mc-mine" : "")},
      el("h2", {"data-testid": "turn"}, "Opening hands"),
      el("p", {class: "note"}, waiting.length ? `Still to discard: ${waiting.join(", ")}.` : "Every opening hand is settled."),
      due ? el("p", {class: "mc-prompt"}, `Tap ${due} gem${due > 1 ? "s" : ""} of your opening hand to discard.`) : null,
      due ? pickRow(s.hand, due, "opening-hand") : null, due ? pickedLine("To discard") : null,
      due ? button("Discard", () => act("opening_discard", {gems: picked}), "act mc-wide") : null);
  }

  // --- the boards and the Academy -------------------------------------------------------------

  function spellCard(s, card, position, book, owner) {
    const info = spellInfo(s, card.spell);
    const t = s.turn;
    const next = t && t.player === owner.id && (t.spellbook === book ? position === t.next_spell : t.spellbook === null && position === 0 && chosenBook === book);
    // a mastered spell once cast has sent its first, golden gem on (rules.py: _golden_moves)
    const paid = card.mastered && card.paid.length && card.paid.length === info.cast.length - 1 ? [null, ...card.paid] : card.paid;
    const first = card.mastered ? " mc-golden" : "";
    return el("div", {class: "mc-spell" + (next ? " mc-next" : "") + (card.paid.length ? " mc-cast" : ""), "data-testid": `spell-${owner.id}-${book}-${position}`},
      el("div", {class: "mc-spell-name"}, card.spell),
      card.mastered ? el("div", {class: "mc-mastered"}, "★ Mastered") : null,
      el("div", {class: "mc-cost", "aria-label": `Cost ${costWords(info.cast)}` + (card.paid.length ? `; paid ${card.paid.map(gemName).join(", ")}` : "")},
        ...info.cast.map((c, i) => (paid[i] ? gem(paid[i], i === 0 ? first : "") : gem(c, "mc-empty" + (i === 0 ? first : ""))))),
      el("div", {class: "mc-icons"}, effectWords(info.effects)));
  }

  // Whether the server says the hand cannot pay Spellbook b's next spell (it tells only the wizard to play).
  const unpaid = (s, b) => !!(s.can && s.can.spellbooks[b] && s.can.spellbooks[b].spell && !s.can.spellbooks[b].payment);

  function boardCard(s, p, you) {
    const t = s.turn;
    const mine = p.id === you.actor;
    const choosing = mine && t && t.player === p.id && t.phase !== "studied" && t.spellbook === null && !t.closed;
    const goal = s.score_to_win;
    const books = p.spellbooks.map((cards, b) => el("div", {class: "mc-book" + (t && t.player === p.id && (t.spellbook === b || (choosing && chosenBook === b)) ? " mc-chosen" : ""), "data-testid": `book-${p.id}-${b}`},
      el("div", {class: "mc-book-head"}, el("strong", {}, `Spellbook ${b + 1}`),
        choosing && cards.length ? el("button", {class: chosenBook === b ? "act" : "", "aria-pressed": String(chosenBook === b),
          onclick: () => { chosenBook = b; payment = []; redraw(); }}, chosenBook === b ? "Casting this" : "Cast this" + (unpaid(s, b) ? " (hand short)" : "")) : null),
      cards.length ? el("div", {class: "mc-spells", "aria-label": `Spellbook ${b + 1}, left to right`}, ...cards.map((card, i) => spellCard(s, card, i, b, p)))
        : el("span", {class: "mc-none"}, "empty")));
    const status = [p.character, p.out ? "defeated" : null, t && t.player === p.id ? "to play" : null, s.winner === p.id ? "winner" : null].filter(Boolean).join(" · ");
    return el("section", {class: "card mc-board" + (t && t.player === p.id ? " mc-now" : "") + (p.out ? " mc-out" : "") + (mine ? " me" : ""), "data-testid": `board-${p.id}`},
      el("div", {class: "row spread"}, el("h3", {}, p.name + (mine ? " (you)" : "")), el("span", {class: "note"}, status)),
      el("div", {class: "mc-stats"},
        el("div", {class: "mc-stat"}, el("div", {class: "big live", "data-testid": `hp-${p.id}`}, String(p.hp_total)), el("div", {class: "label"}, `HP of ${s.hp_full}`)),
        el("div", {class: "mc-stat"}, el("div", {class: "big live", "data-testid": `shield-${p.id}`}, String(p.shield_total)), el("div", {class: "label"}, "Shield")),
        el("div", {class: "mc-stat"}, el("div", {class: "big live", "data-testid": `score-${p.id}`}, String(p.score_total)), el("div", {class: "label"}, `Score of ${goal}`))),
      el("div", {class: "mc-goal", role: "img", "aria-label": `${p.score_total} of ${goal} gems toward winning`}, el("span", {style: `width: ${Math.min(100, (100 * p.score_total) / goal)}%`})),
      el("div", {class: "mc-areas"},
        el("span", {class: "label"}, "HP"), counts(p.hp),
        el("span", {class: "label"}, "Shield"), counts(p.shield),
        el("span", {class: "label"}, "Score"), counts(p.score),
        el("span", {class: "label"}, "Discard"), counts(p.discard, `discard-${p.id}`),
        el("span", {class: "label"}, "Bag"), el("span", {class: "live", "data-testid": `bag-${p.id}`}, `${p.bag} gem${p.bag === 1 ? "" : "s"}`),
        el("span", {class: "label"}, "Hand"), el("span", {class: "live"}, mine ? `${p.hand} (above)` : `${p.hand} hidden`),
        p.golden ? el("span", {class: "label"}, "Golden") : null, p.golden ? el("span", {}, gem(p.golden, "mc-golden"), " waits for the next spell") : null,
        p.cantrip ? el("span", {class: "label"}, "Cantrip") : null,
        p.cantrip ? el("span", {class: "note"}, `${p.cantrip.name}: ${gemName(p.cantrip.gem)} · ${effectWords(p.cantrip.effects)}`) : null),
      el("div", {class: "mc-books"}, ...books));
  }

  // Your own hand (only you are sent it) and, with the table's bag odds on, what your bag holds.
  function handCard(s, me) {
    if (!me) return null;
    return el("section", {class: "card"}, el("h2", {}, "Your hand"), handRow(s.hand, null, [], "my-hand"),
      el("p", {class: "note"}, "Only you see your hand; the others see how many gems it holds."),
      oddsBlock(s));
  }

  function oddsBlock(s) {
    const bag = s.bag_contents;
    if (!bag) return null;  // the server sends it only when the table turned the odds on
    const left = total(bag);
    return el("div", {class: "mc-odds", "data-testid": "odds"}, el("div", {class: "label"}, `Left in your bag: ${left}`),
      ...colours.filter((c) => bag[c]).map((c) => el("div", {class: "mc-count"}, gem(c), ` ${bag[c]} · ${Math.round((100 * bag[c]) / left)}% for the next draw`)));
  }

  // A spell chosen to learn: back to the boards, the turn card's spellbook buttons in sight.
  function choose(name) {
    learnSpell = name;
    document.querySelector("[data-testid=jump-boards]").click();  // sections.js redraws the panel
    const panel = document.querySelector("[data-testid=learn]");
    if (panel) panel.scrollIntoView({block: "center"});
  }

  function academyCard(s, you) {
    const a = s.academy;
    const t = s.turn;
    const learning = t && t.player === you.actor && t.phase !== "studied";
    return el("section", {class: "card"}, el("h2", {}, "The Academy"),
      el("div", {class: "label"}, "Gems"), counts(a.gems, "academy-gems"),
      el("div", {class: "label"}, "Spells"),
      el("div", {class: "mc-academy", "data-testid": "academy"}, ...a.spells.map(({name, cards}) => {
        const info = spellInfo(s, name);
        const on = learnSpell === name;
        return el("div", {class: "mc-learn", "aria-pressed": String(on), "data-testid": `academy-${name}`},
          el("div", {},
            el("div", {class: "mc-spell-name"}, `${name} · ${cards} left`),
            el("div", {class: "mc-cost"}, el("span", {class: "note"}, "Learn"), ...info.learn.map((c) => gem(c))),
            el("div", {class: "mc-cost"}, el("span", {class: "note"}, "Cast"), ...info.cast.map((c) => gem(c))),
            el("div", {class: "mc-icons"}, effectWords(info.effects)),
            info.text ? el("div", {class: "note"}, ...rich(info.text)) : null),
          learning && cards ? el("button", {class: on ? "act" : "", "aria-pressed": String(on), title: s.can && !s.can.learn[name] ? "Your hand cannot pay its learn cost" : null,
            onclick: () => choose(on ? null : name)}, on ? "Chosen" : "Learn") : null);
      })));
  }

  // --- the gems dashboard (printed gems and boards) ---------------------------------------------

  function dashboard(s, you, act) {
    const over = s.phase === "over";
    const adjust = !over && (!!you.actor || you.host);
    const t = s.turn;
    const row = (p, area, label, said) => el("div", {class: "mc-adjust"},
      el("span", {class: "label"}, label),
      adjust ? el("button", {"aria-label": `${said} −1 for ${p.name}`, onclick: () => act("count", {player: p.id, area, change: -1})}, "−") : el("span"),
      el("span", {class: "big live", "data-testid": `${area}-${p.id}`}, String(p[area])),
      adjust ? el("button", {"aria-label": `${said} +1 for ${p.name}`, onclick: () => act("count", {player: p.id, area, change: 1})}, "+") : el("span"));
    return el("section", {class: "card mc-duel", "data-testid": "dashboard"},
      t ? el("div", {class: "row spread"}, el("h2", {"data-testid": "turn"}, `${nameOf(s, t.player)}'s turn: ${phaseWords[t.phase] || t.phase}`), el("span", {class: "note"}, `Turn ${t.number}`)) : null,
      t && adjust ? el("div", {},
        el("div", {class: "mc-phases", role: "list", "aria-label": "The turn's phases"}, ...["discard-shield", "casting", "learning", "refresh"].map((ph) =>
          el("span", {role: "listitem", class: "mc-phase" + (t.phase === ph ? " mc-on" : ""), "aria-current": t.phase === ph ? "step" : null}, phaseWords[ph]))),
        button(t.phase === "refresh" ? "Next wizard's turn" : "Next phase", () => act("next_phase"), "act mc-wide")) : null,
      ...s.players.map((p) => el("div", {class: "mc-seat" + (t && t.player === p.id ? " mc-now" : "") + (p.out ? " mc-out" : ""), "data-testid": `seat-${p.id}`},
        el("div", {class: "row spread"}, el("strong", {}, p.name + (p.id === you.actor ? " (you)" : "")),
          el("span", {class: "note"}, [p.out ? "defeated" : null, s.winner === p.id ? "winner" : null, t && t.player === p.id ? "to play" : null].filter(Boolean).join(" · "))),
        p.opening ? el("div", {class: "note", "data-testid": `opening-${p.id}`}, `Seat ${p.seat + 1}: opening hand draw ${p.opening.draw}, discard ${p.opening.discard}`) : null,
        row(p, "hp", `HP of ${s.hp_full}`, "HP"), row(p, "shield", "Shield", "Shield"), row(p, "score", `Score of ${s.score_to_win}`, "Score"))));
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
    if (s.phase === "joining") {
      root.replaceChildren(el("section", {class: "card"}, el("h2", {}, "Magecraft"),
        el("p", {}, s.mode === "gems" ? "With printed gems and boards: one phone keeps the duel's numbers." : "Everything on the phones: the server keeps every bag and hand."),
        el("p", {"data-testid": "joined"}, `${s.players.length} wizard${s.players.length === 1 ? "" : "s"}: ${s.players.map((p) => p.name).join(", ") || "waiting"}`),
        you.host ? button("Start the game", () => act("start", {}, true), "act mc-wide") : el("p", {class: "note"}, "The host starts the game.")));
      return;
    }
    settle(s);
    const parts = [s.phase === "over" ? overCard(s) : null];
    if (s.mode === "gems") {
      root.replaceChildren(...parts.filter(Boolean), dashboard(s, you, act), rulings(s.rulings));
      return;
    }
    if (s.phase !== "over") parts.push(s.turn ? turnCard(s, you, act) : openingCard(s, you, act));
    // your own board first, then the others' in seat order after yours
    const seat = s.players.findIndex((p) => p.id === you.actor);
    const order = seat < 0 ? s.players : [...s.players.slice(seat), ...s.players.slice(0, seat)];
    const me = s.players[seat];
    parts.push(...window.SpellpressSections.show([
      {id: "boards", label: "Boards", nodes: [handCard(s, me), ...order.map((p) => boardCard(s, p, you))]},
      {id: "academy", label: "Academy", nodes: [academyCard(s, you), rulings(s.rulings)]},
    ], "boards", () => redraw()));
    root.replaceChildren(...parts.filter(Boolean));
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
    const verb = {cast: `cast${spell}`, cantrip: `cast the Cantrip${spell}`, learn: `learned${spell}`, revise: "revised", refresh: "refreshed",
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
      case "count": return `${p.change > 0 ? "+" : "−"}${Math.abs(p.change)} ${AREAS[p.area] || p.area}` + (entry.for_name ? "" : ` for ${nameOf(s, p.player)}`);
      case "next_phase": return "moved the turn on";
      case "opening_discard": return `discarded ${gems(p.gems)} from the opening hand`;
      case "discard_shield": return withDraw(`discarded shield gems: ${gems(p.gems)}`);
      case "cast": case "cantrip": case "learn": case "revise": case "refresh":
        return withDraw(p.done ? doneWords(s, p.done) : entry.type);
      default: return null;
    }
  }

  const begun = (s) => s.phase !== "joining";  // table.js folds the invite then
  window.SpellpressGames.magecraft = {render, describe, begun};
})();
