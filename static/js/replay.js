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
 *   - a card's history (the page's #card-history JSON) in a small panel; Escape
 *     closes it and gives the focus back to the card.
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
    markPanel();
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

  // --- the card panel ----------------------------------------------------------------
  var panel = document.getElementById("card-panel");
  var historyData = readJson("card-history") || {};
  var seatNames = readJson("seat-names") || {};
  var opener = null; // the card the panel was opened from
  var openCard = null;

  function readJson(id) {
    var node = document.getElementById(id);
    if (!node) return null;
    try { return JSON.parse(node.textContent); } catch (e) { return null; }
  }

  function seatText(letter) {
    return seatNames[letter] ? letter + " (" + seatNames[letter] + ")" : letter;
  }

  function eventText(kind, seat, to) {
    if (kind === "dealt") return "dealt to " + seatText(seat);
    if (kind === "drawn") return "drawn by " + seatText(seat);
    if (kind === "passed") return "passed from " + seatText(seat) + " to " + seatText(to);
    return "played by " + seatText(seat);
  }

  function stepHref(n) {
    var url = new URL(window.location.href);
    url.searchParams.set("step", String(n));
    url.searchParams.delete("fragment");
    return url.pathname + url.search;
  }

  function openPanel(button) {
    if (!panel) return;
    var code = button.getAttribute("data-card");
    var events = historyData[code] || [];
    if (opener) opener.classList.remove("selected");
    opener = button;
    openCard = code;
    button.classList.add("selected");
    var title = panel.querySelector("#card-panel-title");
    title.textContent = "";
    var face = button.cloneNode(true);
    var span = document.createElement("span");
    span.className = face.className.replace(" selected", "");
    span.setAttribute("aria-hidden", "true");
    span.innerHTML = face.innerHTML;
    title.appendChild(span);
    title.appendChild(document.createTextNode(" " + button.getAttribute("aria-label")));
    var dealt = events.filter(function (e) { return e[1] === "dealt"; }).length;
    var note = panel.querySelector(".card-panel-note");
    if (!events.length) {
      note.textContent = "No history: this perspective never saw this card in a hand.";
    } else if (dealt > 1) {
      note.textContent = dealt + " copies were dealt; each move of a copy is listed.";
    } else {
      note.textContent = "Where it went, step by step:";
    }
    var list = panel.querySelector(".card-panel-events");
    list.textContent = "";
    events.forEach(function (e) {
      var li = document.createElement("li");
      li.setAttribute("data-step", String(e[0]));
      var a = document.createElement("a");
      a.href = stepHref(e[0]);
      a.setAttribute("data-step", String(e[0]));
      a.textContent = "Step " + e[0];
      li.appendChild(a);
      li.appendChild(document.createTextNode(": " + eventText(e[1], e[2], e[3])));
      list.appendChild(li);
    });
    markPanel();
    panel.hidden = false;
    place(button);
    panel.querySelector(".card-panel-close").focus();
  }

  // The panel sits below the card, inside the replay box, never past its edges.
  function place(button) {
    var box = root.getBoundingClientRect();
    var at = button.getBoundingClientRect();
    var width = panel.offsetWidth;
    var left = Math.min(Math.max(at.left - box.left, 8), Math.max(box.width - width - 8, 8));
    panel.style.left = left + "px";
    panel.style.top = (at.bottom - box.top + 6) + "px";
  }

  // Mark the panel's events at, before and after the current step.
  function markPanel() {
    if (!panel || panel.hidden && !openCard) return;
    panel.querySelectorAll(".card-panel-events li").forEach(function (li) {
      var n = parseInt(li.getAttribute("data-step"), 10);
      li.classList.toggle("now", n === current);
      li.classList.toggle("later", n > current);
      var a = li.querySelector("a");
      if (n === current) a.setAttribute("aria-current", "step"); else a.removeAttribute("aria-current");
    });
  }

  function closePanel(giveFocusBack) {
    if (!panel || panel.hidden) return;
    panel.hidden = true;
    if (opener) opener.classList.remove("selected");
    var code = openCard;
    openCard = null;
    if (!giveFocusBack) return;
    var target = opener && document.contains(opener) ? opener
      : view.querySelector('[data-card="' + CSS.escape(code || "") + '"]');
    (target || root).focus();
  }

  if (panel) {
    panel.querySelector(".card-panel-close").addEventListener("click", function () { closePanel(true); });
  }

  // --- events ----------------------------------------------------------------------
  function typing(target) {
    return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && panel && !panel.hidden) {
      event.preventDefault();
      closePanel(true);
      return;
    }
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
    var card = event.target.closest && event.target.closest("button[data-card]");
    if (card && view.contains(card)) {
      if (openCard === card.getAttribute("data-card") && opener === card) closePanel(false);
      else openPanel(card);
      return;
    }
    var link = event.target.closest && event.target.closest("a[data-step]");
    if (link && (root.contains(link) || (moves && moves.contains(link)))) {
      event.preventDefault();
      go(parseInt(link.getAttribute("data-step"), 10));
      return;
    }
    if (panel && !panel.hidden && !panel.contains(event.target)) closePanel(false);
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
