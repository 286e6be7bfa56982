// The review page: the next pending Work and the terminal review's keys, deciding through the same
// /v3/review routes (and so the same library rules, revisions and undo journal) as any other client.
// Every value from the library is put in with textContent or value, never as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
// history: how many books each decision of this page decided (a bulk verify many), so undo takes back as many.
// cut: where a split would cut (0.1-0.9 of the box), null when not splitting.
const state = { work: null, position: 0, pending: 0, editing: false, picking: false, cut: null, cropImage: null, decided: 0, history: [],
                started: Date.now(), busy: false };

async function call(method, path, body) {
  const options = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const text = await response.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
  if (response.status === 401) { location.href = "/login?next=" + encodeURIComponent(location.pathname); }
  return { status: response.status, ok: response.ok, json };
}

function say(message) {
  const alert = $("alert");
  alert.textContent = message || "";
  alert.hidden = !message;
}

function percent(value) { return typeof value === "number" ? Math.round(value * 100) + "%" : "–"; }

function endLine() {
  const minutes = Math.max((Date.now() - state.started) / 60000, 1 / 60);
  $("end").textContent = state.decided + " decided · " + (state.decided / minutes).toFixed(1) + " per minute · " + state.pending + " left";
}

// The next book is claimed for this browser (POST /v3/review/next) as each terminal review claims its own,
// so two people reviewing one shared library are never shown the same book; `after` is the book left behind.
async function load(workId, after) {
  state.editing = false;
  if (workId === undefined) {
    const next = await call("POST", "/v3/review/next", after === undefined ? {} : { after });
    if (!next.ok) { say(next.json && next.json.detail ? next.json.detail : "The queue cannot be read."); return; }
    state.pending = next.json.data.pending;
    state.position = next.json.data.position || 0;
    show(next.json.data.work);
    return;
  }
  // A book named (a split's first piece, an undone one) keeps its place; the queue's size is read for the end line.
  const page = await call("GET", "/v3/review/works?limit=1");
  if (!page.ok) { say(page.json && page.json.detail ? page.json.detail : "The queue cannot be read."); return; }
  state.pending = page.json.data.pending;
  const detail = await call("GET", "/v3/review/works/" + workId);
  if (!detail.ok) { say(detail.json && detail.json.detail ? detail.json.detail : "That book cannot be read."); return; }
  show(detail.json.data);
}

function show(work) {
  state.work = work;
  state.picking = false;
  setCut(null);
  $("item").hidden = !work;
  endLine();
  if (!work) {
    $("position").textContent = "Nothing waits for review.";
    return;
  }
  $("position").textContent = state.pending + " waiting · book " + state.position;
  const authors = (work.authors || []).map((a) => a.name);
  $("title").value = work.work.title === "Unread spine" ? "" : work.work.title;
  $("title").placeholder = work.work.title === "Unread spine" ? "Nothing was read: type the title" : "";
  $("authors").value = authors.join("; ");
  setEditing(false);
  const spine = work.spine || {};
  $("raw").textContent = spine.rawText || spine.readError || "(nothing read)";
  $("reading-confidence").textContent = percent(spine.readingConfidence);
  $("detection-confidence").textContent = percent(spine.detectionConfidence);
  const list = $("duplicate-list");
  list.replaceChildren();
  for (const d of work.duplicates || []) {
    const item = document.createElement("li");
    const label = document.createElement("span");
    label.textContent = d.title + (d.authors.length ? " — " + d.authors.join(", ") : "") + " (" + percent(d.similarity) + " alike, #" + d.id + ")";
    const merge = document.createElement("button");
    merge.type = "button";
    merge.className = "merge";
    merge.textContent = "Merge into this";
    merge.addEventListener("click", () => mergeInto(d.id));
    item.append(label, " ", merge);
    list.appendChild(item);
  }
  $("duplicates").hidden = list.children.length === 0;
  drawCrop(work);
  $("shelf").hidden = !spine.photoContentHash;
  $("bulk").hidden = !spine.photoContentHash;
  $("shelf").src = "/pages/works/" + work.id + "/shelf.jpg?revision=" + work.revision;
}

// The crop at full resolution, turned as the terminal review turns it: a standing spine a quarter turn
// counter-clockwise, half a turn more when the reader found the title running up the spine.
function drawCrop(work) {
  const canvas = $("crop");
  state.cropImage = null;
  if (!work.cropUrl) { canvas.hidden = true; return; }
  canvas.hidden = false;
  const image = new Image();
  image.onload = () => {
    if (state.work !== work) return;
    state.cropImage = image;
    paintCrop();
  };
  image.src = work.cropUrl;
}

