// The solve page's board editor. It names no puzzle: what a cell may hold comes from the
// puzzle's EDIT spec (solvers/<pkg>/construct.py, in the page's config as cfg.edit):
//   field     the board JSON key with one entry per cell (rows of entries)
//   blank     {key: value}: an empty board's entries, per key (e.g. clues null, regions 0)
//   numbers   [lowest, highest or null] the numbers a cell may hold, or null for none
//   question  whether "?" (a clue whose value is hidden) may be placed
//   tokens    for token boards: {circle, number ("o{n}"), up, down, left, right,
//             question, empty} the tokens written for each thing, or null
//   regions   the board JSON key of a region map whose borders are drawn by dragging
//             along the grid lines (regions are what the borders close off), or null
// The editor keeps the board JSON; every change is one undo step and calls onChange.

const NS = "http://www.w3.org/2000/svg";
const S = 32; // units per cell

export class Editor {
  constructor(root, spec, strings, onChange) {
    this.root = root;
    this.spec = spec;
    this.T = strings;
    this.onChange = onChange;
    this.board = null;
    this.edges = new Set(); // region borders "r,c,R,C" (R,C the right or lower cell)
    this.past = [];
    this.future = [];
    this.cur = [0, 0];
    this.typed = { at: "", text: "", time: 0 };
    this.bordersMode = false;
    /** @type {((key: string) => void) | null} */
    this.onReject = null;   // set by the page: see reject()
    this.svg = document.createElementNS(NS, "svg");
    this.svg.setAttribute("class", "edit-board");
    this.svg.setAttribute("tabindex", "0");
    this.svg.setAttribute("role", "grid");
    this.svg.setAttribute("aria-label", strings.editLabel);
    root.append(this.svg);
    this.svg.addEventListener("pointerdown", (e) => this.down(e));
    this.svg.addEventListener("pointermove", (e) => this.move(e));
    window.addEventListener("pointerup", () => this.up());
    this.svg.addEventListener("keydown", (e) => this.key(e));
  }

  // ---- the board --------------------------------------------------------------------
  blank(h, w) {
    const b = { h, w };
    for (const [k, v] of Object.entries(this.spec.blank)) {
      b[k] = Array.from({ length: h }, () => Array(w).fill(v));
    }
    return b;
  }

  load(board, { keepHistory = false } = {}) {
    if (this.board && JSON.stringify(board) === JSON.stringify(this.board)) return;
    if (keepHistory && this.board) this.past.push(this.snapshot());
    this.board = JSON.parse(JSON.stringify(board));
    this.edgesFromRegions();
    if (!keepHistory) { this.past = []; this.future = []; }
    this.cur = [Math.min(this.cur[0], board.h - 1), Math.min(this.cur[1], board.w - 1)];
    this.draw();
  }

  snapshot() { return JSON.stringify({ board: this.board, edges: [...this.edges] }); }

  restore(snap) {
    const s = JSON.parse(snap);
    this.board = s.board;
    this.edges = new Set(s.edges);
    this.draw();
    this.onChange(this.board);
  }

  commit(mutate) {
    const before = this.snapshot();
    mutate();
    if (this.snapshot() === before) return;
    this.past.push(before);
    this.future = [];
    this.draw();
    this.onChange(this.board);
  }

  undo() { if (this.past.length) { this.future.push(this.snapshot()); this.restore(this.past.pop()); } }
  redo() { if (this.future.length) { this.past.push(this.snapshot()); this.restore(this.future.pop()); } }

  get(r, c) { return this.board[this.spec.field][r][c]; }
  set(r, c, v) { this.board[this.spec.field][r][c] = v; }

  // ---- regions from borders -------------------------------------------------------------
  edgesFromRegions() {
    this.edges = new Set();
    const key = this.spec.regions;
    if (!key) return;
    const g = this.board[key];
    const { h, w } = this.board;
    for (let r = 0; r < h; r++) {
      for (let c = 0; c < w; c++) {
        if (c + 1 < w && g[r][c] !== g[r][c + 1]) this.edges.add(`${r},${c},${r},${c + 1}`);
        if (r + 1 < h && g[r][c] !== g[r + 1][c]) this.edges.add(`${r},${c},${r + 1},${c}`);
      }
    }
  }

  regionsFromEdges() {
    const { h, w } = this.board;
    const id = Array.from({ length: h }, () => Array(w).fill(-1));
    let next = 0;
    for (let r = 0; r < h; r++) {
      for (let c = 0; c < w; c++) {
        if (id[r][c] >= 0) continue;
        const stack = [[r, c]];
        id[r][c] = next;
        while (stack.length) {
          const [y, x] = stack.pop();
          for (const [dy, dx] of [[0, 1], [1, 0], [0, -1], [-1, 0]]) {
            const Y = y + dy, X = x + dx;
            if (Y < 0 || X < 0 || Y >= h || X >= w || id[Y][X] >= 0) continue;
            const k = dy + dx > 0 ? `${y},${x},${Y},${X}` : `${Y},${X},${y},${x}`;
            if (this.edges.has(k)) continue;
            id[Y][X] = next;
            stack.push([Y, X]);
          }
        }
        next++;
      }
    }
    this.board[this.spec.regions] = id;
  }

