"""The library's tags from closed vocabularies (TRAINER.md "Library-only prescriptions and structured constraints"):
movement patterns, the body regions an exercise loads, and its side. Injuries and "never" rules are checked on
these tags, never on names.

Patterns are listed by hand, pattern → the library exercises that have it. Regions follow from the patterns and the
muscles (a pattern loads its joints, a muscle its region), so they stay consistent with the two tags they come from;
an exercise is unilateral when it works one side at a time.
"""

from __future__ import annotations

from gym.library_entry import split

_OLYMPIC_SQUAT = "Snatch|Clean|Hang Snatch|Hang Clean|Clean and Jerk|Cluster|Snatch Balance"
_BARBELL_PULLS = ("Power Snatch|Hang Power Snatch|Muscle Snatch|Snatch Pull|Snatch Deadlift|Power Clean|"
                  "Hang Power Clean|Clean Pull|Sumo Deadlift High Pull|Ground to Overhead")
_JERKS = "Push Jerk|Split Jerk|Power Jerk|Shoulder to Overhead"
_BURPEES = "Burpee|Burpee Over the Bar|Burpee Box Jump Over|Burpee Pull-up|Burpee Broad Jump"
_OVERHEAD_PRESS = ("Thruster|Dumbbell Thruster|Wall Ball Shot|Strict Press|Push Press|Dumbbell Shoulder Press|"
                   "Single-Arm Dumbbell Press|Behind the Neck Press|Viking Press|Bradford Press|Kettlebell Press|"
                   "Bottoms-up Kettlebell Press|Machine Shoulder Press|Dumbbell Push Press|Arnold Press|Z Press|"
                   "Landmine Press|Clean and Jerk|Cluster|Dumbbell Clean and Jerk|Ground to Overhead|"
                   "Handstand Push-up|Strict Handstand Push-up|Deficit Handstand Push-up|Pike Push-up|Man Maker|"
                   f"{_JERKS}")
_OVERHEAD_HOLD = ("Overhead Squat|Overhead Walking Lunge|Snatch|Power Snatch|Hang Snatch|Hang Power Snatch|"
                  "Muscle Snatch|Snatch Balance|Dumbbell Snatch|Kettlebell Snatch|American Kettlebell Swing|"
                  "Overhead Carry|Turkish Get-up|Handstand Walk|Handstand Hold|Wall Walk|Thruster|Dumbbell Thruster|"
                  "Wall Ball Shot|Clean and Jerk|Cluster|Dumbbell Clean and Jerk|Ground to Overhead|Devil Press|"
                  f"Man Maker|{_JERKS}")
_LUNGES = ("Lunge|Reverse Lunge|Walking Lunge|Overhead Walking Lunge|Dumbbell Walking Lunge|Front Rack Lunge|"
           "Bulgarian Split Squat|Step-Up|Cossack Squat|Lateral Lunge|Jumping Lunge")
