"""The member's trainer tools (TRAINER.md "Tools"): ten routers, 28 actions, role `member` only."""
