#!/usr/bin/env python3
"""Trains the spine tagger: which run of a spine reading's words is the title, the author, the publisher, a
series or volume mark, or noise (call-number stickers, fragments), from the words and their layout (print size,
place along the spine, which lines are one printed run). Writes three files the reader ships (models/reading/):

    lexicon-v1.tsv      word, then its kinds: g given name, s surname, c common word, f function word,
                        k genre word, v volume word, q publisher word, p publishing place
    publishers-v1.txt   publishers and imprints, folded (lowercase, unaccented), one per line
    spine-tagger-v1.json the fitted network (standardisation, two layers), the labels and the cut penalty

    pip install -r scripts/requirements-training.txt   # Faker, NumPy, scikit-learn (+ spaCy's lookups for --wider-lexicon): training only
    scripts/train-spine-tagger.py [--dataset ../shared/datasets/library-dataset] [--spines 16000] [--seed 1]

Data, all read at training time, none copied into the repository:
- the Library Dataset's catalogue.csv (MIT): 15k real title/author records, their call numbers ("tag") and series,
  whose parentheses name the publisher ("Serie negra (RBA)"): titles, authors, publishers, series and stickers;
- Faker (MIT): given names and surnames of 30 Latin-script locales, and each language's common words (its lorem
  lists), which also make titles in German, French, English, Italian and Dutch, as the catalogue is Spanish
  and Catalan;
- only with --wider-lexicon (measured in docs/reading.md, not what ships): spaCy's lookup tables
  (spacy-lookups-data, MIT), the 30,000 most frequent lowercase words of German, English and Spanish, German's
  30,000 most frequent capitalised words that are not names (its nouns) and French lemmas with their plural and
  feminine forms (Faker's lorem lists hold a few hundred words a language, so most words of a real German or
  French title are unknown to the lexicon, which is what a surname looks like), titles rendered from those words,
  given names never made common by the catalogue's titles, and a second list of publishers;
- the hand lists below: genre and volume words, publisher words, publishing places and German, French and
  English publishers the catalogue lacks.

Records are rendered into readings the way the reader makes them: blocks along a thin spine or rows across a
wide one, the title largest as a rule (not always), the author smaller at one end, the publisher and
stickers at the foot or top, author and title glued into one line (with or without ":"), capitals, dropped
accents and words, and flat one-line readings with no layout (as a commercial OCR line gives). Every run of
words of a rendered segment is one training example: its label when it lies inside one thing, "mixed" when it
crosses two, so that decoding (the best cut of each segment into at most three runs) cuts where things meet.

Held out, never trained on nor put in the lexicon: every catalogue record whose title is on a photo the project
measures (the two shared photos' spine_boxes) or on a held-out scene of spine_annotations.csv (scenes are the
photo names without their last "_N"; sorted, every second scene is held out). Authors of held-out records are
kept out of the lexicon as well, so that the figures on them are those of unseen names. The script prints the
split and the accuracy of the decoded title and author on held-out synthetic spines and on the held-out scenes'
real commercial-OCR readings (flat text, no layout).
"""
import argparse
import csv
import importlib
import json
import math
import os
import random
import re
import sys
import unicodedata
from difflib import SequenceMatcher

import numpy as np
from sklearn.neural_network import MLPClassifier

LABELS = ["title", "author", "publisher", "series", "noise", "mixed"]

