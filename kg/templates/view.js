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

  // labels are drawn by the page itself (see "labels" below): vis-network's own overlap into noise
  var nodeItems = data.nodes.map(function (n) {
    byId[n.id] = n;
    neighbours[n.id] = [];
    return {
      id: n.id, x: n.x, y: n.y, size: n.size, color: n.color,
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
    nodes: { font: { size: 14, face: "system-ui, sans-serif", color: "#222" } },
    // many links drawn solid make a grey mass that hides the nodes: they fade as they grow in number
    edges: { color: { color: "#b9b9b9", highlight: "#333", hover: "#555", inherit: false,
                      opacity: data.edges.length > 1000 ? 0.4 : 1 },
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

  // ---- colours: communities, or the mean publication year (VOSviewer's overlay) -------------
  // viridis, as matplotlib draws it (kg plot overlay uses the same scale)
  var VIRIDIS = ["#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779",
                 "#6ece58", "#b5de2b", "#fde725"];
  var UNDATED = "#c8c8c8";
  var colourBy = "community";
  function mix(a, b, t) {
    var x = parseInt(a.slice(1), 16), y = parseInt(b.slice(1), 16);
    var out = [16, 8, 0].map(function (shift) {
      var p = (x >> shift) & 255, q = (y >> shift) & 255;
      return Math.round(p + (q - p) * t);
    });
    return "#" + out.map(function (v) { return (v < 16 ? "0" : "") + v.toString(16); }).join("");
  }
  function yearColour(year) {
    if (!year) { return UNDATED; }
    var span = data.mean_max - data.mean_min;
    var t = span > 0 ? (year - data.mean_min) / span : 1;
    var at = t * (VIRIDIS.length - 1), i = Math.min(Math.floor(at), VIRIDIS.length - 2);
    return mix(VIRIDIS[i], VIRIDIS[i + 1], at - i);
  }
  function colourOf(n) { return colourBy === "year" ? yearColour(n.year_mean) : n.color; }

  // ---- legend -------------------------------------------------------------------------------
  var legend = document.getElementById("legend");
  var colourLegend = el("div");
  legend.appendChild(colourLegend);
  function communityLegend() {
    colourLegend.replaceChildren(el("h3", "Colours: communities (Louvain)"));
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
    colourLegend.appendChild(list);
  }
  function yearLegend() {
    colourLegend.replaceChildren(el("h3", "Colours: mean publication year of the papers"));
    var bar = el("div", null, "year-bar");
    bar.style.background = "linear-gradient(to right, " + VIRIDIS.join(", ") + ")";
    colourLegend.appendChild(bar);
    var ends = el("div", null, "year-ends");
    ends.appendChild(el("span", data.mean_min ? data.mean_min.toFixed(1) : "no dated papers"));
    ends.appendChild(el("span", data.mean_max ? data.mean_max.toFixed(1) : ""));
    colourLegend.appendChild(ends);
    var li = el("li", null, "community");
    var sw = el("span", null, "swatch");
    sw.style.background = UNDATED;
    li.appendChild(sw);
    li.appendChild(document.createTextNode("no dated paper"));
    colourLegend.appendChild(el("ul")).appendChild(li);
  }
  communityLegend();
  legend.appendChild(el("h3", "Shapes: node types"));
  var list = el("ul");
  data.types.forEach(function (t) { list.appendChild(el("li", SYMBOLS[t] + " " + t)); });
  legend.appendChild(list);
  legend.appendChild(el("h3", "Sizes"));
  legend.appendChild(el("ul")).appendChild(el("li", data.size_legend));
  legend.appendChild(el("h3", "Lines"));
  legend.appendChild(el("ul")).appendChild(el("li", data.weight_legend));

  function recolour() {
    nodes.update(data.nodes.map(function (n) {
      var shown = !highlighted || keep[n.id];
      return { id: n.id, color: shown ? colourOf(n) : "#e3e3e3" };
    }));
  }
  Array.prototype.forEach.call(document.querySelectorAll("input[name=colour-by]"), function (radio) {
    radio.addEventListener("change", function () {
      if (!radio.checked) { return; }
      colourBy = radio.value === "year" ? "year" : "community";
      if (colourBy === "year") { yearLegend(); } else { communityLegend(); }
      recolour();
    });
  });

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

  // a node is hidden by its type and years; with a minimum weight above 0, also when none of its links
  // to a shown node is that heavy (the filter leaves it without links)
  function applyFilters() {
    var from = parseInt(yearFrom.value, 10), to = parseInt(yearTo.value, 10);
    var w = parseFloat(minWeight.value) || 0;
    var nodeUpdates = [], edgeUpdates = [], shownNodes = 0, shownEdges = 0;
    var hide = {}, linked = {};
    data.nodes.forEach(function (n) {
      var h = !typeChecks[n.type].checked;
      if (!n.year_min) {
        h = h || !yearUnknown.checked;
      } else {
        h = h || (!isNaN(from) && n.year_max < from) || (!isNaN(to) && n.year_min > to);
      }
      hide[n.id] = h;
    });
    var edgeHidden = data.edges.map(function (e) {
      var h = e.weight < w || hide[e.from] || hide[e.to];
      if (!h) { linked[e.from] = linked[e.to] = true; }
      return h;
    });
    data.nodes.forEach(function (n) {
      var h = hide[n.id] || (w > 0 && !linked[n.id] && !n.focus);
      if (h !== !!hiddenNodes[n.id]) { nodeUpdates.push({ id: n.id, hidden: h }); }
      hiddenNodes[n.id] = h;
      if (!h) { shownNodes += 1; }
    });
    edgeHidden.forEach(function (h, i) {
      edgeUpdates.push({ id: i, hidden: h });
      if (!h) { shownEdges += 1; }
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
  var keep = {};

  function highlight(id) {
    keep = {};
    keep[id] = true;
    neighbours[id].forEach(function (p) { keep[p[0]] = true; });
    highlighted = true;
    recolour();
  }
  function unhighlight() {
    if (!highlighted) { return; }
    highlighted = false;
    keep = {};
    recolour();
  }

  // the site's pages sit in site/ beside the view; kg serve serves views at /views/ and the site at /site/
  var SITE_ROOT = /^https?:$/.test(location.protocol) && location.pathname.indexOf("/views/") === 0 ?
    "/site/" : "site/";
  function sitePage(n) {
    return /^[a-z]+\/[A-Za-z0-9_.~%-]+\.html$/.test(n.site || "") ? SITE_ROOT + n.site : "";
  }
  function link(text, href, external) {
    var a = el("a", text);
    a.href = href;
    if (external) {
      a.target = "_blank";
      a.rel = "noopener noreferrer";
    }
    return a;
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
    if (n.year_mean) { row("mean year", n.year_mean.toFixed(1)); }
    row("papers", n.papers);
    row("links", neighbours[id].length);
    row("community", n.community);
    if (n.iri) { row("IRI", n.iri); }
    details.appendChild(dl);
    var page = sitePage(n);
    if (page) { details.appendChild(link("Open its page in the site", page, false)).className = "site"; }
    var url = safeUrl(n.url);
    if (url) { details.appendChild(link(/github\.com/.test(url) ? "Open on GitHub" : "Open on arXiv", url, true)); }
    if (n.listed.length) {
      var more = n.papers - n.listed.length;
      details.appendChild(el("h3", "Papers (" + n.papers + (more > 0 ? ", the newest " + n.listed.length : "") + ")"));
      var ol = el("ol", null, "papers");
      n.listed.forEach(function (i) {
        var p = data.papers[i], li = el("li");
        var arxiv = safeUrl(p[2]);
        li.appendChild(arxiv ? link(p[0], arxiv, true) : el("span", p[0]));
        li.appendChild(el("span", " " + (p[1] || "year unknown"), "year"));
        ol.appendChild(li);
      });
      details.appendChild(ol);
      if (more > 0) { details.appendChild(el("p", "\u2026 and " + more + " more" + (page ? " (see its page)" : ""))); }
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

  // ---- labels: the most important nodes always, never overlapping, more as one zooms ----------
  // Drawn after vis-network draws, at a fixed size on screen: nodes in order of importance (the
  // focus, then a selection and its neighbours, then most papers, then most links) each get a label
  // unless it would overlap one already placed; zooming in spreads nodes apart, so more fit.
  var LABEL_PX = 12, LABEL_GAP = 2, LABEL_PAD = 2, CELL = 64, TOP = 10;
  var degree = {};
  data.edges.forEach(function (e) {
    degree[e.from] = (degree[e.from] || 0) + 1;
    degree[e.to] = (degree[e.to] || 0) + 1;
  });
  var importance = data.nodes.slice().sort(function (p, q) {
    return (q.focus - p.focus) || (q.papers - p.papers) || ((degree[q.id] || 0) - (degree[p.id] || 0)) ||
      (p.id - q.id);
  });
  var measure = document.createElement("canvas").getContext("2d");
  var FONT = "px system-ui, -apple-system, \"Segoe UI\", sans-serif";
  measure.font = LABEL_PX + FONT;
  var widths = {};
  function widthOf(n) {
    if (widths[n.id] === undefined) { widths[n.id] = measure.measureText(n.short).width; }
    return widths[n.id];
  }
  window.kgLabels = [];

  network.on("afterDrawing", function (ctx) {
    var scale = network.getScale(), centre = network.getViewPosition();
    var w = container.clientWidth, h = container.clientHeight;
    var placed = [];
    var order = importance;
    if (highlighted) {
      order = importance.filter(function (n) { return keep[n.id]; })
        .concat(importance.filter(function (n) { return !keep[n.id]; }));
    }
    // boxes on screen, filed in a grid of CELL-pixel cells: the labels placed, and the marks of the
    // labelled nodes (which later labels do not cover, except the TOP nodes' labels, which must show)
    var labelGrid = {}, markGrid = {};
    function cells(box, visit) {
      var x0 = Math.floor(box[0] / CELL), x1 = Math.floor((box[0] + box[2]) / CELL);
      var y0 = Math.floor(box[1] / CELL), y1 = Math.floor((box[1] + box[3]) / CELL);
      for (var gx = x0; gx <= x1; gx++) {
        for (var gy = y0; gy <= y1; gy++) {
          if (visit(gx + ":" + gy) === false) { return false; }
        }
      }
      return true;
    }
    function hits(grid, box) {
      return !cells(box, function (key) {
        var cell = grid[key] || [];
        for (var i = 0; i < cell.length; i++) {
          var b = cell[i];
          if (box[0] < b[0] + b[2] && b[0] < box[0] + box[2] && box[1] < b[1] + b[3] && b[1] < box[1] + box[3]) {
            return false;
          }
        }
        return true;
      });
    }
    function add(grid, box) { cells(box, function (key) { (grid[key] = grid[key] || []).push(box); }); }
    var positions = network.getPositions();
    ctx.save();
    ctx.font = (LABEL_PX / scale) + FONT;
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    ctx.lineJoin = "round";
    ctx.lineWidth = 3 / scale;
    ctx.strokeStyle = "rgba(255,255,255,0.9)";
    for (var k = 0; k < order.length; k++) {
      var n = order[k], at = positions[n.id];
      if (hiddenNodes[n.id] || !at) { continue; }
      var sx = (at.x - centre.x) * scale + w / 2, sy = (at.y - centre.y) * scale + h / 2;
      var r = n.size * scale, tw = widthOf(n), th = LABEL_PX + 2;
      // below the node, else above, right, left, on it or at a corner: the first place that is free;
      // a top node's label may also sit farther out, tied to its node by a thin line
      var box = null, ring = 0, rings = placed.length < TOP ? 3 : 1;
      for (ring = 0; ring < rings && box === null; ring++) {
        var d = r + LABEL_GAP + ring * (th + LABEL_GAP);
        var spots = [[sx - tw / 2, sy + d], [sx - tw / 2, sy - d - th], [sx + d, sy - th / 2],
                     [sx - d - tw, sy - th / 2], [sx + d * 0.7, sy + d * 0.7], [sx - d * 0.7 - tw, sy + d * 0.7],
                     [sx + d * 0.7, sy - d * 0.7 - th], [sx - d * 0.7 - tw, sy - d * 0.7 - th]];
        if (ring === 0) { spots.splice(4, 0, [sx - tw / 2, sy - th / 2]); }
        for (var s = 0; s < spots.length && box === null; s++) {
          var b = [spots[s][0], spots[s][1], tw, th];
          if (b[0] < 0 || b[0] + b[2] > w || b[1] < 0 || b[1] + b[3] > h) { continue; }  // whole, on screen
          var padded = [b[0] - LABEL_PAD, b[1] - LABEL_PAD, b[2] + 2 * LABEL_PAD, b[3] + 2 * LABEL_PAD];
          if (!hits(labelGrid, padded) && (placed.length < TOP || !hits(markGrid, b))) { box = b; }
        }
      }
      if (box === null) { continue; }
      placed.push({ id: n.id, box: box });
      add(labelGrid, [box[0] - LABEL_PAD, box[1] - LABEL_PAD, box[2] + 2 * LABEL_PAD, box[3] + 2 * LABEL_PAD]);
      add(markGrid, [sx - r, sy - r, 2 * r, 2 * r]);
      if (ring > 1) {  // the ring it was placed in was ring - 1 > 0: a leader line to the label's nearest edge
        var ex = Math.max(box[0], Math.min(sx, box[0] + tw)), ey = Math.max(box[1], Math.min(sy, box[1] + th));
        ctx.beginPath();
        ctx.moveTo(at.x, at.y);
        ctx.lineTo(at.x + (ex - sx) / scale, at.y + (ey - sy) / scale);
        ctx.save();
        ctx.strokeStyle = "#555";
        ctx.lineWidth = 1 / scale;
        ctx.stroke();
        ctx.restore();
      }
      // back to drawing units: the label's centre, top
      var lx = at.x + (box[0] + tw / 2 - sx) / scale, ly = at.y + (box[1] - sy) / scale;
      ctx.fillStyle = highlighted && !keep[n.id] ? "#b0b0b0" : "#222";
      ctx.strokeText(n.short, lx, ly);
      ctx.fillText(n.short, lx, ly);
    }
    ctx.restore();
    window.kgLabels = placed;
  });

  function markDrawn() {
    network.once("afterDrawing", function () {
      window.kgDrawnMs = performance.now();
      window.kgDrawn = true;
      document.body.setAttribute("data-drawn", "true");
    });
    network.redraw();
  }
  // the page counts as drawn once every handler (labels included) is in place
  if (large) {
    markDrawn();
  } else {
    network.once("stabilizationIterationsDone", function () {
      network.setOptions({ physics: { enabled: false } });
      markDrawn();
    });
  }

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
