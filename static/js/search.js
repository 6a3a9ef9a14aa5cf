/* Kibitz game search: a search is its URL, so keep the URL short. On submit, leave
 * out the fields still at their default (empty inputs, selects at their first option),
 * and enable them again when the page comes back from the browser's cache. */
(function () {
  "use strict";
  var form = document.querySelector("form.search-form");
  if (!form) return;
  function fields() { return form.querySelectorAll("input[name], select[name]"); }
  form.addEventListener("submit", function () {
    Array.prototype.forEach.call(fields(), function (el) {
      var unset = el.tagName === "SELECT" ? el.selectedIndex <= 0 : el.value === "";
      if (unset) el.disabled = true;
    });
  });
  window.addEventListener("pageshow", function () {
    Array.prototype.forEach.call(fields(), function (el) { el.disabled = false; });
  });
})();
