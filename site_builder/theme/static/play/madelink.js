// A board made on the solve page, carried by its link (solve.js "Play this board", read
// by play.js): the address #made-<id>&b=<packed> holds the board itself, so the link
// opens the same board in any browser, as a puzz.link URL does. <packed> is the JSON
// {url, board, answer, grade, clues}, deflated (raw) and written in base64url; <id> is a
// hash of the board's puzz.link URL (madeId), which the player checks against it. The hint
// trace is too long for an address: it stays in the browser that made the board.

// A short stable id for a board (its puzz.link URL hashed), so its progress is its own.
export function madeId(url) {
  let h = 5381;
  for (let i = 0; i < url.length; i++) h = ((h * 33) ^ url.charCodeAt(i)) >>> 0;
  return "made-" + h.toString(36);
}

/** @param {object} made @returns {Promise<string>} */
export async function pack(made) {
  const { url, board, answer, grade, clues } = /** @type {any} */ (made);
  const json = JSON.stringify({ url, board, answer, grade, clues });
  const stream = new Blob([json]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The made board a packed text holds, as the player plays it ({id, size, h, w, grade,
 * clues, url, board, answer}), or null when the text is not one (or not the board id).
 * @param {string} text @param {string} id
 */
export async function unpack(text, id) {
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
    const bin = Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    const stream = new Blob([bin]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    const m = JSON.parse(await new Response(stream).text());
    const b = m && m.board;
    const dim = (x) => Number.isInteger(x) && x > 0 && x <= 100;
    if (!b || typeof b !== "object" || !dim(b.h) || !dim(b.w) || typeof m.url !== "string"
        || madeId(m.url) !== id || !m.answer) return null;
    return { id, size: `${b.h}x${b.w}`, h: b.h, w: b.w, grade: m.grade ?? null,
      clues: m.clues ?? null, url: m.url, board: b, answer: m.answer };
  } catch {
    return null;
  }
}
