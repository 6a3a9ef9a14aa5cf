/* Kibitz: what each card played cost against best play (escalative-tricks), marked in
 * the game page's move list, as BBO's double-dummy analysis marks a bridge hand.
 * Data: #replay's data-costs address (viewer/costs.py): {exact, moves: [{step, seat,
 * card, best, played, cost}]}.  Marks are drawn only in the "everything" view (the
 * solver knows every hand) on the moves the list holds: with results hidden the list
 * grows with the step (static/js/replay.js), and each "kibitz:step" marks what is new. */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  var moves = document.getElementById("moves");
  if (!root || !moves || !root.dataset.costs || !window.fetch) return;
  var viewKey = root.dataset.view || "all";
  var costs = null;

  function markOf(m) {
    var span = document.createElement("span");
    span.className = "cost";
    if (m.cost === null) {
      span.classList.add("cost-unknown");
      span.textContent = "…";
      span.title = "Not solved within the time budget";
    } else if (m.cost === 0) {
      span.classList.add("cost-best");
      span.textContent = "✓";
      span.title = "A best card: sure of " + m.played + " points";
    } else {
      span.classList.add("cost-lost");
      span.textContent = "−" + m.cost;
      span.title = "Cost " + m.cost + " against best play: best " + m.best + ", this card " + m.played;
    }
    return span;
  }

  function mark() {
    if (!costs || viewKey !== "all") return;
    costs.moves.forEach(function (m) {
      var item = moves.querySelector('li[data-step="' + m.step + '"]');
      if (!item || item.querySelector(".cost")) return;
      var link = item.querySelector("a");
      if (link) link.insertAdjacentElement("afterend", markOf(m));
      else item.appendChild(markOf(m));
    });
  }

  fetch(root.dataset.costs, { credentials: "same-origin" }).then(function (response) {
    return response.ok ? response.json() : null;
  }).then(function (data) {
    costs = data;
    mark();
  }).catch(function () {});
  document.addEventListener("kibitz:step", mark);
  document.addEventListener("kibitz:view", function (event) {
    viewKey = (event.detail && event.detail.view) || "all";
    mark();
  });
})();
