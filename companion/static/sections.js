// A long game panel in sections, one in sight at a time, and a bar at the bottom of the screen (in
// a thumb's reach) to jump between them: a phone page of a screen or two rather than eight. The
// table's own history card (table.html) is the last section; a panel names the others.
"use strict";
window.SpellpressSections = (() => {
  const {el} = window.SpellpressUI;
  const HISTORY = {id: "history", label: "History"};
  let chosen = null;  // the section the player jumped to; null: the panel's default

  // sections: [{id, label, nodes}], those without nodes left out; fallback: the id shown until the
  // player picks one. Returns the nodes to place in the panel: the bar, then the chosen section's.
  // redraw: the panel's, called after a jump.
  function show(sections, fallback, redraw) {
    const history = document.getElementById("history-card");
    const shown = [...sections.map((s) => ({...s, nodes: s.nodes.filter(Boolean)})).filter((s) => s.nodes.length), HISTORY];
    if (shown.length < 2) {  // the history alone: no bar
      history.hidden = false;
      return [];
    }
    const current = shown.find((s) => s.id === chosen) || shown.find((s) => s.id === fallback) || shown[0];
    history.hidden = current !== HISTORY;
    const jump = (id) => {
      chosen = id;
      redraw();
      const first = id === HISTORY.id ? history : document.querySelector("[data-section]");
      if (first && first.getBoundingClientRect().top < 0) first.scrollIntoView();  // its start in sight
    };
    const bar = el("nav", {class: "jump", "aria-label": "Sections"}, ...shown.map((s) =>
      el("button", {"aria-pressed": String(s === current), "data-testid": `jump-${s.id}`, onclick: () => jump(s.id)}, s.label)));
    const nodes = current.nodes || [];
    nodes.forEach((node, i) => { if (i === 0) node.dataset.section = current.id; else delete node.dataset.section; });
    return [bar, ...nodes];
  }

  return {show};
})();
