// loo-sim app: the deal (rules, position, the hand and indicator clicked on a deck), the
// "ask about a hand" screen and the "card play" screen. The server checks everything.
"use strict";

const state = {
  hand: [], indicator: null,
  rules: { players: 5, hand_size: 3, indicator_seen: true, miss: true },
  play: "", table: null,
};

function dealFields() {
  return {
    preset: $("preset").value, sets: $("sets").value, players: Number($("players").value),
    position: Number($("position").value), carried: Number($("carried").value) || 0,
    table: $("table").value.trim() || "basic", hand: state.hand.join(" "), indicator: state.indicator || "",
  };
}

function setOptions(select, values, chosen) {
  select.innerHTML = values.map((v) => `<option value="${esc(v[0])}">${esc(v[1])}</option>`).join("");
  if (values.some((v) => String(v[0]) === String(chosen))) select.value = chosen;
}

// each answer drawn only if no later question of the same kind was asked meanwhile
// (a slow answer must not draw over a newer one)
const asked = { rules: 0, table: 0 };

async function loadRules() {
  const mine = ++asked.rules;
  try {
    const rules = await api("/api/rules", dealFields());
    if (mine !== asked.rules) return;
    state.rules = rules;
    clearError();
    if (rules.warnings.length) showWarning(rules.warnings.join("; "));
  } catch (e) {
    if (mine === asked.rules) showError(e.message);
    return;
  }
  const n = state.rules.players;
  const positions = [];
  for (let p = 1; p <= n; p++) positions.push([p, p === 1 ? "1 (eldest)" : p === n ? `${n} (dealer)` : String(p)]);
  setOptions($("position"), positions, $("position").value || 2);
  state.hand = state.hand.slice(0, state.rules.hand_size);
  drawEarlier();
  drawDeclare();
  paintDeck();
  refreshTable();
}

function showWarning(text) {
  $("status").textContent = "warning: " + text;
}

function pickMode() {
  return document.querySelector("input[name=pick]:checked").value;
}

function onDeckClick(code) {
  if (pickMode() === "indicator") {
    state.indicator = state.indicator === code ? null : code;
    state.hand = state.hand.filter((c) => c !== code);
  } else if (state.hand.includes(code)) {
    state.hand = state.hand.filter((c) => c !== code);
  } else {
    if (state.hand.length >= state.rules.hand_size) state.hand.shift();  // the oldest choice gives way
    state.hand.push(code);
    if (state.indicator === code) state.indicator = null;
  }
  paintDeck();
  refreshTable();
}

function paintDeck() {
  for (const b of $("deck").querySelectorAll(".card")) {
    b.classList.toggle("hand", state.hand.includes(b.dataset.card));
    b.classList.toggle("indicator", state.indicator === b.dataset.card);
  }
  $("hand-text").textContent = state.hand.join(" ") || "-";
  $("indicator-text").textContent = state.indicator || (state.rules.indicator_seen ? "- (drawn at random)" : "not seen");
}

// ---- ask about a hand ------------------------------------------------------------------

function drawEarlier() {
  const position = Number($("position").value);
  const box = $("earlier");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  const words = state.rules.miss ? ["play", "pass", "miss"] : ["play", "pass"];
  let html = position > 1 ? `<span class="hint">Before you declared:</span>` : `<span class="hint">You declare first.</span>`;
  for (let p = 1; p < position; p++) {
    html += `<label>Position ${p} <select data-position="${p}">${words.map((w) => `<option>${w}</option>`).join("")}</select></label>`;
  }
  box.innerHTML = html;
  box.querySelectorAll("select").forEach((s, i) => { if (old[i]) s.value = old[i]; });
}

function renderCanned(canned) {
  if (!canned.length) return `<div class="meta">No shipped chart or equilibrium table matches these rules, players and pot.</div>`;
  return canned.map((c) => {
    if (c.kind === "chart") {
      const others = Object.entries(c.values).filter(([k]) => k !== c.best).map(([k, v]) => `${k} ${fmt(v)}`).join(", ");
      return `<div class="canned" data-kind="chart"><b>Decision chart</b> (${esc(c.source)}), cell ${esc(c.cell)}:
        best <b>${esc(c.best)}</b>${c.significant ? "" : " (not significant)"}; vs best: ${others}.
        <div class="meta">It assumes ${esc(c.assumes)}.</div></div>`;
    }
    const probs = Object.entries(c.values).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(", ");
    return `<div class="canned" data-kind="table"><b>Equilibrium table</b> (${esc(c.source)}), information set ${esc(c.cell)}:
      ${probs}.<div class="meta">It assumes ${esc(c.assumes)}.</div></div>`;
  }).join("");
}

