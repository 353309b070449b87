// Spells and Potions: the duel's two teams with their tricks large (one tap records a trick),
// trump, the trick judge, and the tournament's totals.
"use strict";
(() => {
  const {el, button} = window.SpellpressUI;
  const SEATS = ["north", "east", "south", "west"];

  function who(s, member) {
    if (member === "companion") return "Companion";
    if (member.startsWith("companion:")) return `${s.names[member.slice(10)]}'s Companion`;
    return s.names[member];
  }

  // "fire 7" is an element card; anything else is a Spells and Potions card's name.
  function parseCard(text) {
    const match = text.trim().match(/^([a-z-]+)\s+(\d{1,2})$/i);
    return match ? {suit: match[1].toLowerCase(), rank: Number(match[2])} : {name: text.trim()};
  }

  function judgeForm(s, act) {
    const cards = el("textarea", {rows: 4, placeholder: "One card a line, in the order played:\nfire 7\nwater 10\nTrump Shield", "aria-label": "Cards of the trick", style: "width:100%;font:inherit;border-radius:10px;padding:8px"});
    const lead = el("select", {"aria-label": "Team that led"},
      new Option(`Led by ${s.teams[0].map((m) => who(s, m)).join(" & ")}`, "0"),
      new Option(`Led by ${s.teams[1].map((m) => who(s, m)).join(" & ")}`, "1"));
    const form = el("form", {}, cards, lead, el("button", {class: "act"}, "Judge and record"));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const played = cards.value.split("\n").filter((line) => line.trim()).map(parseCard);
      if (played.length) act("judge_trick", {lead: Number(lead.value), cards: played});
    });
    return el("details", {class: "card"}, el("summary", {}, "Trick judge"), form);
  }

  function render(root, table, you, act) {
    const s = table.state;
    const parts = [];
    if (s.phase === "joining") {
      parts.push(el("section", {class: "card"},
        el("p", {}, `${s.players.length} of ${s.wizards} wizards: ${s.players.map((id, i) => `${"ABCD"[i]}: ${s.names[id]}`).join(", ") || "waiting"}`),
        you.host ? button("Start the tournament", () => act("start", {}, true)) : el("p", {class: "note"}, "The host starts the tournament.")));
    } else if (s.phase === "playing") {
      parts.push(el("section", {class: "card"},
        el("div", {class: "row spread"}, el("h2", {}, `Duel ${s.duel + 1}`), el("span", {}, "Trump: ", el("strong", {class: "live"}, s.trump))),
        el("div", {class: "grid"}, ...[0, 1].map((team) => el("div", {class: "card" + (s.teams[team].includes(you.actor) ? " me" : "")},
          el("div", {class: "label"}, s.teams[team].map((m) => who(s, m)).join(" & ")),
          el("div", {class: "big live", "data-testid": `tricks-${team}`}, String(s.tricks[team])),
          el("div", {class: "label"}, `tricks · potions ${s.potions[team]}`),
          button("+ trick", () => act("trick", {team}))))),
        el("p", {class: "small"}, "Seats: " + SEATS.map((seat) => `${seat[0].toUpperCase() + seat.slice(1)}: ${who(s, s.seats[seat])}`).join(" · ")),
        el("div", {class: "row"}, button("End the duel", () => act("end_duel"), "primary"))));
      if (s.last_trick) {
        const t = s.last_trick;
        parts.push(el("section", {class: "card"}, el("h2", {}, "Last trick"),
          el("p", {}, `Card ${t.winner + 1} wins it for ${s.teams[t.team].map((m) => who(s, m)).join(" & ")}: worth ${t.value}.`),
          ...t.rulings.map((r) => el("p", {class: "note"}, r))));
      }
      const trump = el("input", {placeholder: "Element", "aria-label": "New trump element"});
      const form = el("form", {class: "row"}, trump, el("button", {}, "Set trump"));
      form.addEventListener("submit", (e) => { e.preventDefault(); if (trump.value.trim()) act("set_trump", {suit: trump.value.trim().toLowerCase()}); });
      parts.push(el("section", {class: "card"}, el("h2", {}, "Trump choice"), form), judgeForm(s, act));
    } else {
      const names = s.winners.map((id) => s.names[id]);
      parts.push(el("section", {class: "card"}, el("h2", {}, "The tournament is over"),
        el("p", {class: "big"}, names.length > 1 ? `Tie: ${names.join(" and ")}` : `${names[0]} wins`),
        el("table", {class: "scores"}, el("tbody", {}, ...s.players.map((id) =>
          el("tr", {}, el("td", {}, s.names[id]), el("td", {class: "live"}, String(s.totals[id]))))))));
    }
    if (s.duels.length) {
      parts.push(el("section", {class: "card"}, el("h2", {}, "Duels"), el("table", {class: "scores"},
        el("tbody", {}, ...s.duels.map((d, i) => el("tr", {}, el("td", {}, `Duel ${i + 1}`),
          el("td", {}, `${d.scores[0]} – ${d.scores[1]}`)))))));
    }
    root.replaceChildren(...parts);
  }

  const cardText = (c) => c.name || `${c.suit} ${c.rank}`;

  // History lines in words: the cards of a judged trick, the team a trick went to.
  function describe(entry, table) {
    const p = entry.payload;
    if (entry.type === "judge_trick") return `judged a trick: ${p.cards.map(cardText).join(", ")}`;
    if (entry.type === "trick") return `a trick to team ${p.team + 1}` + (p.potions.length ? ` (${p.potions.join(", ")})` : "");
    if (entry.type === "set_trump") return `trump is now ${p.suit}`;
    if (entry.type === "end_duel") return "ended the duel";
    return null;
  }

  window.SpellpressGames["spells-and-potions"] = {render, describe};
})();
