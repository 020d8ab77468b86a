"""The nutrition domain (NUTRITION.md over spec 004): everything that is rules or stored data, no model call.

The state machine (`states`), envelopes and per-edge payload schemas (`envelope`, `payloads`, `names`),
SCIENTIST in code (`scientist`), red flags and the PHYSICIAN's effect on a run (`red_flags`, `physician`),
the checks between agents and the resolution protocol (`checks`, `resolution`), the weekly loop (`triggers`,
`reexecution`, `adjustment`, `checkin_rules`), a run's working memory (`plan`), and runs and check-ins as rows
(`models`, `runs`, `lifecycle`, `views`). `pipeline/` drives runs through the agents on top of it.
"""
