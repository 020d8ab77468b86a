"""The built-in exercise library every gym starts with (hand-written, static).

Each entry: name, category, equipment, muscles (16 canonical names), English aliases (abbreviations
and spellings coaches write on the whiteboard), and Hebrew and Russian names for the common ones.
"WOD", "metcon", "AMRAP" and the like are formats, not exercises, and are deliberately absent.
Fields use "|" separators to keep one exercise per line.
"""

from __future__ import annotations

from dataclasses import dataclass

from gym.training.vocab import MOVEMENT_PATTERNS

CATEGORIES = ("squat", "lunge", "hinge", "press", "pull", "carry", "gymnastics", "monostructural", "olympic",
              "core", "plyometric", "mobility", "accessory")
MUSCLES = ("chest", "lats", "upper back", "lower back", "shoulders", "biceps", "triceps", "forearms", "core",
           "obliques", "glutes", "quads", "hamstrings", "calves", "hip flexors", "adductors")


@dataclass(frozen=True)
class LibraryExercise:
    name: str
    category: str
    equipment: tuple[str, ...]
    muscles: tuple[str, ...]
    aliases: tuple[str, ...]
    hebrew: tuple[str, ...]
    russian: tuple[str, ...]

    @property
    def all_aliases(self) -> list[str]:
        return [*self.aliases, *self.hebrew, *self.russian]

    @property
    def patterns(self) -> tuple[str, ...]:
        """Its movement patterns (gym.training.vocab.MOVEMENT_PATTERNS), in the vocabulary's order."""
        return _PATTERNS_BY_NAME.get(self.name, ())


def _split(value: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in value.split("|") if part.strip())


def x(name: str, category: str, equipment: str, muscles: str, aliases: str = "", he: str = "",
      ru: str = "") -> LibraryExercise:
    return LibraryExercise(name, category, _split(equipment), _split(muscles), _split(aliases), _split(he),
                           _split(ru))


