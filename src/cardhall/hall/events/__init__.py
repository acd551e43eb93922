"""Events (比赛场): tournaments played at tables the event seats, for event chips.

``standings`` is the formats' pure core (chips, ranking, knockouts, prizes), ``store``
keeps an event in the database (it survives a restart), ``runner`` drives the events a
process owns and paces their tables (docs/rulings.md, "Events").
"""
