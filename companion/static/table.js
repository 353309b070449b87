// A table's page: join, follow the live events, act, undo, history, and the lobby every game
// shares (who has joined, Start). Game panels are drawn by static/games/<game>.js, which registers
// SpellpressGames[game].render(root, table, me, act). A panel draws a button only for a move the
// server offers this phone now (table.moves, pnp/rules/flow.py), with SpellpressUI.offered and
// SpellpressUI.values.
"use strict";
window.SpellpressGames = window.SpellpressGames || {};

// The server's offers (pnp/rules/offers.py): a move's type, its settled payload and the choices
// left in it ("pick": one_of, range or some_of, at a dotted field path, an option opening picks of its own).
const Offers = (() => {
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const at = (body, path) => path.split(".").reduce((v, k) => (v === undefined || v === null ? undefined : v[k]), body);
  // Whether `value` is one `pick` admits; the option chosen (for its own picks), or false.
  function admitted(pick, value) {
    if (pick.one_of) return pick.one_of.find((o) => same(o.value, value)) || false;
    if (pick.range) return Number.isInteger(value) && value >= pick.range[0] && value <= pick.range[1] ? {} : false;
    // a list may be shorter than the pick asks: it is being filled in (the send checks it whole)
    if (!Array.isArray(value) || value.length > pick.size[1]) return false;
    return pick.some_of.every((item) => value.filter((v) => same(v, item.value)).length <= item.count) &&
      value.every((v) => pick.some_of.some((item) => same(item.value, v))) ? {} : false;
  }
  // Whether `body` (as far as it is filled in) agrees with the offer: each of its settled fields,
  // and each field the offer leaves open that the body has chosen.
  function admits(offer, body) {
    for (const [k, v] of Object.entries(offer.payload || {})) if (body[k] !== undefined && !same(body[k], v)) return false;
    const walk = (picks) => picks.every((pick) => {
      const value = at(body, pick.field);
      if (value === undefined || value === null) return true;
      const chosen = admitted(pick, value);
      return chosen !== false && walk(chosen.pick || []);
    });
    return walk(offer.pick || []);
  }
  // The values `field` may take in an offer agreeing with `body`, for its one_of picks.
  function values(offer, body, field) {
    const found = [];
    const walk = (picks) => picks.forEach((pick) => {
      if (pick.field === field && pick.one_of) found.push(...pick.one_of.map((o) => o.value));
      const value = at(body, pick.field);
      const chosen = value === undefined ? null : admitted(pick, value);
      if (chosen) walk(chosen.pick || []);
    });
    if (admits(offer, body)) walk(offer.pick || []);
    if (offer.payload && offer.payload[field] !== undefined) found.push(offer.payload[field]);
    return found;
  }
  return {admits, values, same};
})();

