// Spellcycles on the projector (/t/<code>/projector): the casting field large (each space's top
// piece in its colour, its letter and its size as pips), the spell line with its moon crescents
// and each spell's pattern, whose turn and which step, the last knucklebone roll, and each wizard's
// essence and how many certificates they hold (a count: the projector is a spectator and is sent
// no card). static/projector.js follows the table and calls render() on every change.
"use strict";
(() => {
  const {el} = window.SpellpressProjector;
  const $ = (id) => document.getElementById(id);

  // Okabe-Ito inks (they stay apart for colour-blind eyes); the letter says the colour too.
  const INK = {red: "#d55e00", yellow: "#f0e442", green: "#009e73", blue: "#0072b2", white: "#ffffff", black: "#1a1a1a"};
  const LETTER = {red: "R", yellow: "Y", green: "G", blue: "B", white: "W", black: "K"};
  const DARK_TEXT = new Set(["yellow", "white", "green"]);  // dark letters read best on these
  const PIPS = {small: 1, medium: 2, large: 3};
  const STEP = {refresh: "Refresh", renew: "Renew", contribute: "Contribute", reap: "Reap"};
  const title = (word) => word.charAt(0).toUpperCase() + word.slice(1);

  // The field and the spell line take the dice's place; the roll sits in the header's right.
  const board = $("dice");
  board.classList.add("sc-board");
  board.setAttribute("aria-label", "The casting field and the spell line");
  const field = el("div", {class: "sc-field", "data-testid": "field", role: "img", "aria-label": "The casting field"});
  const line = el("div", {class: "sc-line", "data-testid": "line", "aria-label": "The spell line"});
  board.replaceChildren(field, line);
  $("phase").classList.add("sc-step");
  const roll = el("div", {class: "sc-roll live", "data-testid": "roll", "aria-label": "The last knucklebone roll"});
  $("ready").replaceWith(roll);

  function swatch(colour, cls = "sc-piece") {
    return el("span", {class: `${cls} sc-${colour}`, style: `--ink: ${INK[colour] || "#888"}`}, LETTER[colour] || "?");
  }

  function space(stack) {
    const cell = el("div", {class: "sc-space"});
    if (!stack.length) return cell;
    const [colour, size] = stack[stack.length - 1];  // the top piece is what a pattern reads
    cell.append(swatch(colour), el("span", {class: "sc-pips", "aria-label": size}, "●".repeat(PIPS[size] || 0)));
    cell.classList.add(DARK_TEXT.has(colour) ? "sc-on-light" : "sc-on-dark");
    cell.style.setProperty("--ink", INK[colour] || "#888");
    if (stack.length > 1) cell.append(el("span", {class: "sc-height", title: "pieces in this stack"}, String(stack.length)));
    return cell;
  }

  function drawField(s) {
    field.hidden = !s.field;
    if (!s.field) return;
    field.style.setProperty("--n", String(s.field_size || 8));
    field.replaceChildren(...s.field.map((stack) => space(stack)));
  }

  // A pattern cell: a colour, a stack of colours (bottom first), a vacant or marked space, a gap.
  function patternCell(cell) {
    if (Array.isArray(cell)) return el("span", {class: "sc-cell sc-stack"}, ...cell.slice().reverse().map((c) => swatch(c, "sc-mini")));
    if (cell in INK) return el("span", {class: "sc-cell"}, swatch(cell, "sc-mini"));
    return el("span", {class: `sc-cell sc-${cell}`}, cell === "marked" ? "×" : "");
  }

  function cost(spell) {
    const e = spell.essence;
    const essence = e === "n" ? "n essence" : Array.isArray(e) ? `${e.join(" or ")} essence` : `${e} essence`;
    const parts = [essence, `${spell.prestige} prestige`];
    if (spell.certificates) parts.push(`pays ${spell.certificates} cert.`);
    return parts.join(" · ");
  }

  // One row a spell: its pattern, its name over its crescents and its cost.
  function drawLine(s) {
    const spells = s.line || [];
    line.style.setProperty("--rows", String(Math.max(4, spells.length)));
    line.replaceChildren(...spells.map((spell) => {
      const width = Math.max(...spell.pattern.map((row) => row.length));
      return el("div", {class: "sc-spell" + (spell.active ? " sc-active" : "") + (spell.cast ? " sc-cast" : ""),
        "data-testid": "spell"},
        el("div", {class: "sc-pattern", style: `--w: ${width}; --h: ${spell.pattern.length}`},
          ...spell.pattern.flatMap((row) => row.map(patternCell))),
        el("div", {class: "sc-spell-text"},
          el("p", {class: "sc-spell-name", title: spell.name}, spell.name),
          el("p", {class: "sc-spell-cost"},
            spell.crescents ? el("span", {class: "sc-moons", "aria-label": `${spell.crescents} moon crescents`}, "☾".repeat(spell.crescents)) : null,
            spell.cast ? el("span", {class: "sc-was-cast"}, "cast") : null,
            cost(spell))));
    }));
  }

  function drawRoll(s) {
    const last = s.last_roll;
    if (!last) {
      roll.replaceChildren(el("span", {class: "sc-roll-none"}, s.phase === "joining" ? "" : "Not rolled yet"));
      return;
    }
    const who = (s.players.find((p) => p.id === last.player) || {}).name || "";
    if (!last.faces.length) {  // Renew rolls nothing once the cauldron has no large piece left
      roll.replaceChildren(el("span", {class: "sc-roll-none"}, `No large piece left to roll for`));
      return;
    }
    const colour = last.piece || last.colours[last.colours.length - 1];
    roll.replaceChildren(
      el("span", {class: "sc-roll-who"}, `${who} rolled`),
      el("span", {class: "sc-face"}, String(last.faces[last.faces.length - 1])),
      swatch(colour, "sc-piece sc-roll-piece"),
      el("span", {class: "sc-roll-colour"}, last.piece ? title(colour) : `${title(colour)}: none left`));
  }

  function drawWizards(s) {
    const turn = s.turn ? s.turn.player : null;
    const best = s.phase === "over" ? new Set(s.winners || []) : new Set();
    $("players").replaceChildren(...(s.players || []).map((p) => el("span", {
      class: "pj-player sc-wizard" + (p.id === turn ? " sc-turn" : "") + (p.out ? " sc-out" : "") + (best.has(p.id) ? " sc-winner" : ""),
      "data-testid": "wizard"},
      el("b", {}, (best.has(p.id) ? "★ " : "") + p.name),
      // At the end, the score alone (it counts the certificates, or in a Duel the essence).
      p.score !== undefined ? el("b", {class: "sc-score"}, ` · ${p.score} points`)
        : p.essence === undefined ? null : ` ${p.essence} essence · ${p.certificates} cert.`,
      p.out ? " · out" : null)));
  }

  function render(view) {
    const s = view.state;
    const players = s.players || [];
    const over = s.phase === "over";
    if (s.phase === "joining") {
      $("round").textContent = "Not started yet";
      $("phase").textContent = `${players.length} wizard${players.length === 1 ? "" : "s"} joined`;
    } else if (over) {
      $("round").textContent = "Game over";
      const names = players.filter((p) => (s.winners || []).includes(p.id)).map((p) => p.name);
      $("phase").textContent = names.length ? `${names.join(" and ")} win${names.length === 1 ? "s" : ""}` : "";
    } else {
      const name = (players.find((p) => p.id === s.turn.player) || {}).name || "";
      $("round").textContent = `${name}'s turn`;
      $("phase").textContent = `Turn ${s.turn.number} · ${STEP[s.turn.step] || title(s.turn.step)}`;
    }
    drawField(s);
    drawLine(s);
    drawRoll(s);
    drawWizards(s);
    board.classList.toggle("sc-no-field", !s.field);
  }

  window.SpellpressProjectors = window.SpellpressProjectors || {};
  window.SpellpressProjectors.spellcycles = {render};
})();
