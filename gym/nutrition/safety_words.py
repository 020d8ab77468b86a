"""The words of the safety floor (NUTRITION.md, PHYSICIAN): for each reason code, the phrasings in English, Hebrew
and Russian that name it, as regular expressions over normalised text (`gym.nutrition.safety_floor.normalise`:
lower case, ё → е, Hebrew points dropped, one space between words).

`TEXT` screens free text (a health question, a check-in's notes, any string of an agent's input), where a bare
organ is not a condition ("what heart rate should I train at", "is protein bad for my kidneys", "insulin spike"):
a phrase must name the illness, its use or the symptom. `CONDITION` adds what a `medical_history.conditions` entry
may say in one word ("heart murmur", "почки", "כליות"). `MEDICATION` is what an entry of
`medical_history.medications` names for insulin (the drug or a brand).

Hebrew words may carry the one-letter prefixes ו ה ב כ ל מ ש (`HE`); Russian stems end in `\\w*` for their
inflections. Negation is deliberately not read ("no chest pain", "לא בהריון", "не беременна" still set the floor):
a floor that a missed negation lowers is worse than a pause the member acknowledges.
"""

from __future__ import annotations

HE = r"(?<!\w)[והבכלמש]{0,3}"  # a Hebrew word's prefixes (and, the, in, as, to, from, that)
BRANDS = r"\b(?:lantus|humalog|novorapid|novolog|levemir|tresiba|toujeo|apidra|fiasp|basaglar|humulin|actrapid)\b"

PAIN_EN = r"(?:pain|pains|painful|ache|aches|aching|hurts?|hurting|tight|tightness|pressure|squeezing|stabbing)"
BREATH_REST_EN = r"(?:at rest|resting|while i rest|sitting|lying|in bed|at night|doing nothing|even when i rest)"

