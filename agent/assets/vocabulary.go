package assets

import (
	"slices"
	"strings"
)

// synonyms name, for a word people use, the drawing they mean: another name or CLDR
// label of the library, or an asset id where no name says it ("paper plane" is
// Tabler's send icon). CLDR keywords already cover most synonyms; these are the ones
// where the keywords lead to a worse first choice.
var synonyms = map[string]string{
	// vehicles
	"plane": "airplane", "aeroplane": "airplane", "jet": "airplane", "aircraft": "airplane",
	"paper plane": "tabler:send", "paper airplane": "tabler:send", "paper aeroplane": "tabler:send",
	"car": "automobile", "auto": "automobile", "sedan": "automobile", "taxi cab": "taxi",
	"boat": "sailboat", "sail boat": "sailboat", "yacht": "sailboat", "sailing boat": "sailboat",
	"bike": "bicycle", "motorbike": "motorcycle", "scooter": "motor scooter", "lorry": "delivery truck",
	"truck": "delivery truck", "train": "locomotive", "steam train": "locomotive", "submarine": "tabler:submarine",
	"hot air balloon": "tabler:air-balloon", "air balloon": "tabler:air-balloon",
	"zeppelin": "tabler:zeppelin", "blimp": "tabler:zeppelin", "airship": "tabler:zeppelin", "dirigible": "tabler:zeppelin",
	"spaceship": "rocket", "space ship": "rocket", "spacecraft": "rocket", "ufo": "flying saucer",
	// animals
	"kitty": "cat", "kitten": "cat", "puppy": "dog", "doggy": "dog", "doggo": "dog", "pup": "dog",
	"bunny": "rabbit", "hare": "rabbit", "birdie": "bird", "fishy": "tropical fish", "goldfish": "tropical fish",
	"ladybird": "lady beetle", "ladybug": "lady beetle", "bee": "honeybee", "dino": "sauropod", "dinosaur": "sauropod",
	"pony": "horse", "bull": "ox", "kitty cat": "cat", "whale": "spouting whale",
	// food and drink
	"coffee": "hot beverage", "coffee cup": "hot beverage", "cup of coffee": "hot beverage", "coffee mug": "hot beverage",
	"mug": "hot beverage", "cup": "hot beverage", "latte": "hot beverage", "espresso": "hot beverage",
	"tea": "teacup without handle", "cup of tea": "teacup without handle", "tea cup": "teacup without handle",
	"burger": "hamburger", "fries": "french fries", "apple": "red apple", "cheese": "cheese wedge",
	"icecream": "soft ice cream", "ice cream cone": "soft ice cream", "cake": "birthday cake", "donut": "doughnut",
	"wine": "wine glass", "beer": "beer mug", "juice": "beverage box", "soda": "cup with straw",
	// weather and sky
	"moon": "crescent moon", "lightning": "high voltage", "lightning bolt": "high voltage", "bolt": "high voltage",
	"thunder": "cloud with lightning", "storm": "cloud with lightning and rain", "rain": "cloud with rain",
	"snow": "snowflake", "wind": "wind face", "wave": "water wave", "ocean": "water wave", "sea": "water wave",
	"shooting star": "shooting star", "falling star": "shooting star", "earth": "globe showing europe africa",
	"world": "globe showing europe africa", "globe": "globe showing europe africa", "planet": "ringed planet",
	"sunshine": "sun", "sunny": "sun", "cloudy": "cloud",
	// nature
	"tree": "deciduous tree", "pine": "evergreen tree", "pine tree": "evergreen tree", "flower": "blossom",
	"leaf": "fallen leaf", "autumn leaf": "maple leaf", "plant": "potted plant", "island": "desert island",
	"beach": "beach with umbrella", "city": "cityscape", "skyline": "cityscape", "fire": "fire", "flame": "fire",
	// objects
	"price tag": "label", "tag": "label", "speech bubble": "left speech bubble", "chat bubble": "speech balloon",
	"thought bubble": "thought balloon", "gift": "wrapped gift", "present": "wrapped gift", "gift box": "wrapped gift",
	"money": "money bag", "dollar": "dollar banknote", "cash": "dollar banknote", "coin": "coin",
	"phone": "mobile phone", "smartphone": "mobile phone", "cellphone": "mobile phone", "computer": "laptop",
	"mail": "envelope", "letter": "envelope", "clock": "mantelpiece clock",
	"lightbulb": "light bulb", "bulb": "light bulb", "idea": "light bulb", "magnifier": "magnifying glass tilted left",
	"magnifying glass": "magnifying glass tilted left", "book": "closed book", "notebook": "notebook",
	// A speaker plays sound: the loud one, not the muted one its keyword finds first.
	"speaker": "fluent:speaker-high-volume", "loudspeaker": "fluent:speaker-high-volume",
	"music": "musical note", "note": "musical note", "headphones": "headphone", "headset": "headphone",
	"heart": "red heart", "diamond": "gem stone", "jewel": "gem stone", "confetti": "confetti ball",
	"party": "party popper", "sparkle": "sparkles", "tick": "check mark button", "checkmark": "check mark button",
	"check mark": "check mark button", "cross": "cross mark", "calendar": "spiral calendar", "chart": "chart increasing",
	"graph": "chart increasing", "trophy": "trophy", "cup trophy": "trophy", "medal": "1st place medal",
	"hourglass": "hourglass done", "timer": "timer clock", "box": "package", "parcel": "package",
	"bag": "shopping bags", "shopping bag": "shopping bags", "cart": "shopping cart", "trolley": "shopping cart",
	"frisbee": "flying disc", "glasses": "glasses", "spectacles": "glasses", "bubble": "bubbles", "bell": "bell", "key": "key", "lock": "locked",
	"padlock": "locked", "pin": "round pushpin", "map pin": "round pushpin", "location": "round pushpin",
	// Tabler's location-pin is a paper-plane arrow with a small pin: the pin people mean is the round one.
	"location pin": "round pushpin", "map marker": "round pushpin", "location marker": "round pushpin",
	"gps pin": "round pushpin", "map pointer": "round pushpin",
	// Tabler's "dumbbell" draws a kettlebell and its "barbell" a dumbbell.
	"dumbbell": "tabler:barbell", "hand weight": "tabler:barbell", "kettlebell": "tabler:dumbbell",
	"flag": "triangular flag", "brain": "brain", "eye": "eye", "hand": "raised hand", "thumbs up": "thumbs up",
	"camera": "camera", "video camera": "video camera", "tv": "television", "robot": "robot", "rocket": "rocket",
	"ball": "soccer ball", "football": "soccer ball", "house": "house", "building": "office building",
	"school": "school", "hospital": "hospital", "castle": "castle", "bridge": "bridge at night", "tent": "tent",
	"sword": "crossed swords", "lamp": "tabler:lamp", "knife": "kitchen knife", "email": "e mail",
	// interface pieces, whose keywords lead elsewhere (a "mouse cursor" is no mouse, a
	// "search bar" no bar chart)
	"mouse cursor": "tabler:pointer", "mouse pointer": "tabler:pointer", "cursor": "tabler:pointer",
	"toggle switch": "tabler:toggle-right", "toggle": "tabler:toggle-right", "switch": "tabler:toggle-right",
	"search bar": "magnifying glass tilted right", "search box": "magnifying glass tilted right",
	"water bottle": "tabler:bottle", "battery icon": "battery", "download arrow": "tabler:download",
}

