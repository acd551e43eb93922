// The secondary screens (login, register, profile, leaderboards, history, replay, rules)
// import themselves here; each calls registerScreen from ../app.js.
import "./account.js";
import "./profile.js";
import "./leaderboard.js";
import "./history.js";
import "./replay.js";
import "./rules.js";
