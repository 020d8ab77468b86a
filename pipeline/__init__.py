"""The nutrition pipeline's moving parts (NUTRITION.md over spec 004): the driver that calls the agents, the
model-backed and offline agents, the health-question flow that asks PHYSICIAN, the worker and its job queue.

Sits between `api` and `agent`: it may import agent/, tools/, rag/, gym/ and core/; nothing below imports it.
The domain it drives (states, envelopes, SCIENTIST, checks, runs, check-ins) lives in `gym.nutrition`.
"""
