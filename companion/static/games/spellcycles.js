// PLACEHOLDER (branch sc-proj only): the phone panel is another helper's; the integrator takes theirs.
"use strict";
(() => {
  const {el} = window.SpellpressUI;
  function render(root, table) {
    root.replaceChildren(el("p", {}, `Spellcycles: ${table.state.phase}`));
  }
  window.SpellpressGames["spellcycles"] = {render, begun: (s) => s.phase !== "joining"};
})();