function renderHandAnswer(a) {
  const offer = a.offer ? `<div class="meta">Pot ${a.offer.pot}, a loo costs ${a.offer.penalty}; on offer: ${a.offer.options.join(", ")}.</div>` : "";
  $("hand-answer").innerHTML = `<div class="verdict" id="verdict">${esc(a.verdict)}</div>${offer}
    ${barsHtml(a.actions, "action")}
    <div class="meta" id="precision-reached">${esc(precisionText(a))}</div>
    ${a.notes.map((n) => `<div class="meta">${esc(n)}</div>`).join("")}
    <h3>What the shipped results say (for the hand's class)</h3>${renderCanned(a.canned)}
    ${commandHtml(a)}`;
}

async function askHand() {
  clearError();
  const earlier = [...$("earlier").querySelectorAll("select")].map((s) => s.value).join(",");
  const payload = { ...dealFields(), kind: "declaration", earlier, precision: Number($("precision").value),
    seed: Number($("seed").value) || 0 };
  $("ask").disabled = true;
  try {
    renderHandAnswer(await runJob(payload, $("hand-answer")));
  } catch (e) {
    $("hand-answer").innerHTML = "";
    showError(e.message);
  } finally {
    $("ask").disabled = false;
  }
}

// ---- card play -------------------------------------------------------------------------

function drawDeclare() {
  const n = state.rules.players;
  const box = $("declare");
  const old = Object.fromEntries([...box.querySelectorAll("select")].map((s) => [s.dataset.position, s.value]));
  const words = ["play", "pass", "miss", "defend"].filter((w) => state.rules.miss || (w !== "miss" && w !== "defend"));
  let html = `<span class="hint">Declared:</span>`;
  for (let p = 1; p <= n; p++) {
    const you = p === Number($("position").value) ? " (you)" : "";
    html += `<label>${p === n ? "Dealer" : "Position " + p}${you} <select data-position="${p}">${words.map((w) => `<option>${w}</option>`).join("")}</select></label>`;
  }
  box.innerHTML = html;
  box.querySelectorAll("select").forEach((s) => {
    if (old[s.dataset.position]) s.value = old[s.dataset.position];
    s.addEventListener("change", () => refreshTable());
  });
}

function cardFields() {
  const declare = Object.fromEntries([...$("declare").querySelectorAll("select")].map((s) => [s.dataset.position, s.value]));
  return { ...dealFields(), kind: "card", declare, play: state.play, miss: $("miss").value, then: $("then").value };
}

async function refreshTable(previous) {
  const mine = ++asked.table;
  if ($("screen-cards").hidden || state.hand.length !== state.rules.hand_size) {
    $("table-state").innerHTML = `<span class="hint">Click your ${state.rules.hand_size} cards on the deck above.</span>`;
    return;
  }
  try {
    const table = await api("/api/cards/state", cardFields());
    if (mine !== asked.table) return;
    state.table = table;
    state.play = state.table.play;
    clearError();
  } catch (e) {
    if (mine !== asked.table) return;
    if (previous !== undefined) state.play = previous;  // the card just clicked is refused: take it back
    showError(e.message);
    if (previous === undefined) state.table = null;
  }
  drawTable();
}

function drawTable() {
  const t = state.table;
  const box = $("table-state");
  if (!t) { box.innerHTML = ""; $("my-cards").innerHTML = ""; return; }
  const tricks = t.tricks.map((trick, i) => `<div>Trick ${i + 1}: ${trick.map((e) => {
    const [who, card] = e.split(":");
    return `${who}:${cardText(card)}`;
  }).join(" ")}</div>`).join("");
  const trumps = t.trumps ? `trumps: ${SUITS[t.trump_letter]} ${t.trumps}` : "trumps not known yet";
  const turn = t.my_turn ? "your turn: choose below" : `position ${t.to_move} to play: click its card`;
  box.innerHTML = `${tricks || '<div class="hint">No card played yet.</div>'}
    <div>${trumps}; in the deal: ${t.in_deal.join(", ")}; <span class="turn" id="turn">${turn}</span></div>`;
  for (const b of $("table-deck").querySelectorAll(".card")) {
    const code = b.dataset.card;
    b.classList.toggle("played", t.played.includes(code));
    b.classList.toggle("mine", state.hand.includes(code));
    b.disabled = t.my_turn || t.played.includes(code) || state.hand.includes(code) || state.indicator === code;
  }
  const mine = $("my-cards");
  mine.innerHTML = t.my_turn ? `<div class="hint">Your cards (a greyed card is forbidden, with the rule):</div>` : "";
  for (const c of t.cards) {
    const row = document.createElement("div");
    row.className = "my-card";
    const b = cardButton(c.card, "mine");
    b.disabled = !c.legal;
    b.addEventListener("click", () => playCard(c.card));
    row.appendChild(b);
    const why = document.createElement("span");
    why.className = "why";
    why.textContent = c.legal ? "legal" : c.why;
    row.appendChild(why);
    mine.appendChild(row);
  }
  $("ask-card").disabled = !t.my_turn;
}