GENRE = """roman romane kriminalroman krimi thriller erzahlung erzahlungen novelle novellen gedichte lyrik essay essays
essai essais recit recits nouvelles poemes poesie polar novel novella stories poems short story mystery fantasy
novela novel.la relatos cuentos poesia ensayo narrativa contes romanzo racconti poesie saggio biographie biography
memoir memoirs autobiographie sachbuch jugendbuch kinderbuch bestseller spiegel-bestseller taschenbuch""".split()
VOLUME = "band bd vol volume tome tomo teil part livre libro nr no n° buch book heft folge livro".split()
PUBLISHER_WORDS = """verlag verlage verlagsgruppe editions edition editions ediciones edicions editorial editori editore
editrice books press publishing publishers verlagshaus taschenbuch taschenbucher classics pocket paperbacks
libros llibres presse""".split()
FUNCTION = """der die das des dem den ein eine einer eines einem einen und oder im in am an auf aus bei mit nach von vom
zu zum zur fur uber unter vor wie was wer wo the of a an and or in on at to for from with by as is my your his her
le la les l un une des du de et ou au aux en dans sur sous pour par avec sans mon ma mes son sa ses el los las lo
una unos unas y o del al con por para sin su sus mi els i amb per sense d il lo gli uno e di da dei delle per tra
het een van en op te""".split()
PLACES = """berlin munchen frankfurt hamburg koln leipzig stuttgart wien zurich bern basel dresden weimar gottingen
freiburg heidelberg dusseldorf mannheim paris lyon bruxelles geneve lausanne london oxford cambridge new york boston
chicago toronto barcelona madrid milano torino roma firenze amsterdam""".split()
# Publishers and imprints on German, French and English home shelves, which the Catalan catalogue has few of.
HAND_PUBLISHERS = """
penguin|penguin books|penguin classics|penguin random house|vintage|vintage books|vintage classics|picador|faber|
faber and faber|bantam|bantam books|ballantine|del rey|orbit|harper|harpercollins|harper perennial|random house|
anchor|anchor books|knopf|doubleday|scribner|simon schuster|simon and schuster|pan|pan books|pan macmillan|
macmillan|hodder|hodder stoughton|headline|bloomsbury|virago|abacus|corgi|fontana|puffin|oxford|
oxford university press|cambridge university press|wordsworth|wordsworth classics|everyman|signet|berkley|daw|
gollancz|granta|canongate|sceptre|viking|hamlyn|dorling kindersley|dk|lonely planet|rough guides|oreilly|
o reilly|wiley|springer|mit press|little brown|mulholland|quercus|tor|ace|grand central|st martins|norton|
ww norton|riverhead|harvill|harvill secker|chatto windus|jonathan cape|cape|fourth estate|john murray|
allen unwin|atlantic|black swan|arrow|arrow books|century|transworld|sphere|piatkus|orion|weidenfeld|
weidenfeld nicolson|phoenix|seren|tor books|avon|dell|mariner|houghton mifflin|farrar straus giroux|fsg|
heyne|knaur|goldmann|dtv|fischer|s fischer|fischer taschenbuch|rowohlt|rororo|diogenes|suhrkamp|
suhrkamp taschenbuch|insel|insel verlag|insel taschenbuch|ullstein|piper|btb|blanvalet|droemer|droemer knaur|
luebbe|lubbe|bastei|bastei lubbe|bastei luebbe|lubbe audio|kiepenheuer|kiepenheuer witsch|kiwi|hanser|
carl hanser|reclam|aufbau|aufbau taschenbuch|carlsen|ravensburger|oetinger|dumont|kosmos|ars edition|
braumuller|emons|gmeiner|penguin verlag|cbt|cbj|econ|list|claassen|berlin verlag|c h beck|beck|
wagenbach|klett|klett cotta|cotta|dva|deutsche verlags anstalt|luchterhand|limes|manesse|zsolnay|
residenz|haymon|kein aber|dorlemann|unionsverlag|orell fussli|nagel kimche|arche|atlantis|hoffmann campe|
hoffmann und campe|kampa|mare|c bertelsmann|bertelsmann|goldmann taschenbuch|rowohlt taschenbuch|
rowohlt polaris|kindler|eichborn|lubbe ehrenwirth|ehrenwirth|scherz|herder|patmos|kosel|gu|grafe unzer|
mosaik|ludwig|tropen|blessing|karl blessing|penguin random house verlagsgruppe|edition suhrkamp|
gallimard|folio|folio policier|livre de poche|le livre de poche|pocket|seuil|points|flammarion|
garnier flammarion|gf|albin michel|actes sud|babel|jai lu|grasset|les cahiers rouges|larousse|stock|
fayard|plon|julliard|robert laffont|laffont|bouquins|denoel|minuit|editions de minuit|pluriel|hachette|
hachette pluriel|p o l|pol|payot|rivages|10 18|press pocket|presses de la cite|calmann levy|lattes|
jc lattes|belfond|xo|michel lafon|folio classique|classiques garnier|la pleiade|pleiade|nathan|bordas|
hatier|belin|puf|la decouverte|odile jacob|zulma|verdier|liana levi|philippe picquier|sabine wespieser|
mondadori|oscar mondadori|einaudi|feltrinelli|adelphi|bompiani|garzanti|rizzoli|bur|sellerio|
"""
# Known to the reader only: written into publishers-v1.txt after training, never drawn into a training spine nor
# used for its features, so the network is the one trained without them (docs/reading.md). Imprints that home
# shelves carry and HAND_PUBLISHERS lacks, most of them American ones for young readers, a few German ones for
# children; an imprint that is also a common word, a title or a name alone ("Speak", "Poppy", "Amulet", "Crown",
# "Walker", "Hyperion", "Abrams", "Morrow") is left out, or kept only whole ("Disney Hyperion", "William Morrow").
# MORE_PUBLISHERS below is known to the reader the same way, but for AMBIGUOUS_MORE_PUBLISHERS.
READER_PUBLISHERS = """
greenwillow|greenwillow books|delacorte|delacorte press|harperteen|harper teen|harpercollins childrens books|
harper trophy|harpertrophy|harperfestival|quill tree books|epic reads|razorbill|disney hyperion|
hyperion books for children|disney press|feiwel friends|feiwel and friends|roaring brook|roaring brook press|
balzer bray|katherine tegen|katherine tegen books|atheneum|atheneum books for young readers|margaret k mcelderry|
mcelderry|simon pulse|simon schuster books for young readers|putnam|g p putnam|g p putnams sons|dutton|
dutton books|penguin young readers|nancy paulsen|kathy dawson|viking childrens books|candlewick|candlewick press|
clarion|clarion books|houghton mifflin harcourt|hmh|hmh books for young readers|sourcebooks|sourcebooks fire|
tor teen|swoon reads|wednesday books|st martins griffin|flatiron|flatiron books|celadon|celadon books|ecco|
william morrow|harlequin teen|inkyard|inkyard press|entangled teen|page street|jimmy patterson|
little brown books for young readers|lb kids|bloomsbury ya|bloomsbury childrens|scholastic press|graphix|
arthur a levine|chicken house|usborne|egmont|macmillan childrens books|square fish|laurel leaf|dial books|
knopf books for young readers|random house childrens books|soho teen|soho press|algonquin|amulet books|
first second|yen press|viz media|kodansha|seven seas|dark horse|dc comics|image comics|henry holt|
henry holt and company|dressler|cecilie dressler|thienemann|knaus|albrecht knaus|beltz|beltz gelberg|
"""
# Tried with --wider-lexicon (docs/reading.md): German, Swiss, Austrian and French publishers and imprints.
MORE_PUBLISHERS = """
weltbild|verlagsgruppe weltbild|bechtermunz|anaconda|nikol|marix|area|fischer klassik|arena|loewe|thienemann|
dressler|cecilie dressler|beltz|beltz gelberg|gulliver|sauerlander|coppenrath|ellermann|boje|edition michael fischer|
emf|grafe und unzer|trias|kailash|ansata|integral|allegria|lotos|irisiana|windpferd|schirner|droemer taschenbuch|
knaur taschenbuch|mvg|redline|campus|haufe|rotfuchs|rororo rotfuchs|fischer schatzinsel|cbj taschenbuch|
ravensburger taschenbuch|detebe|diogenes taschenbuch|btb taschenbuch|goldmann original|heyne taschenbuch|
list taschenbuch|ullstein taschenbuch|rutten loening|wunderlich|galiani|bloomsbury berlin|dumont taschenbuch|
frankfurter verlagsanstalt|jung und jung|droschl|paul zsolnay|deuticke|picus|czernin|duden|langenscheidt|pons|
brockhaus|kosmos|blv|moewig|pabel|cora|mira|lyx|egmont|panini|tokyopop|carlsen comics|ehapa|egmont ehapa|
splitter|reprodukt|kein und aber|limmat|rotpunkt|rotpunktverlag|zytglogge|cosmos|werd|nzz libro|hep|lenos|elster|
tessloff|hanser berlin|dtv junior|dtv premium|dtv reihe hanser|fischer tor|heyne hardcore|penhaligon|cbt taschenbuch|
arlea|actes sud junior|j ai lu|la table ronde|la petite vermillon|le dilettante|phebus|libretto|rivages noir|
serie noire|points seuil|folio junior|bibliotheque rose|bibliotheque verte|gallimard jeunesse|l ecole des loisirs|
casterman|dupuis|dargaud|le lombard|glenat|delcourt|fleuve noir|harlequin|milady|bragelonne|pocket jeunesse|
marabout|solar|l archipel|presses pocket|france loisirs|le cherche midi|mercure de france|l olivier|
editions de l olivier|christian bourgois|buchet chastel|corti|allia|le castor astral|editions du rocher|
l age d homme|zoe|editions zoe|campiche|slatkine|
"""
# Of MORE_PUBLISHERS, those the reader does not take for publishers without --wider-lexicon: a word, a title or a
# name alone ("Arena", "Loewe", "Duden", "Brockhaus", "Milady", "Zoe"), or a short form of one ("j ai lu" beside
# "jai lu", "l olivier").
AMBIGUOUS_MORE_PUBLISHERS = """
anaconda|nikol|marix|area|arena|loewe|gulliver|ellermann|boje|emf|trias|kailash|ansata|allegria|lotos|irisiana|
windpferd|schirner|mvg|redline|campus|haufe|rotfuchs|wunderlich|galiani|droschl|deuticke|picus|czernin|duden|pons|
brockhaus|blv|moewig|pabel|cora|mira|lyx|tokyopop|ehapa|splitter|reprodukt|limmat|rotpunkt|cosmos|werd|hep|lenos|
elster|j ai lu|libretto|dupuis|harlequin|milady|marabout|solar|l olivier|corti|allia|zoe|campiche|
"""


