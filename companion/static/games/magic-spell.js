// Magic Spell: your spirit large, your turn's moves as big buttons, spells picked from those the
// server offers (a spell no one holds, one you can cast and pay for), the class's numbers below.
// Every button is a move the server offers this phone now (table.moves): the turn's moves to the
// student whose turn it is, trades when the rules allow them, a student's own numbers put right
// (the host's phone: anyone's). The lobby (table.js) has Start.
"use strict";
(() => {
  const {el, move, offered, offers, values} = window.SpellpressUI;
  const picked = {};  // select name -> value: another phone's move redraws the panel mid-choice
  let redraw = () => {};

  const upper = (word) => word.toUpperCase();  // magic words are printed in capitals
  const creditsLabel = (n) => `${n} credit${n === 1 ? "" : "s"}`;

  // A native select (the phone's own picker); its first option is the prompt, which `required`
  // refuses, so a stray tap on the button never sends a move.
  function picker(name, prompt, choices) {
    const node = el("select", {name, "aria-label": prompt, required: true},
      el("option", {value: ""}, prompt), ...choices.map(([value, text]) => el("option", {value}, text)));
    node.value = choices.some(([value]) => value === picked[name]) ? picked[name] : "";
    node.addEventListener("change", () => { picked[name] = node.value; });
    return node;
  }

  function pickForm(label, type, fields, submit) {
    const form = el("form", {class: "ms-pick"}, ...fields, el("button", {class: "act", "data-move": type}, label));
    form.addEventListener("submit", (e) => { e.preventDefault(); submit(); });
    return form;
  }

  // The spells no one holds, alphabetical: the player looks up the word on the card in hand. Outside
  // weaving the offer names the card whose effect wove it (cast it, or rest with it); a stone may go
  // in while one is left to weave.
  function completeForm(table, act) {
    if (!offers(table, "complete_spell").length) return null;
    const credits = new Map(table.state.deck.map((card) => [card.spell, card.credits]));
    const free = values(table, "complete_spell", "spell").sort((a, b) => a.localeCompare(b));
    const cards = values(table, "complete_spell", "by_card");
    const spellPicker = picker("complete", "Spell to complete", free.map((w) => [w, `${upper(w)} · ${creditsLabel(credits.get(w))}`]));
    const cardPicker = cards.length > 1 ? picker("by-card", "Woven by", cards.map((w) => [w, `by ${upper(w)}`])) : null;
    const stone = values(table, "complete_spell", "stone").includes(true) ? el("input", {type: "checkbox", name: "stone"}) : null;
    const byCard = () => (cardPicker ? cardPicker.value : cards[0]);
    return el("div", {}, el("div", {class: "label"}, "Complete a spell" + (cards.length === 1 ? ` (woven by ${upper(cards[0])})` : "")),
      pickForm("Complete", "complete_spell", [spellPicker, cardPicker,
        stone ? el("label", {class: "small"}, stone, " a philosopher's stone in it (it leaves the game)") : null].filter(Boolean),
      () => act("complete_spell", {spell: spellPicker.value, ...(cards.length ? {by_card: byCard()} : {}), ...(stone && stone.checked ? {stone: true} : {})})));
  }

  function castButtons(table, act) {
    const costs = new Map(table.state.deck.map((card) => [card.spell, card.cost]));
    const castable = values(table, "cast", "spell");
    if (!castable.length) return null;
    return el("div", {}, el("div", {class: "label"}, "Cast a spell · its spirit cost"),
      el("div", {class: "grid"}, ...castable.map((w) => {
        const button = move(table, act, `${upper(w)} · ${costs.get(w)}`, "cast", {spell: w});
        button.setAttribute("aria-label", `Cast ${upper(w)} · ${costs.get(w)}`);
        return button;
      })));
  }

  // A trade: one of your spells to a student the rules let you trade with now.
  function giveForm(table, act) {
    const s = table.state;
    const book = values(table, "give_spell", "spell");
    const to = values(table, "give_spell", "to");
    if (!book.length || !to.length) return null;
    const spellPicker = picker("give", "Spell to give", book.map((w) => [w, upper(w)]));
    const studentPicker = picker("to", "Give it to", to.map((id) => [id, `to ${s.names[id]}`]));
    return el("div", {}, el("div", {class: "label"}, "Trade a spell"),
      pickForm("Give", "give_spell", [spellPicker, studentPicker], () => act("give_spell", {spell: spellPicker.value, to: studentPicker.value})));
  }

  // The turn's one action (rest, research, weave, scrounge), then weaving again only after a weave.
  function turnMoves(table, act) {
    return [
      move(table, act, "Rest", "rest"), move(table, act, "Research", "research"),
      move(table, act, "Weave", "weave"), move(table, act, "Scrounge", "scrounge", {woven: false}),
      move(table, act, "Scrounge & weave", "scrounge", {woven: true}),  // only a weave lets you weave again
      move(table, act, "Weave again", "weave_again", {}, ""), move(table, act, "Move ingredient", "move_ingredient", {}, ""),
    ].filter(Boolean);
  }

  // A student's spirit or stones put right by one (a spell's effect): drawn only when offered.
  // `name`: what a screen reader says ("Spirit +1", "Bo's stones −1").
  const nudge = (table, act, type, id, delta, name) => {
    const button = move(table, act, delta > 0 ? `+${delta}` : `−${-delta}`, type, {player: id, delta}, "");
    if (button) button.setAttribute("aria-label", name);
    return button;
  };

  function meCard(table, you, current, act) {
    const s = table.state;
    const mine = s.students[you.actor];
    const number = (value, label, testid, type, word) => el("div", {class: "ms-number"},
      el("div", {class: "big live", "data-testid": testid}, String(value ?? "–")), el("div", {class: "label"}, label),
      type ? el("div", {class: "ms-nudge"}, nudge(table, act, type, you.actor, -1, `${word} −1`), nudge(table, act, type, you.actor, 1, `${word} +1`)) : null);
    return el("section", {class: "card me"},
      el("div", {class: "label"}, s.names[you.actor] + (current === you.actor ? " · your turn" : "")),
      el("div", {class: "row spread ms-numbers"},
        number(mine.spirit, "spirit", "my-spirit", "spirit", "Spirit"),
        number(s.credits[you.actor], `credits of ${s.courseload}`, null, null),
        number(mine.stones, "stones", null, "stone", "Stone back to the laboratory, out of the game,")),
      stoneInPlay(table, act, you.actor));
  }

  // A stone given up that stays in play: woven onto a spell being woven, or handed over in a trade
  // (the −1 beside the stones returns one to the laboratory, which takes it out of the game).
  const stoneInPlay = (table, act, id) =>
    move(table, act, "Stone onto a spell or into a trade (−1)", "stone", {player: id, delta: -1, in_play: true}, "small");

  // Low Enrollment: the variant two students play by, in the content's words.
  function lowEnrollment(s) {
    return s.low_enrollment ? el("p", {class: "note", "data-testid": "low-enrollment"}, el("strong", {}, "Low Enrollment: "), s.low_enrollment) : null;
  }

  // turnHere: the turn's moves are this phone's (its student's turn, or a kept seat's on the host's page)
  function movesCard(table, you, current, turnHere, act) {
    const s = table.state;
    const mine = !!s.students[you.actor];
    const heading = el("h2", {}, current === you.actor ? "Your turn" : `${s.names[current]}'s turn`);
    const parts = [heading];
    if (turnHere) {
      const actions = turnMoves(table, act);
      parts.push(actions.length ? el("div", {class: "grid ms-actions"}, ...actions) : null, completeForm(table, act), castButtons(table, act));
    } else if (!mine && you.host && table.seats.some((seat) => seat.id === current && !seat.phone)) {
      // the host makes the moves of a seat without a phone by playing for it (table.js's seat chips)
      parts.push(el("p", {class: "note", "data-testid": "play-for"}, `${s.names[current]} has no phone: choose ${s.names[current]} under “This phone plays for” to make their moves.`));
    }
    const trade = move(table, act, "Remove ingredient to trade", "trade_remove", {}, "");
    parts.push(trade ? el("div", {class: "grid"}, trade) : null, giveForm(table, act));
    parts.push(move(table, act, "End turn", "end_turn", {}, "primary"));
    if (s.grading) parts.push(el("p", {class: "note"}, "Grading is called: everyone else has one last turn."));
    parts.push(lowEnrollment(s));
    return el("section", {class: "card ms-moves"}, ...parts.filter(Boolean));
  }

  // The host's corrections of the students other than the one this phone plays (their spells' effects).
  function numbersCard(table, you, act) {
    const s = table.state;
    const others = s.players.filter((id) => id !== you.actor && offers(table).some((m) => m.for === id && ["spirit", "stone"].includes(m.type)));
    if (!others.length) return null;
    // −1, the number, +1; a button not offered leaves its place empty, so the numbers line up
    const group = (id, type, word) => el("div", {class: "ms-fix-group"},
      nudge(table, act, type, id, -1, `${s.names[id]}'s ${word} −1`) || el("span", {}),
      el("div", {class: "ms-fix-value"}, el("strong", {class: "live"}, String(type === "spirit" ? s.students[id].spirit : s.students[id].stones)),
        el("span", {class: "label"}, word)),
      nudge(table, act, type, id, 1, `${s.names[id]}'s ${word} +1`) || el("span", {}));
    return el("section", {class: "card"}, el("h2", {}, "Put numbers right"),
      el("div", {class: "ms-fix"}, ...others.map((id) => el("div", {class: "ms-fix-row", "data-student": id},
        el("div", {class: "label"}, s.names[id]),
        el("div", {class: "ms-fix-nums"}, group(id, "spirit", "spirit"), group(id, "stone", "stones"))))));
  }

  // Everyone's numbers, a line each: the student whose turn it is marked.
  function classCard(table, you, current) {
    const s = table.state;
    const rows = s.players.map((id) => el("tr", {class: id === current ? "turn" : null},
      el("td", {}, s.names[id] + (id === you.actor ? " (you)" : "")),
      el("td", {class: "live"}, String(s.students[id].spirit ?? "–")),
      el("td", {class: "live"}, String(s.credits[id])), el("td", {class: "live"}, String(s.students[id].stones))));
    return el("section", {class: "card"}, el("table", {class: "scores ms-scores"},
      el("thead", {}, el("tr", {}, ...["Student", "Spirit", "Credits", "Stones"].map((h) => el("th", {}, h)))),
      el("tbody", {}, ...rows)));
  }

  // Each student's spellbook, spell by spell with its credits.
  function spellbooks(table, you) {
    const s = table.state;
    const held = s.players.filter((id) => s.students[id].spellbook.length);
    if (!held.length) return null;
    return el("section", {class: "card ms-books", "data-testid": "spellbooks"}, el("h2", {}, "Spellbooks"),
      ...held.map((id) => el("div", {"data-student": id},
        el("div", {class: "label"}, `${s.names[id]}${id === you.actor ? " (you)" : ""} · ${creditsLabel(s.credits[id])}`),
        el("p", {class: "ms-book"}, s.students[id].spellbook.map((e) => `${upper(e.spell)} ${e.credits}`).join(" · ")))));
  }

  function render(root, table, you, act) {
    redraw = () => render(root, table, you, act);
    const s = table.state;
    const current = s.turn === null ? null : s.players[s.turn];
    const mine = s.phase !== "joining" && !!s.students[you.actor];
    if (s.phase === "joining") {  // the lobby (table.js) has who has joined, and Start; no sections yet
      root.replaceChildren(...[lowEnrollment(s)].filter(Boolean), ...window.SpellpressSections.show([], "play", redraw));
      return;
    }
    const playing = s.phase === "playing";
    // the server offers the turn's moves to the phone that makes them: its student's, or the host's
    // page for a seat without a phone
    const turnHere = playing && offered(table, "end_turn");
    // a student's turn first, everyone's numbers a tap away so a long turn stays short; a phone
    // that plays no turn now and has no seat (a follower's, the host's) sees the numbers first
    const numbersFirst = !playing || (!mine && !turnHere);
    const play = [mine ? meCard(table, you, current, act) : null];
    if (playing) {
      play.push(movesCard(table, you, current, turnHere, act));
    } else {
      const names = s.winners.map((id) => s.names[id]);
      play.push(el("section", {class: "card"}, el("h2", {}, "The semester is over"),
        el("p", {class: "winner-line"}, names.length > 1 ? `Tie: ${names.join(" and ")}` : `${names[0] ?? "Nobody"} wins`)));
    }
    const scores = classCard(table, you, current);
    root.replaceChildren(...window.SpellpressSections.show([
      {id: "play", label: "Semester", nodes: [...play, numbersFirst ? scores : null]},
      {id: "class", label: "Class", nodes: [numbersFirst ? null : scores, spellbooks(table, you)]},
      {id: "numbers", label: "Numbers", nodes: [playing ? numbersCard(table, you, act) : null]},
    ], "play", () => redraw()));
  }

  // History lines in words, one sentence a move: a spell by its printed word, a student by name.
  // Magic Spell hides nothing the tracker holds, so every phone reads the same lines.
  const stones = (n) => (n === 1 ? "a philosopher's stone" : `${n} philosopher's stones`);
  const SAID = {
    start: () => "started the semester",
    rest: () => "rested",
    research: () => "researched a new spell",
    weave: () => "wove an ingredient into a spell",
    scrounge: (p) => (p.woven ? "scrounged and wove it into a spell" : "scrounged and kept it or put it back"),
    weave_again: () => "paid a spirit to weave again",
    move_ingredient: () => "moved an ingredient from one spell to another",
    cast: (p) => `cast ${upper(p.spell)}`,
    complete_spell: (p) => `completed ${upper(p.spell)}` + (p.by_card ? ` by ${upper(p.by_card)}` : "") +
      (p.stone ? ", a philosopher's stone in it (out of the game)" : ""),
    end_turn: () => "ended their turn",
    trade_remove: () => "paid a spirit to take an ingredient off a spell to trade it",
    give_spell: (p, s) => `gave ${upper(p.spell)} to ${s.names[p.to] ?? "someone"}`,
    spirit: (p) => `${p.delta > 0 ? "gained" : "lost"} ${Math.abs(p.delta)} spirit`,
    stone: (p) => (p.delta > 0 ? `gained ${stones(p.delta)}`
      : `gave up ${stones(-p.delta)} ` + (p.in_play ? "onto a spell or into a trade" : "to the laboratory (out of the game)")),
  };
  function describe(entry, table) {
    const said = SAID[entry.type];
    return said ? said(entry.payload, table.state) : null;
  }

  const begun = (s) => s.phase !== "joining";  // table.js folds the invite then
  window.SpellpressGames["magic-spell"] = {render, describe, begun};
})();
