import Testing
@testable import SpineReading

/// The title/author split on what real spines print, line by line as a reader hands them over.
@Suite("Title and author split")
struct TitleSplitterTests {
    func line(_ text: String, y: Int = 0, h: Int = 20, x0: Int = 0) -> OCRLine { ocrLine(text, y: y, h: h, x0: x0) }

    func split(_ lines: [OCRLine]) -> TitleSplitter.Split { TitleSplitter.split(TitleSplitter.segments(lines)) }

    @Test("A call-number sticker never becomes the title")
    func stickers() {
        let s = split([line("N Pad", y: 0), line("La neblina del ayer", y: 30), line("TeaN", y: 60)])
        #expect(s.title == "La neblina del ayer")
        // Stuck to the title line as one word, it is dropped from the ends.
        #expect(split([line("Agua cerrada TeaN")]).title == "Agua cerrada")
        #expect(split([line("NPas La mala dona")]).title == "La mala dona")
        #expect(TitleSplitter.isLabelWord("NPam") && TitleSplitter.isLabelWord("ueaN"))
        #expect(!TitleSplitter.isLabelWord("Dune") && !TitleSplitter.isLabelWord("IBM") && !TitleSplitter.isLabelWord("McEwan"))
    }

    @Test("A short title is still the title when the only other text is the author's name")
    func shortTitle() {
        let s = split([line("DUNE", y: 0, h: 30), line("FRANK HERBERT", y: 40)])
        #expect(s.title == "DUNE")
        #expect(s.authors == ["FRANK HERBERT"])
    }

    @Test("A surname alone in capitals, in smaller print than the mixed-case title, is the author")
    func capitalsSurname() {
        let s = split([line("PALAHNIUK", y: 0, h: 14), line("Invéntate algo", y: 30, h: 24)])
        #expect(s.title == "Invéntate algo")
        #expect(s.authors == ["PALAHNIUK"])
        // All in capitals and one size: nothing tells a one-word title from a surname the lexicon lacks, so
        // nothing is taken for a name (a title word made author was a failure on real shelves).
        #expect(split([line("SNUFF", y: 0), line("PALAHNIUK", y: 30)]).authors.isEmpty)
    }

    @Test("A change of case inside one line separates title and author")
    func caseChange() {
        let s = split([line("ESCRITOS CORSARIOS Pasolini")])
        #expect(s.title == "ESCRITOS CORSARIOS")
        #expect(s.authors == ["Pasolini"])
    }

    @Test("Slashes and dots between author and title separate them")
    func separators() {
        let s = split([line("Leonardo Padura/ MASCARAS")])
        #expect(s.title == "MASCARAS")
        #expect(s.authors == ["Leonardo Padura"])
        let dotted = split([line("RITA MAE BROWN·HERZ DAME STICHT")])
        #expect(dotted.title == "HERZ DAME STICHT")
        #expect(dotted.authors == ["RITA MAE BROWN"])
    }

    @Test("Two given names and the surname they share, before the title on one line, are two authors")
    func sharedSurnameBeforeTitle() {
        let s = split([line("Frank und Gundi Gaschler Ich will verstehen, was du wirklich brauchst")])
        #expect(s.title == "Ich will verstehen, was du wirklich brauchst")
        #expect(s.authors == ["Frank Gaschler", "Gundi Gaschler"])
        let caps = split([line("FRANK UND GUNDI GASCHLER ICH WILL VERSTEHEN")])
        #expect(caps.title == "ICH WILL VERSTEHEN")
        #expect(caps.authors == ["FRANK GASCHLER", "GUNDI GASCHLER"])
        // A word after the two names that is a title's ("Die") is no surname: the line stays a title.
        #expect(split([line("Hänsel und Gretel Die Märchen der Brüder Grimm")]).authors.isEmpty)
    }

    @Test("A one-word title printed far larger than the rest is the title, though it could be a surname")
    func largestWordIsTitle() {
        // BooksTrack's own photo: the largest print became the author and the subtitle the title.
        let attached = split([line("Attached.", y: 0, h: 40), line("The New Science of Adult Attachment", y: 50, h: 16),
                              line("AMIR LEVINE AND RACHEL HELLER", y: 80, h: 14)])
        #expect(attached.title == "Attached.")
        #expect(attached.authors == ["AMIR LEVINE", "RACHEL HELLER"])
        // A surname the lists hold, printed large beside a co-author's name, stays an author.
        let runs = [SpineTagger.Run(words: line("PATTERSON", h: 40).words, label: .author, probabilities: [], size: 40),
                    SpineTagger.Run(words: line("1st to Die", y: 50, h: 20).words, label: .title, probabilities: [], size: 20),
                    SpineTagger.Run(words: line("Maxine Paetro", y: 80, h: 14).words, label: .author, probabilities: [], size: 14)]
        #expect(TitleSplitter.largestWordIsTitle(runs) == runs)
    }