def fold(text):
    """Lowercase, accents and marks dropped, ß as ss: the key every lexicon look-up uses (SpineLexicon.fold)."""
    t = unicodedata.normalize("NFKD", text.lower().replace("ß", "ss"))
    return "".join(c for c in t if not unicodedata.combining(c))


def key(word):
    """A word's lexicon key: folded, letters only (hyphens and apostrophes out)."""
    return "".join(c for c in fold(word) if c.isalpha())


def phrase_key(text):
    """A publisher's key: folded words of letters and digits, single spaces."""
    words = ("".join(c for c in w if c.isalnum()) for w in fold(text).replace("&", " ").replace("-", " ").split())
    return " ".join(w for w in words if w)


def publisher_keys(listed):
    """The keys of a "|"-separated list of publishers."""
    return {phrase_key(p) for p in listed.split("|") if phrase_key(p)}


def frequent_words(names, top=30000):
    """Common words of the languages home shelves are in, by frequency where spaCy's tables have it.

    Returns (keys to mark common, display words per language for rendered titles). A given name or surname is
    never made common by its capitalised form ("John", "Julia" are frequent capitalised German tokens), and by
    its lowercase form only among the 3,000 most frequent words ("rose", "will", "green"): "parra" (a vine) or
    "dick" (thick) would otherwise stop "Teresa de la Parra" and "Philip K. Dick" from reading as names."""
    import gzip
    import spacy_lookups_data
    data = os.path.join(os.path.dirname(spacy_lookups_data.__file__), "data")
    named = names.get("g", set()) | names.get("s", set())
    common, display = set(), {}
    for lang in ("de", "en", "es"):
        prob = json.load(gzip.open(os.path.join(data, f"{lang}_lexeme_prob.json.gz")))
        ranked = sorted(prob, key=lambda w: -prob[w])
        # Two-letter "words" of running text are mostly abbreviations ("oz", "mr", "st") that are names on spines
        # (Amos Oz); the short words titles need are in the hand-made function list.
        lower = [w for w in ranked if w.isalpha() and w == w.lower() and len(w) >= 3][:top]
        for rank, w in enumerate(lower):
            k = key(w)
            if k in named and rank >= 3000:
                continue
            common.add(k)
        words = list(lower[:8000])
        if lang == "de":
            caps = [w for w in ranked if w.isalpha() and len(w) >= 3 and w[0].isupper() and w[1:] == w[1:].lower()
                    and key(w) not in named][:top]
            common.update(key(w) for w in caps)
            words += caps[:8000]
        display[lang] = words
    # French has no frequencies: its lemmas, with the plural and feminine forms that only add an ending. (Catalan's
    # lemma tables, CC0, were tried the same way and lowered every measure: its forms make too many surnames and
    # given names common words.)
    for lang in ("fr",):
        lookup = json.load(gzip.open(os.path.join(data, f"{lang}_lemma_lookup.json.gz")))
        for form, lemmas in lookup.items():
            for lemma in ([lemmas] if isinstance(lemmas, str) else lemmas):
                if lemma.isalpha() and len(lemma) >= 3 and key(lemma) not in named:
                    common.add(key(lemma))
                    if form.isalpha() and form.startswith(lemma) and len(form) - len(lemma) <= 2 and key(form) not in named:
                        common.add(key(form))
    return common, display


# ---------------------------------------------------------------- features (mirrored by SpineTagger.swift)

class Lexicon:
    def __init__(self, kinds, publishers):
        self.kinds = kinds          # key -> set of kind letters
        self.publishers = publishers

    def has(self, word, kind):
        k = key(word)
        return bool(k) and kind in self.kinds.get(k, ())

    def is_given(self, word):
        # "Jan-Philipp": a double given name counts by its first part.
        return self.has(word, "g") or ("-" in word and self.has(word.split("-")[0], "g"))

    def is_publisher(self, text):
        k = phrase_key(text)
        if not k:
            return False
        if k in self.publishers:
            return True
        for cue in (" verlag", " books", " editions", " editores", " editorial", " edicions", " ediciones", " press", " taschenbuch"):
            if k.endswith(cue) and k[: -len(cue)].strip() in self.publishers:
                return True
        return False


def letters(s):
    return sum(1 for c in s if c.isalpha())


def is_initial(w):
    ls = [c for c in w if c.isalpha()]
    return w.endswith(".") and 1 <= len(ls) <= 2 and ls[0].isupper()


def case_style(w):
    """0 all capitals (two letters or more), 1 capitalised, 2 lowercase start, 3 no letters."""
    ls = [c for c in w if c.isalpha()]
    if not ls:
        return 3
    if len(ls) >= 2 and all(c.isupper() for c in ls):
        return 0
    return 1 if ls[0].isupper() else 2


def is_label_word(t):
    ls = [c for c in t if c.isalpha()]
    if not (3 <= len(ls) <= 5) or len(ls) != len(t):
        return False
    if ls[-1].isupper() and any(c.islower() for c in ls[:-1]):
        return True
    return len(ls) <= 4 and ls[0].isupper() and ls[1].isupper() and all(c.islower() for c in ls[2:])


def is_volume_word(w, lex):
    k = key(w)
    if lex.has(w, "v"):
        return True
    # "BAND2", "Bd.3", "T1": a volume word with its number glued on.
    m = re.fullmatch(r"([a-z]+)\.?(\d{1,3})", fold(w).strip(".,:;"))
    return bool(m) and (m.group(1) in ("band", "bd", "vol", "tome", "tomo", "teil", "nr", "t", "no", "part", "book", "livre") and True)


FEATURES = [
    "relSize", "isLargest", "isSmall", "posStart", "posEnd", "atStart", "atEnd", "nearFoot", "nearHead", "footKnown",
    "share", "oneSegment", "whole", "words1", "words2", "words3", "words4plus", "logLetters", "firstGiven",
    "firstInitial", "fracGiven", "fracSurname", "lastSurname", "fracCommon", "fracFunction", "fracUnknown",
    "nameLike", "publisher", "publisherWord", "place", "genre", "volume", "hasDigit", "fracDigits", "labelLike",
    "allCaps", "lowercase", "capitalised", "caseDiffers", "endsColon", "afterColon", "short", "firstOfReading",
    "lastOfReading", "sizeRankSecond", "colonInside", "styleUnlikeReading",
]


