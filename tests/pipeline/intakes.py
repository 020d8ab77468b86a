"""Valid intakes drawn at random (seeded): sexes, ages 16-80, 40-200 kg at a plausible height (BMI 18.5-55, so no
red flag pauses the run), every goal and training phase; allergies and diet patterns drawn from the everyday
phrasings members write in English, Hebrew and Russian (tests/safety/allergy_phrasings.py: "nut allergy",
"רגישות ללקטוז", "аллергия на орехи", "I keep kosher", ...), aversions from what members write; the property tests of
the offline plans run over them."""

from __future__ import annotations

import math
import random
from typing import Any

from tests.safety.allergy_phrasings import ALLERGIES as PHRASED
from tests.safety.allergy_phrasings import DIETS as DIET_WORDS

# Every phrasing once, in a fixed order, so a seed draws the same intakes.
ALLERGIES = ("", *(text for lang in ("en", "he", "ru") for text, _ in PHRASED[lang]))
DIETS = tuple(text for lang in ("en", "he", "ru") for text, _ in DIET_WORDS[lang])
AVERSIONS = ("salmon", "eggs", "broccoli", "tofu", "chicken", "meat", "fish", "spinach", "cabbage", "banana",
             "lentils", "avocado", "peanut_butter", "nut_butters", "Greek yogurt", "rice", "quinoa", "tuna")


def intake(rng: random.Random) -> dict[str, Any]:
    sex = rng.choice(("female", "male"))
    weight = round(rng.uniform(40, 200), 1)
    bmi = rng.uniform(18.5, min(55.0, 18.5 + weight / 3))
    height = round(min(205.0, max(142.0, math.sqrt(weight / bmi) * 100)), 1)
    goal = rng.choice(("gain", "loss", "maintain"))
    target = {"gain": weight + rng.uniform(1, 12), "loss": weight - rng.uniform(1, min(60, weight - 40) + 1),
              "maintain": weight + rng.uniform(-0.9, 0.9)}[goal]
    return {
        "sex": sex, "age": rng.randint(16, 80), "height_cm": height, "current_weight_kg": weight,
        "target_weight_kg": round(max(38.0, target), 1), "training_phase": rng.choice(("pre_training", "active_training")),
        "estimated_daily_intake_kcal": rng.randint(1200, 3500), "avg_daily_steps": rng.randint(1500, 16000),
        "menstrual_status": rng.choice(("regular", "irregular")) if sex == "female" else None,
        "training_experience": rng.choice(("none", "beginner", "intermediate")),
        "food_aversions": rng.sample(AVERSIONS, rng.randint(0, 3)),
        "allergies": [a for a in rng.sample(ALLERGIES, rng.choice((1, 1, 2))) if a],
        "diet_pattern": rng.choice(DIETS),
        "appetite_level": rng.choice(("low", "normal", "high")), "cooking_skill": rng.choice(("basic", "intermediate",
                                                                                                "advanced")),
        "partner_cooks": rng.random() < 0.3,
        "equipment_access": rng.choice(("home_minimal", "home_full", "commercial_gym", "both")),
        "gym_anxiety_level": rng.choice(("high", "moderate", "low")),
        "medical_history": {"medications": [], "conditions": [], "injuries": []},
    }


def intakes(count: int, seed: int = 25) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [intake(rng) for _ in range(count)]
