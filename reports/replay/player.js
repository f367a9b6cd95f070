"use strict";
/* The replay player, shared by every game: it rebuilds each step's full frame from the
   differences the page carries, and owns the controls (steps, turns, play/pause, keys, the
   slider), the event list beside the game and the URL fragment (#step=K, and &view=S for one
   seat's view). Step 0 is the state before the first event; step K the state when event K
   (from 1) was logged. A game's renderer (GAME) draws a frame; it computes no rule. */

const DATA = JSON.parse(document.getElementById("replay-data").textContent);
/* Events travel as [turn, seat, name index, text, secret?, {other keys}?]. */
const EVENTS = DATA.events.rows.map((r) => Object.assign(
  { turn: r[0], seat: r[1], name: DATA.events.names[r[2]], text: r[3], secret: r.length > 4 ? r[4] : -1 },
  r[5] || {}));
const N = EVENTS.length;
const SEAT_COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd"];
/* Every step's full state: each frame holds only the keys that changed. */
const FRAMES = [];
{
  let cur = {};
  for (const d of DATA.frames) {
    cur = Object.assign({}, cur, d);
    FRAMES.push(cur);
  }
}
/* The first step of each turn, in order. */
const TURNS = [];
for (let i = 0; i < N; i++) {
  if (i === 0 || EVENTS[i].turn !== EVENTS[i - 1].turn) TURNS.push([EVENTS[i].turn, i + 1]);
}
const LIST_ALL = 4000;  /* longer games list a window of events around the position */
const LIST_HALF = 1500;

const state = { step: 0, view: -1, timer: null, speed: 4 };
let game = null;
let list = null;
let listRange = [0, 0];
let currentItem = null;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/* One empty box per seat (class "seat", data-seat its number), appended to parent: the
   renderers fill them at every frame. */
function seatBoxes(count, parent) {
  const boxes = [];
  for (let s = 0; s < count; s++) {
    const box = el("div", { class: "seat", "data-seat": String(s) });
    boxes.push(box);
    parent.append(box);
  }
  return boxes;
}

function svgEl(tag, attrs) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  return node;
}

function seatChip(seat) {
  if (seat < 0) return el("span", { class: "chip", style: "background:#7a858e", text: "table" });
  return el("span", { class: "chip", style: `background:${SEAT_COLOURS[seat]}`, text: `seat ${seat + 1}` });
}

/* An event's text as the chosen view may see it. */
function eventText(ev) {
  if (ev.secret !== -1 && state.view !== -1 && ev.secret !== state.view) return ev.masked;
  return ev.text;
}

function turnOf(step) {
  if (step === 0) return EVENTS.length ? EVENTS[0].turn : 0;
  return EVENTS[step - 1].turn;
}

function go(step) {
  const s = Math.max(0, Math.min(N, step | 0));
  state.step = s;
  render();
}

function goTurn(turn) {
  let target = TURNS.length ? TURNS[TURNS.length - 1][1] : 0;
  for (const [t, s] of TURNS) {
    if (t >= turn) { target = s; break; }
  }
  go(target);
}

function stepTurn(delta) {
  const here = turnOf(state.step);
  let idx = TURNS.findIndex(([t]) => t === here);
  if (delta < 0 && idx >= 0 && TURNS[idx][1] < state.step) { go(TURNS[idx][1]); return; }
  idx = Math.max(0, Math.min(TURNS.length - 1, idx + delta));
  if (TURNS.length) go(TURNS[idx][1]);
}

function setPlaying(on) {
  if (state.timer !== null) { clearInterval(state.timer); state.timer = null; }
  if (on && state.step < N) {
    state.timer = setInterval(() => {
      if (state.step >= N) { setPlaying(false); return; }
      go(state.step + 1);
    }, 1000 / state.speed);
  }
  document.getElementById("play").textContent = state.timer !== null ? "❚❚ pause" : "▶ play";
}

function buildControls(root) {
  const viewSelect = el("select", { id: "view", title: "Whose view: everything, or what one seat may see" });
  viewSelect.append(el("option", { value: "-1", text: "everything visible" }));
  for (let s = 0; s < DATA.players.length; s++) {
    viewSelect.append(el("option", { value: String(s), text: `seat ${s + 1}'s view only` }));
  }
  viewSelect.addEventListener("change", () => { state.view = Number(viewSelect.value); render(true); });
  const speed = el("select", { id: "speed", title: "Steps per second when playing" });
  for (const v of [1, 2, 4, 8, 16, 32]) {
    const o = el("option", { value: String(v), text: `${v} steps/s` });
    if (v === state.speed) o.selected = true;
    speed.append(o);
  }
  speed.addEventListener("change", () => {
    state.speed = Number(speed.value);
    if (state.timer !== null) setPlaying(true);
  });
  const turnInput = el("input", { id: "turn-input", type: "number", min: "0", title: "Turn to jump to" });
  const jump = () => { if (turnInput.value !== "") goTurn(Number(turnInput.value)); };
  turnInput.addEventListener("keydown", (e) => { if (e.key === "Enter") jump(); });
  const slider = el("input", { id: "slider", type: "range", min: "0", max: String(N), value: "0",
                               title: "Step" });
  slider.addEventListener("input", () => go(Number(slider.value)));
  const button = (id, text, title, f) => el("button", { id, title, text, onclick: f });
  const controls = el("div", { id: "controls" },
    el("div", { class: "group" },
      button("first", "⇤ start", "Before the first event (Home)", () => go(0)),
      button("prev-turn", "« turn", "Previous turn (Shift+←)", () => stepTurn(-1)),
      button("prev", "‹ step", "Previous step (←)", () => go(state.step - 1)),
      button("next", "step ›", "Next step (→)", () => go(state.step + 1)),
      button("next-turn", "turn »", "Next turn (Shift+→)", () => stepTurn(1)),
      button("last", "end ⇥", "The last event (End)", () => go(N)),
      button("play", "▶ play", "Play or pause (Space)", () => setPlaying(state.timer === null)),
      speed),
    el("div", { class: "group" }, el("label", { for: "turn-input", text: "turn" }), turnInput,
      button("go-turn", "go", "Jump to the start of that turn", jump)),
    el("span", { id: "position" }),
    slider,
    game.views ? viewSelect : null);
  root.append(controls);
}

