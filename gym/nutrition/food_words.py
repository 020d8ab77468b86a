"""The food words of three languages, each meaning one concept: what it carries (allergen codes, food classes) and
which library foods it names. The one dictionary a member's allergies and aversions and every agent's free text
are read with (`gym.nutrition.food_lexicon` matches it; `gym.nutrition.allergy_terms` maps intake words).

Words are dictionary forms; `gym.nutrition.word_forms` meets their inflections ("орехов", "ללקטוז", "peanuts"),
so a word is listed once per lemma, with only the forms Russian and Hebrew make irregularly ("яиц", "креветок").
A concept is a family ("nuts", "seafood", "meat": it excludes by the codes or classes it carries) or a food ("salmon",
"bacon", "cheese": it names foods). The library's own foods join as food concepts by their names in en/he/ru
(`gym.nutrition.foods`). `FRAME` holds the words around an allergy that name no food ("allergic to", "-free",
"непереносимость", "רגישות ל"): what is left after them must be food words, or the term is not understood.
"""

from __future__ import annotations

from dataclasses import dataclass

FAMILY, FOOD = "family", "food"


@dataclass(frozen=True)
class Words:
    key: str
    kind: str  # FAMILY or FOOD
    allergens: str  # space-separated codes
    classes: str  # space-separated food classes
    tags: str  # the library tags whose foods it names ("" for none)
    names: str  # the codes an allergy written with it names ("wheat": wheat; it carries gluten too)
    en: tuple[str, ...]
    he: tuple[str, ...]
    ru: tuple[str, ...]


def _w(key: str, kind: str, allergens: str, classes: str, tags: str, en: str, he: str, ru: str, *,
       names: str | None = None) -> Words:
    return Words(key, kind, allergens, classes, tags, allergens if names is None else names,
                 *(tuple(w.strip() for w in s.split(",") if w.strip()) for s in (en, he, ru)))


