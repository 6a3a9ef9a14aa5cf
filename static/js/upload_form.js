/* The upload form: when a plain .kgn file is picked, or KGN text is pasted, its first
 * record's Event tag pre-fills the Event field (unless the user typed one).  A .kgn.gz
 * or .zip is left to the server, which names the event from the first record it
 * unpacks. */
(function () {
  "use strict";
  var form = document.getElementById("upload-form");
  if (!form) return;
  var file = form.querySelector('input[type="file"]');
  var text = form.querySelector('textarea[name="text"]');
  var event = form.querySelector('input[name="event"]');
  if (!event) return;
  var filled = "";

  function fill(kgn) {
    if (event.value && event.value !== filled) return; // the user's own choice stays
    var found = /^\s*\[\s*Event\s+"((?:[^"\\]|\\.)*)"\s*\]/m.exec(String(kgn));
    if (!found) return;
    filled = found[1].replace(/\\(.)/g, "$1").replace(/\s+/g, " ").trim();
    event.value = filled;
  }

  if (file && window.FileReader) {
    file.addEventListener("change", function () {
      var chosen = file.files && file.files[0];
      if (!chosen || !/\.kgn$/i.test(chosen.name)) return;
      var reader = new FileReader();
      reader.onload = function () { fill(reader.result); };
      reader.readAsText(chosen.slice(0, 64 * 1024));
    });
  }
  if (text) {
    text.addEventListener("input", function () { fill(text.value.slice(0, 64 * 1024)); });
  }
})();
