// Keeping the phone's screen on while a table is open. The Screen Wake Lock where the browser
// grants it (HTTPS or localhost); otherwise a tiny muted video that never ends, which phones treat
// as someone watching (Chromium keeps the screen on for a visible, playing MediaStream video of
// any size). #sleep says so whenever the wake lock is not what keeps the screen on.
"use strict";
window.SpellpressAwake = (() => {
  const note = document.getElementById("sleep");
  let video = null;

  function say(text) {
    note.hidden = !text;
    note.textContent = text;
  }

  async function byWakeLock() {
    if (!("wakeLock" in navigator)) return false;  // only in a secure context
    try { await navigator.wakeLock.request("screen"); return true; } catch (err) { return false; }  // e.g. battery saver
  }

  function silentVideo() {
    const canvas = Object.assign(document.createElement("canvas"), {width: 2, height: 2});
    const paint = canvas.getContext("2d");
    let frame = 0;
    const draw = () => { paint.fillStyle = frame++ % 2 ? "#000" : "#111"; paint.fillRect(0, 0, 2, 2); };
    draw();
    setInterval(draw, 5000);  // a new frame now and then keeps the stream live
    const node = Object.assign(document.createElement("video"), {muted: true, playsInline: true, className: "awake"});
    node.setAttribute("aria-hidden", "true");
    node.srcObject = canvas.captureStream(1);
    document.body.append(node);
    return node;
  }

  async function byVideo() {
    if (!HTMLCanvasElement.prototype.captureStream) return false;
    video = video || silentVideo();
    try { await video.play(); return true; } catch (err) { return false; }  // some phones want a tap first
  }

  // Called on load and whenever the page comes back: the browser drops both ways when it is hidden.
  // Resolves to the way that keeps the screen on now: "wake-lock", "video" or "none".
  async function keep() {
    if (await byWakeLock()) {
      say("");
      return "wake-lock";
    }
    if (await byVideo()) {
      say(window.isSecureContext
        ? "The screen is kept on by a silent video."
        : "Not on HTTPS: the screen is kept on by a silent video. If it still dims, the host can start the companion with --tls.");
      return "video";
    }
    say("The screen may dim while you play: tap anywhere to keep it on.");
    document.addEventListener("pointerdown", keep, {once: true});
    return "none";
  }

  return {keep};
})();
