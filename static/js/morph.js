/* Kibitz: a step's HTML put in place (static/js/replay.js steps with it), touching
 * only what differs, and parsed ahead between steps so that a step costs no parse.
 * window.kibitzMorph: swap(html, into), ahead(html), morph(into, from). */
(function () {
  "use strict";
  // Make ``into``'s children those of ``from`` (a parsed step), touching only what
  // differs: a step changes a hand or two and the trick, and the browser then styles
  // and lays out only those (a whole table swapped costs several frames on a long hand).
  function morph(into, from) {
    var old = into.firstChild, next = from.firstChild;
    while (next) {
      var after = next.nextSibling;
      if (!old) {
        into.appendChild(next);
      } else if (old.isEqualNode(next)) {
        old = old.nextSibling;
      } else if (old.nodeType === 1 && next.nodeType === 1 && old.tagName === next.tagName) {
        var attrs = old.attributes;
        for (var i = attrs.length - 1; i >= 0; i--) {
          if (!next.hasAttribute(attrs[i].name)) old.removeAttribute(attrs[i].name);
        }
        for (var j = 0; j < next.attributes.length; j++) {
          var attr = next.attributes[j];
          if (old.getAttribute(attr.name) !== attr.value) old.setAttribute(attr.name, attr.value);
        }
        morph(old, next);
        old = old.nextSibling;
      } else if (old.nodeType === 3 && next.nodeType === 3) {
        if (old.nodeValue !== next.nodeValue) old.nodeValue = next.nodeValue;
        old = old.nextSibling;
      } else {
        var gone = old;
        old = old.nextSibling;
        into.replaceChild(next, gone);
      }
      next = after;
    }
    while (old) { var rest = old.nextSibling; into.removeChild(old); old = rest; }
  }

  function parse(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    return template.content;
  }

  // Parsed ahead (html -> fragment); a fragment is used once (morph moves its nodes).
  var ready = new Map();
  function ahead(html) {
    if (!html || ready.has(html)) return;
    if (ready.size >= 8) ready.clear();
    ready.set(html, parse(html));
  }

  function swap(html, into) {
    var parsed = ready.get(html);
    if (parsed) ready.delete(html); else parsed = parse(html);
    morph(into, parsed);
  }

  window.kibitzMorph = { swap: swap, ahead: ahead, morph: morph };
})();
