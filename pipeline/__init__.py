"""The nutrition and training pipeline (issue 15, NUTRITION.md over spec 004).

Sits between `api` and `agent`: it may import agent/, tools/, rag/, gym/ and core/; nothing below
imports it. The protocol (states, envelopes, payload schemas, canonical names), the code agents
(INTAKE, SCIENTIST), the checks between agents and the weekly-loop rules are pure and live here.
"""