// uiWords are interface notions a line icon draws better than an emoji.
var uiWords = map[string]bool{
	"settings": true, "setting": true, "wifi": true, "wi fi": true, "battery": true, "bluetooth": true, "search": true,
	"menu": true, "hamburger menu": true, "download": true, "upload": true, "share": true, "refresh": true,
	"reload": true, "user": true, "users": true, "profile": true, "avatar": true, "login": true, "logout": true,
	"trash": true, "delete": true, "edit": true, "filter": true, "plus": true, "minus": true, "checkbox": true,
	"toggle": true, "switch": true, "slider": true, "dashboard": true, "notification": true, "notifications": true,
	"cursor": true, "pointer": true, "click": true, "home": true, "inbox": true, "send": true, "attachment": true,
	"link": true, "copy": true, "paste": true, "save": true, "print": true, "zoom": true, "volume": true,
	"play": true, "pause": true, "stop": true, "signal": true, "cloud upload": true, "cloud download": true,
	"database": true, "server": true, "code": true, "terminal": true, "api": true, "git": true, "bug report": true,
	"sort": true, "list": true, "grid": true, "layout": true, "sidebar": true, "window": true, "browser": true,
	"password": true, "shield": true, "analytics": true, "help": true, "info": true, "alert": true, "warning": true,
}

