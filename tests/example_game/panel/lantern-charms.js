// Lantern Charms (the tests' example game, docs/adding-a-game.md): whose turn it is, the phone's
// own hand and every lantern with its score. Each charm of the hand carries a button for each move
// the server offers this phone with it now (table.moves): Kindle, and Douse for each lantern it may
// douse; a phone without offers draws none. The lobby (table.js) draws Start.
"use strict";
(() => {
  const {el, move, values} = window.SpellpressUI;
  let redraw = () => {};

  const suitName = (s, id) => (s.suits.find((suit) => suit.id === id) || {name: id}).name;
  const charm = (s, card) => `${card.name} · ${suitName(s, card.suit)} ${card.number}`;

  // A charm in the hand: the moves offered with it, one button each (data-move, from move()).
  function held(table, act, card) {
    const s = table.state;
    const douses = values(table, "douse", "target", {card: card.name}).map((target) =>
      move(table, act, `Douse ${s.names[target]}`, "douse", {card: card.name, target}));
    return el("li", {class: "lc-held"}, el("span", {}, charm(s, card)),
      el("div", {class: "lc-moves"}, move(table, act, "Kindle", "kindle", {card: card.name}), ...douses));
  }

  // A lantern: its owner, their score and the charms they still hold, then its cards, the last on top.
  function lantern(s, player, turn) {
    const cards = s.lanterns[player];
    return el("div", {class: "lc-lantern" + (player === turn ? " turn" : "")},
      el("div", {class: "row spread"}, el("strong", {}, s.names[player]),
        el("span", {class: "live"}, `${s.scores[player]} points · ${s.held[player]} in hand`)),
      el("ol", {class: "lc-cards"}, ...(cards.length
        ? cards.map((card) => card.by === player ? el("li", {}, charm(s, card))
          : el("li", {class: "lc-doused"}, charm(s, card), el("span", {class: "note"}, ` · doused by ${s.names[card.by]}`)))
        : [el("li", {class: "note"}, "Dark: nothing laid yet")])));
  }

  function status(s, turn, you) {
    if (s.phase === "over") {
      const names = s.winners.map((id) => s.names[id]);
      return el("h2", {"data-testid": "winners"}, names.length > 1 ? `Tie: ${names.join(" and ")}` : `${names[0]} wins`);
    }
    return el("p", {class: "lc-status", role: "status"}, turn === you.actor ? "Your turn" : `${s.names[turn]}'s turn`);
  }

  function render(root, table, you, act) {
    redraw = () => render(root, table, you, act);
    const s = table.state;
    const nodes = [];
    if (s.phase !== "joining") {
      const turn = table.flow.turn;
      nodes.push(el("section", {class: "card"}, status(s, turn, you),
        s.hand.length ? el("ul", {class: "lc-hand", "aria-label": "Your hand"}, ...s.hand.map((card) => held(table, act, card))) : null));
      nodes.push(el("section", {class: "card"}, el("h2", {}, "Lanterns"), ...s.players.map((player) => lantern(s, player, turn))));
    }
    root.replaceChildren(...window.SpellpressSections.show([{id: "table", label: "Table", nodes}], "table", () => redraw()));
  }

  // History lines in words. The deal shows this phone its own hand only (the server redacts it).
  function describe(entry, table) {
    const p = entry.payload;
    if (entry.type === "start") return `dealt ${Object.values(p.counts)[0]} charms to each player`;
    if (entry.type === "kindle") return `kindled ${p.card}`;
    if (entry.type === "douse") return `doused ${table.state.names[p.target]}'s lantern with ${p.card}`;
    return null;
  }

  window.SpellpressGames["lantern-charms"] = {render, describe};
})();
