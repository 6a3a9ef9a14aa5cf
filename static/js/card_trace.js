/* Kibitz card trace: where a physical card went, in a panel on the game page.
 *
 * Data: the page's #card-history JSON (viewer/perspectives.py card_events): card code ->
 * its copies (copy 1 first) -> moves [step, from, to(, word)], zones named as
 * replay.history names them ("hand:B", "pile:B", "stack:C", "trick:A", "won:D",
 * "stock", "out", "deck", "prize").  A click on a card (a button[data-card] in
 * #replay-view) opens the panel: each copy's journey, every move a link to its step
 * (the stepping script, static/js/replay.js, follows those links), and where the copy
 * ends.  The stepping script dispatches "kibitz:step" ({detail: {step}}) after each
 * step: the panel marks that step's moves and, on a spoiler-free page
 * (#replay[data-spoilers="0"], results hidden), lists only what was known by then;
 * "kibitz:cards" (new #card-history data: the whole game's, or another view's) reloads it.  Escape or
 * the close button closes the panel and gives the focus back to the card. */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  var view = document.getElementById("replay-view");
  var panel = document.getElementById("card-panel");
  if (!root || !view || !panel) return;

  var data = readJson("card-history") || {};
  var seatNames = readJson("seat-names") || {};
  var current = parseInt(root.dataset.step, 10) || 0;
  var opener = null; // the card the panel was opened from
  var openCard = null; // its code
  var openZone = null; // the zone it was shown in ("hand:B"), when known

  function readJson(id) {
    var node = document.getElementById(id);
    if (!node) return null;
    try { return JSON.parse(node.textContent); } catch (e) { return null; }
  }

  // results hidden (static/js/replay.js keeps data-spoilers: "0" hidden, "1" shown)
  function spoilerFree() { return root.dataset.spoilers === "0"; }

  function seat(letter) {
    return seatNames[letter] ? letter + " (" + seatNames[letter] + ")" : letter;
  }

  function kind(zone) { return zone.split(":")[0]; }
  function owner(zone) { return zone.split(":")[1] || ""; }

  // "in the stack of C (Ann)": where a copy is
  function place(zone) {
    if (!zone) return "out of sight";
    var who = owner(zone);
    switch (kind(zone)) {
      case "hand": return "in the hand of " + seat(who);
      case "pile": return "on the pile";
      case "trick": return "in the trick";
      case "stack": return "in the stack of " + seat(who);
      case "won": return "in the tricks won by " + seat(who);
      case "prize": return "the prize, face up";
      case "stock": return "in the stock";
      case "out": return "out of play";
      case "deck": return "taken by the deck";
      default: return "in " + zone;
    }
  }

  // where a card played from a hand went next, after "played by B"
  function after(to) {
    switch (kind(to)) {
      case "won": return ", won by " + seat(owner(to));
      case "deck": return ", taken by the deck";
      case "out": return ", gathered out of play";
      case "stack": return ", taken into the stack of " + seat(owner(to));
      default: return "";
    }
  }

  function moveText(step, from, to, word) {
    if (!to) return "left the view (" + place(from) + " before)";
    if (!from) {
      if (kind(to) === "hand") return (step === 0 ? "dealt to " : "seen in the hand of ") + seat(owner(to));
      if (kind(to) === "prize") return "turned up as the prize";
      return "seen " + place(to);
    }
    var a = kind(from), b = kind(to);
    if (a === "hand" && b === "hand") {
      if (word === "tribute") return "given as tribute by " + seat(owner(from)) + " to " + seat(owner(to));
      if (word === "return") return "returned by " + seat(owner(from)) + " to " + seat(owner(to));
      return "passed from " + seat(owner(from)) + " to " + seat(owner(to));
    }
    if (a === "stock" && b === "hand") return "drawn by " + seat(owner(to));
    if (b === "prize") return "turned up as the prize";
    if (a === "hand") {
      if (b === "pile" || b === "trick") return "played by " + seat(owner(from));
      return "played by " + seat(owner(from)) + (after(to) || " (now " + place(to) + ")");
    }
    if (b === "stack") return "taken into the stack of " + seat(owner(to));
    if (b === "won") return (a === "prize" ? "the prize, won by " : "won by ") + seat(owner(to));
    if (b === "deck") return "taken by the deck";
    if (b === "out") return "gathered out of play";
    return "moved from " + from + " to " + to;
  }

  // The copy's zone at step n (null before it was first seen).
  function zoneAt(moves, n) {
    var zone = null;
    for (var k = 0; k < moves.length && moves[k][0] <= n; k++) zone = moves[k][2];
    return zone;
  }

  function stepHref(n) {
    var url = new URL(window.location.href);
    url.searchParams.set("step", String(n));
    url.searchParams.delete("fragment");
    return url.pathname + url.search;
  }

  function zoneOf(button) {
    var seatNode = button.closest("[data-seat]");
    if (!seatNode) return null;
    var letter = seatNode.getAttribute("data-seat");
    if (button.closest(".hand")) return "hand:" + letter;
    if (button.closest(".stack")) return "stack:" + letter;
    return null;
  }

  function render() {
    var copies = data[openCard] || [];
    var hide = spoilerFree();
    var known = copies.filter(function (moves) { return !hide || moves[0][0] <= current; });
    var note = panel.querySelector(".card-panel-note");
    var box = panel.querySelector(".card-panel-copies");
    box.textContent = "";
    if (!known.length) {
      note.textContent = hide && copies.length ? "Not seen yet in this view."
        : "No history: this view never saw this card.";
      return;
    }
    var here = known.filter(function (moves) { return openZone && zoneAt(moves, current) === openZone; });
    note.textContent = known.length > 1
      ? known.length + " copies of this card" + (hide ? " seen so far" : "") + ", each followed on its own:"
      : "Where it went, step by step:";
    known.forEach(function (moves, k) {
      var section = document.createElement("section");
      section.className = "card-copy";
      section.setAttribute("data-copy", String(k + 1));
      var mine = here.indexOf(moves) >= 0;
      if (mine) section.classList.add("here");
      if (known.length > 1) {
        var h = document.createElement("h3");
        h.textContent = "Copy " + (k + 1) + " of " + known.length +
          (mine ? (here.length === 1 ? " (this card)" : " (there now)") : "");
        section.appendChild(h);
      }
      var list = document.createElement("ol");
      list.className = "card-panel-events";
      var last = null;
      moves.forEach(function (m) {
        if (hide && m[0] > current) return;
        last = m;
        var li = document.createElement("li");
        li.setAttribute("data-step", String(m[0]));
        var a = document.createElement("a");
        a.href = stepHref(m[0]);
        a.setAttribute("data-step", String(m[0]));
        a.textContent = "Step " + m[0];
        li.appendChild(a);
        li.appendChild(document.createTextNode(": " + moveText(m[0], m[1], m[2], m[3])));
        list.appendChild(li);
      });
      var end = document.createElement("li");
      end.className = "card-copy-end";
      end.textContent = (hide ? "Now: " : "End: ") + place(last ? last[2] : null);
      list.appendChild(end);
      section.appendChild(list);
      box.appendChild(section);
    });
    mark();
  }

  // Mark the moves at, before and after the current step.
  function mark() {
    panel.querySelectorAll(".card-panel-events li[data-step]").forEach(function (li) {
      var n = parseInt(li.getAttribute("data-step"), 10);
      li.classList.toggle("now", n === current);
      li.classList.toggle("later", n > current);
      var a = li.querySelector("a");
      if (n === current) a.setAttribute("aria-current", "step"); else a.removeAttribute("aria-current");
    });
  }

  function open(button) {
    if (opener) opener.classList.remove("selected");
    opener = button;
    openCard = button.getAttribute("data-card");
    openZone = zoneOf(button);
    button.classList.add("selected");
    var title = panel.querySelector("#card-panel-title");
    title.textContent = "";
    var face = document.createElement("span");
    face.className = button.className.replace(" selected", "");
    face.setAttribute("aria-hidden", "true");
    face.innerHTML = button.innerHTML;
    title.appendChild(face);
    title.appendChild(document.createTextNode(" " + button.getAttribute("aria-label")));
    render();
    panel.hidden = false;
    position(button);
    panel.querySelector(".card-panel-close").focus();
  }

  // The panel sits below the card, inside the replay box, never past its edges.
  function position(button) {
    var box = root.getBoundingClientRect();
    var at = button.getBoundingClientRect();
    var width = panel.offsetWidth;
    var left = Math.min(Math.max(at.left - box.left, 8), Math.max(box.width - width - 8, 8));
    panel.style.left = left + "px";
    panel.style.top = (at.bottom - box.top + 6) + "px";
  }

  function close(giveFocusBack) {
    if (panel.hidden) return;
    panel.hidden = true;
    if (opener) opener.classList.remove("selected");
    var code = openCard;
    openCard = null;
    if (!giveFocusBack) return;
    var target = opener && document.contains(opener) ? opener
      : view.querySelector('[data-card="' + CSS.escape(code || "") + '"]');
    (target || root).focus();
  }

  panel.querySelector(".card-panel-close").addEventListener("click", function () { close(true); });

  document.addEventListener("kibitz:step", function (event) {
    var n = event.detail && parseInt(event.detail.step, 10);
    if (isNaN(n)) return;
    current = n;
    if (openCard === null) return;
    if (spoilerFree()) render(); else mark();
  });

  document.addEventListener("kibitz:cards", function () {
    data = readJson("card-history") || {};
    if (openCard !== null) render();
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && !panel.hidden) {
      event.preventDefault();
      close(true);
    }
  });

  document.addEventListener("click", function (event) {
    if (event.button !== 0 || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var card = event.target.closest && event.target.closest("button[data-card]");
    if (card && view.contains(card)) {
      if (!panel.hidden && openCard === card.getAttribute("data-card") && opener === card) close(false);
      else open(card);
      return;
    }
    if (!panel.hidden && !panel.contains(event.target)) close(false);
  });
})();
