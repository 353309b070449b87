// The companion is live or it is nothing: every request goes to the network (no stale numbers
// from a cache). A fetch handler is what makes the app installable as a home-screen app.
self.addEventListener("fetch", () => {});