def median_size(words):
    """The printed size of a run: its words' upper median height (TitleSplitter.Segment.size)."""
    h = sorted(w["h"] for w in words)
    return h[len(h) // 2] if h else 0


def span_features(seg_words, i, j, seg, ctx, lex):
    """Features of words[i:j] of one segment. `seg`: dict with size, and per-word x0/x1; `ctx`: reading-wide
    figures (maxSize, sizes sorted, left, right, chars, segments, footAtStart or None)."""
    words = seg_words[i:j]
    texts = [w["text"] for w in words]
    n = len(texts)
    size = median_size(words)
    rel = size / ctx["maxSize"] if ctx["maxSize"] > 0 else 1
    x0, x1 = words[0]["x0"], words[-1]["x1"]
    extent = max(1e-6, ctx["right"] - ctx["left"])
    ps, pe = (x0 - ctx["left"]) / extent, (ctx["right"] - x1) / extent
    foot = ctx["footAtStart"]
    near_foot = 0.0 if foot is None else float((ps if foot else pe) < 0.15)
    near_head = 0.0 if foot is None else float((pe if foot else ps) < 0.15)
    chars = sum(letters(t) + sum(c.isdigit() for c in t) for t in texts)
    lets = sum(letters(t) for t in texts)
    digits = sum(sum(c.isdigit() for c in t) for t in texts)
    given = [lex.is_given(t) for t in texts]
    surname = [lex.has(t, "s") for t in texts]
    common = [lex.has(t, "c") for t in texts]
    function = [lex.has(t, "f") for t in texts]
    unknown = [not (g or s or c) and letters(t) > 0 for t, g, s, c in zip(texts, given, surname, common)]
    styles = [case_style(t) for t in texts]
    lettered = [s for s in styles if s != 3] or [3]
    first_given = given[0] and not common[0] or is_initial(texts[0])
    name_like = (2 <= n <= 4 and (given[0] or is_initial(texts[0]))
                 and all(case_style(t) in (0, 1) or fold(t) in ("de", "von", "van", "der", "la", "le", "del", "di", "da", "du")
                         for t in texts)
                 and (surname[-1] or unknown[-1] or given[-1])
                 and not any(function[k] for k in range(1, n) if fold(texts[k]) not in ("de", "von", "van", "der", "la", "le", "del", "di", "da", "du", "y", "i")))
    rest = seg_words[:i] + seg_words[j:]
    rest_styles = [case_style(w["text"]) for w in rest if case_style(w["text"]) != 3]
    span_style = min(set(lettered), key=lambda v: (-lettered.count(v), v))
    differs = bool(rest_styles) and span_style != 3 and span_style not in rest_styles
    ends_colon = texts[-1].endswith((":", ","))
    after_colon = i > 0 and seg_words[i - 1]["text"].endswith((":", ","))
    sizes = ctx["sizes"]
    second = len(sizes) > 1 and abs(size - sizes[1]) < 1e-9 and sizes[0] > sizes[1] * 1.05
    # The case the rest of the reading is printed in, against this run's: "PALAHNIUK" beside "Invéntate algo".
    others = [case_style(w["text"]) for s in ctx["all"] for k, w in enumerate(s["words"]) if not (s is seg and i <= k < j)]
    others = [v for v in others if v != 3]
    unlike = bool(others) and span_style != 3 and span_style != min(set(others), key=lambda v: (-others.count(v), v))
    f = {
        "relSize": rel, "isLargest": float(rel >= 0.9), "isSmall": float(rel < 0.6),
        "posStart": ps, "posEnd": pe, "atStart": float(ps < 0.08), "atEnd": float(pe < 0.08),
        "nearFoot": near_foot, "nearHead": near_head, "footKnown": float(foot is not None),
        "share": chars / max(1, ctx["chars"]), "oneSegment": float(ctx["segments"] == 1),
        "whole": float(i == 0 and j == len(seg_words)),
        "words1": float(n == 1), "words2": float(n == 2), "words3": float(n == 3), "words4plus": float(n >= 4),
        "logLetters": math.log1p(lets), "firstGiven": float(bool(given[0] and not common[0])),
        "firstInitial": float(is_initial(texts[0])),
        "fracGiven": sum(given) / n, "fracSurname": sum(surname) / n, "lastSurname": float(surname[-1]),
        "fracCommon": sum(common) / n, "fracFunction": sum(function) / n, "fracUnknown": sum(unknown) / n,
        "nameLike": float(bool(name_like and first_given)),
        "publisher": float(lex.is_publisher(" ".join(texts))),
        "publisherWord": float(any(lex.has(t, "q") for t in texts)),
        "place": float(all(lex.has(t, "p") for t in texts)),
        "genre": float(any(lex.has(t, "k") for t in texts)),
        "volume": float(any(is_volume_word(t, lex) for t in texts)),
        "hasDigit": float(digits > 0), "fracDigits": digits / max(1, chars),
        "labelLike": float(any(is_label_word(t) for t in texts) or (digits > 0 and any("." in t for t in texts)) or lets <= 2),
        "allCaps": float(all(s in (0, 3) for s in styles)), "lowercase": float(all(s in (2, 3) for s in styles)),
        "capitalised": float(all(s in (0, 1, 3) for s in styles)),
        "caseDiffers": float(differs), "endsColon": float(ends_colon), "afterColon": float(after_colon),
        "short": float(lets <= 4),
        "firstOfReading": float(seg["index"] == 0 and i == 0),
        "lastOfReading": float(seg["index"] == ctx["segments"] - 1 and j == len(seg_words)),
        "sizeRankSecond": float(second),
        "colonInside": float(any(t.endswith(":") for t in texts[:-1])),
        "styleUnlikeReading": float(unlike),
    }
    return [f[name] for name in FEATURES]


def context(segments, foot_at_start):
    sizes = sorted({median_size(s["words"]) for s in segments}, reverse=True)
    return {
        "maxSize": sizes[0] if sizes else 1, "sizes": sizes,
        "left": min(s["words"][0]["x0"] for s in segments), "right": max(s["words"][-1]["x1"] for s in segments),
        "chars": sum(letters(w["text"]) + sum(c.isdigit() for c in w["text"]) for s in segments for w in s["words"]),
        "segments": len(segments), "footAtStart": foot_at_start, "all": segments,
    }


# ---------------------------------------------------------------- decoding (mirrored by SpineTagger.swift)

class Net:
    def __init__(self, mean, scale, w1, b1, w2, b2):
        self.mean, self.scale, self.w1, self.b1, self.w2, self.b2 = mean, scale, w1, b1, w2, b2

    def probabilities(self, X):
        z = (np.asarray(X) - self.mean) / self.scale
        h = np.maximum(0, z @ self.w1 + self.b1)
        o = h @ self.w2 + self.b2
        o = o - o.max(axis=1, keepdims=True)
        e = np.exp(o)
        return e / e.sum(axis=1, keepdims=True)


def cut_options(n, max_pieces=3):
    out = [[(0, n)]]
    for a in range(1, n):
        out.append([(0, a), (a, n)])
        if max_pieces >= 3:
            for b in range(a + 1, n):
                out.append([(0, a), (a, b), (b, n)])
    return out


def decode(segments, foot_at_start, lex, net, cut_penalty):
    """The best cut of each segment and each run's label; then the title (the title runs in the largest
    print, in reading order) and the authors."""
    ctx = context(segments, foot_at_start)
    runs = []
    for seg in segments:
        ws = seg["words"]
        options = cut_options(len(ws)) if len(ws) <= 12 else [[(0, len(ws))]]
        spans = sorted({s for o in options for s in o})
        P = net.probabilities([span_features(ws, i, j, seg, ctx, lex) for i, j in spans])
        prob = {s: P[k] for k, s in enumerate(spans)}
        best, best_score = None, -1e9
        for o in options:
            score = sum(math.log(max(1e-9, 1 - prob[s][5])) for s in o) - cut_penalty * (len(o) - 1)
            if score > best_score:
                best, best_score = o, score
        for i, j in best:
            p = prob[(i, j)]
            runs.append({"text": " ".join(w["text"] for w in ws[i:j]), "label": int(np.argmax(p[:5])),
                         "p": p, "size": median_size(ws[i:j])})
    return assemble(runs)


def assemble(runs):
    if not runs:
        return None, []
    titles = [r for r in runs if r["label"] == 0]
    if not titles:
        candidates = [r for r in runs if r["label"] != 4] or runs
        titles = [max(candidates, key=lambda r: r["p"][0])]
    top = max(r["size"] for r in titles)
    title = " ".join(r["text"] for r in titles if r["size"] >= 0.8 * top)
    authors = [r["text"].strip(":,") for r in runs if r["label"] == 1 and not any(r is t for t in titles)]
    return title, authors


# ---------------------------------------------------------------- data

# Letters the reader takes for one another on spines (lower case; kept in the word's case).
LOOKALIKES = {"o": "0cd", "d": "oa", "i": "l1j", "l": "i1t", "r": "n", "n": "rm", "m": "n", "e": "c", "c": "eo",
              "g": "c", "u": "v", "v": "u", "h": "n", "b": "h", "a": "o", "s": "5", "t": "f", "f": "t"}
HEAVY_NOISE = False


def load_catalogue(path):
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            rows.append(r)
    return rows


def main_title(title):
    return re.split(r"\s+[:;=/]\s+|\s+:\s*", title.strip())[0].strip()


def parse_author(a):
    """"Bunge, Mario, 1919-2020" -> ("Mario", "Bunge")."""
    parts = [p.strip() for p in a.split(",")]
    parts = [p for p in parts if p and not re.search(r"\d", p)]
    if not parts:
        return None
    if len(parts) == 1:
        return ("", parts[0])
    return (parts[1], parts[0])


def scene(image_name):
    return re.sub(r"_\d+\.\w+$", "", image_name)


def norm(s):
    return " ".join(re.findall(r"\w+", fold(s)))


def similar(a, b):
    return SequenceMatcher(None, norm(a), norm(b)).ratio()


def build_lexicon(catalogue, held_titles, wider=False):
    kinds = {}

    def add(word, kind):
        k = key(word)
        if len(k) >= 2:
            kinds.setdefault(k, set()).add(kind)

    latin = ["cs_CZ", "da_DK", "de_AT", "de_CH", "de_DE", "de_LI", "de_LU", "en_GB", "en_IE", "en_NZ", "en_US",
             "es_ES", "es_MX", "es_AR", "fi_FI", "fr_BE", "fr_CA", "fr_CH", "fr_FR", "hr_HR", "hu_HU", "it_IT",
             "nl_BE", "nl_NL", "no_NO", "pl_PL", "pt_BR", "pt_PT", "ro_RO", "sk_SK", "sl_SI", "sv_SE", "tr_TR",
             "et_EE", "lt_LT", "lv_LV", "is_IS", "ga_IE"]
    given_sources, surname_sources = {}, {}
    for loc in latin:
        try:
            P = importlib.import_module(f"faker.providers.person.{loc}").Provider
        except ImportError:
            continue
        for attr in ("first_names", "first_names_male", "first_names_female"):
            v = getattr(P, attr, None) or []
            for name in (v.keys() if isinstance(v, dict) else v):
                for part in str(name).split():
                    given_sources.setdefault(key(part), part)
        v = getattr(P, "last_names", None) or []
        for name in (v.keys() if isinstance(v, dict) else v):
            for part in re.split(r"[\s-]+", str(name)):
                surname_sources.setdefault(key(part), part)
    for rec in catalogue:
        if norm(main_title(rec["title"])) in held_titles:
            continue
        pa = parse_author(rec["author"])
        if not pa:
            continue
        given, surname = pa
        for part in re.split(r"[\s-]+", surname):
            if len(key(part)) >= 3 and part[:1].isupper():
                surname_sources.setdefault(key(part), part)
        for part in given.split():
            if len(key(part)) >= 2 and not part.endswith("."):
                given_sources.setdefault(key(part), part)
    for k in given_sources:
        add(k, "g")
    for k in surname_sources:
        add(k, "s")
    for loc in ["de_DE", "fr_FR", "en_US", "es_ES", "it_IT", "nl_NL"]:
        for w in importlib.import_module(f"faker.providers.lorem.{loc}").Provider.word_list:
            add(w, "c")
    display = {}
    if wider:
        frequent, display = frequent_words({"g": set(given_sources), "s": set(surname_sources)})
        for k in frequent:
            add(k, "c")
    # Catalogue titles' words seen in three or more titles: Spanish and Catalan common words.
    counts = {}
    for rec in catalogue:
        if norm(main_title(rec["title"])) in held_titles:
            continue
        for w in set(key(x) for x in main_title(rec["title"]).split()):
            counts[w] = counts.get(w, 0) + 1
    for w, c in counts.items():
        # "Maria", "Joan", "John" recur in titles as names: a given name stays a name.
        if c >= 3 and not (wider and w in given_sources):
            add(w, "c")
    for w in FUNCTION:
        add(w, "f"); add(w, "c")
    for w in GENRE:
        add(w, "k")
    for w in VOLUME:
        add(w, "v")
    for w in PUBLISHER_WORDS:
        add(w, "q")
    for w in PLACES:
        add(w, "p")
    hand = HAND_PUBLISHERS + (MORE_PUBLISHERS if wider else "")
    publishers = publisher_keys(hand)
    for rec in catalogue:
        for m in re.findall(r"\(([^)]*)\)", rec["series"]):
            for name in m.split("/"):
                k = phrase_key(name)
                if k and not re.search(r"\d", k):
                    publishers.add(k)
    return kinds, publishers, display


# ---------------------------------------------------------------- rendering records into readings

FAKER_LOCALES = ["de_DE", "de_AT", "de_CH", "fr_FR", "fr_CH", "en_US", "en_GB", "it_IT", "es_ES", "nl_NL", "sv_SE",
                 "da_DK", "no_NO", "pl_PL", "cs_CZ", "fi_FI", "pt_PT"]


class Renderer:
    def __init__(self, rng, catalogue, publishers_display, fakers, frequent):
        self.rng = rng
        self.noise_rng = random.Random(7)
        # German, English and Spanish titles (with --wider-lexicon) from each language's 8,000 most frequent
        # lowercase words, and German's 8,000 most frequent nouns as printed: real titles' words, which the lorem
        # lists mostly lack.
        self.frequent = frequent
        self.catalogue = catalogue
        self.publishers = publishers_display
        self.fakers = fakers
        self.lorem = {loc: importlib.import_module(f"faker.providers.lorem.{loc}").Provider.word_list
                      for loc in ["de_DE", "fr_FR", "en_US", "it_IT", "nl_NL"]}
        self.series = [r["series"] for r in catalogue if r["series"].strip()]
        self.tags = [r["tag"] for r in catalogue if r["tag"].strip()]

    def case(self, text, p_upper, p_title=0.15, p_lower=0.03):
        x = self.rng.random()
        if x < p_upper:
            return text.upper()
        if x < p_upper + p_title:
            return " ".join(w[:1].upper() + w[1:] for w in text.split())
        if x < p_upper + p_title + p_lower:
            return text.lower()
        return text

    def title(self, rec):
        r = self.rng
        if r.random() < 0.35:
            loc = r.choice(list(self.lorem))
            words = [w for w in r.sample(self.lorem[loc], r.randint(1, 4))]
            arts = {"de_DE": ["Der", "Die", "Das", "Ein", "Eine"], "fr_FR": ["Le", "La", "Les", "Un", "Une", "L'"],
                    "en_US": ["The", "A"], "it_IT": ["Il", "La", "Lo", "Un"], "nl_NL": ["De", "Het", "Een"]}[loc]
            if r.random() < 0.4:
                words = [r.choice(arts)] + words
            if loc == "de_DE":
                words = [w[:1].upper() + w[1:] if r.random() < 0.5 else w for w in words]
            t = " ".join(words)
            return t[:1].upper() + t[1:], ""
        if self.frequent and r.random() < 0.25:
            lang = r.choice(list(self.frequent))
            words = r.sample(self.frequent[lang], r.randint(1, 5))
            arts = {"de": ["Der", "Die", "Das", "Ein", "Eine"], "en": ["The", "A"], "es": ["El", "La", "Los", "Un"]}[lang]
            if r.random() < 0.4:
                words = [r.choice(arts)] + words
            t = " ".join(words)
            return t[:1].upper() + t[1:], ""
        parts = re.split(r"\s+:\s+|\s+:\s*$", rec["title"].strip(), maxsplit=1)
        main = parts[0].strip().rstrip(" :.")
        sub = parts[1].strip() if len(parts) > 1 else ""
        return main, sub

    def author(self, rec):
        r = self.rng
        if r.random() < 0.45:
            f = r.choice(self.fakers)
            given, surname = f.first_name(), f.last_name()
        else:
            pa = parse_author(rec["author"]) if rec["author"].strip() else None
            if not pa:
                return None
            given, surname = pa
        x = r.random()
        if not given or x < 0.25:
            return surname
        if x < 0.22:
            return given[0] + ". " + surname
        if x < 0.25:
            return surname + ", " + given
        return given + " " + surname

    def words(self, text, size, x, label):
        out = []
        for w in text.split():
            width = max(1, len(w)) * size * 0.62
            out.append({"text": w, "x0": x, "x1": x + width, "label": label, "h": size})
            x += width + size * 0.35
        return out, x

    def ocr_noise(self, text, strip_accents):
        r = self.rng
        if strip_accents:
            text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
        ws = text.split()
        if len(ws) > 2 and r.random() < 0.06:
            del ws[r.randrange(len(ws))]
        out = []
        for w in ws:
            if len(w) > 3 and r.random() < 0.04:
                k = r.randrange(len(w))
                w = w[:k] + r.choice("aeilnorstcIl1") + w[k + 1:]
            out.append(w)
        if HEAVY_NOISE:
            out = self.heavy_noise(out)
        return " ".join(out)

    def heavy_noise(self, ws):
        """What PP-OCR does to spines on real photos, beyond the light noise above: letters read as their look-alikes
        ("MIRANOA", "Gernitsen", "BL000SWORM"), a letter's case flipped ("FRoSdH"), a word's first letter lost
        ("URYBORN"), two words run together ("DASGLUCK"). Drawn from a generator of its own, so that the light
        noise's draws, and everything after them, stay those of the shipped model's training."""
        r = self.noise_rng
        out = []
        for w in ws:
            if len(w) > 2 and r.random() < 0.15:
                for _ in range(1 if r.random() < 0.7 else 2):
                    k = r.randrange(len(w))
                    c = w[k]
                    alike = LOOKALIKES.get(c.lower(), "")
                    sub = r.choice(alike) if alike else r.choice("aeilnorstcIl1")
                    w = w[:k] + (sub.upper() if c.isupper() else sub) + w[k + 1:]
            if len(w) > 2 and r.random() < 0.05:
                k = r.randrange(len(w))
                w = w[:k] + (w[k].lower() if w[k].isupper() else w[k].upper()) + w[k + 1:]
            if len(w) > 4 and r.random() < 0.03:
                w = w[1:]
            out.append(w)
        k = 0
        merged = []
        while k < len(out):
            if k + 1 < len(out) and r.random() < 0.05:
                merged.append(out[k] + out[k + 1])
                k += 2
            else:
                merged.append(out[k])
                k += 1
        return merged

    def spine(self, rec):
        """One rendered reading: segments of words, each word labelled; and the truth."""
        r = self.rng
        title, sub = self.title(rec)
        if not title:
            return None
        author = self.author(rec) if r.random() > 0.1 else None
        if author and r.random() < 0.08:
            other = self.author(r.choice(self.catalogue))
            if other:
                author += r.choice([" und ", " & ", " y ", " i ", " et ", " and ", ", "]) + other
        caps_all = r.random() < 0.3
        title_t = title.upper() if caps_all else self.case(title, 0.35)
        author_t = None if not author else (author.upper() if caps_all else self.case(author, 0.45, 0.0, 0.02))
        blocks = []  # (text, label, size factor)
        T = 1.0
        blocks.append([title_t, 0, T])
        if sub and r.random() < 0.25:
            blocks.append([sub.upper() if caps_all else sub, 0, T * r.uniform(0.35, 0.7)])
        if author_t:
            a_size = T * (r.uniform(1.0, 1.5) if r.random() < 0.15 else r.uniform(0.35, 1.0))
            blocks.insert(0 if r.random() < 0.6 else len(blocks), [author_t, 1, a_size])
        if r.random() < 0.55:
            p = r.choice(self.publishers)
            x = r.random()
            p = p.upper() if x < 0.35 else (p.lower() if x < 0.5 else p)
            blocks.append([p, 2, T * r.uniform(0.25, 0.8)])
            if r.random() < 0.08:
                blocks.append([r.choice(PLACES).capitalize() if r.random() < 0.5 else r.choice(PLACES).upper(), 2, T * r.uniform(0.2, 0.5)])
        if r.random() < 0.25:
            x = r.random()
            if x < 0.4:
                g = r.choice(["Roman", "Kriminalroman", "Thriller", "Krimi", "Erzählung", "Erzählungen", "Gedichte", "roman",
                              "Novela", "novel·la", "Relatos", "Essais", "Récit", "A Novel", "Nouvelles", "Poesía", "Essay"])
                s = g.upper() if r.random() < 0.4 else g
            elif x < 0.7:
                s = r.choice(["Band", "BAND", "Bd.", "Tome", "TOME", "Tomo", "Vol.", "VOL.", "Teil", "Volume", "Part"]) + \
                    r.choice([" ", "", " "]) + str(r.randint(1, 12))
            else:
                s = r.choice(self.series)
            blocks.insert(r.randint(0, len(blocks)), [s, 3, T * r.uniform(0.3, 0.8)])
        if r.random() < 0.35:
            tag = r.choice(self.tags) if r.random() < 0.7 else "".join(r.choice("ABCDEFGHNPTabcdeilnortu0123456789.")
                                                                        for _ in range(r.randint(1, 4)))
            blocks.insert(0 if r.random() < 0.5 else len(blocks), [tag, 4, T * r.uniform(0.3, 1.1)])
        # Text running up the spine (most German and French books) starts the reading at the foot.
        if r.random() < 0.5:
            blocks.reverse()
        strip = r.random() < 0.2
        for b in blocks:
            b[0] = self.ocr_noise(b[0], strip)
        blocks = [b for b in blocks if b[0].strip()]

        layout = r.random()
        segments = []
        base = r.uniform(18, 60)
        if layout < 0.12:
            # Flat: one line of equal print (a commercial OCR line, or a reader that lost the layout).
            order = blocks[:]
            if r.random() < 0.3:
                r.shuffle(order)
            ws, x = [], 0.0
            for text, label, _ in order:
                w, x = self.words(text, base, x, label)
                ws += w
            segments.append({"words": ws, "size": base})
        elif layout < 0.7:
            # Thin spine: blocks along one row; neighbours glued into one segment now and then.
            x = 0.0
            current = None
            prev_label = None
            for text, label, factor in blocks:
                size = base * factor * r.uniform(0.93, 1.07)
                glue = current is not None and r.random() < (0.4 if {label, prev_label} == {0, 1} else 0.15)
                if glue:
                    sep = r.random()
                    if sep < 0.3:
                        current["words"][-1]["text"] += ":"
                    elif sep < 0.36:
                        current["words"][-1]["text"] += ","
                    # One line to the detector (one height), or pieces the reader joined (their own heights).
                    w, x = self.words(text, current["size"] if r.random() < 0.5 else size, x, label)
                    current["words"] += w
                else:
                    if current is not None:
                        segments.append(current)
                    x += r.uniform(1.6, 6) * max(size, current["size"] if current else size)
                    w, x = self.words(text, size, x, label)
                    current = {"words": w, "size": size}
                prev_label = label
            segments.append(current)
        else:
            # Wide spine: rows across it; the title over one to three rows, the author's row above or below,
            # publisher and stickers at one end along it.
            rows = []
            for text, label, factor in blocks:
                size = base * factor * r.uniform(0.95, 1.05)
                ws = text.split()
                if label == 0 and len(ws) >= 3 and r.random() < 0.6:
                    k = r.randint(1, len(ws) - 1)
                    rows += [(" ".join(ws[:k]), label, size), (" ".join(ws[k:]), label, size)]
                elif label == 1 and len(ws) == 2 and r.random() < 0.3:
                    rows += [(ws[0], label, size), (ws[1], label, size)]
                else:
                    rows.append((text, label, size))
            for text, label, size in rows:
                if label in (2, 4) and r.random() < 0.7:
                    x0 = r.uniform(0.0, 0.1) * 600 if r.random() < 0.5 else 600 - len(text) * size * 0.62
                else:
                    x0 = r.uniform(80, 160)
                w, _ = self.words(text, size, x0, label)
                segments.append({"words": w, "size": size})
        for k, s in enumerate(segments):
            s["index"] = k
        return {"segments": segments, "foot": None if layout < 0.12 or r.random() < 0.15 else self._foot(segments), "title": title,
                "author": author or ""}

    def _foot(self, segments):
        """Where the foot is, from where the publisher or most of the stickers ended up (the renderer puts them
        at one end); None-like guess when neither is there."""
        xs = [(w["x0"] + w["x1"]) / 2 for s in segments for w in s["words"] if w["label"] == 2]
        left = min(w["x0"] for s in segments for w in s["words"])
        right = max(w["x1"] for s in segments for w in s["words"])
        if not xs:
            return self.rng.random() < 0.5
        return sum(xs) / len(xs) < (left + right) / 2


def examples(spine, lex, max_spans=40, rng=None):
    segs = spine["segments"]
    ctx = context(segs, spine["foot"])
    X, y = [], []
    for seg in segs:
        ws = seg["words"]
        n = len(ws)
        spans = [(i, j) for i in range(n) for j in range(i + 1, n + 1)]
        if len(spans) > max_spans:
            spans = rng.sample(spans, max_spans) + [(0, n)]
        for i, j in spans:
            labels = {w["label"] for w in ws[i:j]}
            if len(labels) > 1:
                lab = 5
            else:
                lab = labels.pop()
                # A piece of a run that goes on is not a whole thing either: "mixed" is "not one whole thing".
                if (i > 0 and ws[i - 1]["label"] == lab) or (j < n and ws[j]["label"] == lab):
                    lab = 5
            X.append(span_features(ws, i, j, seg, ctx, lex))
            y.append(lab)
    return X, y


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", default=os.path.join(os.path.dirname(__file__), "../../shared/datasets/library-dataset"))
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "../models/reading"))
    ap.add_argument("--spines", type=int, default=16000)
    ap.add_argument("--wider-lexicon", action="store_true",
                    help="frequent words of German, English, Spanish and French (spacy-lookups-data) and more publishers: "
                         "measured in docs/reading.md, not shipped")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--members", type=int, default=1,
                    help="networks trained from different starts and averaged (their logits): one network's split "
                         "moves by several points from one seed to the next")
    ap.add_argument("--heavy-noise", action="store_true",
                    help="readings as damaged as PP-OCR leaves real spines (look-alike letters, flipped case, lost first "
                         "letters, words run together): measured in docs/reading.md")
    args = ap.parse_args()
    global HEAVY_NOISE
    HEAVY_NOISE = args.heavy_noise
    rng = random.Random(args.seed)
    np.random.seed(args.seed)

    catalogue = load_catalogue(os.path.join(args.dataset, "catalogue.csv"))
    annotations = list(csv.DictReader(open(os.path.join(args.dataset, "spine_annotations.csv"), newline="")))
    scenes = sorted({scene(a["image_name"]) for a in annotations})
    held_scenes = set(scenes[1::2])
    held_titles = set()
    for name in ("one_shelf_example", "two_shelves_example"):
        p = os.path.join(args.dataset, "spine_boxes", name + ".json")
        if os.path.exists(p):
            for s in json.load(open(p))["spines"]:
                if s.get("title"):
                    held_titles.add(norm(main_title(s["title"])))
    for a in annotations:
        if scene(a["image_name"]) in held_scenes:
            held_titles.add(norm(main_title(a["title"])))
    # Every book by an author of a held-out book is held out too, so the lexicon never learns their names.
    held_authors = set()
    for r in catalogue:
        if norm(main_title(r["title"])) in held_titles and parse_author(r["author"]):
            held_authors.add(key(parse_author(r["author"])[1]))
    for name in ("one_shelf_example", "two_shelves_example"):
        p = os.path.join(args.dataset, "spine_boxes", name + ".json")
        if os.path.exists(p):
            for s in json.load(open(p))["spines"]:
                for a in (s.get("author") or "").split(","):
                    if a.split():
                        held_authors.add(key(a.split()[-1]))
    held_authors.discard("")
    for r in catalogue:
        pa = parse_author(r["author"])
        if pa and key(pa[1]) in held_authors:
            held_titles.add(norm(main_title(r["title"])))
    train_records = [r for r in catalogue if norm(main_title(r["title"])) not in held_titles]
    print(f"catalogue: {len(catalogue)} records, {len(train_records)} trained on, {len(catalogue) - len(train_records)} "
          f"held out (titles on the two measured photos and on {len(held_scenes)} of {len(scenes)} annotation scenes, "
          f"and every book by their {len(held_authors)} authors)")

    kinds, publishers, display = build_lexicon(catalogue, held_titles, args.wider_lexicon)
    lex = Lexicon(kinds, publishers)
    # Training sees a lexicon with a share of the names missing, as unseen photos will have authors it lacks.
    train_kinds = {}
    for k, v in kinds.items():
        v = set(v)
        if "s" in v and rng.random() < 0.3:
            v.discard("s")
        if "g" in v and rng.random() < 0.1:
            v.discard("g")
        if v:
            train_kinds[k] = v
    train_lex = Lexicon(train_kinds, publishers)

    from faker import Faker
    fakers = [Faker(loc) for loc in FAKER_LOCALES]
    for i, f in enumerate(fakers):
        f.seed_instance(args.seed + i)
    display_publishers = [p.strip() for p in (HAND_PUBLISHERS + (MORE_PUBLISHERS if args.wider_lexicon else "")).split("|") if p.strip()]
    display_publishers = [" ".join(w.capitalize() for w in p.split()) for p in display_publishers]
    for rec in catalogue:
        for m in re.findall(r"\(([^)]*)\)", rec["series"]):
            if not re.search(r"\d", m):
                display_publishers.append(m.strip())
    renderer = Renderer(rng, train_records, display_publishers, fakers, display)

    spines = []
    while len(spines) < args.spines:
        s = renderer.spine(rng.choice(train_records))
        if s:
            spines.append(s)
    cut = int(len(spines) * 0.9)
    X, y = [], []
    for s in spines[:cut]:
        a, b = examples(s, train_lex, rng=rng)
        X += a; y += b
    X, y = np.array(X), np.array(y)
    print(f"training: {cut} rendered spines, {len(y)} runs; labels " +
          ", ".join(f"{LABELS[k]} {int((y == k).sum())}" for k in range(len(LABELS))))
    mean = X.mean(axis=0)
    scale = X.std(axis=0)
    scale[scale < 1e-6] = 1
    # The members share the standardisation and the data, so side by side they are one wider network: hidden
    # units concatenated, output weights and biases divided by their number gives the mean of their logits, and the
    # reader's single-network code runs the ensemble unchanged.
    w1s, b1s, w2s, b2s = [], [], [], []
    for m in range(args.members):
        clf = MLPClassifier(hidden_layer_sizes=(args.hidden,), activation="relu", alpha=1e-3, max_iter=60,
                            early_stopping=True, random_state=args.seed + 100 * m, batch_size=512)
        clf.fit((X - mean) / scale, y)
        w1s.append(clf.coefs_[0]); b1s.append(clf.intercepts_[0])
        w2s.append(clf.coefs_[1] / args.members); b2s.append(clf.intercepts_[1] / args.members)
    w1, b1 = np.concatenate(w1s, axis=1), np.concatenate(b1s)
    w2, b2 = np.concatenate(w2s, axis=0), np.sum(b2s, axis=0)
    net = Net(mean, scale, w1, b1, w2, b2)

    def score_synthetic(penalty, which):
        t = a = an = 0
        for s in which:
            title, authors = decode(s["segments"], s["foot"], lex, net, penalty)
            t += similar(title or "", s["title"]) >= 0.8
            if s["author"]:
                an += 1
                a += max([similar(x, s["author"]) for x in authors] or [0]) >= 0.8
        return t / max(1, len(which)), a / max(1, an)

    held = spines[cut:]
    best = None
    for penalty in (-1.0, -0.5, 0.0, 0.5, 1.0):
        tt, aa = score_synthetic(penalty, held[: len(held) // 2])
        print(f"  cut penalty {penalty}: held-out synthetic title {tt:.3f} author {aa:.3f}")
        if best is None or tt + aa > best[0]:
            best = (tt + aa, penalty)
    penalty = best[1]
    tt, aa = score_synthetic(penalty, held[len(held) // 2:])
    print(f"held-out synthetic spines ({len(held) - len(held) // 2}), cut penalty {penalty}: title {tt:.3f} author {aa:.3f}")

    # Real commercial-OCR readings of the held-out scenes: flat text, no layout.
    t = a = n = an = 0
    for row in annotations:
        if scene(row["image_name"]) not in held_scenes or row["not_book"] == "True" or not row["ocr"].strip():
            continue
        x, ws = 0.0, []
        for w in row["ocr"].split():
            ws.append({"text": w, "x0": x, "x1": x + len(w) * 12, "h": 20})
            x += len(w) * 12 + 8
        title, authors = decode([{"words": ws, "size": 20, "index": 0}], None, lex, net, penalty)
        n += 1
        t += similar(title or "", main_title(row["title"])) >= 0.8
        pa = parse_author(row["author"]) if row["author"].strip() else None
        if pa:
            an += 1
            surname = key(pa[1].split()[0]) if pa[1].split() else ""
            a += any(surname and surname in [key(w) for w in x_.split()] for x_ in authors)
    print(f"held-out annotation scenes ({len(held_scenes)} scenes, {n} spines with OCR): title {t / max(1, n):.3f}, "
          f"author surname named {a / max(1, an):.3f} ({an} with an author)")

    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "lexicon-v1.tsv"), "w") as f:
        for k in sorted(kinds):
            f.write(f"{k}\t{''.join(sorted(kinds[k]))}\n")
    with open(os.path.join(args.out, "publishers-v1.txt"), "w") as f:
        more = publisher_keys(MORE_PUBLISHERS) - publisher_keys(AMBIGUOUS_MORE_PUBLISHERS)
        known = publisher_keys(READER_PUBLISHERS) | more
        for p in sorted(publishers | known):
            f.write(p + "\n")

    def rounded(a):
        return [round(float(v), 5) for v in np.asarray(a).ravel()]

    model = {
        "version": 1,
        "labels": LABELS,
        "features": FEATURES,
        "mean": rounded(mean), "scale": rounded(scale),
        "hidden": int(w1.shape[1]),
        "w1": rounded(w1), "b1": rounded(b1),
        "w2": rounded(w2), "b2": rounded(b2),
        "cutPenalty": penalty,
        "trainedOn": f"train-spine-tagger.py --spines {args.spines} --seed {args.seed}" + (f" --members {args.members}" if args.members > 1 else "") + (" --wider-lexicon" if args.wider_lexicon else ""),
    }
    with open(os.path.join(args.out, "spine-tagger-v1.json"), "w") as f:
        json.dump(model, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {args.out}/spine-tagger-v1.json, lexicon-v1.tsv ({len(kinds)} words), publishers-v1.txt ({len(publishers)})")


if __name__ == "__main__":
    main()