// relatives name, for a subject the library has no drawing of, the nearest one of its
// category (a limousine is drawn as a car, a jaguar as a leopard). The match reports
// the substitution.
var relatives = map[string]string{
	// vehicles
	"limousine": "automobile", "limo": "automobile", "jeep": "sport utility vehicle", "suv": "sport utility vehicle",
	"van": "minibus", "minivan": "minibus", "convertible": "automobile", "sports car": "racing car",
	"tram": "tram car", "streetcar": "tram car", "subway": "metro", "glider": "small airplane", "drone": "helicopter",
	"jet ski": "speedboat", "ferry": "ship", "cruise ship": "passenger ship", "steamboat": "ship", "raft": "canoe",
	"kayak": "canoe", "gondola": "canoe", "skateboard": "skateboard", "rickshaw": "auto rickshaw", "tank": "tabler:tank",
	"tractor": "tractor", "bulldozer": "building construction", "satellite": "satellite", "space shuttle": "rocket",
	// animals
	"jaguar": "leopard", "cheetah": "leopard", "panther": "black cat", "puma": "leopard", "lynx": "cat",
	"wombat": "koala", "possum": "raccoon", "opossum": "raccoon", "weasel": "otter", "ferret": "otter",
	"hamster": "mouse", "gerbil": "mouse", "guinea pig": "hamster", "moose": "deer", "elk": "deer", "reindeer": "deer",
	"antelope": "deer", "gazelle": "deer", "buffalo": "water buffalo", "bison": "bison", "donkey": "donkey",
	"alpaca": "llama", "walrus": "seal", "sea lion": "seal", "manatee": "seal", "dolphin": "dolphin", "porpoise": "dolphin",
	"stingray": "fish", "eel": "fish", "salmon": "fish", "trout": "fish", "tuna": "fish", "piranha": "fish",
	"jellyfish": "jellyfish", "starfish": "tabler:star", "sea star": "tabler:star", "squid": "squid",
	"crow": "black bird", "raven": "black bird", "sparrow": "bird", "robin": "bird", "pigeon": "dove", "seagull": "bird",
	"gull": "bird", "hummingbird": "bird", "woodpecker": "bird", "hawk": "eagle", "falcon": "eagle", "vulture": "eagle",
	"ostrich": "bird", "emu": "bird", "kiwi bird": "bird", "toucan": "parrot", "macaw": "parrot", "budgie": "parrot",
	"hen": "chicken", "rooster": "rooster", "chick": "baby chick", "duckling": "duck", "goose": "swan",
	"lizard": "lizard", "gecko": "lizard", "iguana": "lizard", "chameleon": "lizard", "alligator": "crocodile",
	"toad": "frog", "tadpole": "frog", "salamander": "lizard", "newt": "lizard",
	"moth": "butterfly", "dragonfly": "butterfly", "firefly": "beetle", "wasp": "honeybee", "hornet": "honeybee",
	"grasshopper": "cricket", "caterpillar": "bug", "worm": "worm", "centipede": "bug", "termite": "ant",
	"dragon": "dragon", "griffin": "eagle", "pegasus": "unicorn", "yeti": "hairy creature", "bigfoot": "hairy creature",
	// food
	"sandwich": "sandwich", "toast": "bread", "bagel": "bagel", "muffin": "cupcake", "brownie": "chocolate bar",
	"chocolate": "chocolate bar", "candy bar": "chocolate bar", "pie": "pie", "tart": "pie", "pudding": "custard",
	"noodles": "steaming bowl", "ramen": "steaming bowl", "soup": "pot of food", "stew": "pot of food",
	"salad": "green salad", "steak": "cut of meat", "bacon": "bacon", "sausage": "hot dog", "nacho": "taco",
	"nachos": "taco", "kebab": "stuffed flatbread", "wrap": "burrito", "smoothie": "cup with straw",
	"milkshake": "cup with straw", "lemonade": "cup with straw", "cocktail": "cocktail glass", "champagne": "bottle with popping cork",
	"plum": "cherries", "apricot": "peach", "nectarine": "peach", "raspberry": "strawberry", "blackberry": "blueberries",
	"grapefruit": "tangerine", "orange": "tangerine", "lime": "lemon", "papaya": "mango", "squash": "pumpkin",
	"zucchini": "cucumber", "courgette": "cucumber", "lettuce": "leafy green", "spinach": "leafy green",
	"cabbage": "leafy green", "kale": "leafy green", "radish": "carrot", "turnip": "carrot", "beet": "carrot",
	// weather and nature
	"hurricane": "cyclone", "typhoon": "cyclone", "twister": "tornado", "blizzard": "cloud with snow",
	"drizzle": "cloud with rain", "hail": "cloud with snow", "mist": "fog", "haze": "fog", "sleet": "cloud with snow",
	"meteorite": "comet", "asteroid": "rock", "galaxy": "milky way", "nebula": "milky way", "star cluster": "sparkles",
	"hill": "mountain", "cliff": "mountain", "canyon": "mountain", "valley": "national park", "forest": "evergreen tree",
	"jungle": "palm tree", "desert": "desert", "lake": "water wave", "river": "water wave", "pond": "water wave",
	"waterfall": "water wave", "bush": "potted plant", "shrub": "potted plant", "fern": "herb", "moss": "herb",
	"oak": "deciduous tree", "maple": "maple leaf", "willow": "deciduous tree", "daisy": "blossom", "lily": "tulip",
	"orchid": "hibiscus", "lotus": "lotus", "poppy": "hibiscus", "violet": "blossom", "dandelion": "blossom",
	// objects and places
	"skyscraper": "office building", "tower": "tokyo tower", "apartment": "office building", "cabin": "house",
	"cottage": "house", "hut": "hut", "barn": "house", "temple": "classical building", "museum": "classical building",
	"bank": "bank", "church": "church", "palace": "castle", "fortress": "castle", "windmill": "tabler:windmill",
	"lantern": "red paper lantern", "candle": "candle", "torch": "flashlight", "flashlight": "flashlight",
	"vase": "amphora", "jar": "jar", "bucket": "bucket", "basket": "basket", "bowl": "bowl with spoon",
	// A fish bowl or tank has no drawing of its own: the nearest names, which the builtin
	// agent redraws as glass and water (its habitat program).
	"fishbowl": "bowl with spoon", "fish bowl": "bowl with spoon", "goldfish bowl": "bowl with spoon",
	"fish tank": "tabler:tank", "fishtank": "tabler:tank", "aquarium": "tabler:tank", "aquaria": "tabler:tank",
	"spoon": "spoon", "fork": "fork and knife", "plate": "fork and knife with plate",
	"chair": "chair", "sofa": "couch and lamp", "couch": "couch and lamp", "bed": "bed", "desk": "desktop computer",
	"monitor": "desktop computer", "screen": "desktop computer", "tablet": "mobile phone", "keyboard": "keyboard",
	"printer": "printer", "speaker": "speaker high volume", "radio": "radio", "microphone": "microphone",
	"piano": "musical keyboard", "violin": "violin", "cello": "violin", "flute": "flute", "harp": "harp",
	"drum": "drum", "saxophone": "saxophone", "clarinet": "flute", "banjo": "banjo", "ukulele": "guitar",
	"wallet": "purse", "purse": "purse", "backpack": "backpack", "suitcase": "luggage", "briefcase": "briefcase",
	"envelope": "envelope", "postcard": "envelope", "newspaper": "newspaper", "magazine": "newspaper",
	"scroll": "scroll", "document": "page facing up", "file": "page facing up", "folder": "file folder",
	"pencil": "pencil", "crayon": "crayon", "paintbrush": "paintbrush", "brush": "paintbrush", "pen": "black nib",
	"marker": "crayon", "eraser": "eraser", "ruler": "straight ruler", "scissors": "scissors", "stapler": "paperclip",
	"hammer": "hammer", "wrench": "wrench", "screwdriver": "screwdriver", "saw": "carpentry saw", "drill": "wrench",
	"shovel": "shovel", "axe": "axe", "ladder": "ladder", "rope": "knot", "chain": "chains", "magnet": "magnet",
	"battery pack": "battery", "plug": "electric plug", "cable": "electric plug", "gear": "gear", "cog": "gear",
	"shield": "shield", "bow": "bow and arrow", "arrow": "bow and arrow", "target": "bullseye",
	"dartboard": "bullseye", "gun": "water pistol", "bomb": "bomb", "dynamite": "firecracker",
	"hat": "top hat", "cap": "billed cap", "helmet": "rescue workers helmet", "shirt": "t shirt", "tshirt": "t shirt",
	"dress": "dress", "shoe": "running shoe", "sneaker": "running shoe", "boot": "hiking boot", "sock": "socks",
	"glove": "gloves", "scarf": "scarf", "tie": "necktie", "ring": "ring", "necklace": "prayer beads", "crown": "crown",
	"watch": "watch", "clock tower": "tokyo tower", "alarm": "alarm clock", "stopwatch": "stopwatch",
	"compass": "compass", "map": "world map", "telescope": "telescope", "microscope": "microscope",
	"test tube": "test tube", "flask": "alembic", "beaker": "alembic", "atom": "atom symbol", "dna": "dna",
	"pill": "pill", "medicine": "pill", "syringe": "syringe", "bandage": "adhesive bandage", "stethoscope": "stethoscope",
	"toy": "teddy bear", "doll": "teddy bear", "teddy": "teddy bear", "puzzle": "puzzle piece", "game": "video game",
	"controller": "video game", "joystick": "joystick", "die": "game die", "cards": "joker", "chess": "chess pawn",
	"kite": "kite", "yo yo": "yo yo", "frisbee": "flying disc", "skate": "ice skate", "ski": "skis", "sled": "sled",
	"surfboard": "person surfing", "tennis": "tennis", "golf": "flag in hole", "basketball": "basketball",
	"baseball": "baseball", "volleyball": "volleyball", "rugby": "rugby football", "hockey": "ice hockey",
	"person": "person", "man": "man", "woman": "woman", "boy": "boy", "girl": "girl", "baby": "baby", "kid": "child",
	"child": "child", "family": "family", "friend": "people hugging", "friends": "people hugging", "crowd": "busts in silhouette",
	"team": "busts in silhouette", "teacher": "teacher", "doctor": "health worker", "nurse": "health worker",
	"chef": "cook", "cook": "cook", "farmer": "farmer", "astronaut": "astronaut", "pilot": "pilot", "king": "prince",
	"queen": "princess", "wizard": "mage", "witch": "mage", "fairy": "fairy", "ghost": "ghost", "zombie": "zombie",
	"monster": "ogre", "alien": "alien", "skeleton": "skull", "pirate": "pirate flag", "ninja": "ninja",
	"smile": "grinning face", "smiley": "grinning face", "face": "grinning face", "emoji": "grinning face",
	"laugh": "face with tears of joy", "tears": "crying face", "kiss": "kiss mark", "love": "red heart",
}