function eventItem(i) {
  const ev = EVENTS[i];
  const li = el("li", { "data-step": String(i + 1) },
    el("span", { class: "who", style: ev.seat >= 0 ? `color:${SEAT_COLOURS[ev.seat]}` : "",
                 text: ev.seat >= 0 ? `seat ${ev.seat + 1}` : "table" }),
    " ", el("span", { class: "name", text: ev.name.replaceAll("_", " ") }),
    " ", el("span", { class: "text", text: eventText(ev) }));
  return li;
}

function fillList(from, to) {
  list.textContent = "";
  listRange = [from, to];
  if (from === 0) list.append(el("li", { class: "turn-head", "data-step": "0", text: "Setup: before the first event" }));
  else list.append(el("li", { class: "turn-head muted", "data-step": String(from), text: `… ${from} earlier events` }));
  for (let i = from; i < to; i++) {
    if (i === 0 || EVENTS[i].turn !== EVENTS[i - 1].turn) {
      list.append(el("li", { class: "turn-head", "data-step": String(i + 1),
                             text: game.turnLabel(EVENTS[i].turn, i + 1) }));
    }
    list.append(eventItem(i));
  }
  if (to < N) list.append(el("li", { class: "turn-head muted", "data-step": String(to + 1), text: `… ${N - to} later events` }));
  currentItem = null;
}

function syncList(force) {
  let [from, to] = listRange;
  if (N <= LIST_ALL) {
    if (force || to !== N) fillList(0, N);
  } else if (force || state.step < from + 200 && from > 0 || state.step > to - 200 && to < N) {
    fillList(Math.max(0, state.step - LIST_HALF), Math.min(N, state.step + LIST_HALF));
  }
  if (currentItem) currentItem.classList.remove("current");
  currentItem = list.querySelector(`li[data-step="${state.step}"]:not(.turn-head)`) ||
                list.querySelector(`li[data-step="${state.step}"]`);
  if (currentItem) {
    currentItem.classList.add("current");
    const top = currentItem.offsetTop;
    const bottom = top + currentItem.offsetHeight;
    if (top < list.scrollTop + 20 || bottom > list.scrollTop + list.clientHeight - 20) {
      list.scrollTop = top - list.clientHeight / 3;
    }
  }
}

/* The address follows the position a moment later: browsers throttle rapid history
   updates, and stepping or playing moves many times a second. */
let hashTimer = null;
function writeHash() {
  if (hashTimer !== null) return;
  hashTimer = setTimeout(() => {
    hashTimer = null;
    const hash = `#step=${state.step}` + (state.view >= 0 ? `&view=${state.view}` : "");
    if (location.hash === hash) return;
    try {
      history.replaceState(null, "", hash);
    } catch (e) {
      location.replace(hash);
    }
  }, 150);
}

function readHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const step = params.has("step") ? Number(params.get("step")) : 0;
  const view = params.has("view") ? Number(params.get("view")) : -1;
  state.step = Number.isFinite(step) ? Math.max(0, Math.min(N, Math.floor(step))) : 0;
  state.view = game.views && Number.isInteger(view) && view >= 0 && view < DATA.players.length ? view : -1;
  const select = document.getElementById("view");
  if (select) select.value = String(state.view);
}

function render(viewChanged) {
  const frame = FRAMES[state.step];
  game.render(frame, state.step);
  const ev = state.step > 0 ? EVENTS[state.step - 1] : null;
  document.getElementById("position").textContent =
    `step ${state.step} of ${N} · turn ${turnOf(state.step)}` + (ev ? ` · ${ev.name.replaceAll("_", " ")}` : " · setup");
  document.getElementById("slider").value = String(state.step);
  syncList(Boolean(viewChanged));
  writeHash();
}

function startReplay(renderer) {
  game = renderer;
  buildControls(document.body);
  const stage = el("div", { id: "stage" });
  list = el("ol", { id: "event-list", style: "position:relative" });
  list.addEventListener("click", (e) => {
    const li = e.target.closest("li[data-step]");
    if (li) go(Number(li.getAttribute("data-step")));
  });
  const aside = el("aside", { id: "events" }, el("h2", { text: `Events (${N}): click one to go there` }), list);
  document.body.append(el("div", { id: "main" }, stage, aside));
  game.init(stage);
  readHash();
  render(true);
  performance.mark("replay-ready");  /* how long the page took to show its first step */
  window.addEventListener("hashchange", () => { readHash(); render(true); });
  document.addEventListener("keydown", (e) => {
    const tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const keys = {
      ArrowRight: () => (e.shiftKey ? stepTurn(1) : go(state.step + 1)),
      ArrowLeft: () => (e.shiftKey ? stepTurn(-1) : go(state.step - 1)),
      PageDown: () => stepTurn(1),
      PageUp: () => stepTurn(-1),
      Home: () => go(0),
      End: () => go(N),
      " ": () => setPlaying(state.timer === null),
    };
    const f = keys[e.key];
    if (f) { e.preventDefault(); f(); }
  });
}
