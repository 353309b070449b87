// Magic Spell: your spirit large, your turn's moves as big buttons, the class's numbers below.
"use strict";
(() => {
  const {el, button} = window.SpellpressUI;

  function wordForm(label, type, act) {
    const input = el("input", {placeholder: "Magic word", maxlength: 40, autocapitalize: "characters", "aria-label": label});
    const form = el("form", {class: "row"}, input, el("button", {class: "act"}, label));
    form.addEventListener("submit", (e) => { e.preventDefault(); if (input.value.trim()) act(type, {spell: input.value.trim()}); });
    return form;
  }

  function render(root, table, you, act) {
    const s = table.state;
    const mine = s.students[you.actor];
    const current = s.turn === null ? null : s.order[s.turn];
    const myTurn = current !== null && (current === you.actor || (you.host && !mine));
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
        you.host ? button("Start the semester", () => act("start", {}, true)) : el("p", {class: "note"}, "The host starts the semester.")));
    } else if (s.phase === "playing") {
      const moves = el("section", {class: "card"});
      if (myTurn) {
        moves.append(el("h2", {}, current === you.actor ? "Your turn" : `${s.students[current].name}'s turn`),
          el("div", {class: "grid"},
            button("Rest", () => act("rest")), button("Research", () => act("research")),
            button("Weave", () => act("weave")), button("Scrounge", () => act("scrounge")),
            button("Weave again", () => act("weave_again"), ""), button("Move ingredient", () => act("move_ingredient"), "")),
          wordForm("Cast", "cast", act), wordForm("Complete", "complete_spell", act),
          el("div", {class: "row"}, button("End turn", () => act("end_turn"), "primary")));
      } else if (mine) {
        moves.append(el("h2", {}, `${s.students[current].name}'s turn`),
          el("div", {class: "grid"}, button("Remove ingredient to trade", () => act("trade_remove"), "")));
      }
      if (mine) {
        moves.append(el("div", {class: "grid"},
          button("Spirit +1", () => act("spirit", {delta: 1}), ""), button("Spirit −1", () => act("spirit", {delta: -1}), ""),
          button("Stone +1", () => act("stone", {delta: 1}), ""), button("Stone −1", () => act("stone", {delta: -1}), "")));
      }
      if (s.grading) moves.append(el("p", {class: "note"}, "Grading is called: everyone else has one last turn."));
      parts.push(moves);
    } else {
      const names = s.winners.map((id) => s.students[id].name);
      parts.push(el("section", {class: "card"}, el("h2", {}, "The semester is over"),
        el("p", {class: "big"}, names.length > 1 ? `Tie: ${names.join(" and ")}` : `${names[0] ?? "Nobody"} wins`)));
    }

    const rows = s.order.map((id) => {
      const st = s.students[id];
      const book = st.spellbook.map((b) => b.spell).join(", ");
      return el("tr", {class: id === current ? "turn" : null},
        el("td", {}, st.name + (id === you.actor ? " (you)" : ""), book ? el("div", {class: "small"}, book) : null),
        el("td", {class: "live"}, String(st.spirit ?? "–")),
        el("td", {class: "live"}, String(s.credits[id])), el("td", {class: "live"}, String(st.stones)));
    });
    parts.push(el("section", {class: "card"}, el("table", {class: "scores"},
      el("thead", {}, el("tr", {}, ...["Student", "Spirit", "Credits", "Stones"].map((h) => el("th", {}, h)))),
      el("tbody", {}, ...rows))));
    root.replaceChildren(...parts);
  }

  window.SpellpressGames["magic-spell"] = {render};
})();