    @Test("Names with particles, set before or after the title")
    func particles() {
        let s = split([line("IFIGENIA TERESA DE LA PARRA")])
        #expect(s.title == "IFIGENIA")
        #expect(s.authors == ["TERESA DE LA PARRA"])
    }

    @Test("A publisher's name is neither title nor author")
    func publishers() {
        let s = split([line("Herzenhören", y: 0, h: 30), line("Jan-Philipp Sendker", y: 40), line("HEYNE", y: 70)])
        #expect(s.title == "Herzenhören")
        #expect(s.authors == ["Jan-Philipp Sendker"])
        // On one line with the title the publisher is still dropped (where the name ends and a one-word title
        // begins is not knowable from the words alone, so the split itself is not asserted).
        let joined = split([line("Herzenhören Jan-Philipp Sendker HEYNE")])
        #expect(!(joined.title ?? "").contains("HEYNE") && !joined.authors.joined().contains("HEYNE"))
        #expect(Publishers.isPublisher("Penguin Books") && Publishers.isPublisher("braumüller") && !Publishers.isPublisher("Dune"))
    }

    @Test("An offline reading keeps a name read alone; one with neither title nor name is unread and says why")
    func readingFromSplit() {
        func reading(_ split: TitleSplitter.Split, raw: String) -> Reading {
            Reading.fromSplit(split, spineID: 7, rawText: raw, reader: "ppocr", model: "m", promptVersion: "v",
                              textRunsUp: true)
        }
        let name = reading(.init(title: nil, authors: ["David Baldacci"], confidence: 0.9), raw: "DAVID BALDACCI")
        #expect(name.isRead)
        #expect(name.title == nil)
        #expect(name.authors == ["David Baldacci"])
        #expect(name.textRunsUp == true)

        let noise = reading(.init(title: nil, authors: [], confidence: 0), raw: "796.42 Cow")
        #expect(noise.error == "no confident text")
        #expect(noise.rawText == "796.42 Cow")
        #expect(noise.textRunsUp == true, "the text seen still tells which way the spine runs")

        let blank = reading(.init(title: nil, authors: [], confidence: 0), raw: "")
        #expect(blank.error == "no text found")
        #expect(blank.textRunsUp == nil)
    }

    @Test("Names listed with marks between them are one author each, and the words after the last name the title")
    func namesListedByMarks() {
        // A Bookfinder spine: three surnames set apart by middle dots, the title after the last on its line.
        let listed = split([line("BELTZPVU", y: 0, h: 14), line("Döpfner·Schürmann·Lehmkuhl Wackelpeter Trotzkopf", y: 30)])
        #expect(listed.title == "Wackelpeter Trotzkopf")
        #expect(["Döpfner", "Schürmann", "Lehmkuhl"].allSatisfy(listed.authors.contains))
        #expect(split([line("Döpfner· Schürmann· Lehmkuhl Wackelpeter Trotzkopf")]).title == "Wackelpeter Trotzkopf")
        // Two names of two words: the last takes as many words as the first.
        let two = split([line("Gaby Hauptmann/Frank Schätzing Die Liebe")])
        #expect(two.title == "Die Liebe")
        #expect(two.authors == ["Gaby Hauptmann", "Frank Schätzing"])
        // One mark between an author and the title lists nobody.
        let one = split([line("Hesse/ Steppenwolf Roman")])
        #expect(one.authors == ["Hesse"])
        #expect(one.title?.hasPrefix("Steppenwolf") == true)
        #expect(split([line("Padura/ EL HOMBRE QUE AMABA")]).title == "EL HOMBRE QUE AMABA")
        // Words of a title are no names: "Slow Horses" before a mark stays the title.
        let horses = split([line("Slow Horses/ Mick Herron Roman")])
        #expect(horses.title == "Slow Horses")
    }

    @Test("A given name and its middle initial on a row of their own go on into the surname on the next row")
    func surnameAfterInitialRow() {
        // A Bookfinder spine, read with the surname's first letter lost.
        let s = split([line("LAURELL K.", y: 0), line("AMILTON", y: 30), line("LECIRQUE", y: 60), line("DESDAMNÉS", y: 90)])
        #expect(s.authors == ["LAURELL K. AMILTON"])
        #expect(s.title == "LECIRQUE DESDAMNÉS")
        // A row of two words after the initial is not the surname's.
        let longer = split([line("LAURELL K.", y: 0), line("LE CIRQUE", y: 30), line("DES DAMNÉS", y: 60)])
        #expect(!longer.authors.contains { $0.contains("CIRQUE") })
    }

