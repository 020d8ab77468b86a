"""The closed vocabularies a library exercise is tagged with (TRAINER.md "Library-only prescriptions and structured
constraints"): movement patterns, body regions and sides. The library (gym/exercise_library.py) tags with them and
the trainer's injuries and "never" rules (gym/training/constraints.py) exclude by them."""

from __future__ import annotations

from typing import Literal, get_args

# Movement patterns (TRAINER.md "Library-only prescriptions and structured constraints"): the one vocabulary every
# library exercise is tagged with (gym/exercise_library.py PATTERN_TAGS) and an injury or a "never" rule excludes by.
MovementPattern = Literal["overhead_press", "shoulder_flexion_loaded_above_90", "overhead_hold", "horizontal_push",
                          "vertical_pull", "horizontal_pull", "hanging", "dip", "squat", "hinge", "lunge", "single_leg",
                          "deep_knee_flexion", "jump", "burpee_family", "running", "carry", "rotation",
                          "spinal_loading", "spinal_flexion_loaded", "wrist_extension"]
MOVEMENT_PATTERNS: dict[str, str] = {
    "overhead_press": "pressing a load or the body overhead (strict, push, behind-the-neck, Viking, Bradford, "
                      "landmine and bottoms-up presses, jerks, thrusters, wall balls, handstand push-ups)",
    "shoulder_flexion_loaded_above_90": "the arm raised above shoulder height against a load pushing it down "
                                        "(presses, overhead holds and carries, snatches, front raises to eye level)",
    "overhead_hold": "holding, catching or carrying a load or the body overhead (snatch, overhead squat, "
                     "handstand, overhead carry, Turkish get-up)",
    "horizontal_push": "pushing a load away from the chest (bench press, push-up, chest press, dips excluded)",
    "vertical_pull": "pulling the body up or a load down from overhead (pull-up, chin-up, lat pulldown)",
    "horizontal_pull": "pulling a load towards the torso (rows, face pulls, band pull-aparts)",
    "hanging": "hanging from a bar, rings or a rope (pull-up, toes-to-bar, muscle-up)",
    "dip": "dipping on bars, rings or a bench",
    "squat": "squatting: both feet planted, hips and knees bend together (back, front, goblet squats, leg press)",
    "hinge": "hinging at the hips under load (deadlifts, swings, good mornings, bent-over rows, cleans)",
    "lunge": "lunges and split squats: one foot forward or back, the rear knee towards the floor (walking, "
             "reverse, lateral lunges, Bulgarian split squat, step-ups)",
    "single_leg": "one leg carries the load (lunges, split squats, step-ups, pistols, single-leg deadlifts)",
    "deep_knee_flexion": "the knee bending past 90° under load (squats, lunges, pistols, leg press)",
    "jump": "jumps, hops and skipping: the feet leave the ground and land (box jump, jump squat, double-under)",
    "burpee_family": "burpees and their kin: dropping to the floor and getting up again quickly (burpee, sprawl, "
                     "squat thrust, devil press, man maker)",
    "running": "running and sprinting",
    "carry": "walking with a load (farmer's, suitcase, overhead and front-rack carries, sled work)",
    "rotation": "twisting or resisting a twist of the trunk under load (Russian twist, Pallof press, woodchop)",
    "spinal_loading": "load on the spine (barbell squats, deadlifts, Olympic lifts, standing barbell presses, "
                      "carries)",
    "spinal_flexion_loaded": "bending the spine forward under load or at speed (sit-ups, crunches, toes-to-bar, "
                             "V-ups, GHD sit-ups)",
    "wrist_extension": "body weight on extended wrists (push-ups, handstands, bear crawls, burpees)",
}
assert tuple(MOVEMENT_PATTERNS) == get_args(MovementPattern), "one vocabulary: the Literal and its descriptions"
# Earlier names of three patterns, as stored rules and older callers may still say them.
LEGACY_PATTERNS: dict[str, str] = {"jumping": "jump", "burpee": "burpee_family", "hip_hinge": "hinge"}

# Body regions and sides (an injury's place): closed vocabularies an exercise is tagged with and an injury names.
BodyRegion = Literal["neck", "shoulder", "elbow", "wrist", "chest", "upper_back", "lower_back", "hip", "knee",
                     "ankle"]
BODY_REGIONS: tuple[str, ...] = get_args(BodyRegion)
Side = Literal["left", "right", "both"]
SIDES: tuple[str, ...] = get_args(Side)