// What every game panel builds its DOM with. Children that are strings become text, never markup.
window.SpellpressUI = {
  el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "onclick") node.addEventListener("click", v);
      else if (k === "style") node.style.cssText = v;  // a style attribute would be refused by the CSP
      else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v === true ? "" : v);
    }
    node.append(...children.filter((c) => c !== null && c !== undefined));
    return node;
  },
  button(label, onclick, cls = "act") {
    return SpellpressUI.el("button", {class: cls, onclick}, label);
  },
  // The moves of a type the server offers this phone now (all its moves without a type).
  offers(table, type = null) {
    return ((table && table.moves) || []).filter((m) => type === null || m.type === type);
  },
  // Whether a move of `type` with the fields of `body` (those chosen so far) is offered now.
  offered(table, type, body = {}) {
    return SpellpressUI.offers(table, type).some((m) => Offers.admits(m, body));
  },
  // The values `field` of a `type` move may take now, with the fields of `body` chosen.
  values(table, type, field, body = {}) {
    const found = [];
    for (const m of SpellpressUI.offers(table, type)) {
      for (const v of Offers.values(m, body, field)) if (!found.some((f) => Offers.same(f, v))) found.push(v);
    }
    return found;
  },
  // A button for a move, drawn only when the server offers it now: a tap sends it.
  move(table, act, label, type, body = {}, cls = "act", asHost = false) {
    if (!SpellpressUI.offered(table, type, body)) return null;
    return SpellpressUI.el("button", {class: cls, "data-move": type, onclick: () => act(type, body, asHost)}, label);
  },
  // The content's rich text (**bold**, *italic*) as nodes, never markup.
  rich(text) {
    return text.split(/(\*\*[^*]+\*\*|\*[^*]+\*)/).map((part, i) => {
      if (i % 2 === 0) return part;
      return part.startsWith("**") ? SpellpressUI.el("strong", {}, part.slice(2, -2)) : SpellpressUI.el("em", {}, part.slice(1, -1));
    });
  },
  // Our rulings where a game's rules are silent (content/<game>/rulings.yaml), folded away.
  rulings(rulings, cls = "") {
    const found = Object.values(rulings || {});
    if (!found.length) return null;
    const {el, rich} = SpellpressUI;
    return el("details", {class: `card ${cls}`.trim(), "data-testid": "rulings"}, el("summary", {}, "Our rulings"),
      ...found.map((words) => el("p", {class: "note"}, ...rich(words))));
  },
};
const Spellpress = (() => {
  const {code, game} = JSON.parse(document.getElementById("table-config").textContent);
  const key = "spellpress:" + code;
  const $ = (id) => document.getElementById(id);
  // {host_token} for the table's host, {token, player_id} for a player; a host who plays has both.
  // The host may also play for a seat without a phone (as: its player id); a phone that asked for
  // such a seat keeps {claim: {seat, name, token}} until the host answers.
  let me = JSON.parse(localStorage.getItem(key) || "{}");
  const save = () => localStorage.setItem(key, JSON.stringify(me));
  let table = null;
  let source = null;

  // The seat without a phone the host is playing for now, if any (the table's own moves, asHost, never are).
  const actingFor = (asHost = false) => (!asHost && me.host_token && me.as) || null;

  function headers(asHost) {
    const h = {"Content-Type": "application/json"};
    const token = asHost || actingFor() ? me.host_token : me.token || me.host_token || (me.claim && me.claim.token);
    if (token) h.Authorization = "Bearer " + token;
    return h;
  }

  async function call(method, path, body, asHost = false) {
    const seat = actingFor(asHost);
    const query = seat ? (path.includes("?") ? "&" : "?") + "as=" + encodeURIComponent(seat) : "";
    const res = await fetch("/api/tables/" + encodeURIComponent(code) + path + query, {
      method, headers: headers(asHost), body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await res.json().catch(() => ({error: {reason: "The server answered oddly; try again."}}));
    if (!res.ok) throw new Error(data.error ? data.error.reason : "Something went wrong.");
    return data;
  }

  let seenSeats = null;  // the seat list last shown, to tell when it changes
  function show(next) {
    if (table && next.seq < table.seq) return;  // an older answer arriving late never replaces a newer one
    table = next;
    if (!stillKept(next)) return;
    // a refused join (a full table) says why of the seats it saw: once they change it is stale
    const seatList = JSON.stringify(next.seats.map((seat) => [seat.id, seat.name, !!seat.phone]));
    if (seenSeats !== null && seatList !== seenSeats) $("join-error").textContent = "";
    seenSeats = seatList;
    const you = {actor: actingFor() || me.player_id || (me.host_token ? "host" : null), host: !!me.host_token};
    const panel = window.SpellpressGames[game];
    foldInvite(panel);
    showSeats(next);
    $("host").hidden = !you.host;
    // no game seats anyone once begun: a late phone follows the table (or takes a seat the host
    // kept for it) instead of being asked a name the server would refuse
    $("join").hidden = !!me.player_id || (you.host && begun);
    $("join-form").hidden = begun;
    $("late").hidden = !begun;
    $("join-title").textContent = begun ? "Following this table" : "Join this table";
    $("undo").hidden = !you.actor;
    showThinking(next);
    showLobby(next);
    if (panel) panel.render($("game"), table, you, act);
  }

  // Who has joined, how many the game seats, and Start, once the server offers it to this phone.
  function showLobby(t) {
    const {el, move} = window.SpellpressUI;
    const flow = t.flow;
    const lobby = $("lobby");
    lobby.hidden = !flow || flow.phase !== "joining";
    if (lobby.hidden) return;
    const [fewest, most] = flow.room;
    const names = flow.players.map(seatLabel);
    const wanted = fewest === most ? `${most}` : `${fewest} to ${most}`;
    // a panel that draws its own Start (with who goes first) says so: the lobby draws none then
    const own = (window.SpellpressGames[t.game] || {}).drawsStart && SpellpressUI.offers(t, "start").some((o) => o.pick);
    const start = own ? null : move(t, act, "Start the game", "start", {}, "primary", true);
    let waiting = "The host starts the game.";
    if (names.length < fewest) waiting = `Waiting for ${fewest - names.length} more to join.`;
    lobby.replaceChildren(el("h2", {}, `Players: ${names.length} of ${wanted}`),
      el("p", {"data-testid": "lobby-names"}, names.length ? names.join(", ") : "No one has joined yet."),
      start || el("p", {class: "note", role: "status"}, waiting));
  }

  // The invite folds once the game has begun (the panel's begun(state) says when); a tap on it
  // unfolds it, and the code stays in the header.
  let begun = null;
  function foldInvite(panel) {
    const now = table.flow ? table.flow.phase !== "joining" : !!(panel && panel.begun && panel.begun(table.state));
    if (now !== begun) $("host").open = !now;
    begun = now;
  }

  // A move on its way is not sent again: the button tapped is disabled until the answer, and the
  // same move asked for meanwhile (a double tap on that button drawn afresh by a live event) sends
  // nothing. Other moves go as usual.
  const sending = new Set();  // the moves on their way, as JSON
  let tapped = null;  // the game panel's button whose click is being handled, if any
  $("game").addEventListener("click", (event) => { tapped = event.target.closest("button"); }, true);
  $("game").addEventListener("click", () => { tapped = null; });  // the tap's own handlers have run

  // asHost: a host who also plays sends the table's own moves (starting it) with the host's token.
  // Resolves to whether the move was recorded; a refusal is shown in #act-error.
  async function act(type, payload = {}, asHost = false) {
    const button = tapped;
    tapped = null;
    const move = JSON.stringify([type, payload, asHost]);
    if (sending.has(move)) return false;
    sending.add(move);
    if (button) button.disabled = true;
    $("act-error").textContent = "";
    try {
      show(await call("POST", "/actions", {type, ...payload}, asHost && !!me.host_token));
      // the table's own move (the start) answers with the host's view, which holds no hand: a host
      // who also plays sees their seat's again (else its hand stays empty until the next move)
      if (asHost && me.host_token && (me.token || actingFor())) show(await call("GET", ""));
      return true;
    } catch (err) {
      $("act-error").textContent = err.message;
      return false;
    } finally {
      sending.delete(move);
      if (button) button.disabled = false;
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

  // The history as far back as this phone has asked: the newest page, and the earlier pages the
  // player opened with "Earlier moves" (a long game's whole log is never read at every move).
  const HISTORY_PAGE = 50;
  const TABLE_ENTRIES = new Set(["join", "undo", "claim_seat", "answer_seat", "leave_seat"]);  // no undo takes these back
  let moves = new Map();  // seq -> history entry
  const earlierButton = window.SpellpressUI.el("button", {id: "history-earlier", hidden: true}, "Earlier moves");
  $("history").after(earlierButton);

  async function loadHistory() {
    const page = await call("GET", `/history?limit=${HISTORY_PAGE}`);
    const newest = moves.size ? Math.max(...moves.keys()) : 0;
    if (page.history.length && page.history[0].seq > newest + 1) moves = new Map();  // a gap: start afresh
    showHistory(page.history);
  }

  earlierButton.addEventListener("click", async () => {
    earlierButton.disabled = true;
    try {
      const page = await call("GET", `/history?limit=${HISTORY_PAGE}&before=${Math.min(...moves.keys())}`);
      showHistory(page.history);
    } catch (err) {
      $("act-error").textContent = err.message;
    } finally {
      earlierButton.disabled = false;
    }
  });

  // Each entry's line is made once and kept: a history read again after every live message (or a
  // reconnect's replay) changes only the lines that changed, and a line being read stays in place.
  let lines = new Map();  // seq -> its <li>
  function showHistory(entries) {
    for (const e of entries) moves.set(e.seq, e);
    for (const e of entries) if (e.type === "undo" && moves.has(e.payload.seq)) moves.get(e.payload.seq).undone = true;
    const shown = [...moves.values()].sort((a, b) => b.seq - a.seq);
    const kept = new Map();
    const items = shown.map((e) => {
      const li = lines.get(e.seq) || document.createElement("li");
      li.value = e.seq;
      // textContent: a name is never markup
      const text = lineOf(e);
      if (li.textContent !== text) li.textContent = text;
      li.classList.toggle("undone", !!e.undone);
      kept.set(e.seq, li);
      return li;
    });
    const list = $("history");
    if (items.length !== list.children.length || items.some((li, n) => list.children[n] !== li)) list.replaceChildren(...items);
    lines = kept;
    earlierButton.hidden = !shown.length || shown[shown.length - 1].seq <= 1;
  }

  // The move Undo takes back, as this phone shows it: the host's, anyone's latest that stands; a
  // player's, their own. None shown: the newest entry, and the server says why it cannot.
  function undoTarget() {
    const standing = [...moves.values()].filter((e) => !TABLE_ENTRIES.has(e.type) && !e.undone);
    // the host's Undo skips the computers' moves: the server takes them back with the person's before them
    const mine = standing.filter((e) => (me.host_token && !computerSeat(e.actor)) || e.actor === me.player_id);
    return Math.max(...mine.map((e) => e.seq), mine.length ? 0 : Math.max(1, table ? table.seq : 0));
  }

  // A history line: who, then what they did in words ("Host started the semester"). A move whose
  // panel has no sentence for it reads as its type, never as its fields.
  function lineOf(entry) {
    return `${whoOf(entry)} ${describe(entry) || "made a move: " + entry.type.replaceAll("_", " ")}`;
  }

  // Who a line starts with: the seat, the host for a seat ("Host for Cy"), or, for the table's own
  // entries that name a seat they were not made by, the host seating it or a phone asking for it.
  function whoOf(entry) {
    if (entry.type === "claim_seat") return "A phone";
    if (entry.type === "leave_seat") return entry.name;
    if (entry.type === "join" && entry.by) return entry.by_name;
    return entry.by ? `${entry.by_name} for ${entry.name}` : entry.for_name ? `${entry.name} for ${entry.for_name}` : entry.name;
  }

  // What a history entry did, in words: the game panel's sentence, or the table's own; null: none.
  function describe(entry) {
    const panel = window.SpellpressGames[game];
    const words = panel && panel.describe ? panel.describe(entry, table) : null;
    if (words) return words;
    if (entry.type === "join" && entry.payload.computer) return `seated ${entry.name}, who plays at level ${entry.payload.computer}`;
    if (entry.type === "join") return entry.by ? `seated ${entry.name}, who plays without a phone` : "joined the table";
    if (entry.type === "leave_seat") return `took ${entry.for_name} off the table`;
    if (entry.type === "claim_seat") return `asked for ${entry.name}'s seat`;
    if (entry.type === "answer_seat") {
      const name = seatName(entry.payload.seat);
      return entry.payload.given ? `gave ${name}'s seat to the phone that asked` : `kept ${name}'s seat on the host's phone`;
    }
    if (entry.type === "undo") return `took back move ${entry.payload.seq}`;
    return null;
  }

  function offline(yes) {
    $("offline").hidden = !yes;
    document.body.classList.toggle("stale", yes);
  }

  // The table and its history afresh; a failed read is tried again while the stream stays open
  // (a phone whose first read failed would otherwise show nothing until the next move).
  function resync() {
    refresh().then(() => offline(false), () => {
      offline(true);
      setTimeout(() => { if (source && source.readyState === EventSource.OPEN) resync(); }, 2000);
    });
  }

  function connect() {
    if (source) source.close();
    // EventSource sends no headers: the token rides in the query, so a game with secrets streams
    // this seat's view (a player's own hand) rather than a spectator's
    const token = actingFor() ? me.host_token : me.token || me.host_token;
    const params = new URLSearchParams(token ? {token} : {});
    if (actingFor()) params.set("as", actingFor());  // that seat's view: its own hand, in a game with secrets
    const query = params.size ? "?" + params : "";
    source = new EventSource("/api/tables/" + encodeURIComponent(code) + "/events" + query);
    source.onopen = () => { offline(false); resync(); };
    source.addEventListener("action", (event) => {
      const data = JSON.parse(event.data);
      show(data.table);
      historySoon();
      if (data.type === "answer_seat" && me.claim && data.seat === me.claim.seat) settleClaim().catch(() => offline(true));
    });
    // The table as it is, when this phone had seen further than the table now goes (a server
    // brought back from an older copy): drawn although its seq is lower than the one shown.
    source.addEventListener("table", (event) => {
      table = null;
      show(JSON.parse(event.data).table);
      historySoon();
    });
    source.onerror = () => {
      offline(true);
      // the browser gave up: we do not. A seat the host played for may have gone to its phone since.
      if (source.readyState === EventSource.CLOSED) setTimeout(() => forgetGivenSeat().then(connect), 2000);
    };
  }

  $("join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("join-error").textContent = "";
    try {
      const name = new FormData(event.target).get("name");
      const joined = await call("POST", "/players", {name});
      me = {...me, token: joined.token, player_id: joined.player_id};
      save();
      await refresh();
      connect();  // the stream opened before the join is a spectator's: in a game with secrets, this seat's now
    } catch (err) {
      $("join-error").textContent = err.message;
    }
  });
  $("act-error").addEventListener("click", () => { $("act-error").textContent = ""; });  // it may cover a button
  $("undo").addEventListener("click", async () => {
    $("act-error").textContent = "";
    $("undo").disabled = true;  // a second tap while this one is on its way sends nothing
    // the host undoes with the host's token: anyone's latest action, not only their own
    try {
      show(await call("POST", "/undo", {seq: undoTarget()}, !!me.host_token));
      await loadHistory();  // what the next tap names
    } catch (err) {
      $("act-error").textContent = err.message;
    } finally {
      $("undo").disabled = false;
    }
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    window.SpellpressAwake.keep();
    if (!source || source.readyState === EventSource.CLOSED) connect();
    else refresh().catch(() => offline(true));  // back from the background: never trust what is shown
  });
  window.addEventListener("online", connect);
  window.addEventListener("offline", () => offline(true));

  $("seat-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("seat-error").textContent = "";
    try {
      await call("POST", "/seats", {name: new FormData(event.target).get("name")}, true);
      event.target.reset();
    } catch (err) {
      $("seat-error").textContent = err.message;
    }
  });

  // --- seats without a phone: the host plays for them; a phone asks for one -------------------

  const seatName = (id) => ((table && table.seats.find((s) => s.id === id)) || {name: "?"}).name;
  const computerSeat = (id) => !!((table && table.seats.find((s) => s.id === id)) || {}).computer;
  // a computer player's seat is named as one wherever a seat is named
  const seatLabel = (id) => `${seatName(id)}${computerSeat(id) ? " (computer)" : ""}`;
  const kept = (t) => t.seats.filter((s) => !s.phone && !s.computer);  // the seats the host plays for

  // Which computer players are choosing their move now: the server makes it after a short pause.
  function showThinking(t) {
    const thinking = (t.thinking || []).map(seatLabel);
    $("thinking").hidden = !thinking.length;
    $("thinking").textContent = thinking.length ? `${thinking.join(" and ")} ${thinking.length > 1 ? "are" : "is"} thinking…` : "";
  }

  // The host seats computer players before the start, where the server sees all they decide from.
  function showComputers(t) {
    const {el, button} = window.SpellpressUI;
    const levels = Object.entries((t.computer_players || {}).levels || {});
    const joining = !t.flow || t.flow.phase === "joining";
    $("computer-new").hidden = !joining || !levels.length;
    const why = (t.computer_players || {}).why_not;
    $("computer-none").hidden = !joining || !why;
    $("computer-none").textContent = why || "";
    const select = $("computer-level");
    if (select.options.length !== levels.length) {
      select.replaceChildren(...levels.map(([id, words]) => el("option", {value: id}, words)));
    }
    const computers = t.seats.filter((s) => s.computer);
    $("computer-list").replaceChildren(...computers.map((s) => el("li", {},
      el("span", {}, `${s.name} (computer)`, el("span", {class: "note"}, ` · ${s.computer}`)),
      joining ? button("Remove", () => removeComputer(s), "") : "")));
  }

  async function removeComputer(seat) {
    $("seat-error").textContent = "";
    try {
      show(await call("DELETE", `/seats/${encodeURIComponent(seat.id)}`, undefined, true));
    } catch (err) {
      $("seat-error").textContent = err.message;
    }
  }

  $("computer-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("seat-error").textContent = "";
    const form = new FormData(event.target);
    try {
      await call("POST", "/computers", {name: form.get("name"), level: form.get("level")}, true);
      event.target.reset();
    } catch (err) {
      $("seat-error").textContent = err.message;
    }
  });

  // False (and the page starts again as the host) when the seat the host played for has a phone now.
  function stillKept(next) {
    const seat = actingFor() && next.seats.find((s) => s.id === me.as);
    if (!seat || !seat.phone) return true;
    playFor(null);
    return false;
  }

  function playFor(seat) {
    me = {...me, as: seat};
    save();
    connect();  // the stream and the views of that seat (its own hand, in a game with secrets)
  }

  // A stream playing for a seat ends when a phone is given that seat: the host plays for it no more.
  async function forgetGivenSeat() {
    if (!actingFor()) return;
    const seen = await call("GET", "", undefined, true).catch(() => null);
    if (seen && !kept(seen).some((s) => s.id === me.as)) {
      me = {...me, as: null};
      save();
    }
  }

  function showSeats(t) {
    const {el, button} = window.SpellpressUI;
    $("seats").hidden = !me.host_token;
    $("claim-wait").hidden = !me.claim;
    if (me.claim) $("claim-wait").textContent = `Waiting for the host to give this phone ${me.claim.name}'s seat…`;
    if (!me.host_token) {
      const free = kept(t).filter((s) => !s.asked);
      $("claims").hidden = !!me.player_id || !!me.claim || !free.length;
      $("claim-list").replaceChildren(...free.map((s) => el("li", {},
        el("span", {}, s.name, el("span", {class: "note"}, " · kept on the host's phone")),
        button("This is me", () => askFor(s), ""))));
      return;
    }
    showComputers(t);
    const asked = t.seats.filter((s) => s.asked);
    // once the game has begun no game seats anyone new: the card keeps only the asks and the switch
    $("seat-new").hidden = begun;
    $("seats").hidden = begun && !asked.length && !kept(t).length;
    $("seat-asks").replaceChildren(...asked.map((s) => el("div", {class: "seat-ask", role: "alert"},
      el("p", {}, `A phone asks for ${s.name}'s seat.`),
      el("div", {class: "row"}, button("Give", () => answer(s.id, true), "act"), button("Refuse", () => answer(s.id, false))))));
    $("seat-switch").hidden = !kept(t).length;
    const mine = me.player_id ? `${seatName(me.player_id)} (you)` : "Host";
    const chips = [{id: null, name: mine}, ...kept(t)];
    $("seat-chips").replaceChildren(el("span", {class: "label"}, "Plays for"), ...chips.map((s) => el("button", {"aria-pressed": String((me.as || null) === s.id),
      onclick: () => { if ((me.as || null) !== s.id) playFor(s.id); }}, s.name)));
    $("seat-now").textContent = me.as ? `Moves made now are ${seatName(me.as)}'s.` : "";
    $("seat-now").hidden = !me.as;
  }

  async function answer(seat, give) {
    $("seat-error").textContent = "";
    try { show(await call("POST", `/seats/${encodeURIComponent(seat)}/answer`, {give}, true)); } catch (err) { $("seat-error").textContent = err.message; }
  }

  async function askFor(seat) {
    $("join-error").textContent = "";
    try {
      const {token} = await call("POST", `/seats/${encodeURIComponent(seat.id)}/claim`, undefined, true);
      me = {...me, claim: {seat: seat.id, name: seat.name, token}};
      save();
      await refresh();
    } catch (err) {
      $("join-error").textContent = err.message;
    }
  }

  // Whether the host gave this phone the seat it asked for: then it holds it, with its token.
  async function settleClaim() {
    const seen = await call("GET", "");
    const {seat, name, token} = me.claim;
    if (seen.you.actor === seat) {
      me = {...me, claim: undefined, token, player_id: seat};
      save();
      connect();
    } else if (seen.you.asking !== seat) {
      me = {...me, claim: undefined};
      save();
      $("join-error").textContent = `The host kept ${name}'s seat.`;
      show(seen);
    }
  }

  // Start once every script is in: the stream's first answer could otherwise arrive while the
  // game's script is still loading, and the table be drawn without its panel until the next move.
  function start() {
    $("join").hidden = !!me.player_id;
    if (me.claim) settleClaim().catch(() => offline(true));  // answered while this phone was away?
    connect();
    window.SpellpressAwake.keep();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  // reload: the caller's own view again (a panel whose player's seat moved on in a spectator's event)
  const reload = async () => show(await call("GET", ""));
  return {act, reload, describe, get table() { return table; }, get me() { return me; }};
})();
