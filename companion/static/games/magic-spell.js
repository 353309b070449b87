// Magic Spell: your spirit large, your turn's moves as big buttons, spells picked from the deck
// (state.deck: the cards as printed, overlays included), the class's numbers below.
"use strict";
(() => {
  const {el, button} = window.SpellpressUI;
  const picked = {};  // select name -> value: another phone's move redraws the panel mid-choice

  const upper = (word) => word.toUpperCase();  // magic words are printed in capitals
  const creditsLabel = (n) => `${n} credit${n === 1 ? "" : "s"}`;

  // A native select (the phone's own picker); its first option is the prompt, which `required`
  // refuses, so a stray tap on the button never picks a spell.
  function picker(name, prompt, choices) {
    const node = el("select", {name, "aria-label": prompt, required: true},
      el("option", {value: ""}, prompt), ...choices.map(([value, text]) => el("option", {value}, text)));
    node.value = choices.some(([value]) => value === picked[name]) ? picked[name] : "";
    node.addEventListener("change", () => { picked[name] = node.value; });
    return node;
  }

  function pickForm(label, fields, submit) {
    const form = el("form", {class: "ms-pick"}, ...fields, el("button", {class: "act"}, label));
    form.addEventListener("submit", (e) => { e.preventDefault(); submit(); });
    return form;
  }

  // Spells nobody holds yet, alphabetical: the player looks up the word on the card in hand.
  // Outside weaving, s.by_card names the card whose effect wove the spell (cast it, or rest with it).
  function completeForm(s, act) {
    const held = new Set(s.order.flatMap((id) => s.students[id].spellbook.map((entry) => entry.spell)));
    const free = s.deck.filter((card) => !held.has(card.spell)).sort((a, b) => a.spell.localeCompare(b.spell));
    const stone = el("input", {type: "checkbox", name: "stone"});
    const spellPicker = picker("complete", "Spell to complete", free.map((card) => [card.spell, `${upper(card.spell)} · ${creditsLabel(card.credits)}`]));
    return el("div", {}, el("div", {class: "label"}, "Complete a spell"),
      pickForm("Complete", [spellPicker, el("label", {class: "small"}, stone, " a philosopher's stone in it (it leaves the game)")],
        () => act("complete_spell", {spell: spellPicker.value, ...(s.by_card ? {by_card: s.by_card} : {}), ...(stone.checked ? {stone: true} : {})})));
  }

  function castButtons(s, student, act) {
    const deck = new Map(s.deck.map((card) => [card.spell, card]));
    const castable = student.spellbook.map((entry) => deck.get(entry.spell)).filter((card) => card.mode === "cast");
    if (!castable.length) return null;
    return el("div", {}, el("div", {class: "label"}, "Cast from your spellbook"),
      el("div", {class: "grid ms-casts"}, ...castable.map((card) => button(`Cast ${upper(card.spell)} · ${card.cost}`, () => act("cast", {spell: card.spell})))));
  }

  // Between turns: one of your spells to a student who is not taking their turn (the rules' trade).
  function giveForm(s, you, current, act) {
    const book = s.students[you.actor].spellbook;
    // the student taking a turn trades only when the tracker says (two students between turns, PARLEY)
    const others = s.order.filter((id) => id !== you.actor && (id !== current || s.trade_with_turn));
    if (!book.length || !others.length) return null;
    const spellPicker = picker("give", "Spell to give", book.map((entry) => [entry.spell, upper(entry.spell)]));
    const studentPicker = picker("to", "Give it to", others.map((id) => [id, `to ${s.students[id].name}`]));
    return el("div", {}, el("div", {class: "label"}, "Trade a spell"),
      pickForm("Give", [spellPicker, studentPicker], () => act("give_spell", {spell: spellPicker.value, to: studentPicker.value})));
  }

  // The turn's moves, each enabled only while the rules allow it: one action a turn (rest,
  // research, weave, scrounge or cast), then weaving again only after a weave.
  function turnMoves(s, act) {
    const move = (label, type, payload, allowed, cls = "act") =>
      el("button", {class: cls, disabled: !allowed, onclick: () => act(type, payload)}, label);
    const free = !s.acted;
    return [
      move("Rest", "rest", {}, free), move("Research", "research", {}, free),
      move("Weave", "weave", {}, free), move("Scrounge", "scrounge", {}, free),
      move("Scrounge & weave", "scrounge", {woven: true}, free),  // only a weave lets you weave again
      move("Weave again", "weave_again", {}, s.woven, ""), move("Move ingredient", "move_ingredient", {}, free || s.woven, ""),
    ];
  }

  // Low Enrollment: the variant two students play by, in the content's words.
  function lowEnrollment(s) {
    return s.low_enrollment ? el("p", {class: "note", "data-testid": "low-enrollment"}, el("strong", {}, "Low Enrollment: "), s.low_enrollment) : null;
  }

  function render(root, table, you, act) {
    const s = table.state;
    const mine = s.students[you.actor];
    const current = s.turn === null ? null : s.order[s.turn];
    const myTurn = current !== null && (current === you.actor || (you.host && !mine));
    // the host without a seat of their own moves for the student whose turn it is: named, so the
    // history says for whom
    if (you.host && !mine && current !== null) {
      const hostAct = act;
      act = (type, payload = {}, asHost) => hostAct(type, type === "start" ? payload : {player: current, ...payload}, asHost);
    }
    const parts = [];

    if (mine) {
      parts.push(el("section", {class: "card me"},
        el("div", {class: "label"}, mine.name + (current === you.actor ? " · your turn" : "")),
        el("div", {class: "row spread"},
          el("div", {}, el("div", {class: "big live", "data-testid": "my-spirit"}, String(mine.spirit ?? "–")), el("div", {class: "label"}, "spirit")),
          el("div", {}, el("div", {class: "big live"}, String(s.credits[you.actor])), el("div", {class: "label"}, `credits of ${s.courseload}`)),
          el("div", {}, el("div", {class: "big live"}, String(mine.stones)), el("div", {class: "label"}, "stones")))));
    }

    if (s.phase === "joining") {
      parts.push(el("section", {class: "card"},
        el("p", {}, s.order.length ? `Students: ${s.order.map((id) => s.students[id].name).join(", ")}` : "Waiting for students to join."),
        lowEnrollment(s),
        you.host ? button("Start the semester", () => act("start", {}, true)) : el("p", {class: "note"}, "The host starts the semester.")));
    } else if (s.phase === "playing") {
      const moves = el("section", {class: "card ms-moves"});
      if (myTurn) {
        moves.append(...[el("h2", {}, current === you.actor ? "Your turn" : `${s.students[current].name}'s turn`),
          el("div", {class: "grid"}, ...turnMoves(s, act)),
          s.woven || s.by_card ? completeForm(s, act) : null,
          s.acted ? null : castButtons(s, s.students[current], act),  // casting is the turn's one action
          mine && s.trade_with_turn ? giveForm(s, you, current, act) : null,
          el("div", {class: "row"}, button("End turn", () => act("end_turn"), "primary"))].filter(Boolean));
      } else if (mine) {
        moves.append(...[el("h2", {}, `${s.students[current].name}'s turn`),
          el("div", {class: "grid"}, button("Remove ingredient to trade", () => act("trade_remove"), "")),
          giveForm(s, you, current, act)].filter(Boolean));
      } else {
        moves.append(el("h2", {}, `${s.students[current].name}'s turn`));  // a spectator, a host who does not play
      }
      if (mine) {
        moves.append(el("div", {class: "grid"},
          button("Spirit +1", () => act("spirit", {delta: 1}), ""), button("Spirit −1", () => act("spirit", {delta: -1}), ""),
          button("Stone +1", () => act("stone", {delta: 1}), ""), button("Stone −1", () => act("stone", {delta: -1}), "")));
      }
      if (s.grading) moves.append(el("p", {class: "note"}, "Grading is called: everyone else has one last turn."));
      const variant = lowEnrollment(s);
      if (variant && moves.childElementCount) moves.append(variant);
      parts.push(moves);
    } else {
      const names = s.winners.map((id) => s.students[id].name);
      parts.push(el("section", {class: "card"}, el("h2", {}, "The semester is over"),
        el("p", {class: "big"}, names.length > 1 ? `Tie: ${names.join(" and ")}` : `${names[0] ?? "Nobody"} wins`)));
    }

    const rows = s.order.map((id) => {
      const st = s.students[id];
      const book = st.spellbook.map((entry) => upper(entry.spell)).join(", ");
      return el("tr", {class: id === current ? "turn" : null},
        el("td", {}, st.name + (id === you.actor ? " (you)" : ""), book ? el("div", {class: "small"}, book) : null),
        el("td", {class: "live"}, String(st.spirit ?? "–")),
        el("td", {class: "live"}, String(s.credits[id])), el("td", {class: "live"}, String(st.stones)));
    });
    parts.push(el("section", {class: "card"}, el("table", {class: "scores ms-scores"},
      el("thead", {}, el("tr", {}, ...["Student", "Spirit", "Credits", "Stones"].map((h) => el("th", {}, h)))),
      el("tbody", {}, ...rows))));
    root.replaceChildren(...parts);
  }

  // History lines in words: a spell by its printed word, a trade by the student's name, not their id.
  function describe(entry, table) {
    const p = entry.payload;
    if (entry.type === "complete_spell") return `completed ${upper(p.spell)}`;
    if (entry.type === "cast") return `cast ${upper(p.spell)}`;
    if (["spirit", "stone"].includes(entry.type)) return `${entry.type} ${p.delta > 0 ? "+" : "−"}${Math.abs(p.delta)}`;
    if (entry.type === "give_spell") return `gave ${upper(p.spell)} to ${table.state.students[p.to]?.name ?? "someone"}`;
    return null;
  }

  const begun = (s) => s.phase !== "joining";  // table.js folds the invite then
  window.SpellpressGames["magic-spell"] = {render, describe, begun};
})();
