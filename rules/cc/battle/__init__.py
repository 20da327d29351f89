"""Combat Commander inside a battle: the state kept between actions and the procedures.

Each procedure is a pure function: plain inputs (values read off the counters, taken from
the battle's counter table, or typed) and a dice source in; a result with its explanation
(rule ids, modifiers, look-ups, rolls) and the exact odds out. `state` holds what the
players track; the procedures never read the map: players say what is on it.
"""