  // ---- input ----------------------------------------------------------------------------
  cellAt(e) {
    const box = this.svg.getBoundingClientRect();
    const vb = this.svg.viewBox.baseVal;
    const x = ((e.clientX - box.left) / box.width) * vb.width - 1;
    const y = ((e.clientY - box.top) / box.height) * vb.height - 1;
    const r = Math.floor(y / S), c = Math.floor(x / S);
    if (r < 0 || c < 0 || r >= this.board.h || c >= this.board.w) return null;
    return [r, c];
  }

  // The grid point nearest the pointer, [row, col] of vertices (borders are drawn along
  // grid lines, from point to neighbouring point).
  /** @returns {[number, number]} */
  pointAt(e) {
    const box = this.svg.getBoundingClientRect();
    const vb = this.svg.viewBox.baseVal;
    const x = ((e.clientX - box.left) / box.width) * vb.width - 1;
    const y = ((e.clientY - box.top) / box.height) * vb.height - 1;
    return [Math.round(y / S), Math.round(x / S)];
  }

  // The border between two neighbouring grid points, as the key of the two cells it
  // separates (null on the frame).
  segment([r, c], [R, C]) {
    const { h, w } = this.board;
    if (r === R && Math.abs(c - C) === 1) {        // horizontal: cells above and below
      const x = Math.min(c, C);
      if (r <= 0 || r >= h || x < 0 || x >= w) return null;
      return `${r - 1},${x},${r},${x}`;
    }
    if (c === C && Math.abs(r - R) === 1) {        // vertical: cells left and right
      const y = Math.min(r, R);
      if (c <= 0 || c >= w || y < 0 || y >= h) return null;
      return `${y},${c - 1},${y},${c}`;
    }
    return null;
  }

  down(e) {
    if (!this.board) return;
    this.svg.focus();
    if (this.bordersMode && this.spec.regions) {
      e.preventDefault();
      this.drag = { last: this.pointAt(e), value: null, before: this.snapshot() };
      return;
    }
    const at = this.cellAt(e);
    if (!at) return;
    this.cur = at;
    this.typed = { at: "", text: "", time: 0 };
    this.draw();
  }

  move(e) {
    if (!this.drag) return;
    const at = this.pointAt(e);
    const [r, c] = this.drag.last;
    if (at[0] === r && at[1] === c) return;
    const k = this.segment(this.drag.last, at);
    this.drag.last = at;
    if (k === null) return;
    if (this.drag.value === null) this.drag.value = !this.edges.has(k);
    if (this.drag.value) this.edges.add(k); else this.edges.delete(k);
    this.draw();
  }

  up() {
    if (!this.drag) return;
    const before = this.drag.before;
    this.drag = null;
    this.regionsFromEdges();
    if (this.snapshot() === before) return;
    this.past.push(before);
    this.future = [];
    this.draw();
    this.onChange(this.board);
  }

  // What typing `text` in the current cell writes (null: nothing to write).
  value(text) {
    const sp = this.spec;
    if (text === "?") return sp.question ? (sp.tokens ? sp.tokens.question : "?") : null;
    if (sp.tokens) {
      const t = sp.tokens;
      const named = { o: t.circle, O: t.circle, "^": t.up, v: t.down, V: t.down, "<": t.left,
        ">": t.right, ArrowUp: t.up, ArrowDown: t.down, ArrowLeft: t.left, ArrowRight: t.right };
      if (text in named) return named[text];
      if (/^\d+$/.test(text) && t.number) {
        const n = parseInt(text, 10);
        return n > 0 ? t.number.replace("{n}", String(n)) : t.circle;
      }
      return null;
    }
    if (!/^\d+$/.test(text) || !sp.numbers) return null;
    const n = parseInt(text, 10);
    const [lo, hi] = sp.numbers;
    if (n < lo || (hi !== null && n > hi)) return null;
    return n;
  }

  put(text) {
    const [r, c] = this.cur;
    const v = this.value(text);
    if (v === null) return false;
    this.commit(() => this.set(r, c, v));
    return true;
  }

  erase() {
    const [r, c] = this.cur;
    const empty = this.spec.tokens ? this.spec.tokens.empty : null;
    this.commit(() => this.set(r, c, empty));
  }

  // A digit typed soon after another in the same cell extends the number (1 then 2: 12).
  digit(d) {
    const at = this.cur.join(",");
    const now = performance.now();
    let text = d;
    if (this.typed.at === at && now - this.typed.time < 900) text = this.typed.text + d;
    this.typed = { at, text, time: now };
    if (!this.put(text)) {
      this.typed.text = d;
      if (!this.put(d)) this.reject(d);
    }
  }

