// The board list (site_builder/play.py board_list_files): one row per banked board, linked
// to the player, with the visitor's progress read from the play page's saved positions
// (localStorage "play:<slug>:<id>": solved, or marks made). It names no puzzle.
const cfg = JSON.parse(document.getElementById("boards-config").textContent);
const T = cfg.strings;
const fill = (tpl, p) => tpl.replace(/\{(\w+)\}/g, (m, k) => (k in p ? String(p[k]) : m));
const num = (n) => Number(n).toLocaleString(cfg.lang === "ja" ? "ja-JP" : "en-US");

function progress(id) {
  try {
    const rec = JSON.parse(localStorage.getItem(`play:${cfg.slug}:${id}`) || "null");
    return rec && rec.solved ? "solved" : rec && rec.m ? "started" : "fresh";
  } catch {
    return "fresh";
  }
}

const body = document.querySelector("#board-list tbody");
const count = { solved: 0, started: 0, fresh: 0 };
cfg.index.forEach((b, i) => {
  const tr = document.createElement("tr");
  const state = progress(b.id);
  count[state]++;
  tr.dataset.id = b.id;
  tr.dataset.progress = state;
  const cell = (text) => {
    const td = document.createElement("td");
    td.textContent = text;
    tr.append(td);
    return td;
  };
  const a = document.createElement("a");
  a.href = `${cfg.play}#${encodeURIComponent(b.id)}`;
  a.textContent = `${num(i + 1)}. ${b.id}`;
  const size = b.size || `${b.h}x${b.w}`;
  // on a phone the size and clue columns fold into this line under the board's link
  const sub = document.createElement("span");
  sub.className = "sub";
  sub.textContent = fill(T.sub, { size, clues: num(b.clues) });
  cell("").append(a, sub);
  cell(size).className = "wide";
  cell(b.difficulty ? (cfg.levelNames[b.difficulty] || b.difficulty) : "");
  const name = cfg.rungNames[b.grade] || b.grade;
  const words = (cfg.gradeWords || {})[b.grade];
  cell(words && words !== name ? fill(T.gradeName, { words, name }) : name);
  cell(num(b.clues)).className = "wide";
  const p = cell(state === "fresh" ? "" : cfg.marks[state]);
  p.className = "progress";
  p.title = T[state];
  p.setAttribute("aria-label", T[state]);
  body.append(tr);
});
document.getElementById("list-counts").textContent = fill(T.counts, {
  solved: num(count.solved), started: num(count.started), total: num(cfg.index.length) });
document.body.dataset.ready = "1";