// Crops are stored as the book stands, a lying book's too; a quarter turn lays the title left to right.
// While splitting, the cut is drawn across the spine where the library cuts it: in the crop's own
// coordinates, before the turn, so it turns with the picture. A crop carries a margin of 4% of the box's
// width on each side (SpineReshape.cropMargin), which the cut skips as the library's does.
function paintCrop() {
  const image = state.cropImage, work = state.work, canvas = $("crop");
  if (!image || !work) return;
  const turns = -1 + (work.spine && work.spine.textRunsUp ? 2 : 0);
  const quarter = ((turns % 4) + 4) % 4;
  const sideways = quarter % 2 === 1;
  canvas.width = sideways ? image.height : image.width;
  canvas.height = sideways ? image.width : image.height;
  const context = canvas.getContext("2d");
  context.translate(canvas.width / 2, canvas.height / 2);
  context.rotate(quarter * Math.PI / 2);
  context.drawImage(image, -image.width / 2, -image.height / 2);
  if (state.cut === null) return;
  context.strokeStyle = "#ffd000";
  context.lineWidth = Math.max(2, Math.round(Math.min(image.width, image.height) / 40));
  context.beginPath();
  const x = image.width * (0.04 + state.cut) / 1.08 - image.width / 2;
  context.moveTo(x, -image.height / 2);
  context.lineTo(x, image.height / 2);
  context.stroke();
}

// | as in the terminal: choose where to cut (←/→ move it by 5%), Enter or | cuts, anything else leaves.
function setCut(cut) {
  state.cut = cut;
  $("split-hint").hidden = cut === null;
  if (cut !== null) $("cut").textContent = Math.round(cut * 100) + "%";
  paintCrop();
}

function split() {
  if (!state.work || !state.work.spine || !state.work.spine.photoContentHash) {
    say("This Work has no box on a photo to split.");
    return;
  }
  if (state.cut === null) { say(""); setCut(0.5); return; }
  decide("split", { at: state.cut }, true);
}

// m as in the terminal: straight into the only likely duplicate, else asks which (1-9, Esc cancels).
function merge() {
  const duplicates = (state.work && state.work.duplicates) || [];
  if (duplicates.length === 0) { say("No merge candidates for this one."); return; }
  if (duplicates.length === 1) { mergeInto(duplicates[0].id); return; }
  state.picking = true;
  say("Merge into which? Press 1-" + Math.min(9, duplicates.length) + " (Esc cancels).");
}

function mergeInto(id) {
  state.picking = false;
  decide("merge", { into: id });
}

function setEditing(on) {
  state.editing = on;
  $("title").readOnly = !on;
  $("authors").readOnly = !on;
  $("edit-hint").hidden = !on;
  if (on) { $("title").focus(); $("title").select(); }
  // Leaving an edit leaves its field too: the keys do nothing while a field has the focus.
  if (!on && document.activeElement && document.activeElement.closest("#fields")) document.activeElement.blur();
}

// One decision through the library's rules; a refusal (stale revision, invalid title) is shown as it came.
// A split or a join (reshape) decides no book, as in the terminal's end line, and shows its first new box.
async function decide(action, body, reshape) {
  if (!state.work || state.busy) return;
  state.busy = true;
  try {
    const payload = Object.assign({ revision: state.work.revision }, body || {});
    const id = state.work.id;
    const answer = await call("POST", "/v3/review/works/" + id + "/" + action, payload);
    if (answer.ok) {
      say("");
      const counted = reshape ? 0 : 1;
      state.decided += counted;
      state.history.push(counted);
      await load(reshape ? answer.json.data.createdWorkIds[0] : undefined, id);
    } else if (answer.status === 409) {
      // A book changed since it was shown is shown again as it stands. One another reviewer decided has left
      // the queue, and one another holds (unchanged, still waiting) is theirs: the next one is shown instead.
      const current = await call("GET", "/v3/review/works/" + id);
      const changed = current.ok && current.json.data.work.reviewStatus === "needsReview" && current.json.data.revision !== state.work.revision;
      say("Not saved: " + (answer.json ? answer.json.detail : "the book changed since it was shown.") + (changed ? " It is shown again as it stands now." : ""));
      if (changed) { show(current.json.data); } else { await load(undefined, id); }
    } else {
      say("Not saved: " + (answer.json && answer.json.detail ? answer.json.detail : "the server said " + answer.status + "."));
    }
  } finally {
    state.busy = false;
  }
}

