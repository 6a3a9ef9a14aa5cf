/* Kibitz analysis board.  The server renders every position (links and a GET form
 * work without this file); here:
 *   - on the board, a played move (the choices and the move box are GET forms), a
 *     step back and the bot's move fetch the next board (&fragment=1) and swap it in, the address following the line
 *     (history.pushState; Back and Forward load the line they show);
 *   - on a game page, the "Analyse" link follows the replay's current step and view.
 * The KGN download and "Back to the game" (data-plain) stay ordinary links. */
(function () {
  "use strict";
  if (!window.fetch || !window.URL) return;

  var link = document.querySelector("a[data-analysis-link]");
  if (link) {
    var follow = function () {
      var here = new URL(window.location.href);
      var replay = document.getElementById("replay");
      var step = (replay && replay.dataset.step) || here.searchParams.get("step") || "0";
      var target = new URL(link.href);
      target.searchParams.set("step", step);
      link.href = target.pathname + target.search;
      var view = here.searchParams.get("view");
      link.textContent = !view || view === "all" ? link.dataset.all : link.dataset.hidden;
    };
    // the stepping script (static/js/replay.js) announces each step and view
    document.addEventListener("kibitz:step", follow);
    document.addEventListener("kibitz:view", follow);
    ["mousedown", "focus", "touchstart"].forEach(function (kind) { link.addEventListener(kind, follow); });
    window.addEventListener("popstate", follow);
  }

  var board = document.getElementById("analysis-board");
  if (!board) return;
  var status = document.getElementById("analysis-status");
  var pending = null;

  function frame() { return board.querySelector(".analysis-frame"); }

  function refocus(id) {
    // the control used is gone with the old board: the same one on the new board, or
    // the first choice (to play on from the keyboard), or the board itself
    var next = (id && document.getElementById(id)) || board.querySelector("button.choice") || board;
    next.focus({ preventScroll: true });
  }

  function load(url, push) {
    var active = document.activeElement;
    var had = active && board.contains(active) ? active.id || "-" : null;
    var target = new URL(url, window.location.href);
    target.searchParams.set("fragment", "1");
    if (pending) pending.abort();
    pending = window.AbortController ? new AbortController() : null;
    board.classList.add("loading");
    return fetch(target.pathname + target.search, {
      credentials: "same-origin",
      headers: { "X-Requested-With": "fetch" },
      signal: pending ? pending.signal : undefined
    }).then(function (response) {
      if (response.status >= 500 || response.status === 404) throw new Error("HTTP " + response.status);
      return response.text();
    }).then(function (html) {
      board.innerHTML = html;
      board.classList.remove("loading");
      var now = frame();
      if (now && push) history.pushState({ analysis: true }, "", now.dataset.url);
      var problem = document.getElementById("analysis-problem");
      var caption = document.getElementById("analysis-caption");
      if (status) status.textContent = problem ? problem.textContent : (caption ? caption.textContent : "");
      var share = document.getElementById("share-url");
      if (share && now) share.value = new URL(now.dataset.url, window.location.href).href;
      var box = document.getElementById("move-box");
      if (problem && box && box.value) box.focus();
      else if (had) refocus(had === "-" ? null : had);
    }).catch(function (error) {
      board.classList.remove("loading");
      if (error && error.name === "AbortError") return;
      window.location.href = url; // let the server answer as a page
    });
  }

  board.addEventListener("click", function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    var a = event.target.closest && event.target.closest("a[href]");
    if (!a || !board.contains(a) || a.hasAttribute("data-plain")) return;
    var target = new URL(a.href, window.location.href);
    if (target.pathname !== new URL(board.dataset.base, window.location.href).pathname) return;
    event.preventDefault();
    load(a.href, true);
  });

  board.addEventListener("submit", function (event) {
    var form = event.target;
    if (!board.contains(form)) return;
    event.preventDefault();
    var url = new URL(form.action, window.location.href);
    new FormData(form).forEach(function (value, key) { url.searchParams.append(key, value); });
    var by = event.submitter;
    if (by && by.name) url.searchParams.set(by.name, by.value);
    load(url.pathname + url.search, true);
  });

  window.addEventListener("popstate", function () { load(window.location.href, false); });
})();
