// The secondary screens (login, register, profile, leaderboards, history, replay, rules)
// import themselves here; each calls registerScreen from ../app.js.
