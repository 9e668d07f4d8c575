// loo-sim app: the shipped decision charts and equilibrium tables as heat maps, hand
// classes by positions, for the slice chosen (miss on offer, earlier seats in, options, pot).
"use strict";

const SLICES = { chart: ["miss_on_offer", "earlier_in"], table: ["earlier_in", "options", "pot"] };
const SLICE_NAMES = { miss_on_offer: "miss on offer", earlier_in: "earlier seats in", options: "options", pot: "pot" };
let canned = null;

async function loadCanned() {
  if ($("canned").options.length) return;
  try {
    const list = await api("/api/canned");
    setOptions($("canned"), list.map((e) => [e.file, `${e.kind === "chart" ? "decision chart" : "equilibrium table"}: ${e.source} (${e.players} players)`]));
    $("canned").addEventListener("change", showCanned);
    await showCanned();
  } catch (e) {
    showError(e.message);
  }
}

async function showCanned() {
  const name = $("canned").value;
  const data = await api(`/api/canned/${encodeURIComponent(name)}`);
  if ($("canned").value !== name) return;  // chosen again while this one loaded: the later choice draws
  const col = Object.fromEntries(data.columns.map((c, i) => [c, i]));
  canned = { ...data, records: data.rows.map((r) => Object.fromEntries(data.columns.map((c) => [c, r[col[c]]]))) };
  $("canned-about").innerHTML = `Made by <span class="command">${esc(data.command)}</span>`;
  const box = $("slices");
  box.innerHTML = "";
  for (const key of SLICES[data.kind]) {
    const counts = new Map();
    for (const r of canned.records) counts.set(String(r[key]), (counts.get(String(r[key])) || 0) + 1);
    const values = [...counts.keys()].sort();
    const common = values.reduce((a, b) => (counts.get(b) > counts.get(a) ? b : a));  // the fullest slice first
    const label = document.createElement("label");
    label.innerHTML = `${SLICE_NAMES[key]} <select data-slice="${key}">${values.map((v) => `<option>${esc(v)}</option>`).join("")}</select>`;
    label.querySelector("select").value = common;
    label.querySelector("select").addEventListener("change", drawHeat);
    box.appendChild(label);
  }
  drawHeat();
}

// The chart's cell: its best action, and how much it beats the runner-up by (paired).
function chartCell(rows) {
  const best = rows.find((r) => r.best) || rows.reduce((a, b) => (b.mean > a.mean ? b : a));
  const others = rows.filter((r) => r !== best);
  const margin = others.length ? Math.min(...others.map((r) => -r.diff_vs_best)) : 0;
  const strength = Math.min(1, 0.15 + margin / 6) * (best.significant ? 1 : 0.4);
  return { action: best.action, strength, text: margin.toFixed(1) };
}

// The table's row: its most likely declaration and that probability.
function tableCell(row) {
  const probs = ["pass", "play", "miss", "defend"].map((a) => [a, row[`p_${a}`] || 0]);
  const [action, p] = probs.reduce((a, b) => (b[1] > a[1] ? b : a));
  return { action, strength: Math.max(0.15, p), text: p.toFixed(2) };
}

function hexAlpha(hex, alpha) {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${n >> 16},${(n >> 8) & 255},${n & 255},${alpha.toFixed(2)})`;
}

function drawHeat() {
  const chosen = Object.fromEntries([...$("slices").querySelectorAll("select")].map((s) => [s.dataset.slice, s.value]));
  const kind = canned.kind;
  const classKey = kind === "chart" ? "hand_class" : "class", labelKey = kind === "chart" ? "label" : "hand";
  const rows = canned.records.filter((r) => Object.entries(chosen).every(([k, v]) => String(r[k]) === v));
  const positions = [...new Set(canned.records.map((r) => Number(r.position)))].sort((a, b) => a - b);
  const classes = [...new Map(canned.records.map((r) => [r[classKey], r[labelKey]])).entries()].sort((a, b) => a[0] - b[0]);
  const cells = new Map();
  for (const r of rows) {
    const key = `${r[classKey]}|${Number(r.position)}`;
    if (!cells.has(key)) cells.set(key, []);
    cells.get(key).push(r);
  }
  const legend = Object.entries(ACTION_COLORS).map(([a, c]) => `<span style="background:${c}">${a}</span>`).join("");
  let html = `<div class="legend hint">${legend} ${kind === "chart" ? "colour: best action; number: chips it beats the runner-up by (faint: not significant)" : "colour: most likely declaration; number: its probability"}</div>`;
  html += `<table class="heat" id="heat-table"><tr><th>hand class \\ position</th>${positions.map((p) => `<th>${p}</th>`).join("")}</tr>`;
  for (const [cls, label] of classes) {
    html += `<tr><th>${esc(label)}</th>`;
    for (const p of positions) {
      const found = cells.get(`${cls}|${p}`);
      if (!found) { html += `<td class="none"></td>`; continue; }
      const cell = kind === "chart" ? chartCell(found) : tableCell(found[0]);
      html += `<td data-key="${cls}|${p}" style="background:${hexAlpha(ACTION_COLORS[cell.action], cell.strength)}">${cell.text}</td>`;
    }
    html += "</tr>";
  }
  $("heat").innerHTML = html + "</table>";
  for (const td of $("heat").querySelectorAll("td[data-key]")) {
    td.addEventListener("mouseenter", () => showDetail(cells.get(td.dataset.key)));
  }
}

function showDetail(rows) {
  const first = rows[0];
  const head = `<b>${esc(first.label || first.hand)}</b>, position ${first.position}`;
  if (canned.kind === "chart") {
    const body = rows.map((r) => `<tr><td>${r.best ? "<b>" + r.action + "</b>" : r.action}</td><td>${r.n.toLocaleString("en")}</td>
      <td>${fmt(r.mean)} ± ${r.se.toFixed(2)}</td><td>${r.best ? "best" : fmt(r.diff_vs_best) + " ± " + r.diff_vs_best_se.toFixed(2)}</td></tr>`).join("");
    $("cell-detail").innerHTML = `${head}<table><tr><td>action</td><td>decisions</td><td>mean net chips ± SE</td><td>vs best (paired) ± SE</td></tr>${body}</table>`;
    return;
  }
  const body = ["pass", "play", "miss", "defend"].filter((a) => first[`ev_${a}`] !== null && first[`ev_${a}`] !== undefined)
    .map((a) => `<tr><td>${a}</td><td>${(first[`p_${a}`] || 0).toFixed(3)}</td><td>${fmt(first[`ev_${a}`])}</td></tr>`).join("");
  $("cell-detail").innerHTML = `${head}; options ${esc(first.options)}; ${esc(first.pot)}<br>
    ${first.decisions.toLocaleString("en")} decisions; reach ${first.reach.toExponential(2)}
    <table><tr><td>declaration</td><td>probability</td><td>expected chips</td></tr>${body}</table>`;
}

window.loadCanned = loadCanned;
