// kg site index: client-side search over every entity by name, offline.
// Page text is data, as in view.js: names reach the DOM through textContent only, and the index
// is JSON read from a script element (its <, > and & escaped), never evaluated as code.
window.kgSearchReady = false;
(function () {
  "use strict";
  var entries = JSON.parse(document.getElementById("kg-search").textContent);
  var LIMIT = 30;
  var box = document.getElementById("search");
  var list = document.getElementById("search-results");
  var count = document.getElementById("search-count");
  var folded = entries.map(function (e) { return e[0].toLowerCase(); });

  function found(text) {
    var q = text.trim().toLowerCase();
    if (!q) { return []; }
    var starts = [], inside = [];
    for (var i = 0; i < entries.length; i++) {
      var at = folded[i].indexOf(q);
      if (at === 0) { starts.push(i); } else if (at > 0) { inside.push(i); }
    }
    return starts.concat(inside);
  }

  var page = 0;
  var previous = document.getElementById("search-previous");
  var next = document.getElementById("search-next");

  function show() {
    var hits = found(box.value);
    var pages = Math.max(1, Math.ceil(hits.length / LIMIT));
    page = Math.min(page, pages - 1);
    var first = page * LIMIT;
    while (list.firstChild) { list.removeChild(list.firstChild); }
    list.start = first + 1;
    hits.slice(first, first + LIMIT).forEach(function (i) {
      var e = entries[i];
      var item = document.createElement("li");
      var name;
      if (e[2]) {
        name = document.createElement("a");
        name.href = e[2];
      } else {
        name = document.createElement("span");
      }
      name.textContent = e[0];
      var kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = e[1] + (e[2] ? "" : " (no page)");
      item.appendChild(name);
      item.appendChild(kind);
      list.appendChild(item);
    });
    var shown = hits.length > LIMIT ?
      ", " + (first + 1) + "–" + Math.min(first + LIMIT, hits.length) + " shown (page " + (page + 1) + " of " + pages + ")" : "";
    count.textContent = box.value.trim() ?
      hits.length + (hits.length === 1 ? " match" : " matches") + shown : "";
    previous.hidden = next.hidden = hits.length <= LIMIT;
    previous.disabled = page === 0;
    next.disabled = page >= pages - 1;
  }

  previous.addEventListener("click", function () { page = Math.max(0, page - 1); show(); });
  next.addEventListener("click", function () { page += 1; show(); });
  box.addEventListener("input", function () { page = 0; show(); });
  box.addEventListener("keydown", function (event) {
    if (event.key !== "Enter") { return; }
    var first = list.querySelector("a");
    if (first) { window.location.href = first.href; }
  });
  show();
  window.kgSearchReady = true;
}());
