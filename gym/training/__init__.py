"""The member's training record (TRAINER.md): profile, settings, locations, goals, preferences, exercise
logs, trainer workouts, schedule, plans and milestones, and every rule computed over them in code."""
