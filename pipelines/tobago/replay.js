/* The Tobago renderer: the island as an SVG hex map (terrains, huts, palms, statues and their
   facing, amulets, ATVs, markers, the selected map's candidates, the step's move), the seats
   (ATV, roses, amulets, score, hand), the four maps with their clues, and the distribution in
   progress. Everything shown is read from the frame or the events; nothing is computed by
   the rules here. */
const GAME = (() => {
  const S = DATA.scene;
  const PALETTE = DATA.palette;
  const R = 30;
  const SQ3 = Math.sqrt(3);
  const MAP_COLOURS = ["#ff7f0e", "#17becf", "#e377c2", "#8c564b"];
  const NAMES = DATA.players;
  const n = NAMES.length;
  const centre = S.cells.map(([q, r]) => [R * SQ3 * (q + r / 2), R * 1.5 * r]);
  const cellName = (i) => (i >= 0 ? `(${S.cells[i][0]},${S.cells[i][1]})` : "not placed");
  const landmarkAt = {};
  for (const [kind, cells] of Object.entries(S.landmarks)) for (const c of cells) landmarkAt[c] = kind;
  /* Where the four maps' markers sit in a hex: one corner each. */
  const MARKER_SLOT = [[-0.42, -0.5], [0.42, -0.5], [0.42, 0.5], [-0.42, 0.5]];
  const DIST_EVENTS = new Set(["draw", "extra_card", "treasure_reshuffle", "reveal", "take", "pass",
                               "unclaimed", "curse_hit", "leftover", "restart"]);
  let pinned = -1;
  const dom = {};

  function hexPoints(x, y, r) {
    const pts = [];
    for (let k = 0; k < 6; k++) {
      const a = Math.PI / 180 * (60 * k + 30);
      pts.push(`${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`);
    }
    return pts.join(" ");
  }

  /* Landmark glyphs, drawn around (x, y) at scale s (1 = a cell). */
  function hutGlyph(x, y, s) {
    const g = svgEl("g", { class: "hut" });
    g.append(svgEl("polygon", {
      points: `${x - 9 * s},${y - 1 * s} ${x},${y - 10 * s} ${x + 9 * s},${y - 1 * s}`,
      fill: "#8a3b12", stroke: "#3d1a06", "stroke-width": 1 }));
    g.append(svgEl("rect", { x: x - 7 * s, y: y - 1 * s, width: 14 * s, height: 10 * s,
                             fill: "#c98b4f", stroke: "#3d1a06", "stroke-width": 1 }));
    return g;
  }
  function palmGlyph(x, y, s) {
    const g = svgEl("g", { class: "palm" });
    g.append(svgEl("line", { x1: x, y1: y + 10 * s, x2: x + 1 * s, y2: y - 3 * s, stroke: "#6b4423",
                             "stroke-width": 3 * s }));
    for (const a of [-150, -100, -30, 20, -65]) {
      const rad = Math.PI / 180 * a;
      g.append(svgEl("ellipse", { cx: x + 1 * s + 6 * s * Math.cos(rad), cy: y - 3 * s + 6 * s * Math.sin(rad),
                                  rx: 6 * s, ry: 2.4 * s, fill: "#1e7a32", stroke: "#0d4019",
                                  "stroke-width": 0.6,
                                  transform: `rotate(${a} ${x + 1 * s + 6 * s * Math.cos(rad)} ${y - 3 * s + 6 * s * Math.sin(rad)})` }));
    }
    return g;
  }
  function statueGlyph(x, y, s) {
    const g = svgEl("g", { class: "statue" });
    g.append(svgEl("rect", { x: x - 5 * s, y: y - 9 * s, width: 10 * s, height: 17 * s, rx: 3 * s,
                             fill: "#5d6d7e", stroke: "#1c2833", "stroke-width": 1 }));
    g.append(svgEl("rect", { x: x - 3 * s, y: y - 5 * s, width: 6 * s, height: 2 * s, fill: "#1c2833" }));
    return g;
  }
  function facingArrow(x, y, s, colour) {
    /* Points east; rotated by 60 degrees per facing step (clockwise on screen). */
    return svgEl("polygon", {
      points: `${x + 7 * s},${y - 3 * s} ${x + 16 * s},${y - 3 * s} ${x + 16 * s},${y - 7 * s} ` +
              `${x + 27 * s},${y} ${x + 16 * s},${y + 7 * s} ${x + 16 * s},${y + 3 * s} ${x + 7 * s},${y + 3 * s}`,
      fill: colour, stroke: "white", "stroke-width": 1.2 });
  }
  function amuletGlyph(x, y, s) {
    return svgEl("polygon", {
      points: `${x},${y - 8 * s} ${x + 6 * s},${y} ${x},${y + 8 * s} ${x - 6 * s},${y}`,
      fill: "#f1c40f", stroke: "#7d6608", "stroke-width": 1.5, class: "amulet" });
  }
  function starPoints(x, y, r) {
    const pts = [];
    for (let k = 0; k < 10; k++) {
      const a = Math.PI / 5 * k - Math.PI / 2;
      const rr = k % 2 ? r * 0.45 : r;
      pts.push(`${(x + rr * Math.cos(a)).toFixed(1)},${(y + rr * Math.sin(a)).toFixed(1)}`);
    }
    return pts.join(" ");
  }
  function icon(child, box) {
    const s = svgEl("svg", { viewBox: box || "-12 -12 24 24", "aria-hidden": "true" });
    s.append(child);
    return s;
  }

  function buildBoard() {
    const xs = centre.map((c) => c[0]);
    const ys = centre.map((c) => c[1]);
    const pad = R + 6;
    const minX = Math.min(...xs) - pad;
    const minY = Math.min(...ys) - pad;
    const w = Math.max(...xs) - Math.min(...xs) + 2 * pad;
    const h = Math.max(...ys) - Math.min(...ys) + 2 * pad;
    const root = svgEl("svg", { viewBox: `${minX.toFixed(0)} ${minY.toFixed(0)} ${w.toFixed(0)} ${h.toFixed(0)}`,
                                role: "img", "aria-label": "The island: terrain, landmarks, amulets, ATVs and markers" });
    const defs = svgEl("defs");
    for (let s = 0; s < 4; s++) {
      const m = svgEl("marker", { id: `arrow${s}`, viewBox: "0 0 10 10", refX: "8", refY: "5",
                                  markerWidth: "5", markerHeight: "5", orient: "auto-start-reverse" });
      m.append(svgEl("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: SEAT_COLOURS[s] }));
      defs.append(m);
    }
    root.append(defs);
    const layer = (name) => { const g = svgEl("g", { class: name }); root.append(g); return g; };
    const cells = layer("cells");
    dom.cellShapes = [];
    S.cells.forEach(([q, r, terrain], i) => {
      const [x, y] = centre[i];
      const poly = svgEl("polygon", { points: hexPoints(x, y, R - 0.5), fill: PALETTE[terrain] || "#ddd",
                                      stroke: "white", "stroke-width": 1.2 });
      const title = svgEl("title");
      title.textContent = `(${q},${r}) ${terrain}` + (landmarkAt[i] ? `, ${landmarkAt[i]}` : "");
      poly.append(title);
      cells.append(poly);
    });
    dom.dim = layer("dim");
    dom.dimShapes = S.cells.map((_, i) => {
      const [x, y] = centre[i];
      const p = svgEl("polygon", { points: hexPoints(x, y, R - 1.5), fill: "none", "pointer-events": "none" });
      dom.dim.append(p);
      return p;
    });
    const marks = layer("landmarks");
    dom.statueArrows = [];
    for (const kind of ["hut", "palm", "statue"]) {
      (S.landmarks[kind] || []).forEach((c, idx) => {
        const [x, y] = centre[c];
        if (kind === "hut") marks.append(hutGlyph(x, y, 1));
        if (kind === "palm") marks.append(palmGlyph(x, y, 1));
        if (kind === "statue") {
          marks.append(statueGlyph(x, y, 1));
          const arrow = facingArrow(x, y, 1, "#111");
          marks.append(arrow);
          dom.statueArrows.push([arrow, x, y]);
        }
      });
    }
    dom.markers = layer("markers");
    dom.amulets = layer("amulets");
    dom.located = layer("located");
    dom.highlight = layer("highlight");
    dom.atvs = layer("atvs");
    return root;
  }

  function legendItem(glyph, text) {
    return el("span", { class: "item" }, glyph, text);
  }

  function buildLegend() {
    const legend = el("div", { id: "legend", "aria-label": "Legend" });
    for (const t of S.terrains) {
      legend.append(legendItem(el("span", { class: "swatch", style: `background:${PALETTE[t]}` }), t));
    }
    legend.append(legendItem(icon(hutGlyph(0, 0, 1)), "hut"));
    legend.append(legendItem(icon(palmGlyph(0, 0, 1)), "palm"));
    const statue = svgEl("g");
    statue.append(statueGlyph(-9, 0, 0.8), facingArrow(-9, 0, 0.75, "#111"));
    legend.append(legendItem(icon(statue, "-16 -16 32 32"), "statue, arrow: where it looks"));
    legend.append(legendItem(icon(amuletGlyph(0, 0, 1.1)), "amulet"));
    for (let s = 0; s < n; s++) {
      const g = svgEl("g");
      g.append(svgEl("circle", { cx: 0, cy: 0, r: 9, fill: SEAT_COLOURS[s], stroke: "white", "stroke-width": 2 }));
      legend.append(legendItem(icon(g), `seat ${s + 1} ${NAMES[s]}'s ATV`));
    }
    for (let m = 0; m < S.maps; m++) {
      legend.append(legendItem(icon(svgEl("rect", { x: -6, y: -6, width: 12, height: 12, fill: MAP_COLOURS[m],
                                                    stroke: "white", "stroke-width": 1.5 })),
                               `map ${m} marker`));
    }
    const cand = svgEl("polygon", { points: hexPoints(0, 0, 10), fill: "none", stroke: "#0b3d91", "stroke-width": 2.5 });
    legend.append(legendItem(icon(cand), "candidate of the selected map (others faded)"));
    legend.append(legendItem(icon(svgEl("polygon", { points: starPoints(0, 0, 10), fill: "#ffffff",
                                                     stroke: "#0b3d91", "stroke-width": 2 })), "treasure located"));
    const move = svgEl("g");
    move.append(svgEl("line", { x1: -10, y1: 0, x2: 8, y2: 0, stroke: "#333", "stroke-width": 2.5,
                                "stroke-dasharray": "4 2" }));
    legend.append(legendItem(icon(move), "this step's leg"));
    return legend;
  }

  function init(stage) {
    const boardBox = el("div", { id: "board-box" }, buildBoard(), buildLegend());
    dom.facts = el("div", { class: "facts panel-box" });
    dom.seats = el("div", { class: "seats" });
    dom.seatBoxes = seatBoxes(n, dom.seats);
    dom.dist = el("div", { class: "dist panel-box" });
    const side = el("div", { id: "side" }, dom.facts, el("h2", { class: "panel", text: "Seats" }), dom.seats,
                    el("h2", { class: "panel", text: "Treasure distribution" }), dom.dist);
    dom.maps = el("div", { class: "maps" });
    dom.mapBoxes = [];
    for (let m = 0; m < S.maps; m++) {
      const box = el("div", { class: "map", "data-map": String(m), style: `border-color:${MAP_COLOURS[m]}`,
                              title: "Click to keep this map's candidates shown; click again to follow the events" });
      box.addEventListener("click", () => { pinned = pinned === m ? -1 : m; render(); });
      dom.mapBoxes.push(box);
      dom.maps.append(box);
    }
    stage.append(el("div", { id: "tobago-top" }, boardBox, side),
                 el("h2", { class: "panel", text: `Treasure maps (markers go out at ${S.threshold} candidates or fewer)` }),
                 dom.maps);
  }

  function selectedMap(step) {
    if (pinned >= 0) return pinned;
    for (let i = step - 1; i >= 0 && i >= step - 400; i--) {
      if (EVENTS[i].map !== undefined) return EVENTS[i].map;
    }
    return -1;
  }

  function canSee(seat) { return state.view === -1 || state.view === seat; }

  function drawBoard(f, step, sel) {
    const cand = sel >= 0 ? f[`map${sel}`] : null;
    const inCand = new Set(cand && cand.cards.length ? cand.candidates : []);
    const dimming = cand && cand.cards.length > 0;
    dom.dimShapes.forEach((p, i) => {
      if (!dimming) { p.setAttribute("fill", "none"); p.setAttribute("stroke", "none"); return; }
      if (inCand.has(i)) {
        p.setAttribute("fill", "none");
        p.setAttribute("stroke", "#0b3d91");
        p.setAttribute("stroke-width", "3");
      } else {
        p.setAttribute("fill", "rgba(255,255,255,0.62)");
        p.setAttribute("stroke", "none");
      }
    });
    dom.markers.textContent = "";
    dom.located.textContent = "";
    for (let m = 0; m < S.maps; m++) {
      const mp = f[`map${m}`];
      if (mp.markers) {
        for (const c of mp.candidates) {
          const [x, y] = centre[c];
          const [dx, dy] = MARKER_SLOT[m];
          dom.markers.append(svgEl("rect", { x: x + dx * R - 5, y: y + dy * R - 5, width: 10, height: 10,
                                             fill: MAP_COLOURS[m], stroke: "white", "stroke-width": 1.5 }));
        }
      }
      if (mp.located >= 0) {
        const [x, y] = centre[mp.located];
        dom.located.append(svgEl("polygon", { points: starPoints(x, y, R * 0.75), fill: "white",
                                              "fill-opacity": 0.8, stroke: MAP_COLOURS[m], "stroke-width": 3 }));
      }
    }
    dom.amulets.textContent = "";
    for (const c of f.amulet_cells) {
      const [x, y] = centre[c];
      dom.amulets.append(amuletGlyph(x - R * 0.5, y + R * 0.05, 1));
    }
    dom.statueArrows.forEach(([arrow, x, y], k) => {
      arrow.setAttribute("transform", `rotate(${60 * f.facings[k]} ${x} ${y})`);
    });
    dom.highlight.textContent = "";
    const ev = step > 0 ? EVENTS[step - 1] : null;
    if (ev && ev.cells) {
      const colour = ev.seat >= 0 ? SEAT_COLOURS[ev.seat] : "#333";
      if (ev.cells.length === 2 && ev.cells[0] !== ev.cells[1]) {
        const [x1, y1] = centre[ev.cells[0]];
        const [x2, y2] = centre[ev.cells[1]];
        const len = Math.hypot(x2 - x1, y2 - y1) || 1;
        const cut = R * 0.45 / len;
        dom.highlight.append(svgEl("line", { x1: x1 + (x2 - x1) * cut, y1: y1 + (y2 - y1) * cut,
                                             x2: x2 - (x2 - x1) * cut, y2: y2 - (y2 - y1) * cut,
                                             stroke: colour, "stroke-width": 4, "stroke-dasharray": "7 4",
                                             "marker-end": `url(#arrow${Math.max(0, ev.seat)})` }));
      } else {
        const [x, y] = centre[ev.cells[ev.cells.length - 1]];
        dom.highlight.append(svgEl("polygon", { points: hexPoints(x, y, R - 2), fill: "none", stroke: colour,
                                                "stroke-width": 4, "stroke-dasharray": "6 3" }));
      }
    }
    dom.atvs.textContent = "";
    const byCell = {};
    f.atv.forEach((c, s) => { if (c >= 0) (byCell[c] = byCell[c] || []).push(s); });
    for (const [c, seats] of Object.entries(byCell)) {
      const [x, y] = centre[Number(c)];
      const crowded = seats.length > 1 || landmarkAt[c] !== undefined;
      seats.forEach((s, k) => {
        const a = Math.PI * 2 * k / seats.length + Math.PI / 4;
        const ox = crowded ? R * 0.42 * Math.cos(a) : 0;
        const oy = crowded ? R * 0.42 * Math.sin(a) : 0;
        const g = svgEl("g", { class: "atv", "data-seat": String(s), "data-cell": String(c) });
        g.append(svgEl("circle", { cx: x + ox, cy: y + oy, r: R * 0.34, fill: SEAT_COLOURS[s], stroke: "white",
                                   "stroke-width": 2.5 }));
        const t = svgEl("text", { x: x + ox, y: y + oy + 4.5, "text-anchor": "middle", "font-size": 13,
                                  "font-weight": 700, fill: "white" });
        t.textContent = String(s + 1);  // seats are numbered from 1 wherever a person reads them
        const title = svgEl("title");
        title.textContent = `seat ${s + 1} ${NAMES[s]}'s ATV at ${cellName(Number(c))}`;
        g.append(t, title);
        dom.atvs.append(g);
      });
    }
  }

  function drawFacts(f, step) {
    dom.facts.textContent = "";
    const item = (label, value) => el("span", {}, `${label} `, el("b", { text: String(value) }));
    dom.facts.append(
      item("turn", turnOf(step)),
      el("span", {}, f.over ? "game over" : "to play ", f.over ? null : seatChip(f.current)),
      item("treasure deck", f.treasure_deck),
      item("treasure discard", f.treasure_discard),
      item("curses gone", f.treasure_removed),
      item("amulets in supply", f.amulet_stack),
      item("clue deck", f.clue_deck),
      item("clue discard", f.clue_discard));
  }

  function drawSeats(f, step) {
    for (let s = 0; s < n; s++) {
      const box = dom.seatBoxes[s];
      box.textContent = "";
      box.classList.toggle("to-play", !f.over && f.current === s);
      const head = el("div", { class: "name" }, seatChip(s), ` ${NAMES[s]}`);
      if (f.over && step === N) head.append(` — rank ${DATA.ranks[s]}${DATA.ranks[s] === 1 ? (DATA.end_reason === "deck_exhausted" ? " (winner)" : " (leading)") : ""}`);
      box.append(head);
      box.append(el("div", {}, "ATV ", el("b", { class: "atv-cell", text: cellName(f.atv[s]) }),
                    ` · roses ${f.roses[s]} · amulets ${f.amulets[s]}`));
      const cards = f.treasures[s];
      if (canSee(s)) {
        box.append(el("div", {}, "score ", el("b", { class: "score", text: String(f.scores[s]) }),
                      ` coins (${cards.length} card${cards.length === 1 ? "" : "s"}${cards.length ? ": " + cards.join(", ") : ""})`));
      } else {
        box.append(el("div", { class: "muted" }, `score hidden (${cards.length} card${cards.length === 1 ? "" : "s"}, face down)`));
      }
      const hand = f.hands[s];
      if (canSee(s)) {
        const ul = el("ul", { class: "hand" });
        for (const c of hand) ul.append(el("li", { text: S.clues[c] }));
        box.append(el("div", { class: "muted", text: `hand (${hand.length}):` }), ul);
      } else {
        box.append(el("div", { class: "muted", text: `hand: ${hand.length} clue cards, face down` }));
      }
    }
  }

  function drawMaps(f, step, sel) {
    for (let m = 0; m < S.maps; m++) {
      const mp = f[`map${m}`];
      const box = dom.mapBoxes[m];
      box.textContent = "";
      box.classList.toggle("selected", sel === m);
      const status = mp.cards.length
        ? el("span", {}, el("b", { class: "count", text: String(mp.count) }), ` candidate${mp.count === 1 ? "" : "s"}`)
        : el("span", { class: "muted count-empty", text: "empty" });
      box.append(el("div", { class: "head" },
        el("span", {}, el("span", { class: "chip", style: `background:${MAP_COLOURS[m]}`, text: `map ${m}` }),
           pinned === m ? " (kept shown)" : ""), status));
      const notes = [];
      if (mp.located >= 0) notes.push(`located at ${cellName(mp.located)}`);
      else if (mp.markers) notes.push("markers out");
      if (notes.length) box.append(el("div", { class: "muted", text: notes.join(" · ") }));
      const ol = el("ol");
      mp.cards.forEach((c, k) => {
        const li = el("li", {}, `${S.clues[c]} `, seatChip(mp.roses[k]));
        ol.append(li);
      });
      if (mp.cards.length) box.append(ol);
    }
  }

  function drawDistribution(f, step) {
    dom.dist.textContent = "";
    let start = -1;
    for (let i = step - 1; i >= 0; i--) {
      const name = EVENTS[i].name;
      if (name === "raise") { start = i; break; }
      if (name === "end_turn") break;
    }
    if (start < 0) {
      dom.dist.append(el("div", { class: "muted", text: "No treasure is being shared this turn." }));
      return;
    }
    const raise = EVENTS[start];
    dom.dist.append(el("div", {}, seatChip(raise.seat), ` raised ${raise.text}`));
    if (f.dist_roses.length) {
      const roses = el("div", {}, "roses still in line (bottom first): ");
      f.dist_roses.forEach((s) => roses.append(seatChip(s), " "));
      dom.dist.append(roses);
    }
    const drawn = {};
    const offers = [];
    let card = null;
    const tail = [];
    for (let i = start + 1; i < step; i++) {
      const ev = EVENTS[i];
      if (!DIST_EVENTS.has(ev.name)) break;
      const seen = ev.secret === -1 || state.view === -1 || ev.secret === state.view;
      if (ev.name === "draw") (drawn[`seat ${ev.seat + 1}`] = drawn[`seat ${ev.seat + 1}`] || []).push(seen ? ev.text : "?");
      else if (ev.name === "extra_card") drawn["blind extra card"] = [seen ? ev.text : "?"];
      else if (ev.name === "reveal") { card = { text: ev.text, parts: [], now: i === step - 1 }; offers.push(card); }
      else if (["take", "pass", "curse_hit"].includes(ev.name) && card) {
        card.parts.push([ev.seat, ev.name === "take" ? "takes it" : ev.name === "pass" ? "passes" : ev.text]);
        if (i === step - 1) card.now = true;
      } else if (ev.name === "unclaimed" && card) { card.parts.push([-1, "nobody takes it: discarded"]); }
      else tail.push([ev, i === step - 1]);
    }
    const cards = el("div", { class: "cards" }, "cards drawn: ");
    const who = Object.keys(drawn);
    if (!who.length) cards.append(el("span", { class: "muted", text: "none yet" }));
    for (const k of who) cards.append(el("span", {}, el("b", { text: `${k}:` }), ` ${drawn[k].join(", ")}`));
    dom.dist.append(cards);
    if (offers.length) {
      const ol = el("ol");
      for (const o of offers) {
        const li = el("li", { class: o.now ? "now" : "" }, `${o.text.replace(/^card \d+: /, "")}: `);
        o.parts.forEach(([s, what], k) => {
          if (k) li.append(", ");
          if (s >= 0) li.append(seatChip(s), " ");
          li.append(what);
        });
        ol.append(li);
      }
      dom.dist.append(el("div", { class: "muted", text: "cards turned up, offered from the bottom rose up:" }), ol);
    }
    for (const [ev, now] of tail) {
      dom.dist.append(el("div", { class: now ? "now" : "" }, ev.seat >= 0 ? seatChip(ev.seat) : "",
                         ` ${ev.name.replaceAll("_", " ")}: ${ev.text}`));
    }
  }

  function render(f, step) {
    if (f === undefined) { f = FRAMES[state.step]; step = state.step; }
    const sel = selectedMap(step);
    drawBoard(f, step, sel);
    drawFacts(f, step);
    drawSeats(f, step);
    drawMaps(f, step, sel);
    drawDistribution(f, step);
  }

  function turnLabel(turn, step) {
    const f = FRAMES[step];
    return turn === 0 ? `Turn 0: setup, then seat ${f.current + 1}` : `Turn ${turn}: seat ${f.current + 1}`;
  }

  return { init, render, turnLabel, views: true };
})();