CONCEPTS: tuple[Words, ...] = (
    # Milk and lactose
    _w("dairy", FAMILY, "milk lactose", "dairy", "dairy", "dairy, milk, buttermilk, cow milk, cows milk, milk product, lactalbumin, casein, caseinate",
       "חלב, חלבי, מוצרי חלב, חלב פרה, קזאין", "молоко, молочный, молочка, молочные продукты, коровье молоко, казеин, лактальбумин"),
    _w("lactose", FAMILY, "lactose", "dairy", "dairy", "lactose", "לקטוז", "лактоза, безлактозный"),
    _w("cheese", FOOD, "milk lactose", "dairy", "cheese", "cheese, mozzarella, parmesan, cheddar, ricotta, cottage cheese, cream cheese, halloumi, labneh",
       "גבינה, גבינות, קוטג, לבנה, מוצרלה, פרמזן, חלומי, ריקוטה, גבינה לבנה, גבינה צהובה",
       "=сыр, =сыра, =сыру, =сыром, =сыре, =сыры, =сыров, =сырами, творог, моцарелла, пармезан, брынза, рикотта, халуми, сырок"),
    _w("butter", FOOD, "milk", "dairy", "", "butter, ghee", "חמאה, גהי", "сливочное масло, топленое масло, гхи"),
    _w("cream", FOOD, "milk lactose", "dairy", "", "cream, sour cream, whipped cream, ice cream, creme fraiche",
       "שמנת, שמנת חמוצה, גלידה", "сливки, сметана, мороженое"),
    _w("yogurt", FOOD, "milk lactose", "dairy", "yogurt", "yogurt, yoghurt, kefir", "יוגורט, אשל, קפיר",
       "йогурт, кефир, ряженка, простокваша"),
    _w("whey", FOOD, "milk lactose", "dairy", "whey", "whey", "מי גבינה", "сыворотка, сывороточный"),
    # Eggs
    _w("egg", FAMILY, "egg", "egg", "egg", "egg, chicken egg, hen egg, yolk, albumen, mayonnaise, mayo, meringue",
       "ביצה, ביצים, ביצת תרנגולת, חלמון, מיונז, מרנג",
       "яйцо, яиц, яичный, яичко, куриное яйцо, куриных яиц, желток, майонез, меренга"),
    # Fish, crustaceans, molluscs
    _w("seafood", FAMILY, "fish crustacean_shellfish mollusc", "fish crustacean mollusc", "fish crustacean",
       "seafood, sea food", "פירות ים, מאכלי ים", "морепродукты, морепродукт, дары моря"),
    _w("shellfish", FAMILY, "crustacean_shellfish mollusc", "crustacean mollusc", "crustacean", "shellfish, shell fish",
       "רכיכות וסרטנים, פירות ים קשיחים", "моллюски и ракообразные"),
    _w("fish", FAMILY, "fish", "fish", "fish", "fish, fish sauce, fish oil", "דג, דגים, רוטב דגים, שמן דגים",
       "рыба, рыбный, рыбий жир, рыбный соус"),
    _w("scaled fish", FOOD, "fish", "fish", "", "trout, sardine, anchovy, mackerel, herring, halibut, sea bass, carp, haddock, pollock, snapper, sea bream",
       "פורל, סרדין, סרדינים, אנשובי, מקרל, הרינג, מושט, לברק, דניס, קרפיון, בורי",
       "форель, сардина, анчоус, скумбрия, сельдь, селедка, карп, минтай, сибас, дорадо, палтус, пикша"),
    _w("fish without scales", FOOD, "fish", "fish fish_without_scales", "", "catfish, eel, swordfish, shark, monkfish, sturgeon",
       "שפמנון, צלופח, דג חרב, כריש", "сом, угорь, рыба меч, акула, осетр, осетрина"),
    _w("crustacean", FAMILY, "crustacean_shellfish", "crustacean", "crustacean",
       "crustacean, crab, lobster, crayfish, crawfish, langoustine, krill",
       "סרטן, סרטנים, סרטנאים, לובסטר, חסילונים", "ракообразные, краб, крабовый, омар, лобстер, рак, лангуст, лангустин, криль"),
    _w("mollusc", FAMILY, "mollusc", "mollusc", "", "mollusc, mollusk, mussel, clam, oyster, scallop, squid, calamari, octopus, snail, escargot, cuttlefish, abalone",
       "רכיכה, רכיכות, מולים, צדפה, צדפות, קלמרי, קלמרים, דיונון, תמנון, שבלול, צדפות סנט ז׳אק",
       "моллюск, моллюски, мидия, мидии, устрица, гребешок, кальмар, осьминог, улитка, каракатица"),
    # Nuts and peanuts
    _w("nuts", FAMILY, "tree_nuts peanut", "", "nut", "nut, nut butter, mixed nuts", "אגוז, אגוזים, חמאת אגוזים",
       "орех, орехи, ореховый, ореховая паста"),
    _w("tree nuts", FAMILY, "tree_nuts", "", "tree_nut", "tree nut, walnut, pecan, hazelnut, filbert, pistachio, macadamia, brazil nut, pine nut, praline, marzipan, nutella, gianduja",
       "אגוזי עץ, אגוז מלך, פקאן, לוז, אגוזי לוז, פיסטוק, מקדמיה, אגוז ברזיל, צנובר, מרציפן, נוטלה",
       "древесные орехи, грецкий орех, фундук, лесной орех, фисташка, фисташки, макадамия, пекан, бразильский орех, кедровый орех, марципан, нутелла"),
    _w("peanut", FAMILY, "peanut", "", "peanut", "peanut, groundnut, peanut butter, peanut oil, groundnut oil, monkey nut, arachis",
       "בוטן, בוטנים, חמאת בוטנים, שמן בוטנים, במבה", "арахис, арахисовый, арахисовая паста, арахисовое масло, земляной орех"),
    # Cereals
    _w("gluten", FAMILY, "gluten", "", "gluten", "gluten, celiac, coeliac, celiac disease, sprue, barley, rye, spelt, triticale, kamut, malt, farro",
       "גלוטן, צליאק, צליאקיה, שעורה, שעורים, שיפון, כוסמין, מאלט",
       "глютен, клейковина, целиакия, глютеновый, безглютеновый, ячмень, рожь, ржаной, полба, спельта, солод"),
    _w("wheat", FAMILY, "wheat gluten", "", "wheat", "wheat, flour, semolina, durum, couscous, bread crumbs, breadcrumbs",
       "חיטה, קמח, סולת, קוסקוס, פירורי לחם", "пшеница, пшеничный, мука, манка, манная крупа, кускус, сухари, панировка",
       names="wheat"),
    _w("bread", FOOD, "wheat gluten", "", "bread", "bread, bun, bagel", "לחם, לחמניה, בייגל", "хлеб, булка, булочка, бублик"),
    _w("rice", FOOD, "", "", "rice", "rice", "אורז", "рис"),
    _w("oats", FOOD, "gluten", "", "oat", "oat, oatmeal, porridge oats, oat milk", "שיבולת שועל, קוואקר, חלב שיבולת שועל",
       "овес, овсянка, овсяный, овсяные хлопья, овсяное молоко"),
    _w("noodles", FOOD, "wheat gluten", "", "", "noodle, ramen, udon", "אטריות, נודלס", "лапша"),
    # Soy, sesame and the other EU allergens
    _w("soy", FAMILY, "soy", "", "soy", "soy, soya, soybean, soy bean, edamame, tempeh, miso, soy lecithin, soy milk",
       "סויה, אדממה, טמפה, מיסו, חלב סויה", "соя, сои, сою, соей, соевый, эдамаме, темпе, мисо, соевое молоко"),
    _w("soy sauce", FOOD, "soy wheat gluten", "", "", "soy sauce, tamari, shoyu", "רוטב סויה", "соевый соус"),
    _w("sesame", FAMILY, "sesame", "", "sesame", "sesame, sesame seed, sesame oil, tahini, tahina, halva, halvah, benne",
       "שומשום, שמן שומשום, טחינה, =חלבה, =החלבה", "кунжут, кунжутный, кунжутное масло, сезам, тахини, тахина, халва"),
    _w("celery", FAMILY, "celery", "", "", "celery, celeriac, celery salt", "סלרי", "сельдерей"),
    _w("mustard", FAMILY, "mustard", "", "", "mustard", "חרדל", "горчица, горчичный"),
    _w("lupin", FAMILY, "lupin", "", "", "lupin, lupine", "תורמוס", "люпин"),
    _w("sulphites", FAMILY, "sulphites", "", "", "sulphite, sulfite, sulphur dioxide, sulfur dioxide, metabisulfite, metabisulphite",
       "סולפיט, סולפיטים, גופרית דו חמצנית", "сульфит, сульфиты, диоксид серы, сернистый ангидрид"),
    # Meat and the other classes diets leave out
    _w("meat", FAMILY, "", "meat", "meat", "meat, minced meat, meat broth, bone broth, jerky, liver, hamburger, meatball",
       "בשר, בשרי, בשר טחון, מרק עוף, כבד, המבורגר", "мясо, мясной, фарш, мясной бульон, печень, гамбургер, фрикаделька"),
    _w("red meat", FAMILY, "", "meat red_meat", "red_meat", "red meat", "בשר אדום", "красное мясо"),
    _w("beef", FOOD, "", "meat red_meat", "beef", "beef, veal, steak, entrecote", "בקר, עגל, סטייק, אנטריקוט",
       "говядина, говяжий, телятина, стейк, антрекот"),
    _w("lamb", FOOD, "", "meat red_meat", "", "lamb, mutton, goat meat, venison", "כבש, טלה, בשר כבש, צאן",
       "баранина, ягнятина, козлятина, оленина"),
    _w("pork", FAMILY, "", "meat red_meat pork", "pork", "pork, pig", "חזיר, בשר חזיר", "свинина, свиной"),
    _w("pork products", FOOD, "", "meat red_meat pork", "", "bacon, ham, prosciutto, pancetta, chorizo, salami, pepperoni, lard, pork rind, sausage, hot dog",
       "בייקון, קותלי חזיר, נקניק, נקניקיה, סלמי, פפרוני, שומן חזיר",
       "бекон, ветчина, прошутто, хамон, чоризо, салями, пепперони, сало, колбаса, сосиска"),
    _w("poultry", FAMILY, "", "meat poultry", "poultry", "poultry, white meat, fowl", "עופות, בשר עוף", "птица, мясо птицы"),
    _w("duck", FOOD, "", "meat poultry", "", "duck, goose, quail", "ברווז, אווז, שליו", "утка, гусь, перепел"),
    _w("gelatin", FOOD, "", "gelatin pork meat", "", "gelatin, gelatine", "ג׳לטין, ג'לטין, ג'לי", "желатин"),
    _w("honey", FOOD, "", "honey", "", "honey", "דבש", "мед, медовый"),
    _w("alcohol", FAMILY, "sulphites", "alcohol", "", "alcohol, wine, beer, vodka, rum, brandy, whisky, liqueur, sake, mirin, cider",
       "אלכוהול, יין, בירה, וודקה, ערק, ליקר, סאקה", "алкоголь, вино, пиво, водка, ром, коньяк, виски, ликер, саке"),
    # Words that name a food some allergens share their name with, and are not it
    _w("plant milk", FOOD, "", "", "", "coconut milk, rice milk", "חלב קוקוס, חלב אורז", "кокосовое молоко, рисовое молоко"),
    _w("almond milk", FOOD, "tree_nuts", "", "", "almond milk", "חלב שקדים", "миндальное молоко"),
    _w("cocoa butter", FOOD, "", "", "", "cocoa butter, shea butter", "חמאת קקאו", "какао масло"),
)