LIBRARY: tuple[LibraryExercise, ...] = (
    # squat
    x("Back Squat", "squat", "barbell|rack", "quads|glutes|hamstrings|core",
      "BS|Barbell Back Squat|High-Bar Squat|Low-Bar Squat",
      "סקוואט אחורי|סקוואט עם מוט", "приседания со штангой на спине|присед со штангой"),
    x("Front Squat", "squat", "barbell|rack", "quads|glutes|core|upper back", "FS|Barbell Front Squat",
      "סקוואט קדמי", "фронтальные приседания|приседания со штангой на груди"),
    x("Overhead Squat", "squat", "barbell", "quads|glutes|shoulders|core", "OHS",
      "סקוואט מעל הראש", "приседания со штангой над головой|оверхед сквот"),
    x("Air Squat", "squat", "", "quads|glutes|hamstrings", "Bodyweight Squat|BW Squat",
      "סקוואט משקל גוף|סקוואט אוויר", "приседания без веса|воздушные приседания"),
    x("Goblet Squat", "squat", "kettlebell|dumbbell", "quads|glutes|core", "KB Goblet Squat|DB Goblet Squat",
      "סקוואט גביע", "гоблет-присед|приседания с гирей у груди"),
    x("Box Squat", "squat", "barbell|rack|box", "quads|glutes|hamstrings"),
    x("Pause Squat", "squat", "barbell|rack", "quads|glutes|core", "Paused Back Squat"),
    x("Zercher Squat", "squat", "barbell", "quads|glutes|core|upper back"),
    x("Pistol", "squat", "", "quads|glutes|core", "Pistol Squat|Single-Leg Squat",
      "פיסטול|סקוואט רגל אחת", "пистолет|приседания на одной ноге"),
    x("Thruster", "squat", "barbell", "quads|glutes|shoulders|triceps", "Barbell Thruster",
      "תראסטר", "трастер"),
    x("Dumbbell Thruster", "squat", "dumbbell", "quads|glutes|shoulders", "DB Thruster"),
    x("Wall Ball Shot", "squat", "medicine ball|wall", "quads|glutes|shoulders", "Wall Ball|Wall Balls|WB|WBS",
      "וול בול|זריקת כדור לקיר", "броски мяча в стену|уолболы"),
    x("Dumbbell Front Squat", "squat", "dumbbell", "quads|glutes|core", "DB Front Squat"),
    x("Wall Sit", "squat", "wall", "quads|glutes", "Wall Squat Hold"),
    x("Sumo Squat", "squat", "kettlebell|dumbbell", "quads|glutes|adductors", "Plie Squat"),

    # lunge
    x("Lunge", "lunge", "", "quads|glutes|hamstrings", "Forward Lunge|Lunges", "מכרע|מכרעים", "выпады"),
    x("Reverse Lunge", "lunge", "", "quads|glutes", "Back Lunge|Rear Lunge", "מכרע לאחור", "обратные выпады"),
    x("Walking Lunge", "lunge", "", "quads|glutes|hamstrings", "Walking Lunges",
      "מכרעים בהליכה|מכרע בהליכה", "выпады в ходьбе|шагающие выпады"),
    x("Overhead Walking Lunge", "lunge", "plate|barbell|dumbbell", "quads|glutes|shoulders|core",
      "OHL|Overhead Lunge|OH Walking Lunge"),
    x("Dumbbell Walking Lunge", "lunge", "dumbbell", "quads|glutes|hamstrings|forearms", "DB Walking Lunge"),
    x("Front Rack Lunge", "lunge", "barbell|kettlebell", "quads|glutes|core|upper back", "Front Rack Walking Lunge"),
    x("Bulgarian Split Squat", "lunge", "dumbbell|bench", "quads|glutes", "BSS|Rear-Foot Elevated Split Squat",
      "סקוואט בולגרי", "болгарские сплит-приседания|болгарские выпады"),
    x("Step-Up", "lunge", "box", "quads|glutes", "Box Step-Up|Box Step-Ups", "עליות על ארגז",
      "зашагивания на тумбу"),
    x("Cossack Squat", "lunge", "", "adductors|quads|glutes|hip flexors"),
    x("Lateral Lunge", "lunge", "", "adductors|quads|glutes", "Side Lunge"),

    # hinge
    x("Deadlift", "hinge", "barbell", "hamstrings|glutes|lower back|upper back|forearms",
      "DL|Conventional Deadlift|Barbell Deadlift", "דדליפט|הרמת מתים", "становая тяга|становая"),
    x("Sumo Deadlift", "hinge", "barbell", "hamstrings|glutes|adductors|lower back", "Sumo DL",
      "דדליפט סומו", "становая тяга сумо|сумо тяга"),
    x("Romanian Deadlift", "hinge", "barbell|dumbbell", "hamstrings|glutes|lower back", "RDL|Romanian DL",
      "דדליפט רומני", "румынская тяга|румынская становая тяга"),
    x("Stiff-Legged Deadlift", "hinge", "barbell", "hamstrings|lower back|glutes", "SLDL|Stiff-Leg Deadlift",
      "דדליפט רגליים ישרות", "становая тяга на прямых ногах"),
    x("Trap Bar Deadlift", "hinge", "trap bar", "quads|glutes|hamstrings|upper back", "Hex Bar Deadlift"),
    x("Deficit Deadlift", "hinge", "barbell|plate", "hamstrings|glutes|lower back"),
    x("Rack Pull", "hinge", "barbell|rack", "upper back|glutes|lower back|forearms", "Block Pull"),
    x("Dumbbell Deadlift", "hinge", "dumbbell", "hamstrings|glutes|lower back", "DB Deadlift"),
    x("Kettlebell Deadlift", "hinge", "kettlebell", "hamstrings|glutes", "KB Deadlift"),
    x("Single-Leg Romanian Deadlift", "hinge", "dumbbell|kettlebell", "hamstrings|glutes|core",
      "SL RDL|Single-Leg RDL"),
    x("Kettlebell Swing", "hinge", "kettlebell", "glutes|hamstrings|lower back|shoulders",
      "KBS|Russian Kettlebell Swing|Russian Swing|KB Swing",
      "סווינג קטלבל|סווינג", "махи гирей|мах гирей"),
    x("American Kettlebell Swing", "hinge", "kettlebell", "glutes|hamstrings|shoulders|core",
      "American Swing|AKBS|Overhead Kettlebell Swing"),
    x("Good Morning", "hinge", "barbell", "hamstrings|lower back|glutes", "Good Mornings",
      "גוד מורנינג", "наклоны со штангой|гуд монинг"),
    x("Hip Thrust", "hinge", "barbell|bench", "glutes|hamstrings", "Barbell Hip Thrust",
      "היפ ת'ראסט|דחיקת אגן", "ягодичный мост со штангой|хип траст"),
    x("Glute Bridge", "hinge", "", "glutes|hamstrings", "Hip Bridge", "גשר ישבן", "ягодичный мостик"),
    x("Back Extension", "hinge", "ghd", "lower back|glutes|hamstrings", "Hyperextension|Back Extensions",
      "פשיטת גב", "гиперэкстензия"),
    x("GHD Hip Extension", "hinge", "ghd", "glutes|hamstrings|lower back", "Hip Extension"),
    x("Nordic Curl", "hinge", "", "hamstrings", "Nordic Hamstring Curl"),

    # press
    x("Bench Press", "press", "barbell|bench|rack", "chest|triceps|shoulders", "Barbell Bench Press|Flat Bench",
      "לחיצת חזה|לחיצת חזה במוט", "жим лёжа|жим лежа|жим штанги лёжа"),
    x("Incline Bench Press", "press", "barbell|bench", "chest|shoulders|triceps", "Incline Press",
      "לחיצת חזה בשיפוע", "жим на наклонной скамье"),
    x("Dumbbell Bench Press", "press", "dumbbell|bench", "chest|triceps|shoulders", "DB Bench Press|DB Bench",
      "לחיצת חזה במשקולות", "жим гантелей лёжа"),
    x("Close-Grip Bench Press", "press", "barbell|bench", "triceps|chest", "CGBP|Close Grip Bench"),
    x("Floor Press", "press", "barbell|dumbbell", "chest|triceps"),
    x("Strict Press", "press", "barbell", "shoulders|triceps|core",
      "Shoulder Press|Overhead Press|OHP|Military Press|Press",
      "לחיצת כתפיים|לחיצה מעל הראש", "жим стоя|армейский жим|жим штанги над головой"),
    x("Push Press", "press", "barbell", "shoulders|triceps|quads", "PP", "פוש פרס", "швунг жимовой|пуш-пресс"),
    x("Dumbbell Shoulder Press", "press", "dumbbell", "shoulders|triceps", "DB Shoulder Press|DB Press",
      "לחיצת כתפיים במשקולות", "жим гантелей сидя|жим гантелей над головой"),
    x("Dumbbell Push Press", "press", "dumbbell", "shoulders|triceps|quads", "DB Push Press"),
    x("Arnold Press", "press", "dumbbell", "shoulders|triceps"),
    x("Z Press", "press", "barbell", "shoulders|triceps|core"),
    x("Landmine Press", "press", "barbell|landmine", "shoulders|chest|core"),
    x("Push-up", "press", "", "chest|triceps|shoulders|core", "Pushup|Push Up|Press-up",
      "שכיבות סמיכה|שכיבת סמיכה", "отжимания|отжимания от пола"),
    x("Hand-Release Push-up", "press", "", "chest|triceps|shoulders", "HRPU|Hand Release Pushup"),
    x("Diamond Push-up", "press", "", "triceps|chest", "Close-Grip Push-up"),
    x("Dip", "press", "parallel bars", "triceps|chest|shoulders", "Bar Dip|Parallel Bar Dip|Dips",
      "מקבילים", "отжимания на брусьях|брусья"),
    x("Ring Dip", "press", "rings", "triceps|chest|shoulders", "Ring Dips|Strict Ring Dip",
      "מקבילים על טבעות", "отжимания на кольцах"),
    x("Bench Dip", "press", "bench", "triceps", "Tricep Dip"),
    x("Band Chest Press", "press", "band", "chest|triceps|shoulders", "Banded Chest Press|Resistance Band Chest Press"),

    # pull
    x("Pull-up", "pull", "pull-up bar", "lats|biceps|upper back|forearms",
      "Pullup|Pull Up|Kipping Pull-up|Kipping Pullup", "מתח|עליות מתח", "подтягивания|подтягивание"),
    x("Strict Pull-up", "pull", "pull-up bar", "lats|biceps|upper back", "Strict Pullup|Dead-Hang Pull-up",
      "מתח סטריקט", "строгие подтягивания"),
    x("Chest-to-Bar Pull-up", "pull", "pull-up bar", "lats|biceps|upper back",
      "C2B|CTB|Chest to Bar|Chest-to-Bar", "מתח חזה למוט", "подтягивания до касания грудью"),
    x("Butterfly Pull-up", "pull", "pull-up bar", "lats|biceps|core", "Butterfly Pullup|Butterfly Kip"),
    x("Jumping Pull-up", "pull", "pull-up bar", "lats|biceps|quads", "Jumping Pullup"),
    x("Chin-up", "pull", "pull-up bar", "biceps|lats|upper back", "Chinup|Chin Up",
      "מתח אחיזה הפוכה", "подтягивания обратным хватом"),
    x("Ring Row", "pull", "rings", "upper back|lats|biceps", "Inverted Row|Body Row|TRX Row",
      "חתירה בטבעות", "тяга в наклоне на кольцах|австралийские подтягивания"),
    x("Bent-Over Row", "pull", "barbell", "upper back|lats|biceps|lower back",
      "Barbell Row|BB Row|Bent Over Row", "חתירה בהטיה|חתירה במוט", "тяга штанги в наклоне"),
    x("Pendlay Row", "pull", "barbell", "upper back|lats|lower back"),
    x("Dumbbell Row", "pull", "dumbbell|bench", "lats|upper back|biceps",
      "Single-Arm Dumbbell Row|DB Row|One-Arm Row", "חתירה במשקולת", "тяга гантели в наклоне"),
    x("Lat Pulldown", "pull", "cable|machine", "lats|biceps", "Pulldown|Lat Pull-down",
      "פולי עליון", "тяга верхнего блока"),
    x("Seated Cable Row", "pull", "cable", "upper back|lats|biceps", "Cable Row|Seated Row",
      "חתירה בישיבה|פולי תחתון", "тяга нижнего блока"),
    x("Face Pull", "pull", "cable|band", "upper back|shoulders", "Face Pulls"),
    x("Band Row", "pull", "band", "upper back|lats|biceps", "Banded Row|Resistance Band Row"),
    x("Kettlebell High Pull", "pull", "kettlebell", "upper back|shoulders|glutes", "KB High Pull"),

    # olympic lifting
    x("Snatch", "olympic", "barbell", "quads|glutes|hamstrings|shoulders|upper back",
      "Squat Snatch|Full Snatch", "סנאץ'|חטיפה", "рывок|рывок штанги"),
    x("Power Snatch", "olympic", "barbell", "glutes|hamstrings|shoulders|upper back", "PS|Power Snatches",
      "פאוור סנאץ'", "силовой рывок|рывок в стойку"),
    x("Hang Snatch", "olympic", "barbell", "glutes|hamstrings|shoulders|upper back", "Hang Squat Snatch"),
    x("Hang Power Snatch", "olympic", "barbell", "glutes|hamstrings|shoulders|upper back", "HPS"),
    x("Muscle Snatch", "olympic", "barbell", "shoulders|upper back"),
    x("Snatch Balance", "olympic", "barbell", "quads|shoulders|core"),
    x("Snatch Pull", "olympic", "barbell", "hamstrings|glutes|upper back|lower back", "Snatch High Pull"),
    x("Snatch Deadlift", "olympic", "barbell", "hamstrings|glutes|lower back|upper back"),
    x("Clean", "olympic", "barbell", "quads|glutes|hamstrings|upper back", "Squat Clean|Full Clean",
      "קלין|קלין מלא", "взятие на грудь|взятие в сед"),
    x("Power Clean", "olympic", "barbell", "glutes|hamstrings|upper back|quads", "PC|Power Cleans",
      "פאוור קלין", "силовое взятие на грудь|взятие на грудь в стойку"),
    x("Hang Clean", "olympic", "barbell", "quads|glutes|upper back", "Hang Squat Clean"),
    x("Hang Power Clean", "olympic", "barbell", "glutes|hamstrings|upper back", "HPC"),
    x("Clean Pull", "olympic", "barbell", "hamstrings|glutes|upper back|lower back", "Clean High Pull"),
    x("Clean and Jerk", "olympic", "barbell", "quads|glutes|shoulders|triceps|upper back",
      "C&J|Clean & Jerk|CnJ", "קלין וג'רק|קלין אנד ג'רק", "толчок|толчок штанги"),
    x("Push Jerk", "olympic", "barbell", "shoulders|triceps|quads", "PJ", "פוש ג'רק",
      "толчковый швунг|швунг толчковый"),
    x("Split Jerk", "olympic", "barbell", "shoulders|triceps|quads|glutes", "Jerk", "ג'רק מספריים",
      "толчок ножницами|толчок от груди"),
    x("Power Jerk", "olympic", "barbell", "shoulders|triceps|quads"),
    x("Cluster", "olympic", "barbell", "quads|glutes|shoulders", "Squat Clean Thruster|Clean Thruster"),
    x("Sumo Deadlift High Pull", "olympic", "barbell|kettlebell", "glutes|hamstrings|upper back|shoulders",
      "SDHP|SDLHP", "סומו דדליפט היי פול", "тяга сумо к подбородку"),
    x("Dumbbell Snatch", "olympic", "dumbbell", "glutes|hamstrings|shoulders|core",
      "DB Snatch|Single-Arm Dumbbell Snatch", "סנאץ' משקולת|סנאץ' במשקולת", "рывок гантели"),
    x("Dumbbell Clean", "olympic", "dumbbell", "glutes|hamstrings|upper back", "DB Clean"),
    x("Dumbbell Clean and Jerk", "olympic", "dumbbell", "glutes|shoulders|quads", "DB Clean and Jerk|DB C&J"),
    x("Dumbbell Hang Clean", "olympic", "dumbbell", "glutes|upper back", "DB Hang Clean"),
    x("Kettlebell Snatch", "olympic", "kettlebell", "glutes|hamstrings|shoulders", "KB Snatch"),
    x("Kettlebell Clean", "olympic", "kettlebell", "glutes|hamstrings|forearms", "KB Clean"),
    x("Ground to Overhead", "olympic", "barbell|plate|dumbbell", "glutes|shoulders|quads", "GTOH|G2OH"),
    x("Shoulder to Overhead", "olympic", "barbell", "shoulders|triceps", "STOH|S2OH"),

    # gymnastics
    x("Muscle-up", "gymnastics", "rings", "lats|chest|triceps|core", "Ring Muscle-up|RMU|MU|Muscle Up",
      "מאסל אפ|מאסל אפ בטבעות", "выход силой|выход силой на кольцах"),
    x("Bar Muscle-up", "gymnastics", "pull-up bar", "lats|chest|triceps|core", "BMU|Bar Muscle Up",
      "מאסל אפ במוט", "выход силой на перекладине"),
    x("Strict Muscle-up", "gymnastics", "rings", "lats|chest|triceps"),
    x("Handstand Push-up", "gymnastics", "wall", "shoulders|triceps|core",
      "HSPU|Kipping HSPU|Handstand Pushup", "שכיבות סמיכה בעמידת ידיים", "отжимания в стойке на руках"),
    x("Strict Handstand Push-up", "gymnastics", "wall", "shoulders|triceps", "Strict HSPU|SHSPU"),
    x("Deficit Handstand Push-up", "gymnastics", "wall|plate", "shoulders|triceps", "Deficit HSPU"),
    x("Pike Push-up", "gymnastics", "box", "shoulders|triceps", "Box Pike Push-up"),
    x("Handstand Walk", "gymnastics", "", "shoulders|core|forearms", "HSW|Handstand Walking",
      "הליכת ידיים", "ходьба на руках"),
    x("Handstand Hold", "gymnastics", "wall", "shoulders|core", "Wall Handstand Hold|Handstand",
      "עמידת ידיים", "стойка на руках"),
    x("Wall Walk", "gymnastics", "wall", "shoulders|core|triceps", "Wall Climb|Wall Walks",
      "הליכה על הקיר", "подъём по стене"),
    x("Toes-to-Bar", "gymnastics", "pull-up bar", "core|hip flexors|lats", "T2B|TTB|Toes to Bar",
      "בהונות למוט", "носки к перекладине|подъём ног к перекладине"),
    x("Knees-to-Elbow", "gymnastics", "pull-up bar", "core|hip flexors", "K2E|KTE|Knees to Elbows",
      "ברכיים למרפקים", "колени к локтям"),
    x("Hanging Knee Raise", "gymnastics", "pull-up bar", "core|hip flexors", "Knee Raise|Hanging Knee Raises",
      "הרמת ברכיים בתלייה", "подъём коленей в висе"),
    x("Hanging Leg Raise", "gymnastics", "pull-up bar", "core|hip flexors", "Leg Raise in Hang"),
    x("Rope Climb", "gymnastics", "rope", "lats|biceps|forearms|core", "Rope Climbs|RC",
      "טיפוס חבל|טיפוס על חבל", "лазание по канату|канат"),
    x("Legless Rope Climb", "gymnastics", "rope", "lats|biceps|forearms", "Legless Rope"),
    x("L-Sit", "gymnastics", "parallettes|rings", "core|hip flexors|triceps", "L Sit|L-Sit Hold",
      "אל סיט", "уголок"),
    x("Ring Support Hold", "gymnastics", "rings", "triceps|chest|shoulders", "Ring Support"),
    x("Skin the Cat", "gymnastics", "rings", "lats|shoulders|core"),
    x("Kipping Swing", "gymnastics", "pull-up bar", "lats|core|shoulders", "Kip Swing"),
    x("Burpee", "gymnastics", "", "chest|quads|core|shoulders", "Burpees", "ברפי|ברפיז", "бёрпи|берпи"),
    x("Burpee Over the Bar", "gymnastics", "barbell", "chest|quads|core", "BOB|Bar-Facing Burpee|BFB",
      "ברפי מעל המוט", "бёрпи через штангу"),
    x("Burpee Box Jump Over", "gymnastics", "box", "quads|chest|glutes", "BBJO|Burpee Box Jump"),
    x("Burpee Pull-up", "gymnastics", "pull-up bar", "lats|chest|quads"),

    # monostructural
    x("Run", "monostructural", "", "quads|hamstrings|calves|glutes", "Running|Jog|Running Meters",
      "ריצה", "бег"),
    x("Sprint", "monostructural", "", "quads|hamstrings|glutes|calves", "Sprints", "ספרינט", "спринт"),
    x("Shuttle Run", "monostructural", "", "quads|hamstrings|calves", "Shuttle Sprint|Shuttle Runs",
      "ריצת הלוך חזור", "челночный бег"),
    x("Row", "monostructural", "rower", "lats|upper back|quads|glutes",
      "Rowing|Rower|Erg|C2 Row|Concept2 Row|Cal Row", "חתירה|מכונת חתירה", "гребля|гребной тренажёр"),
    x("Bike", "monostructural", "air bike", "quads|glutes|shoulders",
      "Assault Bike|Air Bike|Echo Bike|AD Bike|Airdyne|Cal Bike", "אופני אוויר|אופניים",
      "велотренажёр|эйрбайк"),
    x("BikeErg", "monostructural", "bikeerg", "quads|glutes|calves", "Bike Erg|C2 Bike"),
    x("Ski Erg", "monostructural", "ski erg", "lats|triceps|core|shoulders", "SkiErg|Ski|Cal Ski",
      "סקי ארג", "лыжный тренажёр"),
    x("Double-Under", "monostructural", "jump rope", "calves|shoulders|forearms",
      "DU|DUs|Double Unders|Double-Unders|Dubs", "דאבל אנדר|דאבל אנדרס",
      "двойные прыжки через скакалку|двойные прыжки|дабл андеры"),
    x("Single-Under", "monostructural", "jump rope", "calves", "SU|Single Unders|Singles|Jump Rope|Skipping",
      "קפיצה בחבל|דילוגים בחבל", "прыжки через скакалку|скакалка"),
    x("Triple-Under", "monostructural", "jump rope", "calves|shoulders", "Triple Unders"),
    x("Swim", "monostructural", "pool", "lats|shoulders|core", "Swimming", "שחייה", "плавание"),
    x("Treadmill Run", "monostructural", "treadmill", "quads|hamstrings|calves", "Treadmill"),
    x("Stair Climb", "monostructural", "stairs", "quads|glutes|calves", "Stairs|Stair Climber"),

    # carry
    x("Farmer's Carry", "carry", "dumbbell|kettlebell", "forearms|upper back|core",
      "Farmer Carry|Farmers Walk|Farmer's Walk", "הליכת חקלאי", "прогулка фермера|фермерская прогулка"),
    x("Suitcase Carry", "carry", "kettlebell|dumbbell", "obliques|core|forearms"),
    x("Overhead Carry", "carry", "kettlebell|dumbbell|plate", "shoulders|core", "Waiter Carry|OH Carry"),
    x("Front Rack Carry", "carry", "kettlebell|barbell", "core|upper back|quads", "Front Rack Walk"),
    x("Sandbag Carry", "carry", "sandbag", "core|upper back|quads|forearms", "Sandbag Bear Hug Carry"),
    x("Yoke Carry", "carry", "yoke", "core|upper back|quads"),
    x("Sled Push", "carry", "sled", "quads|glutes|calves", "Prowler Push", "דחיפת מזחלת", "толкание саней"),
    x("Sled Pull", "carry", "sled|rope", "hamstrings|glutes|upper back", "Sled Drag|Sled Drag Backwards"),
    x("Sandbag Over Shoulder", "carry", "sandbag", "glutes|hamstrings|upper back", "Sandbag to Shoulder"),
    x("Atlas Stone", "carry", "atlas stone", "glutes|upper back|biceps", "Stone to Shoulder|Atlas Stones"),
    x("Turkish Get-up", "carry", "kettlebell", "shoulders|core|glutes", "TGU|Turkish Getup",
      "טרקיש גט אפ", "турецкий подъём"),

    # core
    x("Sit-up", "core", "abmat", "core|hip flexors", "Situp|AbMat Sit-up|Sit Ups", "כפיפות בטן",
      "подъём туловища|пресс"),
    x("GHD Sit-up", "core", "ghd", "core|hip flexors", "GHD Situp|GHD Sit Ups", "כפיפות בטן במתקן GHD",
      "подъём туловища на GHD"),
    x("V-up", "core", "", "core|hip flexors", "V-ups|V Up", "וי אפ", "складка"),
    x("Hollow Hold", "core", "", "core", "Hollow Body Hold|Hollow", "הולו הולד", "лодочка"),
    x("Hollow Rock", "core", "", "core", "Hollow Rocks"),
    x("Arch Hold", "core", "", "lower back|glutes", "Superman Hold|Superman"),
    x("Plank", "core", "", "core|shoulders", "Front Plank|Forearm Plank", "פלאנק", "планка"),
    x("Side Plank", "core", "", "obliques|core", "Side Planks", "פלאנק צידי", "боковая планка"),
    x("Russian Twist", "core", "medicine ball|plate", "obliques|core", "Russian Twists", "טוויסט רוסי",
      "русские скручивания"),
    x("Ab Wheel Rollout", "core", "ab wheel", "core|lats", "Ab Rollout|Ab Wheel"),
    x("Dead Bug", "core", "", "core", "Dead Bugs"),
    x("Bird Dog", "core", "", "core|lower back|glutes"),
    x("Pallof Press", "core", "band|cable", "obliques|core"),
    x("Flutter Kick", "core", "", "core|hip flexors", "Flutter Kicks"),
    x("Leg Raise", "core", "", "core|hip flexors", "Lying Leg Raise|Leg Raises"),
    x("Crunch", "core", "", "core", "Crunches", "קראנץ'", "скручивания"),
    x("Mountain Climber", "core", "", "core|shoulders|hip flexors", "Mountain Climbers", "מטפס הרים",
      "скалолаз"),
    x("Bear Crawl", "core", "", "shoulders|core|quads"),

    # plyometric
    x("Box Jump", "plyometric", "box", "quads|glutes|calves", "Box Jumps|BJ", "קפיצה על ארגז|קפיצות על ארגז",
      "прыжки на тумбу|запрыгивания на тумбу"),
    x("Box Jump Over", "plyometric", "box", "quads|glutes|calves", "BJO|Box Jump Overs"),
    x("Broad Jump", "plyometric", "", "quads|glutes|hamstrings", "Standing Long Jump|Broad Jumps",
      "קפיצה לרוחק", "прыжок в длину с места"),
    x("Tuck Jump", "plyometric", "", "quads|calves|core", "Tuck Jumps"),
    x("Jump Squat", "plyometric", "", "quads|glutes|calves", "Squat Jump|Jumping Squat"),
    x("Jumping Lunge", "plyometric", "", "quads|glutes", "Split Jump|Jumping Lunges"),
    x("Jumping Jack", "plyometric", "", "calves|shoulders", "Jumping Jacks|Star Jumps", "קפיצות פיסוק",
      "джампинг джек|прыжки звёздочкой"),
    x("Lateral Hop", "plyometric", "", "calves|adductors", "Lateral Hops|Skater Hop"),
    x("Depth Jump", "plyometric", "box", "quads|glutes|calves"),

    # mobility
    x("World's Greatest Stretch", "mobility", "", "hip flexors|hamstrings|upper back", "WGS"),
    x("Couch Stretch", "mobility", "wall", "hip flexors|quads", "", "מתיחת ספה", "растяжка у дивана"),
    x("Pigeon Stretch", "mobility", "", "glutes|hip flexors", "Pigeon Pose", "תנוחת יונה", "поза голубя"),
    x("90/90 Hip Stretch", "mobility", "", "glutes|hip flexors", "90-90 Hip Switch|Hip 90/90"),
    x("Cat-Cow", "mobility", "", "lower back|upper back", "Cat Cow"),
    x("Thoracic Rotation", "mobility", "", "upper back|obliques", "Open Book|T-Spine Rotation"),
    x("Shoulder Pass-Through", "mobility", "band|pvc", "shoulders", "PVC Pass-Through|Pass Throughs"),
    x("Banded Shoulder Distraction", "mobility", "band", "shoulders|lats"),
    x("Foam Rolling", "mobility", "foam roller", "quads|hamstrings|upper back", "Foam Roll", "רולר", "МФР"),
    x("Downward Dog", "mobility", "", "hamstrings|calves|shoulders", "Down Dog", "כלב מביט מטה",
      "собака мордой вниз"),
    x("Child's Pose", "mobility", "", "lower back|lats", "Childs Pose"),
    x("Hamstring Stretch", "mobility", "", "hamstrings", "", "מתיחת ירך אחורית", "растяжка бицепса бедра"),
    x("Inchworm", "mobility", "", "hamstrings|shoulders|core", "Inchworms"),
    x("Deep Squat Hold", "mobility", "", "hip flexors|adductors|calves", "Squat Hold|Goblet Squat Hold"),
    x("Frog Stretch", "mobility", "", "adductors|hip flexors"),
    x("Ankle Mobility Drill", "mobility", "", "calves", "Ankle Mobility|Knee-to-Wall"),

    # accessory
    x("Biceps Curl", "accessory", "dumbbell|barbell", "biceps|forearms", "Bicep Curl|DB Curl|Curl",
      "כפיפת מרפקים|כפיפת מרפקים במשקולות", "сгибание рук на бицепс|подъём на бицепс"),
    x("Hammer Curl", "accessory", "dumbbell", "biceps|forearms", "Hammer Curls"),
    x("Triceps Extension", "accessory", "dumbbell|cable", "triceps",
      "Overhead Triceps Extension|Tricep Extension|Skull Crusher", "פשיטת מרפקים",
      "разгибание рук на трицепс|французский жим"),
    x("Triceps Pushdown", "accessory", "cable", "triceps", "Tricep Pushdown|Cable Pushdown"),
    x("Band Triceps Pushdown", "accessory", "band", "triceps", "Banded Triceps Pushdown|Band Pushdown"),
    x("Lateral Raise", "accessory", "dumbbell", "shoulders", "Side Raise|Lateral Raises", "הרחקת כתפיים",
      "махи гантелями в стороны"),
    x("Front Raise", "accessory", "dumbbell|plate", "shoulders"),
    x("Rear Delt Fly", "accessory", "dumbbell", "shoulders|upper back", "Reverse Fly|Rear Delt Raise"),
    x("Chest Fly", "accessory", "dumbbell|cable", "chest", "Dumbbell Fly|Pec Fly", "פרפר", "разводка гантелей"),
    x("Calf Raise", "accessory", "", "calves", "Calf Raises|Standing Calf Raise", "הרמת עקבים",
      "подъём на носки"),
    x("Leg Press", "accessory", "machine", "quads|glutes", "", "לחיצת רגליים", "жим ногами"),
    x("Leg Extension", "accessory", "machine", "quads", "Leg Extensions", "פשיטת ברכיים", "разгибание ног"),
    x("Leg Curl", "accessory", "machine", "hamstrings", "Hamstring Curl|Lying Leg Curl", "כפיפת ברכיים",
      "сгибание ног"),
    x("Shrug", "accessory", "barbell|dumbbell", "upper back", "Shrugs|Barbell Shrug", "משיכת כתפיים",
      "шраги"),
    x("Band Pull-Apart", "accessory", "band", "upper back|shoulders", "Pull-Aparts|Band Pull Apart"),
    x("Copenhagen Plank", "accessory", "bench", "adductors|obliques", "Copenhagen Side Plank"),
)


