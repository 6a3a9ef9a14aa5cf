/* An upload's re-verification page: while the run goes, its figures follow the API
 * (GET /api/uploads/{id}/reverify/); once it is done the page loads again to list the
 * verdicts that changed. */
(function () {
  "use strict";
  var root = document.getElementById("reverify");
  if (!root || !window.fetch) return;
  var api = root.getAttribute("data-api");
  function set(id, value) {
    var el = document.getElementById(id);
    if (el) el.textContent = String(value);
  }
  function poll() {
    fetch(api, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (body) {
        var run = body && body.reverify;
        if (!run) return setTimeout(poll, 2000);
        set("reverify-checked", run.checked);
        set("reverify-total", run.total);
        set("reverify-changed", run.changed);
        var bar = document.getElementById("reverify-progress");
        if (bar) { bar.max = run.total || 1; bar.value = run.total ? run.checked : 1; }
        if (run.status === "done") { window.location.reload(); return; }
        setTimeout(poll, 1000);
      })
      .catch(function () { setTimeout(poll, 3000); });
  }
  setTimeout(poll, 500);
})();