# Diet patterns in the member's words (the intake's `diet_pattern`).
DIETS: dict[str, tuple[str, ...]] = {
    "omnivore": ("omnivore", "omnivorous", "everything", "no restriction", "normal", "regular",
                 "אוכל הכל", "הכל", "רגיל", "всеядный", "всеядная", "все", "обычный", "обычная"),
    "pescatarian": ("pescatarian", "pescetarian", "pesco vegetarian", "פסקטריאן", "פסקטריאנית", "צמחוני שאוכל דגים",
                    "пескетарианец", "пескетарианка", "пескетарианство", "пескетарианский"),
    "vegetarian": ("vegetarian", "veggie", "lacto ovo", "ovo lacto", "lacto vegetarian", "צמחוני", "צמחונית", "צמחונות",
                   "вегетарианец", "вегетарианка", "вегетарианский", "вегетарианство"),
    "vegan": ("vegan", "plant based", "strict vegetarian", "טבעוני", "טבעונית", "טבעונות", "веган", "веганка",
              "веганский", "веганство", "растительный"),
    "kosher": ("kosher", "kashrut", "כשר", "כשרה", "כשרות", "שומר כשרות", "кошерный", "кошерная", "кошер", "кашрут"),
    "halal": ("halal", "halaal", "חלאל", "חאלל", "халяль", "халяльный", "халяльная", "халал"),
}

