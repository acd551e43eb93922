// A complete cardhall bot in plain JavaScript (Node.js 20, no packages): docs/bots.md.
//
//   node --experimental-websocket minimal_bot.mjs URL TOKEN [ROOM] [GAMES]
//
// URL is the hall (http://host:port), TOKEN a bot account's token (POST /api/bots; or
// $CARDHALL_TOKEN when TOKEN is "-"), ROOM a room that takes bot accounts (by default
// the first /api/rooms lists with "bot_accounts": true), GAMES how many games to play
// before leaving (1). It plays a random legal action whenever its seat is to act.
// Exit status: 0 after its games, 1 when the hall refuses it (a bad token, a room
// that does not take bots) or closes the connection.

const [url, tokenArg, roomArg, gamesArg] = process.argv.slice(2);
if (!url || !tokenArg) {
  console.error("usage: minimal_bot.mjs URL TOKEN [ROOM] [GAMES]");
  process.exit(2);
}
const token = tokenArg === "-" ? process.env.CARDHALL_TOKEN : tokenArg;
const games = Number(gamesArg || 1);

// The rooms (HTTP): pick one that takes bot accounts.
const rooms = await (await fetch(`${url}/api/rooms`)).json();
const room = roomArg || rooms.find((r) => r.bot_accounts)?.id;
if (!room) {
  console.error("no room of this hall takes bot accounts");
  process.exit(1);
}

const ws = new WebSocket(url.replace(/^http/, "ws") + "/ws");
const send = (msg) => ws.send(JSON.stringify(msg));
let played = 0;
let lastSeq = {}; // table -> the last state's seq we acted on (act once per state)

// One decision: a random action of the seat's legal list. Where the list is not
// complete (a huge hand: "legal_complete": false, the plays are in the "plays"
// diagram, docs/contract.md) and holds nothing, let the hall's 托管 play this turn.
function choose(view) {
  const legal = view.legal || [];
  if (legal.length === 0) return "auto on";
  return legal[Math.floor(Math.random() * legal.length)];
}

ws.addEventListener("open", () => send({ type: "hello", token }));

ws.addEventListener("message", (event) => {
  const msg = JSON.parse(event.data);
  switch (msg.type) {
    case "welcome":
      console.log(`hello, ${msg.player.name} (bot: ${msg.player.bot}); joining ${room}`);
      if (msg.tables.length === 0) send({ type: "join", room });
      break;
    case "state": {
      const view = msg.view;
      if (msg.phase !== "playing" || !view.acting.includes(msg.seat)) break;
      if (lastSeq[msg.table] === msg.seq) break; // answered this state already
      lastSeq[msg.table] = msg.seq;
      send({ type: "act", table: msg.table, action: choose(view), seq: msg.seq });
      break;
    }
    case "settled":
      played += 1;
      console.log(`game ${msg.game} over: ${JSON.stringify(msg.result.points)}`);
      if (played >= games) {
        send({ type: "leave", table: msg.table });
        ws.close(1000);
      } else {
        send({ type: "next", table: msg.table });
      }
      break;
    case "left": // the table broke up (someone escaped, ...): find another
      if (played < games) send({ type: "join", room });
      break;
    case "error":
      console.error(`refused: ${msg.code}: ${msg.message}`);
      // A stale or out-of-turn act is answered by the newer state: nothing to do.
      if (["bad_token", "session_expired", "banned", "bots_not_allowed", "unknown_room",
           "not_enough_beans"].includes(msg.code)) {
        ws.close(1000);
        process.exitCode = 1;
      }
      break;
    default: // queued, chat, pong, ...: nothing a minimal bot needs
      break;
  }
});

ws.addEventListener("close", (event) => {
  if (played < games && process.exitCode === undefined) {
    console.error(`connection closed (${event.code} ${event.reason})`);
    process.exitCode = 1;
  }
});
