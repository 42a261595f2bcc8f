// kg view page: draws the view's nodes and edges with vis-network, offline.
// Page text is data: every string from the graph reaches the DOM through textContent or
// as a plain-text vis-network tooltip, never as markup.
// Globals kept from pyvis's template, for tests and users' scripts: network, nodes, edges.
/* global vis */
var network, nodes, edges;
window.kgDrawn = false;

(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("kg-data").textContent);
  var SHAPES = { person: "dot", paper: "square", subject: "triangle", method: "diamond",
                 repository: "star", area: "triangleDown" };
  var SYMBOLS = { person: "\u25CF", paper: "\u25A0", subject: "\u25B2", method: "\u25C6",
                  repository: "\u2605", area: "\u25BC" };
  var byId = {};
  var neighbours = {};

  function yearText(n) {
    if (!n.year_min) { return "year unknown"; }
    return n.year_min === n.year_max ? String(n.year_min) : n.year_min + "\u2013" + n.year_max;
  }

  // above LABEL_LIMIT nodes labels overlap into noise and measuring each one dominates the first
  // draw; names then show on hover, in search and in the details panel
  var LABEL_LIMIT = 2000;
  var showLabels = data.nodes.length <= LABEL_LIMIT;
  var nodeItems = data.nodes.map(function (n) {
    byId[n.id] = n;
    neighbours[n.id] = [];
    return {
      id: n.id, label: showLabels ? n.short : undefined, x: n.x, y: n.y, size: n.size, color: n.color,
      shape: SHAPES[n.type] || "dot", borderWidth: n.focus ? 4 : 1,
      title: n.label + "\n" + n.type + " \u00B7 " + n.papers + (n.papers === 1 ? " paper" : " papers") +
             " \u00B7 " + yearText(n)
    };
  });
  var edgeItems = data.edges.map(function (e, i) {
    neighbours[e.from].push([e.to, e.weight]);
    neighbours[e.to].push([e.from, e.weight]);
    // no per-edge value or title: vis-network's per-edge scaling and tooltips doubled the time to draw 20k edges
    return { id: i, from: e.from, to: e.to, width: e.width };
  });
  nodes = new vis.DataSet(nodeItems);
  edges = new vis.DataSet(edgeItems);

  var large = data.nodes.length > data.physics_limit;
  var options = {
    autoResize: true,
    nodes: { font: { size: 14, face: "system-ui, sans-serif", color: "#222" },
             scaling: { label: { drawThreshold: 6 } } },
    edges: { color: { color: "#b9b9b9", highlight: "#333", hover: "#555", inherit: false },
             smooth: false, selectionWidth: 2, scaling: { label: false } },
    physics: large ? { enabled: false } : {
      enabled: true, solver: "forceAtlas2Based",
      forceAtlas2Based: { gravitationalConstant: -40, springLength: 80, avoidOverlap: 0.3 },
      stabilization: { enabled: true, iterations: 150, fit: true }
    },
    interaction: { hover: !large, tooltipDelay: 200, hideEdgesOnDrag: large, hideEdgesOnZoom: large },
    layout: { improvedLayout: false, randomSeed: data.seed }
  };
  var container = document.getElementById("mynetwork");
  network = new vis.Network(container, { nodes: nodes, edges: edges }, options);

  function markDrawn() {
    network.once("afterDrawing", function () {
      window.kgDrawnMs = performance.now();
      window.kgDrawn = true;
      document.body.setAttribute("data-drawn", "true");
    });
    network.redraw();
  }
  if (large) {
    markDrawn();
  } else {
    network.once("stabilizationIterationsDone", function () {
      network.setOptions({ physics: { enabled: false } });
      markDrawn();
    });
  }

  // ---- elements built from data, always through textContent --------------------------------
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    if (cls) { e.className = cls; }
    return e;
  }
  function safeUrl(url) {
    return /^https:\/\/(arxiv\.org\/abs\/|github\.com\/)[^\s"<>]+$/.test(url || "") ? url : "";
  }

  // ---- legend -------------------------------------------------------------------------------
  var legend = document.getElementById("legend");
  legend.appendChild(el("h3", "Colours: communities (Louvain)"));
  var list = el("ul");
  data.communities.forEach(function (c) {
    var li = el("li", null, "community");
    var sw = el("span", null, "swatch");
    sw.style.background = c.color;
    li.appendChild(sw);
    li.appendChild(document.createTextNode(c.count + " \u00B7 " + c.example));
    li.title = "community " + c.community + ": " + c.count + " nodes, largest " + c.example;
    list.appendChild(li);
  });
  if (data.communities_more > 0) {
    list.appendChild(el("li", "\u2026 and " + data.communities_more + " smaller communities"));
  }
  legend.appendChild(list);
  legend.appendChild(el("h3", "Shapes: node types"));
  list = el("ul");
  data.types.forEach(function (t) { list.appendChild(el("li", SYMBOLS[t] + " " + t)); });
  legend.appendChild(list);
  legend.appendChild(el("h3", "Sizes"));
  legend.appendChild(el("ul")).appendChild(el("li", data.size_legend));
  legend.appendChild(el("h3", "Lines"));
  legend.appendChild(el("ul")).appendChild(el("li", data.weight_legend));

  // ---- filters ------------------------------------------------------------------------------
  var typeBox = document.getElementById("type-filter");
  var typeChecks = {};
  data.types.forEach(function (t) {
    var label = el("label");
    var box = el("input");
    box.type = "checkbox";
    box.checked = true;
    box.value = t;
    box.addEventListener("change", applyFilters);
    typeChecks[t] = box;
    label.appendChild(box);
    label.appendChild(document.createTextNode(" " + SYMBOLS[t] + " " + t));
    typeBox.appendChild(label);
  });
  var yearFrom = document.getElementById("year-from");
  var yearTo = document.getElementById("year-to");
  var yearUnknown = document.getElementById("year-unknown");
  var minWeight = document.getElementById("min-weight");
  if (data.year_min) {
    yearFrom.value = yearFrom.min = yearTo.min = data.year_min;
    yearTo.value = yearFrom.max = yearTo.max = data.year_max;
  }
  [yearFrom, yearTo, yearUnknown, minWeight].forEach(function (input) {
    input.addEventListener("change", applyFilters);
  });
  var shownText = document.getElementById("shown");
  var hiddenNodes = {};

  function applyFilters() {
    var from = parseInt(yearFrom.value, 10), to = parseInt(yearTo.value, 10);
    var w = parseFloat(minWeight.value) || 0;
    var nodeUpdates = [], edgeUpdates = [], shownNodes = 0, shownEdges = 0;
    data.nodes.forEach(function (n) {
      var hide = !typeChecks[n.type].checked;
      if (!n.year_min) {
        hide = hide || !yearUnknown.checked;
      } else {
        hide = hide || (!isNaN(from) && n.year_max < from) || (!isNaN(to) && n.year_min > to);
      }
      if (hide !== !!hiddenNodes[n.id]) { nodeUpdates.push({ id: n.id, hidden: hide }); }
      hiddenNodes[n.id] = hide;
      if (!hide) { shownNodes += 1; }
    });
    data.edges.forEach(function (e, i) {
      var hide = e.weight < w || hiddenNodes[e.from] || hiddenNodes[e.to];
      edgeUpdates.push({ id: i, hidden: hide });
      if (!hide) { shownEdges += 1; }
    });
    nodes.update(nodeUpdates);
    edges.update(edgeUpdates);
    shownText.textContent = "Showing " + shownNodes + " of " + data.nodes.length + " nodes and " +
      shownEdges + " of " + data.edges.length + " links.";
  }
  shownText.textContent = "Showing " + data.nodes.length + " nodes and " + data.edges.length + " links.";

  // ---- selection: details panel and neighbour highlight -------------------------------------
  var details = document.getElementById("details");
  var highlighted = false;

  function highlight(id) {
    var keep = {};
    keep[id] = true;
    neighbours[id].forEach(function (p) { keep[p[0]] = true; });
    nodes.update(data.nodes.map(function (n) {
      return { id: n.id, color: keep[n.id] ? n.color : "#e3e3e3",
               font: { color: keep[n.id] ? "#222" : "#bbbbbb" } };
    }));
    highlighted = true;
  }
  function unhighlight() {
    if (!highlighted) { return; }
    nodes.update(data.nodes.map(function (n) {
      return { id: n.id, color: n.color, font: { color: "#222" } };
    }));
    highlighted = false;
  }

  function showDetails(id) {
    var n = byId[id];
    details.replaceChildren();
    var close = el("button", "\u00D7", "close");
    close.setAttribute("aria-label", "close");
    close.addEventListener("click", function () { network.unselectAll(); clearSelection(); });
    details.appendChild(close);
    details.appendChild(el("h2", n.label));
    var dl = el("dl");
    function row(k, v) { dl.appendChild(el("dt", k)); dl.appendChild(el("dd", v)); }
    row("type", n.type);
    row("year", yearText(n));
    row("papers", n.papers);
    row("links", neighbours[id].length);
    row("community", n.community);
    if (n.iri) { row("IRI", n.iri); }
    details.appendChild(dl);
    var url = safeUrl(n.url);
    if (url) {
      var a = el("a", /github\.com/.test(url) ? "Open on GitHub" : "Open on arXiv");
      a.href = url;
      a.target = "_blank";
      a.rel = "noopener noreferrer";
      details.appendChild(a);
    }
    var near = neighbours[id].slice().sort(function (p, q) {
      return q[1] - p[1] || (byId[p[0]].label < byId[q[0]].label ? -1 : 1);
    });
    details.appendChild(el("h3", "Neighbours (" + near.length + ")"));
    var ul = el("ul");
    near.slice(0, 100).forEach(function (p) {
      var li = el("li");
      var b = el("button", byId[p[0]].label, "neighbour");
      b.addEventListener("click", function () { focusNode(p[0]); });
      li.appendChild(b);
      li.appendChild(document.createTextNode(" (" + p[1] + ")"));
      ul.appendChild(li);
    });
    if (near.length > 100) { ul.appendChild(el("li", "\u2026 and " + (near.length - 100) + " more")); }
    details.appendChild(ul);
    details.hidden = false;
  }
  function clearSelection() {
    details.hidden = true;
    details.replaceChildren();
    unhighlight();
  }

  function focusNode(id) {
    network.selectNodes([id]);
    network.focus(id, { scale: Math.max(network.getScale(), 1.2), animation: false });
    highlight(id);
    showDetails(id);
  }
  window.kgFocus = focusNode;

  network.on("click", function (params) {
    if (params.nodes.length) {
      highlight(params.nodes[0]);
      showDetails(params.nodes[0]);
    } else {
      clearSelection();
    }
  });

  // ---- search -------------------------------------------------------------------------------
  var search = document.getElementById("search");
  var result = document.getElementById("search-result");
  var labels = document.getElementById("labels");
  var sorted = data.nodes.slice().sort(function (p, q) { return q.papers - p.papers || p.id - q.id; });
  sorted.slice(0, 5000).forEach(function (n) {
    var o = document.createElement("option");
    o.value = n.label;
    labels.appendChild(o);
  });
  function find(text) {
    var q = text.trim().toLowerCase();
    if (!q) { return null; }
    var exact = null, partial = null;
    for (var i = 0; i < sorted.length; i++) {
      var label = sorted[i].label.toLowerCase();
      if (label === q) { exact = sorted[i]; break; }
      if (partial === null && label.indexOf(q) >= 0) { partial = sorted[i]; }
    }
    return exact || partial;
  }
  function runSearch() {
    var n = find(search.value);
    if (n === null) {
      result.textContent = search.value.trim() ? "Nothing matches." : "";
      return;
    }
    if (hiddenNodes[n.id]) {
      result.textContent = "Found, but hidden by the filters: " + n.label;
      return;
    }
    result.textContent = "Found: " + n.label;
    focusNode(n.id);
  }
  search.addEventListener("keydown", function (ev) { if (ev.key === "Enter") { runSearch(); } });
  search.addEventListener("change", runSearch);
})();