    @Test("A given name before a title's capitalised article on one line is the author")
    func nameBeforeArticle() {
        // The example from a German shelf: the surname was not read, the given name glued to the title.
        let s = split([line("Arundhati Der Gott der kleinen Dinge")])
        #expect(s.title == "Der Gott der kleinen Dinge")
        #expect(s.authors == ["Arundhati"])
        // A shared real spine whose surname lost its capital to the reader; a word the lists hold after the
        // given name still makes no name.
        let sizun = split([line("arléa", y: 0, h: 12), line("Marie sizun La gouvernante suédoise", y: 30)])
        #expect(sizun.title == "La gouvernante suédoise")
        #expect(sizun.authors == ["Marie sizun"])
        #expect(TitleSplitter.nameBeforeArticle(TitleSplitter.segments([line("Hanna und Die Anderen")])).count == 1)
        // A title's own lower-case article, a particle's "der", and a line in capitals are left to the tagger.
        #expect(split([line("Jude the Obscure", y: 0), line("Thomas Hardy", y: 30, h: 14)]).title == "Jude the Obscure")
        #expect(TitleSplitter.nameBeforeArticle(TitleSplitter.segments([line("Ernest van der Kwast Die Eismacher")])).count == 1)
        #expect(TitleSplitter.nameBeforeArticle(TitleSplitter.segments([line("ALEXANDER THE GREAT")])).count == 1)
    }

    @Test("A name never ends on a preposition, an article or a particle")
    func nameEndsOnSurname() {
        // Shared real spines: "Tenis" and "Atlas" are given names in the lists, "en" a surname, and each line
        // went to the author up to the word where the title goes on.
        let tenis = split([line("796.342 Tor", y: 0, h: 14), line("TENIS EN LA ESCUELA", y: 30)])
        #expect(tenis.title == "TENIS EN LA ESCUELA")
        #expect(tenis.authors.isEmpty)
        let atlas = split([line("796.41 Lib", y: 0, h: 14), line("ATLAS ILUSTRADO DEL", y: 30), line("Fitness", y: 60, h: 24)])
        #expect(atlas.title == "ATLAS ILUSTRADO DEL Fitness")
        #expect(atlas.authors.isEmpty)
        #expect(!TitleSplitter.looksLikeName("ATLAS ILUSTRADO DEL") && TitleSplitter.looksLikeName("Gabriel García Márquez"))
    }

    @Test("A title's lower-case article inside its line ends no row: the line stays one title")
    func articleInsideLine() {
        // The tagger cut "Jude the | Obscure"; the article rule for rows took "Jude" for the author.
        let jude = split([line("Jude the Obscure")])
        #expect(jude.title == "Jude the Obscure")
        #expect(jude.authors.isEmpty)
        let a = ocrLine("Jude the Obscure").words
        #expect(TitleSplitter.inOneRun(a[1], a[2]))
        // Blocks along a thin spine share a row, but a wide gap parts them ("BAYRON THIS | POISON HEART").
        let far = ocrLine("POISON", x0: a[2].right + 60).words[0]
        #expect(!TitleSplitter.inOneRun(a[2], far))
        #expect(!TitleSplitter.inOneRun(a[1], ocrLine("Obscure", y: 30).words[0]))
        // Close together in another print: "BAYRON THIS" 34 px high beside "POISON HEART" 50 px high.
        let bayron = ocrLine("THIS", h: 34).words[0], poison = ocrLine("POISON", h: 50, x0: bayron.right + 20).words[0]
        #expect(!TitleSplitter.inOneRun(bayron, poison))
    }

    @Test("A two-letter title in the spine's largest print is the title, not a stray mark")
    func twoLetterTitle() {
        let es = split([line("STEPHEN KING", y: 0, h: 14), line("Es", y: 30, h: 30)])
        #expect(es.title == "Es")
        #expect(es.authors == ["STEPHEN KING"])
        #expect(split([line("STEPHEN KING", y: 0, h: 14), line("ES", y: 30, h: 30)]).title == "ES")
        // Letters in small print, or no word the lexicon knows, stay marks.
        let small = split([line("Es", y: 0, h: 10), line("Der Vorleser", y: 30, h: 24)])
        #expect(small.title == "Der Vorleser")
        #expect(TitleSplitter.twoLetterTitle(TitleSplitter.segments([line("Qx", y: 0, h: 30), line("Bernhard Schlink", y: 40, h: 14)])) == nil)
    }

