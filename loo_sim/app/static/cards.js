// loo-sim app: what the screens share: the server's JSON, the one error line, cards
// drawn with their suit symbols, an answer's bars with whiskers, background runs.
"use strict";

const SUITS = { S: "\u2660", H: "\u2665", C: "\u2663", D: "\u2666" };
const RED = new Set(["H", "D"]);
const RANKS = "AKQJT98765432";
const ACTION_COLORS = { play: "#2e8b57", pass: "#5b7db1", miss: "#d9822b", defend: "#8e5bb5" };

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const fmt = (x, digits = 2) => (x === null || x === undefined ? "-" : (x >= 0 ? "+" : "") + x.toFixed(digits));
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  let data;
  try {
    data = await response.json();
  } catch (e) {
    throw new Error(`the server answered ${response.status} without an answer`);
  }
  if (!response.ok || (data && data.error)) throw new Error((data && data.error) || `the server answered ${response.status}`);
  return data;
}

function showError(message) {
  const box = $("error");
  box.textContent = "error: " + String(message).split("\n")[0];
  box.hidden = false;
}

function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

function cardLabel(code) {
  const rank = code[0] === "T" ? "10" : code[0];
  return { rank, suit: SUITS[code[1]], red: RED.has(code[1]) };
}

function cardButton(code, extraClass = "") {
  const b = document.createElement("button");
  const { rank, suit, red } = cardLabel(code);
  b.className = `card ${red ? "red" : "black"} ${extraClass}`;
  b.dataset.card = code;
  b.innerHTML = `<span>${rank}</span><span class="s">${suit}</span>`;
  b.title = code;
  return b;
}

function cardText(code) {
  const { rank, suit, red } = cardLabel(code);
  return `<span style="color:${red ? "var(--red)" : "#111"}">${rank}${suit}</span>`;
}

// Every card, a row per suit (spades, hearts, clubs, diamonds: the colours alternate), ace first.
function drawDeck(container, onClick) {
  container.innerHTML = "";
  for (const suit of "SHCD") {
    for (const rank of RANKS) {
      const b = cardButton(rank + suit);
      b.addEventListener("click", () => onClick(rank + suit, b));
      container.appendChild(b);
    }
  }
}

function widestHalfWidth(actions) {
  return Math.max(0, ...actions.filter((a) => !a.best).map((a) => (a.diff_high - a.diff_low) / 2));
}

// Each action's net chips as a bar from 0, its 95% interval as whiskers, and the paired difference.
function barsHtml(actions, unit) {
  const lows = actions.map((a) => a.ci_low), highs = actions.map((a) => a.ci_high);
  let lo = Math.min(0, ...lows), hi = Math.max(0, ...highs);
  const pad = (hi - lo) * 0.05 || 1;
  lo -= pad; hi += pad;
  const x = (v) => (100 * (v - lo)) / (hi - lo);
  let html = `<div class="bars"><b>${unit}</b><b>net chips for the deal, 95% interval</b><b>vs best (paired)</b>`;
  for (const a of actions) {
    const color = ACTION_COLORS[a.action] || (RED.has(a.action[1]) ? "#c0172b" : "#333");
    const left = Math.min(x(0), x(a.ev)), width = Math.abs(x(a.ev) - x(0));
    const label = ACTION_COLORS[a.action] ? a.action : cardText(a.action);
    const diff = a.best ? "best" : `${fmt(a.diff_vs_best)} [${fmt(a.diff_low)}, ${fmt(a.diff_high)}]`;
    html += `<div class="action" data-action="${esc(a.action)}">${label}</div>
      <div class="bar-area" title="${esc(a.action)}: ${fmt(a.ev)} [${fmt(a.ci_low)}, ${fmt(a.ci_high)}]">
        <div class="zero" style="left:${x(0)}%"></div>
        <div class="bar" style="left:${left}%;width:${width}%;background:${color};opacity:.75"></div>
        <div class="whisker" style="left:${x(a.ci_low)}%;width:${Math.max(0.3, x(a.ci_high) - x(a.ci_low))}%"></div>
      </div>
      <div class="num">${fmt(a.ev)} [${fmt(a.ci_low)}, ${fmt(a.ci_high)}]<br>${diff}</div>`;
  }
  return html + "</div>";
}

function precisionText(answer) {
  const hw = widestHalfWidth(answer.actions);
  const how = answer.stopped === "precision"
    ? `precision reached: every paired half-width below ${answer.precision} chips (widest ${hw.toFixed(3)})`
    : answer.stopped === "cap" ? `the deal cap came first: widest paired half-width ${hw.toFixed(3)} chips, not below ${answer.precision}`
    : `stopped early: widest paired half-width ${hw.toFixed(3)} chips`;
  return `${answer.deals.toLocaleString("en")} deals kept of ${answer.drawn.toLocaleString("en")} drawn; ${how}; ${answer.seconds.toFixed(2)} s.`;
}

function commandHtml(answer) {
  return `<div class="meta">The same question on the command line:</div><div class="command" id="command">${esc(answer.command)}</div>`;
}

// Run a question in the background, with a progress bar of the kept deals, until its answer.
async function runJob(payload, target) {
  target.innerHTML = `<div class="meta" id="progress-text">starting ...</div><div class="progress"><div id="progress-bar"></div></div>`;
  const { id } = await api("/api/jobs", payload);
  for (;;) {
    await sleep(120);
    const job = await api(`/api/jobs/${id}`);
    if (job.status === "done") return job.answer;
    if (job.status === "error") throw new Error(job.error);
    const bar = $("progress-bar"), text = $("progress-text");
    if (bar && job.needed > 0) {
      bar.style.width = `${Math.min(100, (100 * job.kept) / job.needed)}%`;
      text.textContent = `${job.kept.toLocaleString("en")} deals kept of about ${job.needed.toLocaleString("en")} the precision needs ...`;
    } else if (text) {
      text.textContent = window.looReady ? "drawing deals ..." : "compiling the kernel (the first start only) ...";
    }
  }
}
