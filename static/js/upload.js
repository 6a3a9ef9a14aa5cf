/* Kibitz upload page: while the upload is pending or processing, fetch the page's live
 * part (/uploads/<id>/live/ with the page's own query: its filter and page of records)
 * every second and swap in each part (#upload-summary, #upload-records) whose content
 * changed.  The server renders those parts with the page's own templates, so the page
 * shows what it would show if reloaded; nothing here builds a row.  Polling stops when
 * the upload is done or failed. */
(function () {
  "use strict";
  var root = document.getElementById("upload");
  if (!root || !window.fetch || !window.DOMParser) return;
  var BUSY = ["pending", "processing"];
  var PARTS = ["upload-summary", "upload-records"];
  var INTERVAL = 1000; // while the tab is shown
  var HIDDEN_INTERVAL = 5000; // while it is in the background
  var RETRY = 3000; // after a failed request
  var live = root.dataset.live + window.location.search;
  var announce = document.getElementById("upload-announce");
  if (BUSY.indexOf(root.dataset.status) < 0) return;

  var FOCUSABLE = "a[href], button, input, select, textarea, [tabindex]";

  /* Replace ``old`` by ``fresh`` and keep the keyboard focus on the same control
   * (by its place among the part's focusable elements) if it was inside. */
  function replacePart(old, fresh) {
    var active = document.activeElement;
    var at = -1;
    if (active && active !== document.body && old.contains(active)) {
      at = Array.prototype.indexOf.call(old.querySelectorAll(FOCUSABLE), active);
    }
    var node = document.importNode(fresh, true);
    old.parentNode.replaceChild(node, old);
    if (at >= 0) {
      var again = node.querySelectorAll(FOCUSABLE)[at];
      if (again) again.focus({ preventScroll: true });
    }
  }

  /* Swap in the changed parts; return the upload's status as the server saw it. */
  function apply(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    PARTS.forEach(function (id) {
      var fresh = doc.getElementById(id);
      var old = document.getElementById(id);
      if (fresh && old && fresh.innerHTML !== old.innerHTML) replacePart(old, fresh);
    });
    var summary = doc.getElementById("upload-summary");
    return summary ? summary.dataset.status : root.dataset.status;
  }

  function later(ms) {
    window.setTimeout(poll, document.hidden ? Math.max(ms, HIDDEN_INTERVAL) : ms);
  }

  function poll() {
    fetch(live, {
      credentials: "same-origin",
      cache: "no-store",
      headers: { Accept: "text/html" },
    })
      .then(function (response) {
        // gone or no longer visible (deleted, made private): the page itself says so
        if (response.status === 404 || response.status === 403) {
          window.location.reload();
          return null;
        }
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text();
      })
      .then(function (html) {
        if (html === null) return;
        var status = apply(html);
        if (status !== root.dataset.status) {
          root.dataset.status = status;
          if (announce) announce.textContent = "Upload " + status;
        }
        if (BUSY.indexOf(status) >= 0) later(INTERVAL);
      })
      .catch(function () { later(RETRY); });
  }

  later(INTERVAL);
})();
