// Shared helpers for the rule checkers: cell lists, groups, the Python sort order.
// Cells are [row, col] pairs; every list a checker returns is row-major sorted.

export function cellCmp(a, b) {
  return a[0] - b[0] || a[1] - b[1];
}

// Python compares tuples of tuples element by element; a prefix sorts first.
export function cellsCmp(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = cellCmp(a[i], b[i]);
    if (d) return d;
  }
  return a.length - b.length;
}

// Sort violations by (position of the rule in rules, cells), as violations() does.
export function sortViolations(list, rules) {
  const pos = new Map(rules.map((r, i) => [r, i]));
  for (const v of list) v.cells.sort(cellCmp);
  return list.sort((a, b) => pos.get(a.rule) - pos.get(b.rule) || cellsCmp(a.cells, b.cells));
}

export const DIRS = [[-1, 0], [1, 0], [0, -1], [0, 1]];

// The connect rule: when the marked cells (on[r][c] true) form more than one
// orthogonal group, one violation listing every marked cell outside the largest group
// (ties: the group holding the earliest cell in reading order counts as largest).
export function connectViolation(rule, on, h, w) {
  const seen = Array.from({ length: h }, () => new Array(w).fill(false));
  const groups = [];
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      if (!on[r][c] || seen[r][c]) continue;
      const group = [];
      const stack = [[r, c]];
      seen[r][c] = true;
      while (stack.length) {
        const [y, x] = stack.pop();
        group.push([y, x]);
        for (const [dy, dx] of DIRS) {
          const ny = y + dy, nx = x + dx;
          if (ny >= 0 && ny < h && nx >= 0 && nx < w && on[ny][nx] && !seen[ny][nx]) {
            seen[ny][nx] = true;
            stack.push([ny, nx]);
          }
        }
      }
      groups.push(group); // groups are found in reading order of their first cell
    }
  }
  if (groups.length <= 1) return null;
  let best = 0;
  for (let i = 1; i < groups.length; i++) if (groups[i].length > groups[best].length) best = i;
  const cells = [];
  groups.forEach((g, i) => { if (i !== best) cells.push(...g); });
  cells.sort(cellCmp);
  return { rule, cells, pieces: groups.length };
}