_TAGS: dict[str, str] = {
    "overhead_press": _OVERHEAD_PRESS,
    "shoulder_flexion_loaded_above_90": f"{_OVERHEAD_PRESS}|{_OVERHEAD_HOLD}|Medicine Ball Slam",
    "overhead_hold": _OVERHEAD_HOLD,
    "horizontal_push": "Bench Press|Incline Bench Press|Dumbbell Bench Press|Close-Grip Bench Press|Floor Press|"
                       "Dumbbell Floor Press|Incline Dumbbell Press|Decline Bench Press|Machine Chest Press|Push-up|"
                       f"Hand-Release Push-up|Diamond Push-up|Band Chest Press|{_BURPEES}|Man Maker|Devil Press",
    "vertical_pull": "Pull-up|Strict Pull-up|Chest-to-Bar Pull-up|Butterfly Pull-up|Jumping Pull-up|Chin-up|"
                     "Lat Pulldown|Assisted Pull-up|Muscle-up|Bar Muscle-up|Strict Muscle-up|Rope Climb|"
                     "Legless Rope Climb|Burpee Pull-up",
    "horizontal_pull": "Ring Row|Bent-Over Row|Pendlay Row|Dumbbell Row|Seated Cable Row|Face Pull|Band Face Pull|"
                       "Chest-Supported Row|T-Bar Row|Machine Row|Band Row|Rear Delt Fly|Band Pull-Apart|Row|"
                       "Man Maker",
    "hanging": "Pull-up|Strict Pull-up|Chest-to-Bar Pull-up|Butterfly Pull-up|Jumping Pull-up|Chin-up|Muscle-up|"
               "Bar Muscle-up|Strict Muscle-up|Toes-to-Bar|Knees-to-Elbow|Hanging Knee Raise|Hanging Leg Raise|"
               "Rope Climb|Legless Rope Climb|Skin the Cat|Kipping Swing|Burpee Pull-up",
    "dip": "Dip|Ring Dip|Bench Dip|Muscle-up|Bar Muscle-up|Strict Muscle-up|Ring Support Hold",
    "squat": "Back Squat|Front Squat|Overhead Squat|Air Squat|Goblet Squat|Box Squat|Pause Squat|Zercher Squat|"
             "Pistol|Thruster|Dumbbell Thruster|Wall Ball Shot|Dumbbell Front Squat|Wall Sit|Sumo Squat|Hack Squat|"
             f"Smith Machine Squat|Leg Press|Jump Squat|Deep Squat Hold|{_OLYMPIC_SQUAT}",
    "hinge": "Deadlift|Sumo Deadlift|Romanian Deadlift|Dumbbell Romanian Deadlift|Stiff-Legged Deadlift|"
             "Trap Bar Deadlift|Deficit Deadlift|Rack Pull|Dumbbell Deadlift|Kettlebell Deadlift|"
             "Single-Leg Romanian Deadlift|Kettlebell Swing|American Kettlebell Swing|Good Morning|Back Extension|"
             "GHD Hip Extension|Bent-Over Row|Pendlay Row|T-Bar Row|Kettlebell High Pull|Dumbbell Snatch|"
             "Dumbbell Clean|Dumbbell Hang Clean|Kettlebell Snatch|Kettlebell Clean|Sandbag Over Shoulder|"
             f"Atlas Stone|Devil Press|Man Maker|{_OLYMPIC_SQUAT}|{_BARBELL_PULLS}",
    "lunge": _LUNGES,
    "single_leg": f"{_LUNGES}|Pistol|Single-Leg Romanian Deadlift|Skater Jump",
    "deep_knee_flexion": "Back Squat|Front Squat|Overhead Squat|Air Squat|Goblet Squat|Box Squat|Pause Squat|"
                         "Zercher Squat|Pistol|Thruster|Dumbbell Thruster|Wall Ball Shot|Dumbbell Front Squat|"
                         "Sumo Squat|Hack Squat|Smith Machine Squat|Lunge|Reverse Lunge|Walking Lunge|"
                         "Overhead Walking Lunge|Dumbbell Walking Lunge|Front Rack Lunge|Bulgarian Split Squat|"
                         f"Cossack Squat|Lateral Lunge|Jumping Lunge|Deep Squat Hold|Leg Press|{_OLYMPIC_SQUAT}",
    "jump": "Box Jump|Box Jump Over|Broad Jump|Tuck Jump|Jump Squat|Jumping Lunge|Jumping Jack|Lateral Hop|"
            "Depth Jump|Pogo Hop|Skater Jump|Double-Under|Single-Under|Triple-Under|Jumping Pull-up|Sprawl|"
            f"Squat Thrust|Devil Press|Man Maker|{_BURPEES}",
    "burpee_family": f"{_BURPEES}|Sprawl|Squat Thrust|Devil Press|Man Maker",
    "running": "Run|Sprint|Shuttle Run|Treadmill Run|High Knees",
    "carry": "Farmer's Carry|Suitcase Carry|Overhead Carry|Trap Bar Carry|Front Rack Carry|Sandbag Carry|Yoke Carry|"
             "Sled Push|Sled Pull",
    "rotation": "Russian Twist|Pallof Press|Woodchop",
    "spinal_loading": "Back Squat|Front Squat|Overhead Squat|Box Squat|Pause Squat|Zercher Squat|Thruster|Hack Squat|"
                      "Smith Machine Squat|Front Rack Lunge|Overhead Walking Lunge|Deadlift|Sumo Deadlift|"
                      "Romanian Deadlift|Stiff-Legged Deadlift|Trap Bar Deadlift|Deficit Deadlift|Rack Pull|"
                      "Good Morning|Bent-Over Row|Pendlay Row|T-Bar Row|Strict Press|Push Press|Z Press|"
                      "Behind the Neck Press|Bradford Press|Viking Press|Farmer's Carry|Suitcase Carry|Overhead Carry|"
                      "Trap Bar Carry|Front Rack Carry|Sandbag Carry|Yoke Carry|Sandbag Over Shoulder|Atlas Stone|"
                      f"Shrug|{_OLYMPIC_SQUAT}|{_BARBELL_PULLS}|{_JERKS}",
    "spinal_flexion_loaded": "Sit-up|GHD Sit-up|V-up|Crunch|Toes-to-Bar|Knees-to-Elbow|Hanging Knee Raise|"
                             "Hanging Leg Raise|Leg Raise|Hollow Rock|Russian Twist|Medicine Ball Slam",
    "wrist_extension": "Push-up|Hand-Release Push-up|Diamond Push-up|Handstand Push-up|Strict Handstand Push-up|"
                       "Deficit Handstand Push-up|Pike Push-up|Handstand Walk|Handstand Hold|Wall Walk|"
                       f"Mountain Climber|Bear Crawl|{_BURPEES}|Sprawl|Squat Thrust|Devil Press|Man Maker|Inchworm|"
                       "Downward Dog|Bench Dip",
}
PATTERN_TAGS: dict[str, tuple[str, ...]] = {pattern: tuple(dict.fromkeys(split(names)))
                                            for pattern, names in _TAGS.items()}

