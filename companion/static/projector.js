// The projector pages: a table's (/t/<code>/projector) or an event's (/e/<code>/projector), on a TV
// for the whole room. Read-only: they follow the live streams and redraw; nothing here acts.
"use strict";
(() => {
  const config = JSON.parse(document.getElementById("projector-config").textContent);
  const $ = (id) => document.getElementById(id);
  const code = encodeURIComponent(config.code);

  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "style") node.style.cssText = v;  // a style attribute would be refused by the CSP
      else node.setAttribute(k, v);
    }
    node.append(...children.filter((c) => c !== null && c !== undefined));  // strings become text, never markup
    return node;
  }

  function offline(yes) {
    $("offline").hidden = !yes;
    document.body.classList.toggle("stale", yes);
  }

  // A die's faces: from the table's layout or the event's summary, else read from its id ("d12").
  const knownFaces = {};
  const faces = (id) => knownFaces[id] || Number((/^d(\d+)$/.exec(id) || [])[1] || 0);

  // The dice as big tiles; `ids` keeps the tiles in place before the first roll. A new roll flashes.
  let shownRoll = "";
  function drawDice(ids, dice, rollKey) {
    const box = $("dice");
    box.replaceChildren(...ids.map((id) => el("div", {class: "pj-die" + (faces(id) >= 10 ? " pj-wide" : ""), "data-die": id},
      el("span", {class: "pj-die-name"}, id),
      el("span", {class: "pj-die-value", "data-testid": "die-" + id}, dice && id in dice ? String(dice[id]) : "–"))));
    box.classList.toggle("pj-unrolled", !dice || !Object.keys(dice).length);
    if (rollKey && rollKey !== shownRoll && shownRoll !== "") {
      box.classList.remove("pj-new");
      void box.offsetWidth;  // restart the animation
      box.classList.add("pj-new");
    }
    shownRoll = rollKey || shownRoll;
  }

  // --- a table ---------------------------------------------------------------------------------
  // What the screen shows is the game's (static/games/<game>-projector.js, which registers
  // SpellpressProjectors[game] = {render(view)}, and layout(layout) if the game has one); following
  // the table is here.

  function table() {
    const view = window.SpellpressProjectors[config.game];
    let shown = null;
    let source = null;

    function show(next) {
      if (shown && next.seq < shown.seq) return;  // an older answer arriving late never replaces a newer one
      shown = next;
      view.render(next);
      // the computer players choosing their move now, as the phones say it
      const names = (next.thinking || []).map((id) => `${(next.seats.find((s) => s.id === id) || {name: "?"}).name} (computer)`);
      $("thinking").hidden = !names.length;
      $("thinking").textContent = names.length ? `${names.join(" and ")} ${names.length > 1 ? "are" : "is"} thinking…` : "";
    }

    async function refresh() {
      const res = await fetch(`/api/tables/${code}`);
      if (res.ok) show(await res.json());
    }

    // After the page's first read, the stream starts after what it showed; the browser's own
    // reconnects then send Last-Event-ID, and a stream we reopen starts after the newest shown.
    function connect() {
      if (source) source.close();
      source = new EventSource(`/api/tables/${code}/events?after=${shown ? shown.seq : 0}`);
      source.onopen = () => offline(false);
      source.addEventListener("action", (event) => show(JSON.parse(event.data).table));
      // the table as it is, when the screen had seen further than the table now goes: drawn anew
      source.addEventListener("table", (event) => { shown = null; show(JSON.parse(event.data).table); });
      source.onerror = () => {
        offline(true);
        if (source.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
      };
    }

    (async () => {
      // only a game whose projector draws a layout has one (the others' GET /layout is a 404)
      if (view.layout) {
        try {
          const layout = await (await fetch(`/api/tables/${code}/layout`)).json();
          for (const d of layout.dice || []) knownFaces[d.id] = d.faces;
          view.layout(layout);
        } catch (err) { /* the layout unread: the dice come from the state */ }
      }
      try { await refresh(); } catch (err) { console.error(err); offline(true); }
      connect();
    })();
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && (!source || source.readyState === EventSource.CLOSED)) connect();
    });
    // The network gone: say so at once; back: a fresh stream from the newest entry shown.
    window.addEventListener("offline", () => { offline(true); if (source) source.close(); });
    window.addEventListener("online", connect);
  }

  // --- an event --------------------------------------------------------------------------------

  function eventScreen() {
    let source = null;
    const TOP = 10;

    function render({event, leaderboard}) {
      const last = event.rolls.length ? event.rolls[event.rolls.length - 1] : null;
      const tables = `${event.tables} table${event.tables === 1 ? "" : "s"}`;
      $("round").textContent = event.ended ? "Ended" : last ? `Round ${last.round} of ${event.rounds}` : "Not rolled yet";
      $("tables").textContent = event.ended ? `${event.rolled} of ${event.rounds} rounds · ${tables}`
        : last ? tables : `${event.rounds} rounds · ${tables}`;
      for (const d of event.dice) knownFaces[d.id] = d.faces;
      const ids = event.dice.map((d) => d.id);
      drawDice(ids, last ? last.dice : null, last ? String(last.round) : "");
      $("digest").textContent = event.seed_sha256;
      $("seed-line").hidden = !event.seed;
      $("seed").textContent = event.seed || "";

      // As many rows as fit under the dice, at most TOP; ties share a place.
      const rows = leaderboard.slice(0, TOP);
      $("leaders").replaceChildren(...rows.map((r) => el("tr", {class: r.place === 1 ? "pj-first" : null},
        el("td", {}, String(r.place)),
        el("td", {}, r.name),
        el("td", {class: "pj-mono"}, r.table),
        el("td", {class: "num pj-total"}, String(r.total)),
        ...event.leaderboard.ties.map((tie) => el("td", {class: "num"}, String(r[tie.key]))))));
      const board = $("leaders").closest("section");
      const body = $("leaders");
      $("more").textContent = leaderboard.length > 1 ? "and more" : "";  // its line counts while the rows are fitted
      while (body.children.length > 1 && board.scrollHeight > board.clientHeight + 1) body.lastElementChild.remove();
      const hidden = leaderboard.length - body.children.length;
      $("more").textContent = !leaderboard.length ? "Scores appear here as the tables play."
        : hidden > 0 ? `and ${hidden} more on the event's page` : "";
    }

    function connect() {
      if (source) source.close();
      source = new EventSource(`/api/events/${code}/events`);
      source.onopen = () => offline(false);
      source.addEventListener("event", (message) => render(JSON.parse(message.data)));  // each one whole
      source.onerror = () => {
        offline(true);
        if (source.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
      };
    }
    connect();
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && (!source || source.readyState === EventSource.CLOSED)) connect();
    });
    window.addEventListener("offline", () => { offline(true); if (source) source.close(); });
    window.addEventListener("online", connect);
  }

  window.SpellpressProjector = {el, drawDice};
  window.SpellpressProjectors = window.SpellpressProjectors || {};
  // The game's view (a table's page loads it after this script) registers before the page is parsed.
  document.addEventListener("DOMContentLoaded", () => (config.kind === "event" ? eventScreen() : table()));
})();
