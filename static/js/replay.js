/* Kibitz replay viewer.  The server renders every step (?step=N, and with
 * &fragment=1 only the replay part, from the same Django template as a full page
 * load); this file fetches, caches and swaps those fragments, and adds what needs a
 * script:
 *   - stepping without reloading: ← → Home End, the step links, the move list, the
 *     chart's numbers and the card panel's links; neighbouring steps are prefetched;
 *   - the move list's highlight, kept in view inside the list;
 *   - the address (history.replaceState), keeping record and view, and the step of
 *     the perspective form;
 *   - autoplay: Space or the Play button, at the chosen speed;
 *   - the chart's marker at the current step (a click on the chart jumps there);
 *   - "kibitz:step" ({detail: {step}}) dispatched on #replay after each step (the
 *     card panel, static/js/card_trace.js, listens).
 * Without JavaScript the same links load the page for each step. */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  var view = document.getElementById("replay-view");
  if (!root || !view || !window.fetch) return;

  var base = root.dataset.url; // the game's URL with ?record=N&view=K: what is shown
  var last = parseInt(root.dataset.last, 10) || 0;
  var current = parseInt(root.dataset.step, 10) || 0;
  var wanted = current;
  var cache = new Map();
  var moves = document.getElementById("moves");
  var status = document.getElementById("replay-status");
  var viewStep = document.getElementById("view-step");
  var marker = document.getElementById("chart-marker");
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

  function moveMarker(n) {
    if (!marker) return;
    var svg = marker.ownerSVGElement;
    var x = parseFloat(svg.dataset.left) + n * parseFloat(svg.dataset.stepWidth);
    marker.setAttribute("x1", x.toFixed(2));
    marker.setAttribute("x2", x.toFixed(2));
  }

  function show(n, html) {
    var focused = document.activeElement;
    var inView = focused && view.contains(focused);
    var nav = inView ? focused.getAttribute("data-nav") : null;
    var card = inView ? focused.getAttribute("data-card") : null;
    view.innerHTML = html;
    current = n;
    root.dataset.step = String(n);
    highlight(n);
    moveMarker(n);
    if (viewStep) viewStep.value = String(n);
    var everything = document.getElementById("view-all");
    if (everything) {
      var target = new URL(everything.href);
      target.searchParams.set("step", String(n));
      everything.href = target.pathname + target.search;
    }
    var url = new URL(window.location.href);
    url.searchParams.set("step", String(n));
    url.searchParams.delete("fragment");
    history.replaceState(history.state, "", url.pathname + url.search + url.hash);
    var caption = view.querySelector(".caption");
    if (status && caption && !playing) status.textContent = "Step " + n + ": " + caption.textContent;
    var again = null;
    if (nav) again = view.querySelector('[data-nav="' + nav + '"]');
    else if (card) again = view.querySelector('[data-card="' + CSS.escape(card) + '"]');
    if (again) again.focus();
    else if (inView) root.focus();
    root.dispatchEvent(new CustomEvent("kibitz:step", { detail: { step: n }, bubbles: true }));
  }

  function go(n) {
    n = Math.max(0, Math.min(last, n));
    wanted = n;
    if (n === current) return Promise.resolve();
    return load(n).then(function (html) {
      if (wanted === n) show(n, html);
      prefetch(n);
    }, function () {
      var again = new URL(window.location.href); // let the server show it (or its error)
      again.searchParams.set("step", String(n));
      window.location.href = again.toString();
    });
  }

  // --- autoplay --------------------------------------------------------------------
  var autoplay = document.getElementById("autoplay");
  var toggle = document.getElementById("autoplay-toggle");
  var speed = document.getElementById("autoplay-speed");
  var playing = false;
  var timer = null;
  var run = 0; // each start of autoplay is a new run; older runs' timers stop

  function setPlaying(on) {
    playing = on;
    run += 1;
    if (timer) { clearTimeout(timer); timer = null; }
    if (toggle) {
      toggle.setAttribute("aria-pressed", on ? "true" : "false");
      toggle.querySelector(".icon").textContent = on ? "❚❚" : "▶";
      toggle.querySelector(".text").textContent = on ? "Pause" : "Play";
    }
    if (status) status.textContent = on ? "Playing" : "Paused at step " + current;
    if (on) {
      var id = run;
      if (wanted >= last) go(0).then(function () { tick(id); }); else tick(id);
    }
  }

  function tick(id) {
    if (!playing || id !== run) return;
    var perSecond = parseFloat(speed ? speed.value : "1") || 1;
    timer = setTimeout(function () {
      timer = null;
      if (!playing || id !== run) return;
      if (wanted >= last) { setPlaying(false); return; }
      go(wanted + 1).then(function () { tick(id); });
    }, 1000 / perSecond);
  }

  document.querySelectorAll(".js-only").forEach(function (node) { node.hidden = false; });
  if (autoplay && toggle) {
    autoplay.hidden = false;
    toggle.addEventListener("click", function () { setPlaying(!playing); });
    if (speed) speed.addEventListener("change", function () { if (playing) { setPlaying(true); } });
  }

  // --- events ----------------------------------------------------------------------
  function typing(target) {
    return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (typing(target)) return;
    if (event.key === " " || event.key === "Spacebar") {
      // a focused button acts on Space itself (the Play button, a card)
      if (!toggle || (target && /^(BUTTON|SUMMARY)$/.test(target.tagName))) return;
      event.preventDefault();
      setPlaying(!playing);
      return;
    }
    var step = { ArrowRight: wanted + 1, ArrowLeft: wanted - 1, Home: 0, End: last }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    go(step);
  });

  document.addEventListener("click", function (event) {
    if (event.button !== 0 || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var link = event.target.closest && event.target.closest("a[data-step]");
    if (link && (root.contains(link) || (moves && moves.contains(link)))) {
      event.preventDefault();
      go(parseInt(link.getAttribute("data-step"), 10));
    }
  });

  if (marker) {
    marker.ownerSVGElement.addEventListener("click", function (event) {
      var svg = marker.ownerSVGElement;
      var matrix = svg.getScreenCTM();
      if (!matrix) return;
      var point = svg.createSVGPoint();
      point.x = event.clientX;
      point.y = event.clientY;
      var x = point.matrixTransform(matrix.inverse()).x;
      var n = Math.round((x - parseFloat(svg.dataset.left)) / parseFloat(svg.dataset.stepWidth));
      go(n);
    });
  }

  if (moves) {
    var fault = current === last ? moves.querySelector("li.fault") : null;
    var start = fault || moves.querySelector("li.current");
    if (start) reveal(start);
  }
  prefetch(current);
})();