  // A key the puzzle's cells cannot take: the page says why (onReject, set by the page).
  reject(key) {
    if (this.onReject) this.onReject(key);
  }

  key(e) {
    if (!this.board) return;
    const k = e.key;
    const [r, c] = this.cur;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if ((e.ctrlKey || e.metaKey) && (k === "z" || k === "Z")) {
      e.preventDefault();
      if (e.shiftKey) this.redo(); else this.undo();
      return;
    }
    if ((e.ctrlKey || e.metaKey) && (k === "y" || k === "Y")) { e.preventDefault(); this.redo(); return; }
    if (k in moves && e.shiftKey && this.spec.tokens) { e.preventDefault(); this.put(k); return; }
    if (k in moves) {
      e.preventDefault();
      const [dr, dc] = moves[k];
      this.cur = [Math.max(0, Math.min(this.board.h - 1, r + dr)),
        Math.max(0, Math.min(this.board.w - 1, c + dc))];
      this.typed = { at: "", text: "", time: 0 };
      this.draw();
      return;
    }
    if (/^\d$/.test(k)) { e.preventDefault(); this.digit(k); return; }
    if (k === "Backspace" || k === "Delete" || k === " " || k === ".") {
      e.preventDefault();
      this.erase();
      return;
    }
    if (k.length === 1 && this.put(k)) e.preventDefault();
    else if (k.length === 1 && /\S/.test(k) && !e.ctrlKey && !e.metaKey && !e.altKey) this.reject(k);
  }

  // ---- drawing ----------------------------------------------------------------------------
  label(v) {
    const t = this.spec.tokens;
    if (v === null || v === undefined) return null;
    if (!t) return { text: String(v) };
    if (v === t.empty) return null;
    const arrows = { [t.up]: "↑", [t.down]: "↓", [t.left]: "←", [t.right]: "→" };
    if (v in arrows) return { text: arrows[v] };
    if (v === t.question) return { text: "?" };
    if (typeof v === "string" && v.startsWith(t.circle)) {
      return { circle: true, text: v.slice(t.circle.length) };
    }
    return { text: String(v) };
  }

  draw() {
    const b = this.board;
    if (!b) return;
    const { h, w } = b;
    const W = w * S + 2, H = h * S + 2;
    this.svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    this.svg.setAttribute("width", String(Math.min(W, 640)));
    const parts = [`<rect x="1" y="1" width="${w * S}" height="${h * S}" class="edit-bg"/>`];
    const [cr, cc] = this.cur;
    parts.push(`<rect x="${1 + cc * S}" y="${1 + cr * S}" width="${S}" height="${S}" class="edit-cursor"/>`);
    for (let r = 0; r < h; r++) {
      for (let c = 0; c < w; c++) {
        const l = this.label(this.get(r, c));
        if (!l) continue;
        const x = 1 + c * S + S / 2, y = 1 + r * S + S / 2;
        if (l.circle) parts.push(`<circle cx="${x}" cy="${y}" r="${S * 0.4}" class="edit-circle"/>`);
        if (l.text) {
          const size = l.text.length > 1 ? S * 0.42 : S * 0.55;
          parts.push(`<text x="${x}" y="${y + S * 0.17}" font-size="${size}" text-anchor="middle" class="edit-clue">${l.text}</text>`);
        }
      }
    }
    for (let i = 0; i <= h; i++) {
      parts.push(`<line x1="1" y1="${1 + i * S}" x2="${1 + w * S}" y2="${1 + i * S}" class="${i === 0 || i === h ? "edit-frame" : "edit-grid"}"/>`);
    }
    for (let j = 0; j <= w; j++) {
      parts.push(`<line x1="${1 + j * S}" y1="1" x2="${1 + j * S}" y2="${1 + h * S}" class="${j === 0 || j === w ? "edit-frame" : "edit-grid"}"/>`);
    }
    for (const k of this.edges) {
      const [r, c, R, C] = k.split(",").map(Number);
      if (R === r) parts.push(`<line x1="${1 + C * S}" y1="${1 + r * S}" x2="${1 + C * S}" y2="${1 + (r + 1) * S}" class="edit-border"/>`);
      else parts.push(`<line x1="${1 + c * S}" y1="${1 + R * S}" x2="${1 + (c + 1) * S}" y2="${1 + R * S}" class="edit-border"/>`);
    }
    this.svg.innerHTML = parts.join("");
    this.svg.setAttribute("aria-label", this.T.editLabel + " " +
      this.T.editAt.replace("{r}", cr + 1).replace("{c}", cc + 1));
    this.svg.dataset.cursor = `${cr},${cc}`;
  }
}
