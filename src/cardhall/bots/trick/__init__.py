"""The bots of the trick-taking game 找朋友: 托管's policy (``tuoguan``) and the planning
bot's (``plan``), which reads what a seat knows (``view``) and the odds that a seat
still to play beats the trick (``odds``)."""