    @Test("Two surnames joined by \"und\" in smaller print than the title are two authors")
    func surnamePair() {
        let kluftinger = split([line("Klüpfel und Kobr", y: 0, h: 14), line("Kluftinger", y: 30, h: 28)])
        #expect(kluftinger.title == "Kluftinger")
        #expect(kluftinger.authors == ["Klüpfel", "Kobr"])
        let relic = split([line("Preston & Child", y: 0, h: 14), line("Relic", y: 30, h: 28)])
        #expect(relic.title == "Relic")
        #expect(relic.authors == ["Preston", "Child"])
        // Two nouns so joined in the title's print are the title.
        let war = split([line("Krieg und Frieden", y: 0, h: 24), line("Tolstoi", y: 40, h: 14)])
        #expect(war.title == "Krieg und Frieden")
    }

    @Test("With both runs taken for names, a whole name is the author beside a run that is none")
    func wholeNameBesideTitle() {
        let faber = split([line("MAX FRISCH HOMO FABER")])
        #expect(faber.title == "HOMO FABER")
        #expect(faber.authors == ["MAX FRISCH"])
        let agnes = split([line("PETER STAMM", y: 0, h: 14), line("AGNES", y: 30, h: 28)])
        #expect(agnes.title == "AGNES")
        #expect(agnes.authors == ["PETER STAMM"])
        // Runs labelled as the tagger labelled real spines, where it found the name likelier a title than the title.
        func run(_ text: String, _ label: SpineTagger.Label, title p: Double) -> SpineTagger.Run {
            SpineTagger.Run(words: line(text).words, label: label, probabilities: [p, 1 - p, 0, 0, 0, 0], size: 20)
        }
        #expect(TitleSplitter.likeliestTitle([run("MAX FRISCH", .author, title: 0.4), run("HOMO FABER", .author, title: 0.3)]) == 1)
        // A surname alone, a name with particles, a title that starts with an article: names, or no names,
        // as the tagger's odds say.
        #expect(TitleSplitter.likeliestTitle([run("Tom Jones Henry", .author, title: 0.2), run("Fielding", .author, title: 0.1)]) == 0)
        #expect(TitleSplitter.likeliestTitle([run("Eugenie Grandet", .author, title: 0.4), run("Honore de Balzac", .author, title: 0.3)]) == 0)
        #expect(TitleSplitter.likeliestTitle([run("ROMAN", .series, title: 0.1), run("Gavalda", .author, title: 0.2),
                                              run("LA CONSOLANTE", .author, title: 0.4)]) == 2)
        #expect(TitleSplitter.likeliestTitle([run("DAVID BALDACCI", .author, title: 0.4)]) == nil)
    }

    @Test("A surname one letter off a publisher's name stays the author")
    func surnameNearPublisher() {
        // "Fontane" is one letter off "Fontana", a publisher the list holds.
        let effi = split([line("FONTANE", y: 0, h: 14), line("Effi Briest", y: 30, h: 24)])
        #expect(effi.title == "Effi Briest")
        #expect(effi.authors == ["FONTANE"])
        #expect(SpineLexicon.shipped.isPublisher("FONTANE", damaged: true))
        #expect(!SpineLexicon.shipped.isPublisher("FONTANE", damaged: true, misread: false))
        #expect(SpineLexicon.shipped.isPublisher("OLDMANN", damaged: true, misread: false))
    }

    @Test("A surname alone in small print beside the title is the author; a row the title goes on into is no name")
    func titleRowsStayTitle() {
        // "Der" is a given name somewhere; the surname in small print is the author.
        let physiker = split([line("Die Physiker", y: 0, h: 28), line("Dürrenmatt", y: 40, h: 14)])
        #expect(physiker.title == "Die Physiker")
        #expect(physiker.authors == ["Dürrenmatt"])
        #expect(!TitleSplitter.looksLikeName("Der Sturm"))
        // A row ending in a preposition goes on into the large word after it, which is no surname in capitals.
        let teheran = split([line("Lolita lesen in", y: 0, h: 14), line("TEHERAN", y: 20, h: 28)])
        #expect(teheran.title == "Lolita lesen in TEHERAN")
        #expect(teheran.authors.isEmpty)
        // A one-word subtitle the lexicon knows is no author.
        #expect(split([line("Die Physiker", y: 0, h: 28), line("Erzählung", y: 40, h: 14)]).authors.isEmpty)
    }
}
