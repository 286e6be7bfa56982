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
}