# What each pattern loads, and each library muscle: the regions an exercise is tagged with.
PATTERN_REGIONS: dict[str, tuple[str, ...]] = {
    "overhead_press": ("shoulder", "elbow"), "shoulder_flexion_loaded_above_90": ("shoulder",),
    "overhead_hold": ("shoulder", "wrist"), "horizontal_push": ("shoulder", "elbow", "chest"),
    "vertical_pull": ("shoulder", "elbow"), "horizontal_pull": ("shoulder", "elbow", "upper_back"),
    "hanging": ("shoulder", "elbow", "wrist"), "dip": ("shoulder", "elbow", "chest"), "squat": ("knee", "hip"),
    "hinge": ("hip", "lower_back"), "lunge": ("knee", "hip"), "single_leg": ("knee", "hip", "ankle"),
    "deep_knee_flexion": ("knee",), "jump": ("knee", "ankle"), "burpee_family": ("shoulder", "wrist", "knee"),
    "running": ("knee", "ankle", "hip"), "carry": ("wrist", "upper_back", "lower_back"), "rotation": ("lower_back",),
    "spinal_loading": ("lower_back", "upper_back"), "spinal_flexion_loaded": ("lower_back", "neck"),
    "wrist_extension": ("wrist",),
}
MUSCLE_REGIONS: dict[str, tuple[str, ...]] = {
    "chest": ("chest", "shoulder"), "lats": ("shoulder",), "upper back": ("upper_back",),
    "lower back": ("lower_back",), "shoulders": ("shoulder",), "biceps": ("elbow",), "triceps": ("elbow",),
    "forearms": ("wrist", "elbow"), "core": (), "obliques": (), "glutes": ("hip",), "quads": ("knee",),
    "hamstrings": ("hip",), "calves": ("ankle",), "hip flexors": ("hip",), "adductors": ("hip",),
}
UNILATERAL = frozenset(split("Dumbbell Row|Kettlebell Press|Bottoms-up Kettlebell Press|Landmine Press|"
                             "Suitcase Carry|Turkish Get-up|Dumbbell Snatch|Kettlebell Snatch|Kettlebell Clean|"
                             "Side Plank|Copenhagen Plank|Single-Arm Dumbbell Press"))
assert set(PATTERN_TAGS) == set(PATTERN_REGIONS), "every pattern loads regions"


def side_of(name: str, patterns: tuple[str, ...]) -> str:
    return "unilateral" if name in UNILATERAL or "single_leg" in patterns else "bilateral"
