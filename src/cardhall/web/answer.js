// An answer on its way. Where several seats answer at once, a state for another seat's
// answer can arrive before the player's own has landed: his buttons stay off meanwhile
// (no second send), and come back as soon as it has, even when the next step asks him
// the same word again (the deal's second 明牌 offer).

/** What to remember of the state an answer was sent on (null: nothing to wait for). */
export function pendingOf(st, action) {
  if (!st || !st.view || action.startsWith("auto ")) return null;
  return { seq: st.seq, game: st.game, last: st.view.last[st.seat], phase: st.view.phase,
    acting: [...st.view.acting] };
}

/**
 * Whether state `msg` still waits for the answer sent on `pending`: only other seats of
 * that window have answered since (the same phase, fewer seats acting and he among them),
 * his word is unchanged, and fewer states came than the others could answer with.
 */
export function stillWaiting(pending, msg) {
  if (!pending || !msg.view || msg.game !== pending.game || msg.seat < 0) return false;
  const acting = msg.view.acting;
  return msg.view.phase === pending.phase && acting.includes(msg.seat)
    && acting.length < pending.acting.length && acting.every((x) => pending.acting.includes(x))
    && msg.view.last[msg.seat] === pending.last && msg.seq < pending.seq + msg.players.length;
}
