// The secondary screens (login, register, profile, leaderboards, history, replay, rules,
// puzzles)
// import themselves here; each calls registerScreen from ../app.js.
import "./account.js";
import "./profile.js";
import "./leaderboard.js";
import "./history.js";
import "./replay.js";
import "./rules.js";
import "./puzzle.js";
import "./events.js";
import "./friends.js";
import "./ladder.js";
