// The home page: open a table with the chosen game's options, then go to it as its host; or start
// an event and go to its page as its organiser.
"use strict";
(() => {
  const games = JSON.parse(document.getElementById("games").textContent);
  const select = document.getElementById("game");
  const box = document.getElementById("options");

  // One field per option, from the game's Options schema (so a new option needs no page change):
  // its title, each choice in the schema's words (`labels`), and what it changes beneath.
  function fields(schema) {
    box.replaceChildren();
    for (const [name, prop] of Object.entries(schema.properties || {})) {
      const label = document.createElement("label");
      label.textContent = prop.title || name;
      let input;
      const choices = prop.enum || (prop.type === "integer" && prop.maximum - prop.minimum <= 12
        ? Array.from({length: prop.maximum - prop.minimum + 1}, (_, i) => prop.minimum + i) : null);
      if (prop.type === "boolean") {
        input = document.createElement("input");
        input.type = "checkbox";
        input.checked = !!prop.default;
        input.style.width = "auto";
      } else if (choices) {
        input = document.createElement("select");
        const words = prop.labels || {};
        for (const value of choices) input.add(new Option(words[value] ?? String(value), String(value), false, value === prop.default));
      } else {
        input = document.createElement("input");
        input.value = prop.default ?? "";
      }
      input.name = name;
      input.dataset.type = prop.type || "string";
      label.append(document.createElement("br"), input);
      if (prop.description) {
        const note = document.createElement("span");
        note.className = "note";
        note.textContent = prop.description;
        label.append(note);
      }
      if (prop.shown_when) label.dataset.shownWhen = JSON.stringify(prop.shown_when);
      box.append(label);
    }
    applies();
  }
  // An option that applies only under others' values (its schema's `shown_when`) is hidden otherwise.
  function applies() {
    const value = (name) => {
      const input = box.querySelector(`[name="${name}"]`);
      return !input ? undefined : input.type === "checkbox" ? input.checked : input.value;
    };
    for (const label of box.querySelectorAll("[data-shown-when]")) {
      const when = JSON.parse(label.dataset.shownWhen);
      const shown = Object.entries(when).every(([name, wanted]) => String(value(name)) === String(wanted));
      label.hidden = !shown;
      label.style.display = shown ? "" : "none";  // label's display: block would show it hidden
    }
  }
  box.addEventListener("change", applies);
  const current = () => games.find((g) => g.id === select.value);
  const chosen = () => {
    document.getElementById("game-players").textContent = current().players;
    fields(current().options);
  };
  select.addEventListener("change", chosen);
  chosen();

  document.getElementById("new-table").addEventListener("submit", async (event) => {
    event.preventDefault();
    const options = {};
    for (const input of box.querySelectorAll("[name]")) {
      const type = input.dataset.type;
      options[input.name] = type === "boolean" ? input.checked : type === "integer" ? Number(input.value) : input.value;
    }
    const error = document.getElementById("new-error");
    error.textContent = "";
    try {
      const res = await fetch("/api/tables", {
        method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify({game: select.value, options}),
      });
      const body = await res.json();
      if (!res.ok) throw new Error(body.error.reason);
      localStorage.setItem("spellpress:" + body.code, JSON.stringify({host_token: body.host_token}));
      // this address, not join_url (the one for other phones): the token just stored is this origin's
      location.href = `/t/${encodeURIComponent(body.code)}`;
    } catch (err) {
      error.textContent = err.message || "Could not open a table.";
    }
  });

  // An event: its organiser's token stays in this browser (event.js shows them Roll and End).
  const newEvent = document.getElementById("new-event");
  if (newEvent) newEvent.addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = document.getElementById("event-error");
    error.textContent = "";
    const form = new FormData(newEvent);
    const body = {game: form.get("game")};
    if (String(form.get("name")).trim()) body.name = String(form.get("name")).trim();
    try {
      const res = await fetch("/api/events", {
        method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
      });
      const made = await res.json();
      if (!res.ok) throw new Error(made.error.reason);
      localStorage.setItem("spellpress:event:" + made.code, JSON.stringify({organiser_token: made.organiser_token}));
      location.href = `/e/${encodeURIComponent(made.code)}`;  // as above: the token is this origin's
    } catch (err) {
      error.textContent = err.message || "Could not start an event.";
    }
  });
})();
