// An event's page: its rolls, its leaderboard (live), a table to open in it, the seed's digest and,
// once ended, the seed. The organiser (their token kept in this browser when they started the event
// from the home page) also rolls each round and ends the event.
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
    if (!res.ok) throw Object.assign(new Error(data.error ? data.error.reason : "Something went wrong."), {status: res.status});
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
      check(event.seed, event.seed_sha256);
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
    }
  }

  // This browser checks the seed against the digest itself when it can (crypto.subtle needs HTTPS
  // or localhost); anyone can do the same with the command on the page.
  async function check(seed, digest) {
    if (!(window.crypto && crypto.subtle)) return;
    const bytes = new Uint8Array(seed.match(/../g).map((h) => parseInt(h, 16)));
    const hash = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)),
      (b) => b.toString(16).padStart(2, "0")).join("");
    $("seed-check").replaceChildren(hash === digest
      ? el("span", {class: "ev-ok"}, "✓ This browser checked it: SHA-256 of the seed is the digest shown from the start.")
      : el("span", {class: "error"}, "✗ SHA-256 of this seed is not the digest shown from the start."));
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

  $("roll").addEventListener("click", () => organise(async () => {
    const round = event.rolled + 1;
    const rolled = await call("POST", "/roll", {round}, mine.organiser_token);
    $("organiser-note").textContent = `Round ${rolled.round} rolled; it reached ${rolled.tables} table${rolled.tables === 1 ? "" : "s"} at once.`;
    showEvent(await call("GET", ""));
  }));
  $("end").addEventListener("click", () => {
    if (!confirm("End the event? No more rounds can be rolled, and the seed is revealed.")) return;
    organise(async () => showEvent(await call("POST", "/end", {}, mine.organiser_token)));
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
