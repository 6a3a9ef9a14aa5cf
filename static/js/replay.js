/* Kibitz replay viewer.  The server renders every step (?step=N: the permalink, and
 * the page without JavaScript).  After the page loads, this file fetches the game's
 * steps once (steps.json: each step's table as the Django templates drew it, for the
 * perspective shown, with or without results; viewer/steps.py) and steps in the
 * browser, without asking the server again:
 *   - ← → Home End, the step links, the move list, the chart's numbers, a swipe on
 *     the table and the card panel's links;
 *   - the move list's highlight, kept in view inside the list; with results hidden,
 *     the list, the chart and the results grow with the step (none after it);
 *   - the perspective menu and the "Hide results" box apply at once (that view's
 *     steps are fetched); the choice of the box is remembered (localStorage);
 *   - the address (history.replaceState) keeps record, view, spoilers and step;
 *   - autoplay: Space or the Play button, at the chosen speed;
 *   - the chart's marker at the current step (a click on the chart jumps there);
 *   - events for other scripts (static/js/card_trace.js): "kibitz:step" ({step, last,
 *     spoilers}) bubbling from #replay; on document "kibitz:view" ({view, spoilers})
 *     and "kibitz:cards" once #card-history holds new card data.
 * Without JavaScript the same links load the page for each step. */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  var view = document.getElementById("replay-view");
  var merge = window.kibitzMorph;
  if (!root || !view || !window.fetch || !merge) return;

  var stepsBase = root.dataset.stepsBase; // steps.json? (and record=N when asked for)
  var viewKey = root.dataset.view || "all";
  var spoilers = root.dataset.spoilers !== "0"; // results shown at every step
  var last = parseInt(root.dataset.last, 10) || 0;
  var current = parseInt(root.dataset.step, 10) || 0;
  var wanted = current;
  var data = null, loading = null; // the steps of the view shown (steps.json), on its way
  var moves = document.getElementById("moves");
  var status = document.getElementById("replay-status");
  var viewStep = document.getElementById("view-step");
  var chartBox = document.getElementById("chart-box");
  var endBox = document.getElementById("end-parts");
  var form = document.getElementById("view-form"), select = document.getElementById("view-select");
  var toggleSpoilers = document.getElementById("spoilers-toggle");
  var STORE = "kibitz.spoilers."; // + "all" or "seats": the box's last choice

  // The steps of view ``key``; ``explicit``: with results ``shown`` as asked (else as
  // that view shows them by default).  Their step links keep what the page's do.
  function stepsUrl(key, shown, explicit) {
    var query = new URLSearchParams(stepsBase.split("?")[1] || "");
    if (key !== "all") query.set("view", key);
    if (explicit) query.set("spoilers", shown ? "1" : "0");
    return stepsBase.split("?")[0] + "?" + query.toString();
  }

  function fetchSteps(key, shown, explicit) {
    var url = stepsUrl(key, shown, explicit);
    return fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error("steps: HTTP " + response.status);
      return response.json();
    });
  }

  function fragment(n) { // the old way, while the steps are on their way
    var url = new URL(window.location.href);
    url.searchParams.set("step", String(n));
    url.searchParams.set("fragment", "1");
    return fetch(url.pathname + url.search, { credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("step " + n + ": HTTP " + response.status);
        return response.text();
      });
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
    var marker = document.getElementById("chart-marker");
    if (!marker) return;
    var svg = marker.ownerSVGElement;
    var x = parseFloat(svg.dataset.left) + n * parseFloat(svg.dataset.stepWidth);
    marker.setAttribute("x1", x.toFixed(2));
    marker.setAttribute("x2", x.toFixed(2));
  }

  // The move list as known at step n: every item with results shown; else the items
  // up to n (and, at the end, a rejected record's faulty move).
  function fillMoves(n, rebuild) {
    if (!moves) return;
    var steps = data ? data.steps : [];
    var upto = spoilers ? last : n;
    if (rebuild) moves.textContent = "";
    var fault = moves.querySelector("li.fault");
    if (fault && (rebuild || !(spoilers || n === last))) { fault.remove(); fault = null; }
    var item = moves.lastElementChild;
    while (item && parseInt(item.getAttribute("data-step"), 10) > upto) {
      var before = item.previousElementSibling;
      item.remove();
      item = before;
    }
    var have = item ? parseInt(item.getAttribute("data-step"), 10) : -1;
    var html = "";
    for (var k = have + 1; k <= upto && k < steps.length; k++) if (steps[k].move) html += steps[k].move;
    if (html) moves.insertAdjacentHTML("beforeend", html);
    var end = steps.length ? steps[steps.length - 1].end : null;
    if (!fault && end && end.fault && (spoilers || n === last)) {
      moves.insertAdjacentHTML("beforeend", end.fault);
    }
  }

  // What only the last step shows when results are hidden: the result, the scores and
  // the other tables of the same deal.
  function fillEnd(n, rebuild) {
    var atEnd = spoilers || n === last;
    var end = data && data.steps.length ? data.steps[data.steps.length - 1].end : null;
    if (endBox && (end || !atEnd) && (rebuild || atEnd !== (endBox.dataset.shown === "1"))) {
      endBox.innerHTML = atEnd ? end.result + end.scores : "";
      endBox.dataset.shown = atEnd ? "1" : "0";
    }
    var sameDeal = document.getElementById("same-deal");
    if (sameDeal) sameDeal.hidden = !atEnd;
    var note = document.getElementById("spoiler-note");
    if (note) note.hidden = atEnd;
  }

  function fillChart(n, before) {
    if (!chartBox) return;
    if (spoilers) { moveMarker(n); return; }
    if (!data) { if (n < before) chartBox.innerHTML = ""; return; } // none past the step
    var html = data.steps[n].chart || "";
    if (chartBox.dataset.step !== String(n)) {
      swap(html, chartBox);
      chartBox.dataset.step = String(n);
    }
  }

  function keepLinks(n) {
    var everything = document.getElementById("view-all");
    if (everything) {
      var target = new URL(everything.href);
      target.searchParams.set("step", String(n));
      everything.href = target.pathname + target.search;
    }
    var open = document.getElementById("embed-open");
    if (open) {
      var url = new URL(open.href);
      url.searchParams.set("step", String(n));
      open.href = url.toString();
    }
  }

  // The address follows the step once stepping pauses (a history entry's update costs
  // more than a step's swap; every key press of a run needs none).
  var addressTimer = null;
  function setAddress(n) {
    if (addressTimer) clearTimeout(addressTimer);
    addressTimer = setTimeout(function () {
      addressTimer = null;
      var url = new URL(window.location.href);
      url.searchParams.set("step", String(n));
      url.searchParams.delete("fragment");
      history.replaceState(history.state, "", url.pathname + url.search + url.hash);
    }, 150);
  }

  // A step's HTML put in place, only what differs changed (static/js/morph.js).
  function swap(html, into) { merge.swap(html, into || view); }

  // Between steps, parse the neighbours' HTML ahead, so that the next step is no parse.
  function ahead(n) {
    setTimeout(function () {
      if (!data || current !== n) return;
      if (n + 1 <= last) merge.ahead(data.steps[n + 1].html);
      if (n > 0) merge.ahead(data.steps[n - 1].html);
    }, 0);
  }

  function show(n, html) {
    var focused = document.activeElement;
    var inView = focused && view.contains(focused);
    var nav = inView ? focused.getAttribute("data-nav") : null;
    var card = inView ? focused.getAttribute("data-card") : null;
    swap(html);
    var before = current;
    current = n;
    root.dataset.step = String(n);
    if (!spoilers) fillMoves(n, false);
    fillChart(n, before);
    fillEnd(n, false);
    if (viewStep) viewStep.value = String(n);
    keepLinks(n);
    setAddress(n);
    highlight(n); // last: it reads the layout, which every change above then shares
    var caption = view.querySelector(".caption");
    if (status && caption && !playing) status.textContent = "Step " + n + ": " + caption.textContent;
    var again = null;
    if (nav) again = view.querySelector('[data-nav="' + nav + '"]');
    else if (card) again = view.querySelector('[data-card="' + CSS.escape(card) + '"]');
    if (again) again.focus();
    else if (inView) root.focus();
    root.dispatchEvent(new CustomEvent("kibitz:step", {
      detail: { step: n, last: last, spoilers: spoilers }, bubbles: true
    }));
    ahead(n);
  }

  function go(n) {
    n = Math.max(0, Math.min(last, n));
    wanted = n;
    if (data) { // the steps are here: swap at once
      if (n !== current) show(n, data.steps[n].html);
      return Promise.resolve();
    }
    if (n === current) return Promise.resolve();
    // the steps are still on their way (a long game not yet in the cache): this step
    // from the server alone, as before
    return fragment(n).then(function (html) {
      if (wanted === n && n !== current) show(n, data ? data.steps[n].html : html);
    }, function () {
      var again = new URL(window.location.href); // let the server show it (or its error)
      again.searchParams.set("step", String(n));
      window.location.href = again.toString();
    });
  }

  // --- the perspective and the results: applied at once ---------------------------
  function kind(key) { return key === "all" ? "all" : "seats"; }
  function remembered(key) {
    try {
      var value = window.localStorage.getItem(STORE + kind(key));
      return value === "0" || value === "1" ? value === "1" : null;
    } catch (e) { return null; }
  }

  function remember(key, shown) {
    try { window.localStorage.setItem(STORE + kind(key), shown ? "1" : "0"); } catch (e) { /* private mode */ }
  }

  function setCards(cards) { // the card panel's data (static/js/card_trace.js)
    var node = document.getElementById("card-history");
    if (node) node.textContent = JSON.stringify(cards);
    document.dispatchEvent(new CustomEvent("kibitz:cards"));
  }

  // Show ``key``'s view with results ``shown`` (true: at every step), at the step
  // reached: its steps are fetched (the server filters what the view may see).
  function switchTo(key, shown, explicit) {
    var asked = { key: key, shown: shown };
    switchTo.asked = asked;
    root.setAttribute("aria-busy", "true");
    return fetchSteps(key, shown, explicit).then(function (fresh) {
      if (switchTo.asked !== asked) return;
      root.removeAttribute("aria-busy");
      viewKey = key;
      spoilers = fresh.spoilers;
      root.dataset.view = key;
      root.dataset.spoilers = spoilers ? "1" : "0";
      apply(fresh, explicit);
    }, function () {
      root.removeAttribute("aria-busy");
      var url = new URL(window.location.href); // let the server show that view
      url.searchParams.set("view", key);
      url.searchParams.set("spoilers", shown ? "1" : "0");
      url.searchParams.set("step", String(current));
      window.location.href = url.toString();
    });
  }

  function apply(fresh, explicit) {
    data = fresh;
    last = fresh.last;
    var n = Math.min(current, last);
    if (select) select.value = viewKey;
    if (toggleSpoilers) toggleSpoilers.checked = !spoilers;
    var box = document.getElementById("view-note-box");
    if (box) box.innerHTML = fresh.note;
    if (chartBox) {
      chartBox.innerHTML = spoilers ? (fresh.chart || "") : "";
      delete chartBox.dataset.step;
    }
    var url = new URL(window.location.href);
    if (viewKey === "all") url.searchParams.delete("view"); else url.searchParams.set("view", viewKey);
    if (explicit) url.searchParams.set("spoilers", spoilers ? "1" : "0");
    else url.searchParams.delete("spoilers");
    url.searchParams.delete("fragment");
    history.replaceState(history.state, "", url.pathname + url.search + url.hash);
    document.querySelectorAll("#records a, #embed-open").forEach(function (a) {
      var target = new URL(a.href);
      if (viewKey === "all") target.searchParams.delete("view"); else target.searchParams.set("view", viewKey);
      if (explicit) target.searchParams.set("spoilers", spoilers ? "1" : "0");
      else target.searchParams.delete("spoilers");
      a.href = target.toString();
    });
    setCards(fresh.cards);
    fillMoves(n, true);
    fillEnd(n, true);
    root.dataset.ready = "1";
    current = -1; // draw the step again, from the new view
    show(n, fresh.steps[n].html);
    document.dispatchEvent(new CustomEvent("kibitz:view", {
      detail: { view: viewKey, spoilers: spoilers }
    }));
  }

  document.querySelectorAll(".no-js").forEach(function (node) { node.hidden = true; });
  if (form) form.addEventListener("submit", function (event) {
    event.preventDefault();
    switchTo(select ? select.value : viewKey, toggleSpoilers ? !toggleSpoilers.checked : spoilers, true);
  });
  if (select) select.addEventListener("change", function () {
    var key = select.value;
    var mine = remembered(key);
    switchTo(key, mine === null ? key === "all" : mine, mine !== null);
  });
  if (toggleSpoilers) toggleSpoilers.addEventListener("change", function () {
    remember(viewKey, !toggleSpoilers.checked);
    switchTo(viewKey, !toggleSpoilers.checked, true);
  });

  // --- swipe: left for the next step, right for the one before -------------------
  var touch = null;
  view.addEventListener("touchstart", function (event) {
    if (event.touches.length !== 1) { touch = null; return; }
    var t = event.touches[0];
    touch = { x: t.clientX, y: t.clientY, at: Date.now() };
  }, { passive: true });
  view.addEventListener("touchend", function (event) {
    if (!touch || event.changedTouches.length !== 1) return;
    var t = event.changedTouches[0];
    var dx = t.clientX - touch.x, dy = t.clientY - touch.y;
    var quick = Date.now() - touch.at < 800;
    touch = null;
    if (quick && Math.abs(dx) >= 40 && Math.abs(dx) > 2 * Math.abs(dy)) go(wanted + (dx < 0 ? 1 : -1));
  }, { passive: true });

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

  if (chartBox) {
    chartBox.addEventListener("click", function (event) {
      var svg = event.target.closest && event.target.closest("svg[data-step-width]");
      if (!svg) return;
      var matrix = svg.getScreenCTM();
      if (!matrix) return;
      var point = svg.createSVGPoint();
      point.x = event.clientX;
      point.y = event.clientY;
      var x = point.matrixTransform(matrix.inverse()).x;
      var n = Math.round((x - parseFloat(svg.dataset.left)) / parseFloat(svg.dataset.stepWidth));
      go(spoilers ? n : Math.min(n, current)); // results hidden: no step past the one shown
    });
  }

  // After a choice in the menu with the pointer, the keys step the replay again (with
  // the keyboard, the arrows keep choosing in the menu).
  var keyed = 0;
  if (select) {
    select.addEventListener("keydown", function () { keyed = Date.now(); });
    select.addEventListener("change", function () { if (Date.now() - keyed > 500) root.focus(); });
  }

  if (moves) {
    var fault = current === last ? moves.querySelector("li.fault") : null;
    var start = fault || moves.querySelector("li.current");
    if (start) reveal(start);
  }

  // The steps of the view shown, once; with no choice of results in the address, the
  // box's remembered choice for this kind of view applies.
  var explicit = new URL(window.location.href).searchParams.has("spoilers");
  var mine = explicit ? null : remembered(viewKey);
  if (mine !== null && mine !== spoilers) {
    loading = switchTo(viewKey, mine, true);
  } else {
    loading = fetchSteps(viewKey, spoilers, explicit).then(function (fresh) {
      if (!data) data = fresh;
      if (data === fresh) setCards(fresh.cards); // the whole game's (the page: up to its step)
      root.dataset.ready = "1";
    });
    loading.catch(function () {});
  }
})();
