/* The upload form: when a plain .kgn file is picked, its first record's Event tag
 * pre-fills the Event field (unless the user typed one).  A .kgn.gz or .zip is left
 * to the server, which names the event from the first record it unpacks. */
(function () {
  "use strict";
  var form = document.getElementById("upload-form");
  if (!form || !window.FileReader) return;
  var file = form.querySelector('input[type="file"]');
  var event = form.querySelector('input[name="event"]');
  if (!file || !event) return;
  var filled = "";

  file.addEventListener("change", function () {
    var chosen = file.files && file.files[0];
    if (!chosen || !/\.kgn$/i.test(chosen.name)) return;
    if (event.value && event.value !== filled) return; // the user's own choice stays
    var reader = new FileReader();
    reader.onload = function () {
      var found = /\[\s*Event\s+"((?:[^"\\]|\\.)*)"\s*\]/.exec(String(reader.result));
      if (!found) return;
      filled = found[1].replace(/\\(.)/g, "$1").replace(/\s+/g, " ").trim();
      event.value = filled;
    };
    reader.readAsText(chosen.slice(0, 64 * 1024));
  });
})();