# The words around an allergy or a diet that name no food.
FRAME: dict[str, str] = {
    "en": ("allergy, allergies, allergic, allergen, intolerance, intolerant, intolerances, sensitivity, sensitive, free, no, not, "
           "non, without, avoid, avoids, avoiding, cannot, can, cant, eat, eats, eating, drink, drinks, consume, react, reaction, "
           "anaphylaxis, anaphylactic, severe, serious, mild, strict, strictly, bad, very, really, super, highly, extremely, "
           "slightly, slight, i, im, am, is, are, have, has, had, get, gets, to, from, of, a, an, the, and, or, any, all, "
           "kind, kinds, type, types, product, products, food, foods, containing, contains, contain, based, with, me, my, "
           "disease, condition, epipen, hives, rash, trace, traces, etc, also, plus, diet, only, please, stuff, things, "
           "thing, ill, sick, makes, make, intolerancy, allergie, diagnosed, sensitivities, issue, issues, problem, "
           "problems, dont, do, does, doesnt, agree, eater, person, but, like, ok, fine, keep, away, which, that, it, "
           "in, life, threatening, hate, dislike, touch, even, gut, stomach, tummy, upset, bloated, bloating, "
           "belly, certified, also, just, whatever, so, bit, little, lot, lots, at, cause, causes, myself, m, s, t, "
           "ingredient, ingredients, except, means, meaning, yes, for, any, other, seed, seeds, protein, proteins, "
           "raw, cooked, dried, fresh, roasted, fried, boiled, baked, processed, form, forms, fruit, fruits, source, sources"),
    "he": ("אלרגיה, אלרגיות, אלרגי, אלרגית, אלרגיים, רגישות, רגיש, רגישה, רגישים, אי, סבילות, ללא, בלי, לא, אוכל, אוכלת, "
           "יכול, יכולה, מוצר, מוצרים, מזון, מזונות, אני, יש, לי, של, עם, קשה, חמורה, חמור, קלה, מחלת, מחלה, נטול, נטולת, "
           "נטולי, מכיל, מכילה, מכילים, מאכלים, מאכל, כל, סוגי, סוג, תגובה, מקבל, מקבלת, פריחה, אפיפן, רק, גם, דיאטה, "
           "שאינו, אסור, נמנע, נמנעת, להימנע, אוכלים, טוב, עושה, עושים, רע, כאבי, כאב, נפיחות, מאובחן, מאובחנת, "
           "או, ו, את, ה, ב, מ, כ, ש, זה, הכל, כלום, שום, דבר, דברים, אפילו, עקבות, מוצרי, רכיב, רכיבים, סובל, סובלת, "
           "חי, מבושל, מיובש, מיובשים, טרי, פירות, פרי, חולה, חולת, חלבון, זרעי, זרעים, מסכנת, חיים, אנפילקסיס, אנפילקטי, שונא, שונאת, אוהב, אוהבת, מרגיש, מרגישה"),
    "ru": ("аллергия, аллергии, аллергик, аллергичен, аллергична, аллергический, аллерген, непереносимость, непереносим, "
           "переношу, переносимость, чувствительность, нельзя, без, нет, не, у, меня, мне, на, я, ем, есть, кушать, "
           "продукт, продукты, содержащие, содержит, содержащий, любые, все, всё, вид, виды, сильная, сильный, легкая, "
           "жесткая, строгая, и, или, к, болезнь, заболевание, реакция, с, от, со, ни, никаких, никакой, диета, только, "
           "тоже, также, пожалуйста, сыпь, крапивница, анафилаксия, анафилактический, шок, эпипен, плохо, живот, "
           "вздутие, болит, диагноз, диагностирована, диагностирован, страдаю, избегаю, избегать, исключить, исключаю, "
           "вообще, даже, следы, следов, состав, составе, ингредиент, ингредиенты, что, это, очень, немного, "
           "сырой, вареный, сушеный, сухофрукты, фрукты, жареный, белок, белка, семена, семечки, нетерпимость, свободный, пить, пью, употребляю, могу, можно, ненавижу, люблю, переносить, тип, типа"),
}