# Movement-pattern tags (TRAINER.md "Preferences and injuries"): pattern → the library exercises that have it.
# An injury or a "never" preference excludes by these; gym/training/movements.py adds keyword rules for names
# outside the library.
_OLYMPIC_SQUAT = "Snatch|Clean|Hang Snatch|Hang Clean|Clean and Jerk|Cluster|Snatch Balance"
_BARBELL_PULLS = ("Power Snatch|Hang Power Snatch|Muscle Snatch|Snatch Pull|Snatch Deadlift|Power Clean|"
                  "Hang Power Clean|Clean Pull|Sumo Deadlift High Pull|Ground to Overhead")
_JERKS = "Push Jerk|Split Jerk|Power Jerk|Shoulder to Overhead"
PATTERN_TAGS: dict[str, tuple[str, ...]] = {pattern: _split(names) for pattern, names in {
    "overhead_press": "Thruster|Dumbbell Thruster|Wall Ball Shot|Strict Press|Push Press|Dumbbell Shoulder Press|"
                      "Dumbbell Push Press|Arnold Press|Z Press|Clean and Jerk|Cluster|Dumbbell Clean and Jerk|"
                      "Ground to Overhead|Handstand Push-up|Strict Handstand Push-up|Deficit Handstand Push-up|"
                      f"Pike Push-up|{_JERKS}",
    "overhead_hold": f"Overhead Squat|Overhead Walking Lunge|Snatch|Power Snatch|Hang Snatch|Hang Power Snatch|"
                     f"Muscle Snatch|Snatch Balance|Dumbbell Snatch|Kettlebell Snatch|American Kettlebell Swing|"
                     f"Overhead Carry|Turkish Get-up|Handstand Walk|Handstand Hold|Wall Walk|Thruster|"
                     f"Dumbbell Thruster|Wall Ball Shot|Clean and Jerk|Cluster|Dumbbell Clean and Jerk|"
                     f"Ground to Overhead|{_JERKS}",
    "hanging": "Pull-up|Strict Pull-up|Chest-to-Bar Pull-up|Butterfly Pull-up|Jumping Pull-up|Chin-up|Muscle-up|"
               "Bar Muscle-up|Strict Muscle-up|Toes-to-Bar|Knees-to-Elbow|Hanging Knee Raise|Hanging Leg Raise|"
               "Rope Climb|Legless Rope Climb|Skin the Cat|Kipping Swing|Burpee Pull-up",
    "dip": "Dip|Ring Dip|Bench Dip|Muscle-up|Bar Muscle-up|Strict Muscle-up|Ring Support Hold",
    "jumping": "Box Jump|Box Jump Over|Broad Jump|Tuck Jump|Jump Squat|Jumping Lunge|Jumping Jack|Lateral Hop|"
               "Depth Jump|Burpee|Burpee Over the Bar|Burpee Box Jump Over|Burpee Pull-up|Double-Under|"
               "Single-Under|Triple-Under|Jumping Pull-up",
    "burpee": "Burpee|Burpee Over the Bar|Burpee Box Jump Over|Burpee Pull-up",
    "running": "Run|Sprint|Shuttle Run|Treadmill Run",
    "deep_knee_flexion": f"Back Squat|Front Squat|Overhead Squat|Air Squat|Goblet Squat|Box Squat|Pause Squat|"
                         f"Zercher Squat|Pistol|Thruster|Dumbbell Thruster|Wall Ball Shot|Dumbbell Front Squat|"
                         f"Sumo Squat|Lunge|Reverse Lunge|Walking Lunge|Overhead Walking Lunge|"
                         f"Dumbbell Walking Lunge|Front Rack Lunge|Bulgarian Split Squat|Cossack Squat|Lateral Lunge|"
                         f"Jumping Lunge|Deep Squat Hold|Leg Press|{_OLYMPIC_SQUAT}",
    "spinal_loading": f"Back Squat|Front Squat|Overhead Squat|Box Squat|Pause Squat|Zercher Squat|Thruster|"
                      f"Front Rack Lunge|Overhead Walking Lunge|Deadlift|Sumo Deadlift|Romanian Deadlift|"
                      f"Stiff-Legged Deadlift|Trap Bar Deadlift|Deficit Deadlift|Rack Pull|Good Morning|"
                      f"Bent-Over Row|Pendlay Row|Strict Press|Push Press|Z Press|Farmer's Carry|Suitcase Carry|"
                      f"Overhead Carry|Front Rack Carry|Sandbag Carry|Yoke Carry|Sandbag Over Shoulder|Atlas Stone|"
                      f"Shrug|{_OLYMPIC_SQUAT}|{_BARBELL_PULLS}|{_JERKS}",
    "hip_hinge": f"Deadlift|Sumo Deadlift|Romanian Deadlift|Stiff-Legged Deadlift|Trap Bar Deadlift|"
                 f"Deficit Deadlift|Rack Pull|Dumbbell Deadlift|Kettlebell Deadlift|Single-Leg Romanian Deadlift|"
                 f"Kettlebell Swing|American Kettlebell Swing|Good Morning|Back Extension|GHD Hip Extension|"
                 f"Bent-Over Row|Pendlay Row|Kettlebell High Pull|Dumbbell Snatch|Dumbbell Clean|"
                 f"Kettlebell Snatch|Kettlebell Clean|Sandbag Over Shoulder|Atlas Stone|{_OLYMPIC_SQUAT}|"
                 f"{_BARBELL_PULLS}",
    "wrist_extension": "Push-up|Hand-Release Push-up|Diamond Push-up|Handstand Push-up|Strict Handstand Push-up|"
                       "Deficit Handstand Push-up|Pike Push-up|Handstand Walk|Handstand Hold|Wall Walk|"
                       "Mountain Climber|Bear Crawl|Burpee|Burpee Over the Bar|Burpee Box Jump Over|Burpee Pull-up|"
                       "Inchworm|Downward Dog|Bench Dip",
}.items()}
_PATTERNS_BY_NAME: dict[str, tuple[str, ...]] = {
    exercise.name: tuple(p for p in MOVEMENT_PATTERNS if exercise.name in PATTERN_TAGS.get(p, ()))
    for exercise in LIBRARY}
assert set(PATTERN_TAGS) == set(MOVEMENT_PATTERNS), "every pattern of the vocabulary is tagged"
assert {n for names in PATTERN_TAGS.values() for n in names} <= set(_PATTERNS_BY_NAME), "tags name library exercises"


def library_names() -> list[str]:
    return [exercise.name for exercise in LIBRARY]
