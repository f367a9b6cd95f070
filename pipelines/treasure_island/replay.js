/* The Treasure Island renderer: the draw pile (its size, how many of its cards would bust the
   play area, any card a Spyglass made public), the discard pile, the play area of the turn
   in progress with its Anchor and Rum bottle, the power resolving now, and every seat's
   stash by kind with its points. Everything shown is read from the frame or the events;
   nothing is computed by the rules here. */
const GAME = (() => {
  const S = DATA.scene;
  const NAMES = DATA.players;
  const n = NAMES.length;
  const KIND_COLOURS = ["#34495e", "#8e44ad", "#b7950b", "#6e2c00", "#e67e22", "#2e86c1", "#c0392b",
                        "#17202a", "#16a085", "#ad1457"];
  const POWERS = new Set(["place", "reveal", "pistol", "no_effect", "rum", "spyglass_back", "bonus",
                          "anchor_keep", "wrecked"]);
  const dom = {};

  function cardTile(card, cls, tag) {
    const kind = S.kind_of[card];
    const tile = el("div", { class: `card ${cls || ""}`, style: `background:${KIND_COLOURS[kind]}`,
                             title: S.cards[card] },
      el("div", { class: "v", text: String(S.values[card]) }), el("div", { text: S.kinds[kind] }));
    if (tag) tile.append(el("span", { class: "tag", text: tag }));
    return tile;
  }

  function init(stage) {
    dom.pile = el("div", { class: "pile" });
    dom.discard = el("div", { class: "pile" });
    dom.area = el("div", { class: "pile area" });
    dom.stashes = el("div", { class: "stashes" });
    dom.seatBoxes = seatBoxes(n, dom.stashes);
    stage.append(el("div", { id: "ti-top" },
      el("div", { class: "table-row" }, dom.pile, dom.discard, dom.area),
      el("h2", { class: "panel", text: "Stashes (one pile per kind, top card first; a pile scores its top card)" }),
      dom.stashes));
  }

  /* The events of the turn at this step, up to it. */
  function turnEvents(step) {
    const out = [];
    if (step === 0) return out;
    const turn = EVENTS[step - 1].turn;
    for (let i = step - 1; i >= 0 && EVENTS[i].turn === turn; i--) out.unshift([EVENTS[i], i]);
    return out;
  }

  function render(f, step) {
    const all = turnEvents(step);
    const over = all.some(([e]) => e.name === "game_end");
    /* The turn's player is the one who drew its first card (the draft has none). */
    const first = all.find(([e]) => e.name.startsWith("draw"));
    const seat = first && !over ? first[0].seat : -1;
    const events = seat >= 0 ? all : [];
    const ended = events.find(([e]) => ["plunder", "bust", "end_turn"].includes(e.name));
    const busted = events.find(([e]) => e.name === "bust");
    const ev = step > 0 ? EVENTS[step - 1] : null;

    dom.pile.textContent = "";
    dom.pile.append(el("div", { text: "Draw pile" }), el("div", { class: "big pile-count", text: String(f.pile) }));
    if (f.known.length) {
      dom.pile.append(el("div", {}, "top, shown by a Spyglass: ", el("b", { text: f.known.map((c) => S.cards[c]).join(", ") })));
    } else if (!ended && f.pile > 0 && events.length) {
      const pct = (100 * f.busting / f.pile).toFixed(1);
      dom.pile.append(el("div", {}, "next blind draw busts: ",
                         el("b", { class: "bust-chance", text: `${f.busting} of ${f.pile} = ${pct}%` })));
    }
    if (ev && ev.chance) {
      const [c, size] = ev.chance;
      dom.pile.append(el("div", { class: "muted" },
        ev.known ? "this draw: the card was known" : `this draw busted with chance ${c}/${size} = ${(100 * c / size).toFixed(1)}%`));
    }
    dom.discard.textContent = "";
    dom.discard.append(el("div", { text: "Discard pile" }), el("div", { class: "big", text: String(f.discard) }));

    dom.area.textContent = "";
    const head = el("div", {}, seat >= 0 ? seatChip(seat) : "", seat >= 0 ? ` ${NAMES[seat]}'s play area` : "Play area");
    if (f.rum > 0 && !ended) head.append(el("span", { class: "muted", text: ` · Rum bottle: ${f.rum} more card${f.rum === 1 ? "" : "s"} before plundering` }));
    dom.area.append(head);
    const row = el("div", { class: "cards-row" });
    const shown = events.length ? f.area : [];
    shown.forEach((c, k) => {
      const gone = busted && !(f.anchor > 0 && k < f.anchor);
      row.append(cardTile(c, gone ? "gone" : "", k === f.anchor ? "anchor" : ""));
    });
    if (busted) row.append(cardTile(busted[0].card, "bust", "bust"));
    if (!shown.length && !busted) {
      const why = over ? "the game is over" : step && seat >= 0 ? "empty" : "no turn has started yet";
      row.append(el("span", { class: "muted", text: why }));
    }
    dom.area.append(row);
    const outcome = events.find(([e]) => e.name === "plunder") || busted;
    if (outcome) {
      const [oe] = outcome;
      dom.area.append(el("div", { class: `callout ${oe.name === "bust" ? "bad" : ""}` }, seatChip(oe.seat), ` ${oe.text}`));
    }
    if (ev && POWERS.has(ev.name)) {
      dom.area.append(el("div", { class: "callout" }, "power: ", ev.text));
    }
    const reveals = events.filter(([e, i]) => e.name === "reveal" && i >= step - 4);
    if (reveals.length) {
      const r = el("div", { class: "cards-row" });
      for (const [e] of reveals) r.append(cardTile(e.card, "", "shown"));
      dom.area.append(el("div", { class: "muted", text: "revealed:" }), r);
    }

    for (let s = 0; s < n; s++) {
      const box = dom.seatBoxes[s];
      box.textContent = "";
      box.classList.toggle("to-play", s === seat && !ended);
      const headLine = el("div", { class: "name" }, seatChip(s), ` ${NAMES[s]} · `,
                          el("b", { class: "points", text: String(f.points[s]) }), " points",
                          el("span", { class: "muted", text: ` · ${f.cards[s]} cards` }));
      if (step === N) headLine.append(` — rank ${DATA.ranks[s]}${DATA.ranks[s] === 1 ? (DATA.end_reason === "deck_exhausted" ? " (winner)" : " (leading)") : ""}`);
      box.append(headLine);
      if (f.characters[s]) box.append(el("div", { class: "muted", text: `character: ${f.characters[s].replaceAll("_", " ")}` }));
      const grid = el("div", { class: "stash-grid" });
      f.stash[s].forEach((pile, k) => {
        const col = el("div", { class: "col" }, el("div", { class: "kind", style: `background:${KIND_COLOURS[k]}`,
                                                            title: S.kinds[k], text: S.kinds[k] }));
        pile.forEach((c, j) => col.append(el("div", { class: `val ${j === 0 ? "top" : ""}`, text: String(S.values[c]) })));
        grid.append(col);
      });
      box.append(grid);
    }
  }

  function turnLabel(turn, step) {
    const ev = EVENTS[step - 1];
    return ev.seat >= 0 ? `Turn ${turn}: seat ${ev.seat + 1}` : `Turn ${turn}`;
  }

  return { init, render, turnLabel, views: false };
})();
