// Spells and Potions: the duel's two teams with their tricks large (one tap records a trick),
// the trick judge fed by taps in the order played, trump by tap, and the tournament's totals.
// Every choice shown (elements, ranks, Spells and Potions cards, how many cards a trick has) is
// the state's, which has it from the content; a button is live only for a move the server offers
// now (table.moves: the cards still in the duel's hands, a trick while tricks are left, trump only
// after a Trump Choice).
"use strict";
(() => {
  const {el, move, offered} = window.SpellpressUI;
  const SEATS = ["north", "east", "south", "west"];

  // The trick being entered lives here, not in the DOM: every event redraws the whole panel.
  const emptyTrick = (duel) => ({duel, cards: [], suit: null, leader: null});
  let trick = emptyTrick(null);
  let redraw = () => {};

  function who(s, member) {
    if (member === "companion") return "Companion";
    if (member.startsWith("companion:")) return `${s.names[member.slice(10)]}'s Companion`;
    return s.names[member];
  }

  const teamName = (s, team) => s.teams[team].map((m) => who(s, m)).join(" & ");
  const seatOf = (s, member) => SEATS.find((seat) => s.seats[seat] === member);
  const capital = (word) => word[0].toUpperCase() + word.slice(1);

  // By id; an older log may hold an element as it was typed.
  function elementName(s, id) {
    const suit = s.elements.find((e) => e.id === id);
    return suit ? suit.name : id;
  }

  const cardText = (s, card) => card.name || `${elementName(s, card.suit)} ${card.rank}`;

  // The content's rich text (**bold**, *italic*, :icon:) as nodes; an icon is said by its name.
  function rich(text) {
    return text.split(/(\*\*[^*]+\*\*|\*[^*]+\*|:[a-z][a-z0-9-]*:)/).map((part, i) => {
      if (i % 2 === 0) return part;
      if (part.startsWith("**")) return el("strong", {}, part.slice(2, -2));
      if (part.startsWith("*")) return el("em", {}, part.slice(1, -1));
      return part.slice(1, -1);
    });
  }

  // A choice among several: the chosen one is marked for sight (colour) and for screen readers.
  // `move`: the type of the move the button is part of (data-move, as table.js's move buttons).
  function choice(label, chosen, onclick, disabled = false, name = null, move = null) {
    return el("button", {class: chosen ? "sp-chosen" : "", "aria-pressed": String(chosen), "aria-label": name, onclick, disabled,
      "data-move": move}, ...label);
  }

  // An element's letter above its name (colour is never the only cue); its name is what a screen reader says.
  const elementChoice = (e, chosen, onclick, disabled = false, move = null) =>
    choice([el("span", {class: "sp-letter"}, e.letter), el("span", {class: "sp-name"}, e.name)], chosen, onclick, disabled, e.name, move);

  function leaderLine(s) {
    if (s.leader) return `Leads the first trick: ${who(s, s.leader)} (${capital(seatOf(s, s.leader))})`;
    if (s.leader_chooser) return `${who(s, s.leader_chooser)} lost duel ${s.duel} and chooses who leads the first trick`;
    return "The Arranger chooses who leads the first trick";
  }

  // The seat that leads this trick when the rules say so: the duel's leader leads its first trick,
  // a judged trick's winner the next one (unless a card let the winner choose).
  function ruledLeader(s) {
    if (s.tricks[0] + s.tricks[1] === 0) return s.leader ? seatOf(s, s.leader) : null;
    return s.last_trick && !s.last_trick.winner_picks_leader ? s.last_trick.seat ?? null : null;
  }

  const seatName = (s, seat) => `${who(s, s.seats[seat])} (${capital(seat)})`;

  function trickJudge(table, act) {
    const s = table.state;
    if (trick.duel !== s.duel) trick = emptyTrick(s.duel);
    const change = (update) => { trick = {...trick, ...update}; redraw(); };
    const add = (card) => change({cards: [...trick.cards, card], suit: null});
    const full = trick.cards.length >= s.hands;
    const leader = trick.leader ?? ruledLeader(s);
    // who plays each card: the state's order of play from the leader's seat (the rules' and our ruling's)
    const order = leader === null ? null : s.orders[leader];
    // a card may join the trick while the server would take it in one: still in a hand, and not in this trick too often
    const fits = (card) => !full && offered(table, "judge_trick", {cards: [...trick.cards, card]});

    async function judgeAndRecord() {
      // a refused trick stays as entered, to be put right
      if (await act("judge_trick", {leader, cards: trick.cards})) change(emptyTrick(s.duel));
    }

    return el("section", {class: "card sp-judge"},
      el("div", {class: "row spread"}, el("h2", {}, "Trick judge"),
        el("span", {class: "note", "data-testid": "trick-progress"},
          `${trick.cards.length} of ${s.hands} cards` + (full && leader === null ? " · tap who led" : ""))),
      el("div", {class: "label"}, "Led by"),
      el("div", {class: "sp-two"}, ...SEATS.map((seat) =>
        choice([seatName(s, seat)], leader === seat, () => change({leader: seat}), !offered(table, "judge_trick", {leader: seat}), null, "judge_trick"))),
      el("ol", {class: "sp-trick", "aria-label": "The trick so far"}, ...(trick.cards.length
        ? trick.cards.map((card, i) => el("li", {}, cardText(s, card),
          order === null ? null : el("span", {class: "note"}, ` · ${who(s, s.seats[order[i]])}`)))
        : [el("li", {class: "note sp-empty"}, "Tap the cards in the order they were played.")])),
      el("div", {class: "label"}, "Element card: element, then rank"),
      el("div", {class: "sp-elements"}, ...s.elements.map((e) =>
        elementChoice(e, trick.suit === e.id, () => change({suit: trick.suit === e.id ? null : e.id}),
          full || !offered(table, "judge_trick"), "judge_trick"))),
      el("div", {class: "sp-ranks"}, ...s.ranks.map((rank) =>
        el("button", {onclick: () => add({suit: trick.suit, rank}), disabled: !trick.suit || !fits({suit: trick.suit, rank}), "data-move": "judge_trick",
          "aria-label": trick.suit ? cardText(s, {suit: trick.suit, rank}) : `Rank ${rank}`}, String(rank)))),
      el("div", {class: "label"}, "Spells and Potions card"),
      el("div", {class: "sp-magic"}, ...s.magic_cards.map((card) =>
        el("button", {onclick: () => add({name: card.name}), disabled: !fits({name: card.name}), "data-move": "judge_trick"},
          card.name, card.points ? el("span", {class: "sp-points"}, ` ${card.points > 0 ? "+" : "−"}${Math.abs(card.points)}`) : null))),
      el("div", {class: "sp-two"},
        el("button", {onclick: () => change({cards: trick.cards.slice(0, -1)}), disabled: !trick.cards.length}, "Remove last"),
        el("button", {class: "act", onclick: judgeAndRecord, "data-move": "judge_trick",
          disabled: !full || leader === null || !offered(table, "judge_trick", {leader, cards: trick.cards})}, "Judge and record")));
  }

  function verdict(s) {
    const t = s.last_trick;
    const winning = t.cards[t.winner];
    return el("section", {class: "card sp-verdict", "data-testid": "verdict"}, el("h2", {}, "Last trick"),
      el("p", {}, `Card ${t.winner + 1}, ${cardText(s, winning)}, wins it for ${teamName(s, t.team)}: worth ${t.value}.`),
      t.winner_picks_leader ? el("p", {class: "sp-prompt"}, "The trick's winner chooses who leads the next trick.") : null,
      t.rulings.length ? el("details", {class: "sp-fold"}, el("summary", {}, `Our ruling${t.rulings.length > 1 ? "s" : ""} on this trick`),
        ...t.rulings.map((words) => el("p", {class: "note"}, ...rich(words)))) : null);
  }

  function trumpChoice(table, act) {
    const s = table.state;
    return el("section", {class: "card sp-trump" + (s.trump_choice_due ? " sp-due" : "")},
      el("h2", {}, "Trump choice"),
      s.trump_choice_due ? el("p", {class: "sp-prompt", role: "status"}, "The trick's winner picks the trump") : null,
      el("div", {class: "sp-elements"}, ...s.elements.map((e) =>
        // trump changes only when a Trump Choice has won a trick: the server offers it then
        elementChoice(e, s.trump === e.id, () => act("set_trump", {suit: e.id}), !offered(table, "set_trump", {suit: e.id}), "set_trump"))));
  }

  // The duel at a glance: each team's tricks with a tap to record one, the trump, who leads, and
  // the end of the duel; the seats and our rulings folded below.
  function duel(table, you, act) {
    const s = table.state;
    const rulings = s.rulings || [];
    const seating = el("details", {class: "sp-fold"}, el("summary", {}, rulings.length ? "Seats and our rulings" : "Seats"),
      el("p", {class: "note sp-seats"}, "Seats: " + SEATS.map((seat) => `${capital(seat)}: ${who(s, s.seats[seat])}`).join(" · ")),
      ...rulings.map((words) => el("p", {class: "note", "data-testid": "table-ruling"}, ...rich(words))));
    return el("section", {class: "card"},
      el("div", {class: "row spread"}, el("h2", {}, `Duel ${s.duel + 1}`),
        el("span", {}, "Trump: ", el("strong", {class: "live", "data-testid": "trump"}, elementName(s, s.trump)))),
      el("div", {class: "sp-two"}, ...[0, 1].map((team) => el("div", {class: "card sp-team" + (s.teams[team].includes(you.actor) ? " me" : "")},
        el("div", {class: "label"}, teamName(s, team)),
        el("div", {class: "big live", "data-testid": `tricks-${team}`}, String(s.tricks[team])),
        el("div", {class: "label"}, `tricks · potions ${s.potions[team]}`),
        move(table, act, "+ trick", "trick", {team})))),
      el("p", {class: "note", "data-testid": "leader"}, leaderLine(s)),
      seating,
      el("div", {class: "row spread"},
        el("span", {class: "note"}, `${s.tricks[0] + s.tricks[1]} of ${s.tricks_per_duel} tricks`),
        move(table, act, "End the duel", "end_duel", {}, "primary")));
  }

  function render(root, table, you, act) {
    redraw = () => render(root, table, you, act);
    const s = table.state;
    const parts = [];
    if (s.phase === "joining") {  // the lobby (table.js) has Start; the letters seat the tournament
      if (s.players.length) {
        parts.push(el("p", {class: "note"}, "Wizards by letter: " + s.players.map((id, i) => `${"ABCD"[i]}: ${s.names[id]}`).join(", ")));
      }
    }
    if (s.phase === "over") {
      const names = s.winners.map((id) => s.names[id]);
      parts.push(el("section", {class: "card"}, el("h2", {}, "The tournament is over"),
        el("p", {class: "winner-line"}, names.length > 1 ? `Tie: ${names.join(" and ")}` : `${names[0]} wins`),
        el("table", {class: "scores"}, el("tbody", {}, ...s.players.map((id) =>
          el("tr", {}, el("td", {}, s.names[id]), el("td", {class: "live"}, String(s.totals[id]))))))));
    }
    const playing = s.phase === "playing";
    const duels = s.duels.length ? el("section", {class: "card", "data-testid": "duels"}, el("h2", {}, "Duels"), el("table", {class: "scores"},
      el("tbody", {}, ...s.duels.map((d, i) => el("tr", {}, el("td", {}, `Duel ${i + 1}`),
        el("td", {}, `${d.scores[0]} – ${d.scores[1]}`)))))) : null;
    // a trump choice waiting is shown wherever the phone is, in the judge's place: the next trick waits for it
    const trump = playing && s.trump_choice_due ? trumpChoice(table, act) : null;
    parts.push(...window.SpellpressSections.show([
      {id: "duel", label: "Duel", nodes: playing ? [trump, duel(table, you, act), s.last_trick ? verdict(s) : null] : []},
      {id: "trick", label: "Judge", nodes: playing ? [trump || trickJudge(table, act)] : []},
      {id: "duels", label: "Duels", nodes: [duels]},
    ], playing ? "duel" : "duels", () => redraw()));
    root.replaceChildren(...parts);
  }

  // History lines in words: the cards of a judged trick, the team a trick went to.
  function describe(entry, table) {
    const p = entry.payload;
    if (entry.type === "judge_trick") return `judged a trick: ${p.cards.map((c) => cardText(table.state, c)).join(", ")}`;
    if (entry.type === "start") return "started the duel";
    if (entry.type === "trick") return `gave a trick to team ${p.team + 1}` + (p.potions.length ? ` (${p.potions.join(", ")})` : "");
    if (entry.type === "set_trump") return `made ${elementName(table.state, p.suit)} trump`;
    if (entry.type === "end_duel") return "ended the duel";
    return null;
  }

  const begun = (s) => s.phase !== "joining";  // table.js folds the invite then
  window.SpellpressGames["spells-and-potions"] = {render, describe, begun};
})();
