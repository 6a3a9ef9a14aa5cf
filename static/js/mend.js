/* Kibitz record page (records/mend_views.py): the plain <textarea> becomes a CodeMirror
 * editor (static/vendor/codemirror/) with the error's line marked, its column marked,
 * its message shown under the line and the cursor put there; while an edit is being
 * verified, the page polls the record's API resource and shows the verdict when it is
 * stored.  Without JavaScript the textarea and the form work as they are. */
(function () {
  "use strict";
  var root = document.getElementById("mend");
  if (!root) return;
  var INTERVAL = 1000;

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  // KGN (../shared/NOTATION.md): tag lines, {} and ; comments, move numbers, seats
  function defineKgn(CM) {
    CM.defineMode("kgn", function () {
      return {
        startState: function () { return { comment: false }; },
        token: function (stream, state) {
          if (state.comment) {
            if (stream.skipTo("}")) {
              stream.next();
              state.comment = false;
            } else {
              stream.skipToEnd();
            }
            return "comment";
          }
          if (stream.sol() && stream.peek() === "[") {
            stream.skipToEnd();
            return "meta";
          }
          if (stream.eat("{")) {
            state.comment = true;
            return "comment";
          }
          if (stream.eat(";")) {
            stream.skipToEnd();
            return "comment";
          }
          if (stream.match(/^\d+\./)) return "number";
          if (stream.match(/^[A-Z]:/)) return "keyword";
          stream.next();
          return null;
        }
      };
    });
  }

  function markError(cm, textarea) {
    var line = parseInt(textarea.dataset.errorLine, 10) - 1;
    if (isNaN(line) || line < 0 || line >= cm.lineCount()) return;
    var message = textarea.dataset.errorMessage || "";
    var text = cm.getLine(line);
    var column = Math.max((parseInt(textarea.dataset.errorColumn, 10) || 1) - 1, 0);
    var start = Math.min(column, text.length);
    var end = start;
    var rest = text.slice(start);
    if (/^\d+\./.test(rest)) {
      // an action ("32. E: JD"): up to the next move number
      var next = rest.slice(1).search(/\s\d+\./);
      end = next < 0 ? start + rest.replace(/\s+$/, "").length : start + 1 + next;
    } else {
      while (end < text.length && !/\s/.test(text.charAt(end))) end += 1;
    }
    cm.addLineClass(line, "wrap", "mend-error-line");
    cm.addLineClass(line, "gutter", "mend-error-gutter");
    if (end > start) {
      cm.markText({ line: line, ch: start }, { line: line, ch: end }, {
        className: "mend-error-mark",
        attributes: { title: message }
      });
    }
    var note = el("div", "mend-error-note", "\u25B2 column " + (column + 1) + ": " + message);
    note.setAttribute("role", "note");
    cm.addLineWidget(line, note, { coverGutter: false, noHScroll: true });
    var at = { line: line, ch: start };
    cm.setCursor(at);
    cm.scrollIntoView(at, 120);
  }

  var textarea = document.getElementById("mend-text");
  if (textarea && window.CodeMirror) {
    defineKgn(window.CodeMirror);
    var cm = window.CodeMirror.fromTextArea(textarea, {
      mode: "kgn",
      lineNumbers: true,
      lineWrapping: true,
      readOnly: textarea.readOnly,
      viewportMargin: Infinity,
      screenReaderLabel: "The record's text"
    });
    cm.getWrapperElement().setAttribute("id", "mend-editor");
    markError(cm, textarea);
    if (!textarea.readOnly && textarea.dataset.errorLine) cm.focus();
  }

  // an edit being verified: poll the record until its verdict is stored, then show it
  if (root.dataset.pending && window.fetch) {
    var poll = function () {
      fetch(root.dataset.api, {
        credentials: "same-origin",
        headers: { Accept: "application/json" }
      }).then(function (response) {
        return response.ok ? response.json() : null;
      }).then(function (record) {
        if (record && !record.pending) {
          var status = document.getElementById("record-status");
          if (status) {
            status.textContent = record.status;
            status.className = "badge badge-" + record.status;
          }
          window.location.replace(window.location.pathname);
          return;
        }
        window.setTimeout(poll, INTERVAL);
      }).catch(function () {
        window.setTimeout(poll, INTERVAL * 3);
      });
    };
    window.setTimeout(poll, INTERVAL);
  }
})();
