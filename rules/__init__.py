"""Campaign Ledger rules engine: pure Python, no Django.

Every procedure takes plain inputs and a dice source and returns a result that carries an
`Explanation` (the rule references, look-ups, modifiers and rolls that produced it).
"""
