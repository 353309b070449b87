// A table's page: join, follow the live events, act, undo, history. Game panels are drawn by
// static/games/<game>.js, which registers SpellpressGames[game].render(root, table, me, act).
"use strict";
window.SpellpressGames = window.SpellpressGames || {};

// What every game panel builds its DOM with. Children that are strings become text, never markup.
window.SpellpressUI = {
  el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "onclick") node.addEventListener("click", v);
      else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v === true ? "" : v);
    }
    node.append(...children.filter((c) => c !== null && c !== undefined));
    return node;
  },
  button(label, onclick, cls = "act") {
    return SpellpressUI.el("button", {class: cls, onclick}, label);
  },
};
const Spellpress = (() => {
  const {code, game} = JSON.parse(document.getElementById("table-config").textContent);
  const key = "spellpress:" + code;
  const $ = (id) => document.getElementById(id);
  // {host_token} for the table's host, {token, player_id} for a player; a host who plays has both
  let me = JSON.parse(localStorage.getItem(key) || "{}");
  let table = null;
  let source = null;

  function headers(asHost) {
    const h = {"Content-Type": "application/json"};
    const token = asHost ? me.host_token : me.token || me.host_token;
    if (token) h.Authorization = "Bearer " + token;
    return h;
  }

  async function call(method, path, body, asHost = false) {
    const res = await fetch("/api/tables/" + encodeURIComponent(code) + path, {
      method, headers: headers(asHost), body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await res.json().catch(() => ({error: {reason: "The server answered oddly; try again."}}));
    if (!res.ok) throw new Error(data.error ? data.error.reason : "Something went wrong.");
    return data;
  }

  function show(next) {
    if (table && next.seq < table.seq) return;  // an older answer arriving late never replaces a newer one
    table = next;
    const you = {actor: me.player_id || (me.host_token ? "host" : null), host: !!me.host_token};
    $("host").hidden = !you.host;
    $("join").hidden = !!me.player_id;
    $("undo").hidden = !you.actor;
    const panel = window.SpellpressGames[game];
    foldInvite(panel);
    if (panel) panel.render($("game"), table, you, act);
  }

  // The invite folds once the game has begun (the panel's begun(state) says when); a tap on it
  // unfolds it, and the code stays in the header.
  let begun = null;
  function foldInvite(panel) {
    const now = !!(panel && panel.begun && panel.begun(table.state));
    if (now !== begun) $("host").open = !now;
    begun = now;
  }

  // asHost: a host who also plays sends the table's own moves (starting it) with the host's token.
  // Resolves to whether the move was recorded; a refusal is shown in #act-error.
  async function act(type, payload = {}, asHost = false) {
    $("act-error").textContent = "";
    try {
      show(await call("POST", "/actions", {type, ...payload}, asHost && !!me.host_token));
      return true;
    } catch (err) {
      $("act-error").textContent = err.message;
      return false;
    }
  }

  async function refresh() {
    show(await call("GET", ""));
    await loadHistory();
  }

  let historyDue = null;  // a reconnect replays the whole log as events: one history fetch for them all
  function historySoon() {
    if (historyDue === null) historyDue = setTimeout(() => { historyDue = null; loadHistory().catch(() => offline(true)); }, 50);
  }

  async function loadHistory() {
    const {history} = await call("GET", "/history");
    const list = $("history");
    list.replaceChildren(...history.slice().reverse().map((e) => {
      const li = document.createElement("li");
      li.textContent = `${e.name}: ${describe(e)}`;  // textContent: a name is never markup
      if (e.undone) li.className = "undone";
      return li;
    }));
  }

  function describe(entry) {
    const panel = window.SpellpressGames[game];
    const words = panel && panel.describe ? panel.describe(entry, table) : null;
    if (words) return words;
    if (entry.type === "join") return "joined the table";
    if (entry.type === "undo") return `took back move ${entry.payload.seq}`;
    const details = Object.entries(entry.payload)
      .filter(([, v]) => v !== "" && v !== null && !(Array.isArray(v) && !v.length))
      .map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ");
    return entry.type.replaceAll("_", " ") + (details ? ` (${details})` : "");
  }

  function offline(yes) {
    $("offline").hidden = !yes;
    document.body.classList.toggle("stale", yes);
  }

  function connect() {
    if (source) source.close();
    // EventSource sends no headers: the token rides in the query, so a game with secrets streams
    // this seat's view (a player's own hand) rather than a spectator's
    const token = me.token || me.host_token;
    const query = token ? "?token=" + encodeURIComponent(token) : "";
    source = new EventSource("/api/tables/" + encodeURIComponent(code) + "/events" + query);
    source.onopen = () => { offline(false); refresh().catch(() => offline(true)); };
    source.addEventListener("action", (event) => { show(JSON.parse(event.data).table); historySoon(); });
    source.onerror = () => {
      offline(true);
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 2000);  // the browser gave up: we do not
    };
  }

  $("join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("join-error").textContent = "";
    try {
      const name = new FormData(event.target).get("name");
      const joined = await call("POST", "/players", {name});
      me = {...me, token: joined.token, player_id: joined.player_id};
      localStorage.setItem(key, JSON.stringify(me));
      await refresh();
    } catch (err) {
      $("join-error").textContent = err.message;
    }
  });
  $("act-error").addEventListener("click", () => { $("act-error").textContent = ""; });  // it may cover a button
  $("undo").addEventListener("click", async () => {
    $("act-error").textContent = "";
    // the host undoes with the host's token: anyone's latest action, not only their own
    try { show(await call("POST", "/undo", undefined, !!me.host_token)); } catch (err) { $("act-error").textContent = err.message; }
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    window.SpellpressAwake.keep();
    if (!source || source.readyState === EventSource.CLOSED) connect();
    else refresh().catch(() => offline(true));  // back from the background: never trust what is shown
  });
  window.addEventListener("online", connect);
  window.addEventListener("offline", () => offline(true));

  $("join").hidden = !!me.player_id;
  connect();
  window.SpellpressAwake.keep();
  // reload: the caller's own view again (a panel whose player's seat moved on in a spectator's event)
  const reload = async () => show(await call("GET", ""));
  return {act, reload, get table() { return table; }, get me() { return me; }};
})();
