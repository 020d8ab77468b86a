"""The offline demo model: deterministic rules (rules.py) behind the ModelClient protocol (model.py).

Selected by `AGENT_MODEL_PROVIDER=offline` so the demo works without an API key; every reply says it is not
an LLM. Its user-facing strings live in locales/<locale>.json under `offline`.
"""