TEXT: dict[str, tuple[str, ...]] = {
    "eating_disorder": (
        r"\beating disorders?\b", r"\bdisordered eating\b", r"\banorexi\w*", r"\bbulimi\w*", r"\bbinge[- ]?eat\w*",
        r"\bbing(?:e|ing) and purg\w*", r"\bpurg(?:e|es|ed|ing)\b", r"\barfid\b", r"\borthorexi\w*",
        r"\bmake myself (?:throw up|vomit|sick)\b", r"\bself[- ]induced vomiting\b",
        HE + r"הפרע(?:ת|ות) אכילה", HE + r"אנורקסי\w*", HE + r"בולימי\w*", HE + r"אכילה כפייתית",
        HE + r"התקפי זלילה", HE + r"(?:מקיא|מקיאה|להקיא) בכוונה",
        r"\bрасстройств\w* пищевого поведения", r"\bрпп\b", r"\bанорекси\w*", r"\bбулими\w*",
        r"\bкомпульсивн\w* переедани\w*", r"\bвызыва\w* (?:у себя )?рвоту"),
    "insulin": (
        r"\b(?:take|takes|taking|took|use|uses|using|inject|injects|injecting|injected|prescribed|dose of|doses of|"
        r"units of)(?: \S+)?? insulin\b",
        r"\b(?:i'?m|i am|am|is|she'?s|he'?s|been|being|was|went|put) on (?:\S+ )??insulin\b",
        r"\binsulin[- ](?:dependent|injections?|shots?|pumps?|pens?|therapy|treatment|users?)\b",
        BRANDS,
        HE + r"(?:מזריק|מזריקה|מזריקים|מקבל|מקבלת|לוקח|לוקחת|נוטל|נוטלת|טיפול ב|מטופל ב|מטופלת ב|זריקות|"
             r"זריקת|משאבת|עט|תלוי|תלויה|תלות ב)[ -]?ה?אינסולין",
        HE + r"אינסולין שלי",
        r"\b(?:колю|колет|колоть|уколы|укол|принимаю|принимает|получаю|доза|дозу) (?:\S+ )??инсулин\w*",
        r"\bна инсулине\b",
        r"\bинсулиновая помпа\w*", r"\bинсулинозависим\w*", r"\bинсулинотерапи\w*"),
    "pregnancy": (
        r"\bpregnan\w*", r"\bexpecting a baby\b", r"\b(?:first|second|third|1st|2nd|3rd) trimester\b",
        HE + r"הי?ריון\w*", r"(?<!\w)(?:אני |היא )?הרה(?!\w)", HE + r"טרימסטר\w*",
        r"\bберемен\w*", r"\bтриместр\w*", r"\bжду ребенка\b"),
    "breastfeeding": (
        r"\bbreast[- ]?feed\w*", r"\bbreast[- ]?fed\b", r"\blactat\w*", r"\bnursing (?:my |a |the )?(?:baby|newborn|infant)\b",
        HE + r"מניק(?:ה|ות)?(?!\w)", HE + r"הנקה", HE + r"להניק",
        r"\bкорм\w* грудью\b", r"\bкормящ\w*", r"\bгрудн\w* вскармливани\w*", r"\bлактаци\w*"),
    "heart_condition": (
        r"\bheart (?:failure|disease|diseases|condition|conditions|problem|problems|issue|issues|attack|attacks|"
        r"surgery|defect|murmur|valve|trouble)\b",
        r"\bcardiac\b", r"\bcardiomyopath\w*", r"\barrhythmi\w*", r"\batrial fibrillation\b", r"\ba-?fib\b",
        r"\bcoronary\b", r"\bangina\b", r"\bpacemaker\b", r"\bcongestive\b", r"\bmyocard\w*",
        HE + r"אי[- ]ספיקת לב", HE + r"מחל(?:ת|ות) לב", HE + r"בעי(?:ה|ות) (?:ב|של ה)?לב(?!\w)",
        HE + r"התקף לב", HE + r"אוטם", HE + r"הפרע(?:ת|ות) קצב", HE + r"קוצב לב", HE + r"צנתור\w*",
        HE + r"תעוקת חזה", HE + r"מום (?:ב|של ה)?לב", HE + r"אי ספיקה לבבית",
        r"\bсердечн\w* (?:недостаточност|приступ|заболевани|болезн)\w*", r"\b(?:болезн|заболевани|порок)\w* сердца\b",
        r"\bпроблем\w* с сердцем\b", r"\bинфаркт\w*", r"\bаритми\w*", r"\bстенокарди\w*", r"\bкардиомиопати\w*",
        r"\bишеми\w*", r"\bкардиостимулятор\w*"),
    "kidney_disease": (
        r"\b(?:kidney|renal) (?:disease|failure|damage|problems?|condition|insufficiency|transplant|issues?)\b",
        r"\bckd\b", r"\bdialysis\b", r"\bnephr(?:itis|opathy|otic)\w*", r"\bone kidney\b",
        HE + r"מחל(?:ת|ות) (?:ה)?כליות", HE + r"אי[- ]ספיקת כליות", HE + r"בעי(?:ה|ות) (?:ב)?כלי(?:ה|ות)",
        HE + r"דיאליזה", HE + r"כליה אחת", HE + r"השתלת כליה",
        r"\bпочечн\w* недостаточност\w*", r"\b(?:болезн|заболевани)\w* почек\b", r"\bпроблем\w* с почками\b",
        r"\bдиализ\w*", r"\bнефрит\w*", r"\bнефропати\w*", r"\bхбп\b"),
    "diabetes": (
        r"\bdiabet\w*", r"\bprediabet\w*", r"\bt[12]d\b", r"\btype [12] diabet\w*",
        HE + r"סוכרת\w*", HE + r"סכרת\w*",
        r"\bдиабет\w*", r"\bдиабетик\w*"),
    "amenorrhea": (
        r"\bamenorr?h?o?ea\w*",
        r"\bno (?:period|periods|menstruation)\b", r"\bwithout (?:a |my )?(?:period|periods)\b",
        r"\bhaven'?t (?:had|gotten|got) (?:a |my )?(?:period|periods)\b",
        r"\bhave not (?:had|gotten|got) (?:a |my )?(?:period|periods)\b",
        r"\b(?:lost|missed|missing|skipped) (?:my |a |\S+ )?(?:period|periods)\b",
        r"\b(?:period|periods) (?:has |have )?(?:stopped|disappeared|gone|went away)\b",
        r"\bstopped (?:having|getting) (?:my |a )?(?:period|periods)\b",
        r"\bnot menstruating\b", r"\bhaven'?t menstruated\b",
        HE + r"אמנוריאה", r"(?<!\w)אין לי (?:את ה)?מחזור", HE + r"לא (?:קיבלתי|היה לי|הגיע|מקבלת) (?:את )?(?:ה)?מחזור",
        HE + r"(?:ללא|בלי|בלא) מחזור", HE + r"מחזור (?:שלי )?(?:נעלם|הפסיק|נפסק|לא הגיע|לא מגיע)",
        HE + r"הפסק(?:ת|ה של ה) מחזור",
        r"\bаменоре\w*", r"\b(?:нет|не было|не бывает|без|отсутстви\w*) (?:\S+ )??(?:месячн|менструаци)\w*",
        r"\b(?:пропал|прекратил|исчез)\w* (?:\S+ )??(?:месячн|менструаци)\w*",
        r"\b(?:месячн|менструаци)\w* (?:\S+ )??(?:пропал|прекратил|исчез|не приход)\w*",
        r"\bзадержк\w* (?:месячн|менструаци)\w*"),
    "chest_pain": (
        r"\bchest (?:\S+ ){0,2}?" + PAIN_EN + r"\b", r"\btight chest\b", r"\b" + PAIN_EN + r" (?:in|on|across|around) (?:my |the )?chest\b",
        r"\bmy chest (?:hurts|hurt|is tight|feels tight)\b",
        HE + r"(?:כאב|כאבים|כאבי|כואב|כואבת|לחץ|לחצים|דקירות|דקירה|מועקה)" + r" (?:\S+ ){0,2}?" + HE + r"חזה",
        HE + r"חזה (?:\S+ )?(?:כואב|לוחץ)",
        r"\b(?:бол|давит|давящ|жжет|сдавлива|колет|ноет|ноющ)\w* (?:\S+ ){0,2}?груд\w*",
        r"\bгруд\w* (?:\S+ )?(?:бол|давит|сдавлива|ноет)\w*"),
    "fainting": (
        r"\bfaint(?:ed|ing|s)?\b", r"\bpass(?:ed|ing|es)? out\b", r"\bblack(?:ed|ing)? out\b", r"\bblackouts?\b",
        r"\blost consciousness\b", r"\bloss of consciousness\b", r"\bsyncope\b",
        HE + r"(?:התעלפ|מתעלפ|להתעלף|התעלף|עילפון|עלפון)\w*", HE + r"(?:איבד|איבדה|איבדתי|אובדן|איבוד) (?:את )?(?:ה)?הכרה",
        r"\bобморок\w*", r"\b(?:потерял|потеряла|потерять|теряю|теряет|потеря)\w* сознани\w*",
        r"\bбез сознания\b", r"\bотключил(?:ась|ся)\b"),
    "breathless_at_rest": (
        r"\b(?:short(?:ness)? of breath|breathless\w*|out of breath|can'?t catch my breath)\b.{0,40}?\b"
        + BREATH_REST_EN + r"\b",
        r"\b" + BREATH_REST_EN + r"\b.{0,40}?\b(?:short(?:ness)? of breath|breathless\w*|out of breath)\b",
        r"\b(?:can'?t|cannot|struggl\w* to|hard to|trouble|difficulty) breath(?:e|ing)\b",
        HE + r"קוצר נשימה (?:\S+ )?(?:במנוחה|בישיבה|בשכיבה|בלילה)", HE + r"קשה לי לנשום",
        HE + r"(?:חוסר|חסר לי) אוויר (?:\S+ )?(?:במנוחה|בישיבה|בשכיבה|בלילה)", HE + r"נחנק(?:ת)? (?:\S+ )?במנוחה",
        r"\bодышк\w* (?:\S+ )?(?:в покое|когда сижу|когда лежу|лежа|ночью)",
        r"\bзадыха\w* (?:\S+ )?(?:в покое|когда сижу|когда лежу|лежа|ночью)",
        r"\bне хватает воздуха\b", r"\bтрудно дышать\b", r"\bтяжело дышать\b"),
    "palpitations": (
        r"\bpalpitat\w*", r"\bheart (?:is )?(?:racing|races|raced|pounding|pounds|fluttering|flutters|skipping|skips)\b",
        r"\b(?:racing|pounding|fluttering) heart\b", r"\bskipped (?:heart)?beats?\b", r"\birregular heart ?beat\b",
        HE + r"דפיקות לב", HE + r"פלפיטצי\w*", HE + r"(?:ה)?לב (?:שלי )?(?:דופק|דוהר|מפרפר)",
        r"\b(?:учащенн\w*|сильн\w*|частое) сердцебиени\w*", r"\bсердцебиени\w* (?:\S+ )?в покое\b",
        r"\bсердце (?:\S+ )?(?:колотится|выпрыгивает|скачет|замирает)", r"\bперебои в (?:работе )?сердц\w*"),
    "bleeding": (
        r"\bblood in (?:my |the )?(?:stool|stools|poo|poop|urine|pee|vomit|sick|feces|faeces)\b",
        r"\bbloody (?:stool|stools|urine|vomit|diarrh\w*|poo|poop)\b",
        r"\b(?:vomit\w*|throwing up|threw up|throw up|peeing|pee|urinating|pooping) (?:\S+ ){0,2}?blood\b",
        r"\bblack,? tarry stools?\b",
        HE + r"דם (?:ב|עם )?(?:צואה|שתן|הקאה|הקאות|יציאות)", HE + r"(?:הקאתי|מקיא|מקיאה|הקאה של|הקאות של) דם",
        HE + r"(?:צואה|שתן|יציאות) (?:עם )?דם", HE + r"צואה (?:דמית|שחורה)",
        r"\bкров\w* в (?:моче|кале|стуле|рвоте)", r"\bрвот\w* (?:с )?кровью\b", r"\bрвало кровью\b",
        r"\b(?:моча|кал|стул) с кровью\b", r"\bкровав\w* (?:рвот|стул|моч)\w*"),
}

CONDITION: dict[str, tuple[str, ...]] = {
    "eating_disorder": (r"\bbinge\w*", r"\bednos\b", r"\bosfed\b"),
    "heart_condition": (r"\bheart\b", r"\bcardi(?:ac|o|ovascular|omyopathy)\w*", HE + r"לב(?!\w)", HE + r"לבבי\w*",
                        r"\bсерд(?:ц|еч)\w*", r"\bкардио\w*"),
    "kidney_disease": (r"\bkidneys?\b", r"\brenal\b", r"\bnephr\w*", HE + r"כלי(?:ה|ות)(?!\w)", r"\bпоч(?:к|еч)\w*"),
    "diabetes": (r"\bdm ?[12]\b",),
    "pregnancy": (r"\bexpecting\b",),
}

MEDICATION: tuple[str, ...] = (r"\binsulin\w*", r"(?<!\w)ה?אינסולין", r"\bинсулин\w*", BRANDS)
