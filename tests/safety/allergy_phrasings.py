"""Allergy and diet phrasings a member may type into the intake, in English, Hebrew and Russian (colloquial,
misspelt, inflected, singular and plural), each with the codes it must map to (NUTRITION.md, "Measured safety":
allergy phrasings mapped 100 %). Written as members write, not as the dictionary lists words; a milk allergy is
`milk` alone (it excludes every milk food, lactose included)."""

from __future__ import annotations

MILK, EGG, FISH, CRUST, MOLL = "milk", "egg", "fish", "crustacean_shellfish", "mollusc"
TREE, PEANUT, GLUTEN, WHEAT, SOY, SESAME = "tree_nuts", "peanut", "gluten", "wheat", "soy", "sesame"
SEAFOOD = (FISH, CRUST, MOLL)
NUTS = (TREE, PEANUT)

ALLERGIES: dict[str, list[tuple[str, tuple[str, ...]]]] = {
    "en": [
        ("milk allergy", (MILK,)), ("allergic to milk", (MILK,)), ("dairy-free", (MILK,)), ("no dairy", (MILK,)),
        ("lactose intolerant", ("lactose",)), ("celiac disease", (GLUTEN,)), ("coeliac", (GLUTEN,)),
        ("gluten-free", (GLUTEN,)), ("nut allergy", NUTS), ("seafood", SEAFOOD), ("Peanuts", (PEANUT,)),
        ("allergic to peanuts", (PEANUT,)), ("severe peanut allergy (EpiPen)", (PEANUT,)),
        ("tree nut allergy", (TREE,)), ("allergic to almonds", (TREE,)), ("walnuts and pecans", (TREE,)),
        ("cashew allergy", (TREE,)), ("egg allergy", (EGG,)), ("EGGS", (EGG,)), ("can't eat eggs", (EGG,)),
        ("fish allergy", (FISH,)), ("allergic to salmon", (FISH,)), ("shellfish", (CRUST, MOLL)),
        ("shrimp allergy", (CRUST,)), ("allergic to prawns and crab", (CRUST,)), ("lobster", (CRUST,)),
        ("mussels", (MOLL,)), ("oysters and clams", (MOLL,)), ("squid / calamari", (MOLL,)),
        ("soy allergy", (SOY,)), ("soya", (SOY,)), ("no soy please", (SOY,)), ("sesame allergy", (SESAME,)),
        ("sesame seeds", (SESAME,)), ("tahini", (SESAME,)), ("wheat allergy", (WHEAT,)),
        ("allergic to wheat", (WHEAT,)), ("gluten intolerance", (GLUTEN,)),
        ("non-celiac gluten sensitivity", (GLUTEN,)), ("I have celiac", (GLUTEN,)), ("celery", ("celery",)),
        ("mustard allergy", ("mustard",)), ("lupin", ("lupin",)), ("sulfites", ("sulphites",)),
        ("sulphite sensitivity", ("sulphites",)), ("lactose intolerance", ("lactose",)),
        ("can't have lactose", ("lactose",)), ("dairy intolerance", (MILK,)), ("cow's milk protein allergy", (MILK,)),
        ("casein allergy", (MILK,)), ("whey", (MILK,)), ("allergic to cheese", (MILK,)),
        ("no milk products", (MILK,)), ("peanut butter", (PEANUT,)), ("alergic to peanuts", (PEANUT,)),
        ("glutten free", (GLUTEN,)), ("shelfish", (CRUST, MOLL)), ("sesamee", (SESAME,)),
        ("allergic to all nuts", NUTS), ("Eggs & dairy", (MILK, EGG)), ("gluten and dairy free", (MILK, GLUTEN)),
        ("fish and shellfish", SEAFOOD), ("hazelnuts", (TREE,)), ("pistachio", (TREE,)), ("barley", (GLUTEN,)),
        ("rye", (GLUTEN,)), ("oats", (GLUTEN,)), ("spelt", (GLUTEN,)), ("soy milk", (SOY,)),
        ("sulfur dioxide", ("sulphites",)), ("chicken eggs", (EGG,)), ("anaphylactic to tree nuts", (TREE,)),
        ("crustaceans", (CRUST,)), ("molluscs", (MOLL,)), ("I'm lactose intolerant", ("lactose",)),
    ],
    "he": [
        ("אלרגיה לחלב", (MILK,)), ("אלרגי לחלב", (MILK,)), ("אלרגית לחלב", (MILK,)), ("ללא מוצרי חלב", (MILK,)),
        ("בלי חלב", (MILK,)), ("רגישות ללקטוז", ("lactose",)), ("אי סבילות ללקטוז", ("lactose",)),
        ("לקטוז", ("lactose",)), ("צליאק", (GLUTEN,)), ("צליאקיה", (GLUTEN,)), ("חולה צליאק", (GLUTEN,)),
        ("ללא גלוטן", (GLUTEN,)), ("רגישות לגלוטן", (GLUTEN,)), ("אלרגיה לאגוזים", NUTS),
        ("אלרגי לאגוזים", NUTS), ("אגוזי עץ", (TREE,)), ("אלרגיה לשקדים", (TREE,)), ("אגוזי מלך", (TREE,)),
        ("קשיו", (TREE,)), ("אלרגיה לבוטנים", (PEANUT,)), ("בוטנים", (PEANUT,)), ("חמאת בוטנים", (PEANUT,)),
        ("אלרגיה לביצים", (EGG,)), ("ביצים", (EGG,)), ("אני לא אוכל ביצים", (EGG,)), ("אלרגיה לדגים", (FISH,)),
        ("דגים", (FISH,)), ("סלמון", (FISH,)), ("פירות ים", SEAFOOD), ("אלרגיה לפירות ים", SEAFOOD),
        ("שרימפס", (CRUST,)), ("סרטנים", (CRUST,)), ("רכיכות", (MOLL,)), ("מולים", (MOLL,)), ("קלמרי", (MOLL,)),
        ("אלרגיה לסויה", (SOY,)), ("סויה", (SOY,)), ("טופו", (SOY,)), ("אלרגיה לשומשום", (SESAME,)),
        ("שומשום", (SESAME,)), ("טחינה", (SESAME,)), ("אלרגיה לחיטה", (WHEAT,)), ("חיטה", (WHEAT,)),
        ("סלרי", ("celery",)), ("חרדל", ("mustard",)), ("תורמוס", ("lupin",)), ("סולפיטים", ("sulphites",)),
        ("אלרגיה לחלב וביצים", (MILK, EGG)), ("גלוטן ולקטוז", (GLUTEN, "lactose")),
        ("אלרגית לבוטנים ולאגוזים", NUTS), ("שעורה", (GLUTEN,)), ("שיבולת שועל", (GLUTEN,)),
        ("אלרגיה לגבינה", (MILK,)), ("מי גבינה", (MILK,)), ("אלרגיה לבטנים", (PEANUT,)), ("גלוטין", (GLUTEN,)),
        ("רגישה למוצרי חלב", (MILK,)), ("אסור לי גלוטן", (GLUTEN,)), ("אלרגיה חמורה לאגוזי לוז", (TREE,)),
        ("בלי שומשום בבקשה", (SESAME,)), ("לא אוכלת דגים ופירות ים", SEAFOOD),
    ],
    "ru": [
        ("аллергия на молоко", (MILK,)), ("аллергия на молочные продукты", (MILK,)), ("без молочки", (MILK,)),
        ("не пью молоко", (MILK,)), ("непереносимость лактозы", ("lactose",)), ("лактоза", ("lactose",)),
        ("безлактозное", ("lactose",)), ("целиакия", (GLUTEN,)), ("без глютена", (GLUTEN,)),
        ("непереносимость глютена", (GLUTEN,)), ("аллергия на орехи", NUTS), ("Орехи", NUTS),
        ("аллергия на миндаль", (TREE,)), ("грецкие орехи", (TREE,)), ("фундук", (TREE,)), ("кешью", (TREE,)),
        ("аллергия на арахис", (PEANUT,)), ("арахис", (PEANUT,)), ("арахисовая паста", (PEANUT,)),
        ("аллергия на яйца", (EGG,)), ("яйца", (EGG,)), ("не ем яиц", (EGG,)), ("куриные яйца", (EGG,)),
        ("аллергия на рыбу", (FISH,)), ("рыба", (FISH,)), ("лосось", (FISH,)), ("морепродукты", SEAFOOD),
        ("аллергия на морепродукты", SEAFOOD), ("креветки", (CRUST,)), ("аллергия на креветки", (CRUST,)),
        ("крабы", (CRUST,)), ("мидии", (MOLL,)), ("кальмары", (MOLL,)), ("устрицы", (MOLL,)),
        ("аллергия на сою", (SOY,)), ("соя", (SOY,)), ("тофу", (SOY,)), ("аллергия на кунжут", (SESAME,)),
        ("кунжут", (SESAME,)), ("тахини", (SESAME,)), ("аллергия на пшеницу", (WHEAT,)), ("пшеница", (WHEAT,)),
        ("сельдерей", ("celery",)), ("горчица", ("mustard",)), ("люпин", ("lupin",)), ("сульфиты", ("sulphites",)),
        ("аллергия на молоко и яйца", (MILK, EGG)), ("глютен и лактоза", (GLUTEN, "lactose")),
        ("ячмень", (GLUTEN,)), ("рожь", (GLUTEN,)), ("овёс", (GLUTEN,)), ("аллергия на сыр", (MILK,)),
        ("молочка", (MILK,)), ("алергия на арахис", (PEANUT,)), ("без глутена", (GLUTEN,)),
        ("аллергия на морепродукты и рыбу", SEAFOOD), ("у меня целиакия", (GLUTEN,)),
        ("сильная аллергия на фисташки", (TREE,)), ("не переношу лактозу", ("lactose",)),
        ("аллергия на кедровые орехи", (TREE,)),
    ],
}

