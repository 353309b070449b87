// An event's page: its rolls, its leaderboard (live), a table to open in it, the seed's digest and,
// once ended, the seed, which one button checks against the digest and every roll in this browser.
// The organiser (their token kept in this browser when they started the event from the home page)
// also sees how many tables have finished the round, rolls each round (confirming a roll ahead of
// tables still playing) and ends the event.
"use strict";
(() => {
  const {code} = JSON.parse(document.getElementById("event-config").textContent);
  const $ = (id) => document.getElementById(id);
  const api = "/api/events/" + encodeURIComponent(code);
  const mine = JSON.parse(localStorage.getItem("spellpress:event:" + code) || "{}");
  let event = null;
  let source = null;
  let busy = false;

  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v);
    node.append(...children.filter((c) => c !== null && c !== undefined));  // strings become text, never markup
    return node;
  }

  async function call(method, path, body, token) {
    const headers = {"Content-Type": "application/json"};
    if (token) headers.Authorization = "Bearer " + token;
    const res = await fetch(api + path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
    const data = await res.json().catch(() => ({error: {reason: "The server answered oddly; try again."}}));
    if (!res.ok) {
      throw Object.assign(new Error(data.error ? data.error.reason : "Something went wrong."),
        {status: res.status, error: data.error || {}});
    }
    return data;
  }

  function dice(values) {
    return el("span", {class: "ev-dice"}, ...Object.entries(values).map(([id, v]) =>
      el("span", {class: "ev-die", "data-die": id}, el("small", {}, id), String(v))));
  }

  function showEvent(next) {
    event = next;
    $("tables").textContent = `${event.tables} table${event.tables === 1 ? "" : "s"}`;
    $("progress").textContent = event.ended ? `ended after ${event.rolled} of ${event.rounds} rounds`
      : `${event.rolled} of ${event.rounds} rounds rolled`;
    $("rolls").replaceChildren(...event.rolls.map((r, i) => el("li",
      {class: i === event.rolls.length - 1 ? "ev-latest" : null, "data-round": r.round},
      el("span", {}, `Round ${r.round}`), dice(r.dice))).reverse());  // the newest first
    $("no-rolls").hidden = event.rolls.length > 0;
    $("digest").textContent = event.seed_sha256;
    $("revealed").hidden = !event.seed;
    if (event.seed && $("seed").textContent !== event.seed) {
      $("seed").textContent = event.seed;
      $("seed-input").value = event.seed;
    }
    $("open").disabled = event.ended;
    $("open-card").hidden = event.ended;

    const organiser = !!mine.organiser_token;
    $("organiser").hidden = !organiser;
    if (organiser) {
      const next = event.rolled + 1;
      $("roll").textContent = event.ended ? "The event has ended"
        : next > event.rounds ? `All ${event.rounds} rounds rolled` : `Roll round ${next}`;
      $("roll").disabled = busy || event.ended || next > event.rounds;
      $("end").disabled = busy || event.ended;
      const {round, finished, of} = event.progress;
      $("round-progress").hidden = event.ended || round === 0;
      $("round-progress").textContent = of === 0 ? "No table has begun yet."
        : `${finished} of ${of} table${of === 1 ? " has" : "s have"} finished round ${round}.`;
    }
  }

  // The README's algorithm in this browser (Web Crypto): round r's result of a die with f faces is
  // HMAC-SHA256 of "r:die:attempt" keyed with the seed's bytes, its first 8 bytes read as a number;
  // one past the last whole multiple of f is drawn again with the next attempt.
  async function eventDie(key, round, die, faces) {
    const span = 2n ** 64n, limit = span - span % BigInt(faces);
    for (let attempt = 0; ; attempt++) {
      const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${round}:${die}:${attempt}`));
      const n = new DataView(mac).getBigUint64(0);
      if (n < limit) return Number(n % BigInt(faces)) + 1;
    }
  }

  // Whether `seed` is the event's: its SHA-256 the digest shown from the start, and every round's
  // dice the ones rolled. Words for the page.
  async function checkSeed(seed) {
    if (!/^([0-9a-f]{2})+$/.test(seed)) return [false, "✗ A seed is written in hexadecimal digits (0-9, a-f), two per byte."];
    const bytes = new Uint8Array(seed.match(/../g).map((h) => parseInt(h, 16)));
    const digest = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)),
      (b) => b.toString(16).padStart(2, "0")).join("");
    if (digest !== event.seed_sha256) return [false, "✗ This seed does not match: its SHA-256 is not the digest shown from the start."];
    const key = await crypto.subtle.importKey("raw", bytes, {name: "HMAC", hash: "SHA-256"}, false, ["sign"]);
    for (const roll of event.rolls) {
      for (const die of event.dice) {
        if (await eventDie(key, roll.round, die.id, die.faces) !== roll.dice[die.id]) {
          return [false, `✗ This seed does not match the rolls: round ${roll.round}'s ${die.id} is not what it gives.`];
        }
      }
    }
    const rounds = `${event.rolls.length} round${event.rolls.length === 1 ? "" : "s"}`;
    return [true, `✓ Checked in this browser: the seed's SHA-256 is the digest shown from the start, and it gives every roll (${rounds}).`];
  }

  function showLeaders(rows) {
    const ties = event.leaderboard.ties;  // the game's tie-breaks, shown under each name
    $("leaders").replaceChildren(...rows.map((r) => el("tr", {"data-player": r.player, "data-table": r.table},
      el("td", {class: "ev-place"}, String(r.place)),
      el("td", {}, el("strong", {}, r.name), el("br"),
        el("span", {class: "ev-detail"}, "table ", el("a", {href: `/t/${encodeURIComponent(r.table)}/projector`}, r.table),
          ...ties.map((tie) => ` · ${r[tie.key]} ${r[tie.key] === 1 ? tie.one : tie.many}`))),
      el("td", {class: "num big-num"}, el("strong", {}, String(r.total))))));
    $("no-leaders").hidden = rows.length > 0;
  }

  function offline(yes) {
    $("offline").hidden = !yes;
    document.body.classList.toggle("stale", yes);
  }

  // Each message is the whole event and leaderboard, so a reconnect needs nothing more.
  function connect() {
    if (source) source.close();
    source = new EventSource(api + "/events");
    source.onopen = () => offline(false);
    source.addEventListener("event", (message) => {
      const data = JSON.parse(message.data);
      showEvent(data.event);
      showLeaders(data.leaderboard);
    });
    source.onerror = () => {
      offline(true);
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
    };
  }

  async function organise(action) {
    $("organiser-error").textContent = "";
    $("organiser-note").textContent = "";
    busy = true;
    showEvent(event);
    try {
      await action();
    } catch (err) {
      $("organiser-error").textContent = err.status === 401
        ? "This browser does not hold the organiser's token for this event." : err.message;
      showEvent(await call("GET", ""));  // another organiser may have rolled: show where the event is
    } finally {
      busy = false;
      showEvent(event);
    }
  }

  // A roll cannot be taken back: while tables are still playing the round, the organiser confirms
  // with their count first. The server refuses an unconfirmed roll ahead of them (its count may be
  // newer than the page's): then the organiser is asked with its count.
  function confirmed({round, finished, of}) {
    return confirm(`${finished} of ${of} table${of === 1 ? " has" : "s have"} finished round ${round}. ` +
      `Roll round ${round + 1} now anyway? A roll cannot be taken back.`);
  }

  async function roll(round) {
    const ahead = event.progress.finished < event.progress.of;
    if (ahead && !confirmed(event.progress)) return null;
    try {
      return await call("POST", "/roll", ahead ? {round, ahead} : {round}, mine.organiser_token);
    } catch (err) {
      if (ahead || err.error.field !== "ahead") throw err;
      if (!confirmed(err.error.progress)) return null;
      return call("POST", "/roll", {round, ahead: true}, mine.organiser_token);
    }
  }

  $("roll").addEventListener("click", () => organise(async () => {
    const round = event.rolled + 1;
    const rolled = await roll(round);
    $("organiser-note").textContent = rolled
      ? `Round ${rolled.round} rolled; it reached ${rolled.tables} table${rolled.tables === 1 ? "" : "s"} at once.`
      : `Round ${round} not rolled: tables are still playing round ${round - 1}.`;
    showEvent(await call("GET", ""));
  }));
  $("end").addEventListener("click", () => {
    if (!confirm("End the event? No more rounds can be rolled, and the seed is revealed.")) return;
    organise(async () => showEvent(await call("POST", "/end", {}, mine.organiser_token)));
  });

  $("seed-form").addEventListener("submit", async (submit) => {
    submit.preventDefault();
    if (!(window.crypto && crypto.subtle)) {
      $("seed-check").replaceChildren(el("span", {class: "error"},
        "This browser checks only over HTTPS or on the server's own machine; use the Python below."));
      return;
    }
    const [ok, words] = await checkSeed($("seed-input").value.trim().toLowerCase());
    $("seed-check").replaceChildren(el("span", {class: ok ? "ev-ok" : "error"}, words));
  });

  $("open-table").addEventListener("submit", async (submit) => {
    submit.preventDefault();
    $("open-error").textContent = "";
    const options = Object.fromEntries(new FormData(submit.target));
    try {
      const opened = await call("POST", "/tables", {options});
      localStorage.setItem("spellpress:" + opened.code, JSON.stringify({host_token: opened.host_token}));
      // this address, not join_url (the one for other phones): the token just stored is this origin's
      location.href = `/t/${encodeURIComponent(opened.code)}`;
    } catch (err) {
      $("open-error").textContent = err.message || "Could not open a table.";
    }
  });

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && (!source || source.readyState === EventSource.CLOSED)) connect();
  });
  window.addEventListener("online", connect);
  window.addEventListener("offline", () => offline(true));

  call("GET", "").then(showEvent).catch(() => offline(true));
  connect();
})();