function saveEdit() {
  const authors = $("authors").value.split(";").map((s) => s.trim()).filter((s) => s.length > 0);
  decide("edit", { title: $("title").value.trim(), authors });
}

async function undo() {
  if (state.busy) return;
  state.busy = true;
  try {
    const answer = await call("POST", "/v3/review/undo", {});
    if (!answer.ok) { say(answer.json && answer.json.detail ? answer.json.detail : "Nothing to undo."); return; }
    say("");
    state.decided = Math.max(0, state.decided - (state.history.pop() || 1));
    const restored = answer.json.data.restoredWorkIds;
    await load(restored.length ? restored[0] : undefined);
  } finally {
    state.busy = false;
  }
}

// Bulk verify as the terminal's bulk menu: this photo's books read at or above the bar, by the library's
// rule (POST /v3/review/bulk-verify), as one decision that one undo takes back.
async function bulk() {
  const spine = state.work && state.work.spine;
  if (!spine || !spine.photoContentHash || state.busy) return;
  const bar = Number($("bulk-threshold").value);
  if (!(bar >= 0 && bar <= 100)) { say("The bar is a percentage, 0 to 100."); return; }
  state.busy = true;
  try {
    const answer = await call("POST", "/v3/review/bulk-verify", { photoContentHash: spine.photoContentHash, minConfidence: bar / 100 });
    if (!answer.ok) { say("Not saved: " + (answer.json && answer.json.detail ? answer.json.detail : "the server said " + answer.status + ".")); return; }
    const count = answer.json.data.verifiedWorkIds.length;
    if (count === 0) { say("Nothing on this photo is read at " + bar + "% or better."); return; }
    say("");
    state.decided += count;
    state.history.push(count);
    await load();
  } finally {
    state.busy = false;
  }
}

function focusBulk() {
  $("bulk-threshold").focus();
  $("bulk-threshold").select();
}

function skip() {
  say("");
  load(undefined, state.work ? state.work.id : undefined);
}

function search() {
  const box = document.querySelector(".bar input[name=q]");
  if (state.work && !box.value) box.value = $("title").value;
  box.focus();
  box.select();
}

const actions = { v: () => decide("verify"), e: () => setEditing(true), r: () => decide("reject"), s: skip, m: merge, "|": split, j: () => decide("join", {}, true), b: focusBulk, u: undo,
                  "/": search };

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const inField = event.target instanceof HTMLInputElement;
  if (state.editing && inField && event.target.closest("#fields")) {
    if (event.key === "Enter") { event.preventDefault(); saveEdit(); }
    if (event.key === "Escape") { event.preventDefault(); show(state.work); }
    return;
  }
  if (inField || event.target instanceof HTMLButtonElement && event.key === "Enter") return;
  if (state.cut !== null) {
    event.preventDefault();
    if (event.key === "ArrowLeft" || event.key === "h") { setCut(Math.max(0.1, Math.round((state.cut - 0.05) * 100) / 100)); return; }
    if (event.key === "ArrowRight" || event.key === "l") { setCut(Math.min(0.9, Math.round((state.cut + 0.05) * 100) / 100)); return; }
    if (event.key === "Enter" || event.key === "|") { split(); return; }
    setCut(null);
    say(event.key === "Escape" ? "" : "Split cancelled.");
    return;
  }
  if (state.picking) {
    event.preventDefault();
    const duplicates = (state.work && state.work.duplicates) || [];
    const n = Number(event.key);
    if (Number.isInteger(n) && n >= 1 && n <= Math.min(9, duplicates.length)) { mergeInto(duplicates[n - 1].id); return; }
    state.picking = false;
    say(event.key === "Escape" ? "" : "Merge cancelled.");
    return;
  }
  const key = event.key === "Enter" ? "v" : event.key;
  if (actions[key]) { event.preventDefault(); actions[key](); }
});

for (const button of document.querySelectorAll(".actions button")) {
  button.addEventListener("click", () => {
    if (button.dataset.key === "e" && state.editing) { saveEdit(); return; }
    actions[button.dataset.key]();
  });
}
$("fields").addEventListener("submit", (event) => { event.preventDefault(); if (state.editing) saveEdit(); });
$("bulk").addEventListener("submit", (event) => {
  event.preventDefault();
  document.activeElement.blur();  // the keys work again once the bar is set
  bulk();
});

load();