DIETS: dict[str, list[tuple[str, str]]] = {
    "en": [("vegan", "vegan"), ("I'm vegan", "vegan"), ("plant-based", "vegan"), ("Vegetarian", "vegetarian"),
           ("veggie", "vegetarian"), ("pescatarian", "pescatarian"), ("pescetarian", "pescatarian"),
           ("kosher", "kosher"), ("I keep kosher", "kosher"), ("halal", "halal"), ("halal only", "halal"),
           ("omnivore", "omnivore"), ("I eat everything", "omnivore")],
    "he": [("טבעוני", "vegan"), ("טבעונית", "vegan"), ("צמחונית", "vegetarian"), ("צמחוני", "vegetarian"),
           ("כשר", "kosher"), ("שומר כשרות", "kosher"), ("חלאל", "halal"), ("אוכל הכל", "omnivore")],
    "ru": [("веган", "vegan"), ("вегетарианка", "vegetarian"), ("вегетарианец", "vegetarian"),
           ("пескетарианец", "pescatarian"), ("кошерное", "kosher"), ("халяль", "halal"), ("ем всё", "omnivore")],
}

# Written after the mapper's first measurement on the phrasings above, and measured before any change to it: a
# check that the dictionary was not fitted to the phrasings (issue 37's "not a list of the phrasings you test").
HELD_OUT: dict[str, list[tuple[str, tuple[str, ...]]]] = {
    "en": [
        ("I'm allergic to dairy products", (MILK,)), ("Milk makes me sick", (MILK,)),
        ("no eggs or egg whites", (EGG,)), ("anaphylaxis to cashews and pistachios", (TREE,)),
        ("Tree-nut allergic", (TREE,)), ("allergy: groundnuts", (PEANUT,)), ("celiac (diagnosed 2019)", (GLUTEN,)),
        ("coeliac disease", (GLUTEN,)), ("I avoid gluten", (GLUTEN,)), ("wheat flour", (WHEAT,)),
        ("sensitive to soy", (SOY,)), ("soybeans", (SOY,)), ("edamame", (SOY,)), ("sesame oil", (SESAME,)),
        ("crab and lobster", (CRUST,)), ("all shellfish", (CRUST, MOLL)), ("scallops", (MOLL,)),
        ("octopus", (MOLL,)), ("tuna", (FISH,)), ("cod and haddock", (FISH,)), ("anchovies", (FISH,)),
        ("mustard seeds", ("mustard",)), ("celeriac", ("celery",)), ("lupine flour", ("lupin", WHEAT)),
        ("sulphites in dried fruit", ("sulphites",)), ("lactose", ("lactose",)), ("lactose-free please", ("lactose",)),
        ("yogurt", (MILK,)), ("butter", (MILK,)), ("peanut oil", (PEANUT,)), ("macadamias", (TREE,)),
        ("brazil nuts", (TREE,)), ("pine nuts", (TREE,)), ("eggs (raw or cooked)", (EGG,)),
        ("allergic 2 peanuts", (PEANUT,)), ("seafood allergy!!", SEAFOOD), ("shrimps", (CRUST,)),
        ("allergy to milk and soy", (MILK, SOY)),
    ],
    "he": [
        ("אני אלרגי לבוטנים", (PEANUT,)), ("יש לי צליאק", (GLUTEN,)), ("רגיש לחלב", (MILK,)),
        ("אלרגיה לאגוזי קשיו", (TREE,)), ("בלי ביצים", (EGG,)), ("אלרגיה לסרטנים", (CRUST,)),
        ("אלרגיה לטונה", (FISH,)), ("ללא לקטוז", ("lactose",)), ("אלרגיה לפיסטוק", (TREE,)),
        ("אלרגית לשומשום ולטחינה", (SESAME,)), ("אלרגיה לקמח", (WHEAT,)), ("לא אוכל גלוטן", (GLUTEN,)),
        ("אלרגיה ליוגורט", (MILK,)), ("אלרגיה לחמאה", (MILK,)), ("אלרגיה לחרדל", ("mustard",)),
    ],
    "ru": [
        ("у меня аллергия на арахис", (PEANUT,)), ("аллергик на орехи", NUTS), ("без яиц", (EGG,)),
        ("аллергия на креветок", (CRUST,)), ("нельзя молочное", (MILK,)), ("аллергия на кешью и фундук", (TREE,)),
        ("аллергия на треску", (FISH,)), ("без лактозы", ("lactose",)), ("аллергия на мидии", (MOLL,)),
        ("не переношу глютен", (GLUTEN,)), ("аллергия на йогурт", (MILK,)), ("аллергия на сливочное масло", (MILK,)),
        ("аллергия на горчицу", ("mustard",)), ("аллергия на муку", (WHEAT,)), ("аллергия на кунжутное масло", (SESAME,)),
    ],
}