function playCard(code) {
  const t = state.table;
  const previous = state.play;
  const last = t.tricks[t.tricks.length - 1];
  const full = !last || last.length === t.in_deal.length;
  const entry = `${t.to_move}:${code}`;
  state.play = !previous ? entry : full ? `${previous} | ${entry}` : `${previous} ${entry}`;
  $("card-answer").innerHTML = "";
  refreshTable(previous);
}

function undoCard() {
  const entries = state.play.split("|").map((t) => t.trim().split(/\s+/).filter(Boolean));
  if (!entries.length) return;
  entries[entries.length - 1].pop();
  if (!entries[entries.length - 1].length) entries.pop();
  state.play = entries.map((t) => t.join(" ")).join(" | ");
  refreshTable();
}

async function askCard() {
  clearError();
  const payload = { ...cardFields(), precision: Number($("precision").value), seed: Number($("seed").value) || 0 };
  $("ask-card").disabled = true;
  try {
    const a = await runJob(payload, $("card-answer"));
    $("card-answer").innerHTML = `<div class="verdict" id="card-verdict">${esc(a.verdict)}</div>
      ${barsHtml(a.actions, "card")}<div class="meta">${esc(precisionText(a))}</div>
      ${a.notes.map((n) => `<div class="meta">${esc(n)}</div>`).join("")}${commandHtml(a)}`;
  } catch (e) {
    $("card-answer").innerHTML = "";
    showError(e.message);
  } finally {
    $("ask-card").disabled = !(state.table && state.table.my_turn);
  }
}

// ---- start -----------------------------------------------------------------------------

function showScreen(name) {
  for (const tab of document.querySelectorAll(".tab")) tab.classList.toggle("on", tab.dataset.screen === name);
  for (const s of ["hand", "cards", "browse"]) $(`screen-${s}`).hidden = s !== name;
  $("deal").hidden = name === "browse";
  if (name === "cards") refreshTable();
  if (name === "browse" && window.loadCanned) window.loadCanned();
}

async function watchReady() {
  for (;;) {
    const { ready } = await api("/api/status").catch(() => ({ ready: false }));
    window.looReady = ready;
    if (ready) { $("status").textContent = $("status").textContent.startsWith("warning") ? $("status").textContent : "kernel ready"; return; }
    $("status").textContent = "compiling the kernel (first start only) ...";
    await sleep(1000);
  }
}

async function start() {
  const meta = await api("/api/rules", { preset: "three-card", players: 5 });
  setOptions($("preset"), Object.entries(meta.presets).map(([k, v]) => [k, k]), "three-card");
  for (const [k, v] of Object.entries(meta.presets)) $("preset").querySelector(`option[value="${k}"]`).title = v;
  drawDeck($("deck"), onDeckClick);
  drawDeck($("table-deck"), (code) => playCard(code));
  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => showScreen(tab.dataset.screen));
  for (const id of ["preset", "sets", "players", "carried"]) $(id).addEventListener("change", loadRules);
  $("position").addEventListener("change", () => { drawEarlier(); drawDeclare(); refreshTable(); });
  $("miss").addEventListener("change", () => refreshTable());
  $("clear").addEventListener("click", () => { state.hand = []; state.indicator = null; paintDeck(); refreshTable(); });
  $("ask").addEventListener("click", askHand);
  $("ask-card").addEventListener("click", askCard);
  $("undo").addEventListener("click", undoCard);
  $("new-deal").addEventListener("click", () => { state.play = ""; refreshTable(); });
  await loadRules();
  $("position").value = "2";
  drawEarlier();
  watchReady();
}

start().catch((e) => showError(e.message));
