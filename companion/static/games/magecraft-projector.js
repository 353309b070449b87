// Magecraft on the projector (/t/<code>/projector): every wizard's public board side by side (HP,
// shield and score toward the goal large; discard and bag; on the phones the spellbooks left to
// right, the gems paid onto them and the mastered spells), the Academy beneath, whose turn and
// which phase in the header, and the scores along the bottom. The projector is a follower: it is
// sent no hand and no bag. static/projector.js follows the table and calls render() on every change.
"use strict";
(() => {
  const {el} = window.SpellpressProjector;
  const $ = (id) => document.getElementById(id);

  // The printed set's inks; each gem also shows its letter and its printed symbol (the view's
  // gems[].symbol: the outline pnp/outlines.py prints), never colour alone.
  const INKS = {fire: "#d55e00", water: "#0072b2", earth: "#009e73", light: "#f0e442", darkness: "#3d2b56"};
  const WHITE_LETTER = new Set(["water", "darkness"]);
  const PHASES = {"discard-shield": "Discard Shield", casting: "Casting", studied: "Learning or Revision", learning: "Learning or Revision", refresh: "Refresh"};
  const ICONS = {draw: "Draw", attack: "Attack", heal: "Heal", shield: "Shield", vanish: "Vanish"};
  const capital = (word) => word.charAt(0).toUpperCase() + word.slice(1);

  // The boards and the Academy take the dice's place.
  const main = $("dice");
  main.classList.add("mc-arena");
  main.setAttribute("aria-label", "The wizards' boards and the Academy");
  const boards = el("div", {class: "mc-boards", "data-testid": "boards"});
  const academy = el("div", {class: "mc-academy", "data-testid": "academy"});
  main.replaceChildren(boards, academy);
  $("ready").replaceWith(el("p", {class: "mc-last live", id: "last", "data-testid": "last"}));

  let printed = {};  // id -> {name, letter, symbol}: the content's, from the view
  function symbol(d) {
    const NS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", "0 0 1 1");
    svg.setAttribute("class", "mc-sym");
    svg.setAttribute("aria-hidden", "true");
    const path = document.createElementNS(NS, "path");
    path.setAttribute("d", d || "");
    path.setAttribute("fill", "currentColor");
    svg.append(path);
    return svg;
  }
  function gem(c, extra = "") {
    if (c === "wild") return el("span", {class: `mc-gem mc-wild ${extra}`, title: "Wild"}, "*");
    const g = printed[c] || {name: capital(c), letter: c.charAt(0).toUpperCase()};
    return el("span", {class: `mc-gem ${extra}`, style: `--ink: ${INKS[c] || "#888"}`, "data-dark": WHITE_LETTER.has(c) ? "1" : null, title: g.name},
      g.letter, symbol(g.symbol));
  }

  function counts(colours, area) {
    const shown = colours.filter((c) => (area || {})[c]);
    return el("span", {class: "mc-counts"}, ...(shown.length ? shown.map((c) => el("span", {class: "mc-count"}, gem(c), `${area[c]}`)) : ["–"]));
  }

  const effectWords = (effects) => Object.entries(effects || {}).filter(([, n]) => n).map(([k, n]) => `${ICONS[k] || k} ${n}`).join(" · ");

  function spellbook(s, p, cards, b) {
    const t = s.turn;
    const casting = t && t.player === p.id && t.spellbook === b;
    return el("div", {class: "mc-book" + (casting ? " mc-casting" : "")},
      el("span", {class: "mc-book-no"}, String(b + 1)),
      ...(cards.length ? cards.map((card, i) => {
        const cost = ((s.spells || {})[card.spell] || {cast: []}).cast;
        // a mastered spell once cast has sent its first, golden gem on
        const paid = card.mastered && card.paid.length === cost.length - 1 && card.paid.length ? [null, ...card.paid] : card.paid;
        const next = casting && i === t.next_spell;
        return el("span", {class: "mc-spell" + (next ? " mc-next" : "") + (card.paid.length ? " mc-paid" : "")},
          el("span", {class: "mc-spell-name"}, (card.mastered ? "★ " : "") + card.spell),
          el("span", {class: "mc-cost"}, ...cost.map((c, k) => (paid[k] ? gem(paid[k], k === 0 && card.mastered ? "mc-golden" : "") : gem(c, "mc-empty" + (k === 0 && card.mastered ? " mc-golden" : ""))))));
      }) : [el("span", {class: "mc-empty-book"}, "empty")]));
  }

  function board(s, p) {
    const t = s.turn;
    const phones = s.mode === "phones";
    const hp = phones ? p.hp_total : p.hp;
    const shield = phones ? p.shield_total : p.shield;
    const score = phones ? p.score_total : p.score;
    return el("section", {class: "mc-board" + (t && t.player === p.id ? " mc-now" : "") + (p.out ? " mc-out" : "") + (s.winner === p.id ? " mc-winner" : ""),
      "data-testid": "board"},
      el("div", {class: "mc-head"},
        el("div", {class: "mc-name"}, (s.winner === p.id ? "★ " : "") + p.name),
        p.out ? el("div", {class: "mc-tag"}, "defeated") : phones && p.character ? el("div", {class: "mc-character"}, p.character) : null),
      el("div", {class: "mc-stats"},
        el("div", {}, el("b", {class: "live", "data-testid": "hp"}, String(hp)), el("span", {}, "HP")),
        el("div", {}, el("b", {class: "live mc-shield", "data-testid": "shield"}, String(shield)), el("span", {}, "Shield")),
        el("div", {}, el("b", {class: "live mc-score", "data-testid": "score"}, String(score)), el("span", {}, `Score/${s.score_to_win}`))),
      el("div", {class: "mc-goal"}, el("span", {style: `width: ${Math.min(100, (100 * score) / s.score_to_win)}%`})),
      // the Discard Area, the bag and the hand on one line (the spellbooks keep the height); a
      // narrow board breaks it between them, never between a label and its number
      phones ? el("div", {class: "mc-line mc-discard"},
        el("span", {class: "mc-pair"}, el("span", {class: "mc-label"}, "Discard"), counts(s.colours, p.discard)),
        el("span", {class: "mc-pair"}, el("span", {class: "mc-label"}, "Bag"), `${p.bag}`),
        el("span", {class: "mc-pair"}, el("span", {class: "mc-label"}, "Hand"), `${p.hand}`)) : null,
      phones ? el("div", {class: "mc-books"}, ...p.spellbooks.map((cards, b) => spellbook(s, p, cards, b))) : null,
      !phones && p.opening ? el("div", {class: "mc-line"}, `Opening: draw ${p.opening.draw}, discard ${p.opening.discard}`) : null);
  }

  // Full spell names: they wrap between words; where a word is still wider than its spell or a
  // board's spellbooks are taller than their room (long spellbooks at four wizards), the board's
  // names and spellbook gems step down together, to names of 1.4 % of the screen's height.
  const SIZES = [[2.4, 3], [2.2, 2.8], [2, 2.6], [1.8, 2.4], [1.6, 2.2], [1.4, 2]];  // [name, gem] in vh
  const past = (inner, outer) => {
    const a = inner.getBoundingClientRect(), b = outer.getBoundingClientRect();
    return a.bottom > b.bottom + 0.5 || a.right > b.right + 0.5;
  };
  function fitNames(board) {
    const names = [...board.querySelectorAll(".mc-book .mc-spell-name")];
    const parts = [...board.querySelectorAll(".mc-book .mc-spell-name, .mc-book .mc-gem")];
    const books = [...board.querySelectorAll(".mc-book")];
    const over = () => names.some((n) => n.scrollWidth > n.clientWidth)
      || parts.some((part) => past(part, part.closest(".mc-book"))) || books.some((book) => past(book, board));
    for (const [name, gem] of SIZES) {
      board.style.setProperty("--name", `${name}vh`);
      board.style.setProperty("--gem", `${gem}vh`);
      if (!over()) return;
    }
  }

  function drawAcademy(s) {
    academy.hidden = s.mode !== "phones" || !s.academy;
    if (academy.hidden) return;
    academy.replaceChildren(
      el("div", {class: "mc-academy-head"}, el("span", {class: "mc-label"}, "Academy"), counts(s.colours, s.academy.gems)),
      el("div", {class: "mc-academy-spells"}, ...s.academy.spells.map(({name, cards}) => {
        const info = (s.spells || {})[name] || {learn: [], cast: [], effects: {}};
        return el("div", {class: "mc-offer" + (cards ? "" : " mc-gone"), "data-testid": "offer"},
          el("span", {class: "mc-spell-name"}, `${name} ×${cards}`),
          el("span", {class: "mc-cost"}, ...info.cast.map((c) => gem(c))),
          el("span", {class: "mc-effects"}, effectWords(info.effects)));
      })));
  }

  function drawLast(s) {
    const last = s.last_cast;  // the latest spell, kept after the turn moves on
    const who = last ? (s.players.find((p) => p.id === last.player) || {}).name : "";
    $("last").textContent = last && last.spell ? `${who} cast ${last.spell}` : "";
  }

  function render(view) {
    const s = view.state;
    const players = s.players || [];
    if (s.gems) printed = Object.fromEntries(s.gems.map((g) => [g.id, g]));
    const phases = {...PHASES, ...((s.words || {}).phases || {})};
    if (s.phase === "joining") {
      $("round").textContent = "Not started yet";
      $("phase").textContent = `${players.length} wizard${players.length === 1 ? "" : "s"} joined`;
    } else if (s.phase === "over") {
      $("round").textContent = "Game over";
      const winner = (players.find((p) => p.id === s.winner) || {}).name || "";
      $("phase").textContent = winner ? `${winner} wins` + (s.ended === "score" ? ` · ${s.score_to_win} scored` : " · last standing") : "";
    } else if (!s.turn) {
      $("round").textContent = "Opening hands";
      $("phase").textContent = "Each seat discards";
    } else {
      $("round").textContent = `${(players.find((p) => p.id === s.turn.player) || {}).name || ""}'s turn`;
      const step = s.turn.step || s.turn.phase;  // the phones' word for it too (the view's turn.step)
      const resolving = s.turn.resolving ? ` · ${s.turn.resolving.spell}: ${Object.keys(s.turn.resolving.icons).map((k) => ICONS[k] || k).join(", ")} to resolve` : "";
      $("phase").textContent = `Turn ${s.turn.number} · ${phases[step] || step}${resolving}`;
    }
    boards.style.setProperty("--n", String(Math.max(2, players.length)));
    boards.replaceChildren(...(s.phase === "joining" ? [] : players.map((p) => board(s, p))));
    for (const b of boards.children) fitNames(b);
    drawAcademy(s);
    if (s.mode === "phones") drawLast(s);
    main.classList.toggle("mc-gems", s.mode === "gems");
    const turn = s.turn ? s.turn.player : null;
    $("players").replaceChildren(...players.map((p) => el("span", {
      class: "pj-player mc-chip" + (p.id === turn ? " mc-turn" : "") + (p.out ? " mc-out" : "") + (s.winner === p.id ? " mc-winner" : ""), "data-testid": "wizard"},
    el("b", {}, (s.winner === p.id ? "★ " : "") + p.name),
    s.phase === "joining" ? null : ` ${s.mode === "phones" ? p.score_total : p.score}/${s.score_to_win}`,
    p.out ? " · defeated" : null)));
  }

  window.SpellpressProjectors = window.SpellpressProjectors || {};
  window.SpellpressProjectors.magecraft = {render};
})();
