// Merchants of Magick on the projector (/t/<code>/projector): the round and its phase, the dice
// huge, who is ready, the Masteries in play beside the QR code, and the final standings.
// static/projector.js follows the table and calls layout() once, then render() on every change.
"use strict";
(() => {
  const {el, drawDice} = window.SpellpressProjector;
  const $ = (id) => document.getElementById(id);
  let dieIds = [];
  const columns = {};

  document.querySelector(".pj-side").append(el("div", {id: "masteries", class: "pj-masteries live", "aria-label": "Masteries in play"}));

  function columnName(id) {
    return columns[id] || id.charAt(0).toUpperCase() + id.slice(1);
  }

  function layout(sheet) {
    dieIds = (sheet.dice || []).map((d) => d.id);
    for (const c of sheet.columns || []) columns[c.id] = c.name;
  }

  function render(view) {
    const s = view.state;
    const rolled = s.dice && Object.keys(s.dice).length > 0;
    const ids = dieIds.length ? dieIds : Object.keys(s.dice || {});
    const players = s.players || [];
    // the table's stage (joining, playing, over); the round's own phase is round_phase
    const joining = s.phase === "joining";
    $("round").textContent = joining ? "Not started yet"
      : s.phase === "over" ? `Game over after ${s.rounds} rounds` : `Round ${s.round} of ${s.rounds}`;
    $("phase").textContent = joining || s.phase === "over" ? "" : (s.round_phase_name || "") + " phase";
    $("ready").textContent = joining
      ? `${players.length} merchant${players.length === 1 ? "" : "s"} joined`
      : s.phase === "over" ? "" : `${s.ready_count} of ${players.length} ready`;

    const over = s.phase === "over";
    $("dice").hidden = over;
    $("over").hidden = !over;
    if (over) drawStandings(s.standings || []);
    else if (rolled) drawDice(ids, s.dice, `${s.round}`);
    else drawDice(ids, null, "");
    if (!rolled && !over && !joining) $("phase").textContent = "Waiting for the roll";

    // Names with a tick when ready; a room-sized table shows the count only.
    const chips = players.length <= 12 ? players.map((p) => el("span", {class: "pj-player" + (p.ready ? " pj-is-ready" : "")},
      (p.ready ? "✓ " : "") + p.name)) : [];
    $("players").replaceChildren(...chips);

    $("masteries").replaceChildren(...(s.masteries || []).map((m) => {
      const value = m[m.side];
      return el("div", {class: "pj-mastery pj-" + m.side},
        el("p", {class: "pj-m-name"}, m.name),
        el("p", {class: "pj-m-rule"}, `${m.circles} circles in ${columnName(m.column)}`),
        el("p", {class: "pj-m-value"},
          el("span", {class: "pj-m-side"}, m.side === "master" ? "Master" : "Apprentice"),
          ` ${value} coins`));
    }));
    if (s.masteries && s.masteries.length) $("masteries").prepend(el("h2", {}, "Masteries"));
  }

  function drawStandings(standings) {
    const rows = standings.slice(0, 8).map((r) => el("tr", {class: r.place === 1 ? "pj-first" : null},
      el("td", {}, String(r.place)), el("td", {}, r.name), el("td", {class: "num"}, String(r.total))));
    $("over").replaceChildren(el("h2", {class: "pj-final"}, "Final standings"), el("table", {class: "pj-leaders"},
      el("colgroup", {}, el("col", {class: "pj-c-place"}), el("col"), el("col", {class: "pj-c-num"})),
      el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, "Merchant"), el("th", {class: "num"}, "Coins"))),
      el("tbody", {}, ...rows)));
  }

  window.SpellpressProjectors = window.SpellpressProjectors || {};
  window.SpellpressProjectors["merchants-of-magick"] = {layout, render};
})();
