/* The game page's Share and Embed (viewer/_game_links.html).  Without this script
 * Share is a plain link to the permalink and the embed snippet can be selected by hand.
 * With it: Share copies the page's address as it is now (js/replay.js keeps the step
 * and perspective in it as the user steps), and the snippet follows the step shown. */
(function () {
  "use strict";
  var box = document.getElementById("game-links");
  if (!box) return;
  var share = document.getElementById("share-link");
  var status = document.getElementById("share-status");
  var code = document.getElementById("embed-code");
  var copyEmbed = document.getElementById("embed-copy");

  function here() {
    var url = new URL(window.location.href);
    url.hash = "";
    return url;
  }

  function say(text) {
    if (status) status.textContent = text;
  }

  function copy(text, done) {
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { say(done); }, function () {
        say("Copy this: " + text);
      });
    } else {
      say("Copy this: " + text);
    }
  }

  function snippet() {
    if (!code) return "";
    var src = new URL(code.getAttribute("data-embed"), window.location.href);
    var step = here().searchParams.get("step");
    if (step !== null) src.searchParams.set("step", step);
    code.value = code.value.replace(/src="[^"]*"/, 'src="' + src.toString() + '"');
    return code.value;
  }

  if (share) {
    share.addEventListener("click", function (event) {
      if (event.ctrlKey || event.metaKey || event.shiftKey || event.button) return;
      event.preventDefault();
      var url = here().toString();
      share.href = url;
      copy(url, "Link copied");
    });
  }
  if (code) {
    var details = document.getElementById("embed");
    if (details) details.addEventListener("toggle", snippet);
    code.addEventListener("focus", function () { snippet(); code.select(); });
  }
  if (copyEmbed) {
    copyEmbed.hidden = false;
    copyEmbed.addEventListener("click", function () { copy(snippet(), "Snippet copied"); });
  }
})();
