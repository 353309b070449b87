// Registers the service worker (/sw.js, scope: the whole app) that makes the companion installable.
// A file of its own, not inline in the page: the Content-Security-Policy runs no inline script.
"use strict";
if ("serviceWorker" in navigator) navigator.serviceWorker.register(document.currentScript.dataset.worker).catch(() => {});
