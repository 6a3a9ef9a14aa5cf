/* Kibitz replay stepping: the arrow keys (and Home/End, and the step links) show
 * another step without reloading the page.  Each step's HTML comes from the server
 * (?step=N&fragment=1, the same Django template as a full page load); this file only
 * fetches, caches and swaps it, moves the highlight in the move list and updates the
 * address.  Neighbouring steps are prefetched so that stepping is instant.  Without
 * JavaScript the same links load the page for that step. */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  var view = document.getElementById("replay-view");
  if (!root || !view || !window.fetch) return;

  var base = root.dataset.url; // the game's URL with ?record=N: the record shown
  var last = parseInt(root.dataset.last, 10) || 0;
  var current = parseInt(root.dataset.step, 10) || 0;
  var wanted = current;
  var cache = new Map();
  var moves = document.getElementById("moves");
  var status = document.getElementById("replay-status");
  var PREFETCH = 2;

  cache.set(current, Promise.resolve(view.innerHTML));

  function load(n) {
    if (!cache.has(n)) {
      var request = fetch(base + "&step=" + n + "&fragment=1", {
        credentials: "same-origin",
        headers: { "X-Requested-With": "fetch" }
      }).then(function (response) {
        if (!response.ok) throw new Error("step " + n + ": HTTP " + response.status);
        return response.text();
      });
      request.catch(function () { cache.delete(n); });
      cache.set(n, request);
    }
    return cache.get(n);
  }

  function prefetch(n) {
    for (var d = 1; d <= PREFETCH; d++) {
      if (n + d <= last) load(n + d).catch(function () {});
      if (n - d >= 0) load(n - d).catch(function () {});
    }
  }

  function highlight(n) {
    if (!moves) return;
    var old = moves.querySelector("li.current");
    if (old) {
      old.classList.remove("current");
      var oldLink = old.querySelector("a[aria-current]");
      if (oldLink) oldLink.removeAttribute("aria-current");
    }
    var item = moves.querySelector('li[data-step="' + n + '"]');
    if (item) {
      item.classList.add("current");
      var link = item.querySelector("a");
      if (link) link.setAttribute("aria-current", "step");
      reveal(item);
    }
  }

  // Scroll the move list (not the page) so that ``item`` is in view.
  function reveal(item) {
    var top = item.offsetTop;
    var bottom = top + item.offsetHeight;
    if (top < moves.scrollTop) moves.scrollTop = top - moves.clientHeight / 3;
    else if (bottom > moves.scrollTop + moves.clientHeight) {
      moves.scrollTop = bottom - (2 * moves.clientHeight) / 3;
    }
  }

  function show(n, html) {
    var focused = document.activeElement;
    var nav = focused && view.contains(focused) ? focused.getAttribute("data-nav") : null;
    view.innerHTML = html;
    current = n;
    root.dataset.step = String(n);
    highlight(n);
    var url = new URL(window.location.href);
    url.searchParams.set("step", String(n));
    url.searchParams.delete("fragment");
    history.replaceState(history.state, "", url.pathname + url.search + url.hash);
    var caption = view.querySelector(".caption");
    if (status && caption) status.textContent = "Step " + n + ": " + caption.textContent;
    if (nav) {
      var again = view.querySelector('[data-nav="' + nav + '"]');
      if (again) again.focus();
    }
  }

  function go(n) {
    n = Math.max(0, Math.min(last, n));
    wanted = n;
    if (n === current) return;
    load(n).then(function (html) {
      if (wanted === n) show(n, html);
      prefetch(n);
    }, function () {
      var again = new URL(window.location.href); // let the server show it (or its error)
      again.searchParams.set("step", String(n));
      window.location.href = again.toString();
    });
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    var step = { ArrowRight: wanted + 1, ArrowLeft: wanted - 1, Home: 0, End: last }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    go(step);
  });

  document.addEventListener("click", function (event) {
    if (event.button !== 0 || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var link = event.target.closest && event.target.closest("a[data-step]");
    if (!link || !(view.contains(link) || (moves && moves.contains(link)))) return;
    event.preventDefault();
    go(parseInt(link.getAttribute("data-step"), 10));
  });

  if (moves) {
    var fault = current === last ? moves.querySelector("li.fault") : null;
    var start = fault || moves.querySelector("li.current");
    if (start) reveal(start);
  }
  prefetch(current);
})();