// containerWords are the things food, drink and plants come in. Only these count as a
// drawing's own container: a keyword such as "aquarium" on a jellyfish says where it
// lives, not that the drawing shows one.
var containerWords = map[string]bool{
	"bucket": true, "pail": true, "tub": true, "box": true, "carton": true, "bag": true, "cup": true,
	"mug": true, "glass": true, "bowl": true, "pot": true, "jar": true, "bottle": true, "can": true,
	"vase": true, "basket": true, "cone": true, "plate": true, "dish": true, "teacup": true,
}

// drawnIn names, for drawings whose keywords do not say so, the containers the drawing
// already shows its subject in (the popcorn emoji is a striped bucket of popcorn).
var drawnIn = map[string][]string{
	"popcorn":        {"bucket", "pail", "tub", "box", "carton", "bag"},
	"hot beverage":   {"cup", "mug"},
	"soft ice cream": {"cone"},
	"bouquet":        {"vase"},
	"french fries":   {"box", "carton"},
	"cup with straw": {"glass"},
	"beverage box":   {"carton"},
	"shaved ice":     {"bowl", "cup"},
	"spaghetti":      {"plate", "dish", "bowl"},
	"curry rice":     {"plate", "dish"},
	"green salad":    {"bowl"},
	"pot of food":    {"pot"},
	"potted plant":   {"pot"},
	"ice cream":      {"bowl", "cup"},
	"bubble tea":     {"cup"},
}

// ShowsContainer reports whether the drawing already includes the container word names
// ("bucket" for popcorn, "cup" for a hot beverage), so a prompt's "popcorn in a bucket"
// needs no second, separate bucket.
func (a *Asset) ShowsContainer(word string) bool {
	word = strings.ToLower(strings.TrimSpace(word))
	if f := strings.Fields(word); len(f) > 0 {
		word = f[len(f)-1] // "striped bucket": the bucket
	}
	for _, w := range append([]string{word}, singulars(word)...) {
		if !containerWords[w] {
			continue
		}
		if a.hasWord(w) || slices.Contains(drawnIn[a.Name], w) || a.Label != "" && slices.Contains(drawnIn[a.Label], w) {
			return true
		}
	}
	return false
}
