/* Kibitz upload page: while the upload is pending or processing, poll its API
 * resource (/api/uploads/<id>/, with the session cookie) every second and update
 * the status, the counts, the progress bar and the record rows in place; stop when
 * it is done or failed.  Every value from the API is inserted as text. */
(function () {
  "use strict";
  var root = document.getElementById("upload");
  if (!root || !window.fetch) return;
  var BUSY = ["pending", "processing"];
  var INTERVAL = 1000;
  var table = document.getElementById("records");
  var query = "?records_from=" + encodeURIComponent(table.dataset.recordsFrom || "1") +
    "&records_limit=" + encodeURIComponent(table.dataset.recordsLimit || "100");
  if (table.dataset.recordsStatus) {
    query += "&records_status=" + encodeURIComponent(table.dataset.recordsStatus);
  }
  var api = root.dataset.api + query;
  var gameUrl = root.dataset.gameUrl; // /games/0/ -> /games/<id>/
  if (BUSY.indexOf(root.dataset.status) < 0) return;

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function signed(n) {
    if (typeof n !== "number") return String(n);
    return n > 0 ? "+" + n : n < 0 ? "\u2212" + -n : "0";
  }

  function resultText(result) {
    if (result === null || result === undefined) return "\u2014";
    if (typeof result !== "object") return String(result);
    return Object.keys(result).sort().map(function (seat) {
      return seat + " " + signed(result[seat]);
    }).join(", ");
  }

  function row(record) {
    var tr = el("tr");
    tr.dataset.index = record.index;
    tr.appendChild(el("td", "num", record.index));
    var gameCell = el("td");
    var link = el("a", "", record.game || "?");
    link.href = gameUrl.replace(/\/0\/$/, "/" + encodeURIComponent(record.game_id) + "/") +
      "?record=" + encodeURIComponent(record.record_id);
    gameCell.appendChild(link);
    tr.appendChild(gameCell);
    tr.appendChild(el("td", "", (record.players || []).join(", ")));
    var statusCell = el("td");
    statusCell.appendChild(el("span", "badge badge-" + record.status, record.status));
    tr.appendChild(statusCell);
    var last = el("td");
    var e = record.error;
    if (e) {
      var where = e.line ? "line " + e.line + ", column " + e.column : "";
      if (e.action) where += (where ? ", " : "") + "action " + e.action;
      last.appendChild(el("span", "error", (where ? where + ": " : "") + e.message));
    } else {
      last.appendChild(el("span", "result", resultText(record.result)));
    }
    tr.appendChild(last);
    return tr;
  }

  function render(data) {
    root.dataset.status = data.status;
    var badge = document.getElementById("upload-status");
    badge.textContent = data.status;
    badge.className = "badge badge-" + data.status;
    var counts = data.counts || {};
    Object.keys(counts).forEach(function (name) {
      var cell = root.querySelector('[data-count="' + name + '"]');
      if (cell) cell.textContent = counts[name];
    });
    var busy = BUSY.indexOf(data.status) >= 0;
    var progress = document.getElementById("upload-progress");
    var checked = (counts.verified || 0) + (counts.rejected || 0) + (counts.incomplete || 0);
    if (busy) {
      progress.removeAttribute("value");
    } else {
      progress.max = counts.found || 1;
      progress.value = counts.found ? checked : 1;
    }
    progress.textContent = checked + " of " + (counts.found || 0);
    document.getElementById("upload-busy").hidden = !busy;
    var records = data.records || [];
    if (records.length) {
      var body = document.createElement("tbody");
      records.forEach(function (record) { body.appendChild(row(record)); });
      table.replaceChild(body, table.tBodies[0]);
    }
    return busy;
  }

  function poll() {
    fetch(api, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (data) {
        if (render(data)) window.setTimeout(poll, INTERVAL);
        else if (data.status === "failed") window.location.reload(); // show the reason
      })
      .catch(function () { window.setTimeout(poll, INTERVAL * 3); });
  }

  window.setTimeout(poll, INTERVAL);
})();
