import Foundation
import Testing
@testable import SpineReading

/// The split on what real home-shelf spines print, as PP-OCR hands it over: lines in the reading frame (the
/// text running left to right), each with its height, on one row along a thin spine or in rows across a
/// wide one. Each case is a kind of failure the word rules made on unseen photos.
@Suite("Spine tagger: title, author, publisher, series and noise")
struct SpineTaggerTests {
    /// One line of words of height `h` at row `y`, starting at `x0`, letters 0.6 of the height wide.
    func line(_ text: String, y: Int = 0, h: Int = 20, x0: Int = 0) -> OCRLine {
        ocrLine(text, y: y, h: h, x0: x0, letterWidth: 0.6 * Double(h), gap: h / 3)
    }

    /// Blocks along one row of a thin spine, apart by twice the larger letter height of the two: separate
    /// boxes to the text detector.
    func along(_ blocks: [(String, Int)]) -> [OCRLine] {
        var x = 0, last = 0
        return blocks.map { text, h in
            let l = line(text, h: h, x0: x + 2 * max(last, h))
            x = l.right
            last = h
            return l
        }
    }

    func split(_ lines: [OCRLine], footAtStart: Bool? = nil) -> TitleSplitter.Split {
        TitleSplitter.split(TitleSplitter.segments(PPOCRSpine.blocks(PPOCRSpine.rows(lines))), footAtStart: footAtStart)
    }

    @Test("An author's name glued to the title is split off, with or without a colon or a space")
    func authorGluedToTitle() {
        let herron = split([line("MICKHERRON SLOW HORSES", h: 30)])
        #expect(herron.title == "SLOW HORSES")
        #expect(herron.authors == ["MICK HERRON"])
        let scheidegger = split([line("Urs Scheidegger:Mariannes Geburtstag", h: 24)])
        #expect(scheidegger.title == "Mariannes Geburtstag")
        #expect(scheidegger.authors == ["Urs Scheidegger"])
        let roth = split([line("Roth: Ernst und heiter", h: 24)])
        #expect(roth.title == "Ernst und heiter")
        #expect(roth.authors == ["Roth"])
        let rollin = split([line("Betty Rollin Dieses eine Leben", h: 24)])
        #expect(rollin.title == "Dieses eine Leben")
        #expect(rollin.authors == ["Betty Rollin"])
    }

    @Test("A publisher or its town at the foot is never the title; the title is not pushed into the authors")
    func publisherAtTheFoot() {
        // Text running up the spine: the reading starts at the foot, with the publisher.
        let insel = split(along([("Insel", 14), ("Der Gott der kleinen Dinge", 30), ("Arundhati Roy", 20)]), footAtStart: true)
        #expect(insel.title == "Der Gott der kleinen Dinge")
        #expect(insel.authors == ["Arundhati Roy"])
        // Running down: the publisher's logo comes last.
        let lubbe = split(along([("KEN FOLLETT", 22), ("DIE SÄULEN DER ERDE", 34), ("BASTEI LUBBE", 12)]), footAtStart: false)
        #expect(lubbe.title == "DIE SÄULEN DER ERDE")
        #expect(lubbe.authors == ["KEN FOLLETT"])
        let leipzig = split(along([("LEIPZIG", 12), ("Reclam", 12), ("Effi Briest", 30), ("Theodor Fontane", 20)]), footAtStart: true)
        #expect(leipzig.title == "Effi Briest")
        #expect(leipzig.authors == ["Theodor Fontane"])
        // Imprints of books for young readers, at the foot of American spines: "Katherine Tegen" and "Balzer + Bray"
        // read as names, "HARPERTEEN" as a word no list holds, and each was a second author.
        for imprint in ["KATHERINE TEGEN BOOKS", "HARPERTEEN", "BALZER + BRAY"] {
            let spine = split(along([("VERONICA ROTH", 30), ("DIVERGENT", 40), (imprint, 18)]), footAtStart: false)
            #expect(spine.title == "DIVERGENT" && spine.authors == ["VERONICA ROTH"], "\(imprint): \(spine)")
        }
        // A lowercase logo: "orell fussli" as the OCR reads "orell füssli".
        let orell = split(along([("Marianne Gronemeyer", 18), ("Das Leben als letzte Gelegenheit", 28), ("orell fussli", 12)]), footAtStart: false)
        #expect(orell.title == "Das Leben als letzte Gelegenheit")
        #expect(!orell.authors.contains { $0.lowercased().contains("orell") })
    }

    @Test("German, Swiss and French imprints are no author, in a row of their own or at the foot")
    func europeanImprints() {
        // Imprints no catalogue record names. A row of their own above a wide spine's name and title was taken
        // for a second author, and so was one read as a name ("Christian Bourgois", "Rütten & Loening") at a
        // thin spine's foot.
        for imprint in ["Weltbild", "arléa", "Phébus", "Folio junior", "Zytglogge", "Casterman", "Buchet Chastel", "Tessloff"] {
            let spine = split([line(imprint, y: 0, h: 18), line("Marie Sizun", y: 30, h: 18), line("La gouvernante suédoise", y: 60, h: 24)])
            #expect(spine.title == "La gouvernante suédoise" && spine.authors == ["Marie Sizun"], "\(imprint): \(spine)")
        }
        for imprint in ["Christian Bourgois", "Paul Zsolnay", "Rütten & Loening", "Delcourt"] {
            let spine = split(along([("VERONICA ROTH", 30), ("DIVERGENT", 40), (imprint, 18)]), footAtStart: false)
            #expect(spine.title == "DIVERGENT" && spine.authors == ["VERONICA ROTH"], "\(imprint): \(spine)")
        }
    }

    @Test("A publisher's logo in lower case at the foot does not go on a title in mixed case")
    func lowerCaseLogoAfterMixedCaseTitle() {
        // "dtv", "btb", "rororo", "folio": the logo a little smaller than the title and in lower case, as a
        // title's next row in lower case is printed, was taken for the title's last word.
        for logo in ["dtv", "btb", "rororo", "suhrkamp taschenbuch", "fischer", "diogenes", "folio", "points", "arléa"] {
            let spine = split(along([("Marie Sizun", 18), ("La gouvernante suédoise", 28), (logo, 18)]), footAtStart: false)
            #expect(spine.title == "La gouvernante suédoise" && spine.authors == ["Marie Sizun"], "\(logo): \(spine)")
        }
    }

    @Test("A surname alone before a title that starts with an article, on one line, is the author")
    func surnameBeforeArticle() {
        let schlink = split(along([("Schlink Der Vorleser", 24), ("detebe", 12)]), footAtStart: false)
        #expect(schlink.title == "Der Vorleser" && schlink.authors == ["Schlink"], "\(schlink)")
        let mankell = split(along([("Mankell Die falsche Fährte", 24), ("dtv", 12)]), footAtStart: false)
        #expect(mankell.title == "Die falsche Fährte" && mankell.authors == ["Mankell"], "\(mankell)")
        // A word that is a common word too stays the title's: "Winter" may be either.
        let winter = split(along([("Winter Der lange Weg", 24)]), footAtStart: false)
        #expect(winter.title == "Winter Der lange Weg" && winter.authors.isEmpty, "\(winter)")
    }

    @Test("A one-word title in the largest print stays the title; a volume mark is no author")
    func titleWordNotAuthor() {
        let sturm = split(along([("Fritz Reuter", 18), ("STURM", 40)]), footAtStart: true)
        #expect(sturm.title == "STURM")
        #expect(sturm.authors == ["Fritz Reuter"])
        let band = split([line("DIE ZEIT DER ZAUBERER", y: 0, h: 32), line("BAND2", y: 40, h: 14)])
        #expect(band.title == "DIE ZEIT DER ZAUBERER")
        #expect(band.authors.isEmpty)
    }

    @Test("A genre line is neither title nor author")
    func genreLine() {
        let s = split(along([("dtv", 12), ("KRIMINALROMAN", 12), ("ERBARMEN", 36), ("JUSSI ADLER-OLSEN", 20)]), footAtStart: true)
        #expect(s.title == "ERBARMEN")
        #expect(s.authors == ["JUSSI ADLER-OLSEN"])
    }

    @Test("The largest print is the title, the smaller subtitle is not, and the names below are the authors")
    func largestPrintIsTitle() {
        let s = split([
            line("Attached.", y: 0, h: 44),
            line("The New Science of Adult Attachment", y: 54, h: 16),
            line("Amir Levine and Rachel Heller", y: 76, h: 16),
        ])
        #expect(s.title == "Attached.")
        #expect(s.authors == ["Amir Levine", "Rachel Heller"])
    }

    @Test("The shipped lexicon knows names, common words and publishers across languages")
    func lexicon() {
        let lexicon = SpineLexicon.shipped
        #expect(lexicon.isGiven("Jan-Philipp") && lexicon.isGiven("Françoise") && lexicon.isGiven("MICK"))
        #expect(lexicon.has("Herron", .surname) && lexicon.has("Müller", .surname))
        #expect(lexicon.has("und", .function) && lexicon.has("Leben", .common))
        #expect(lexicon.isPublisher("BASTEI LÜBBE") && lexicon.isPublisher("Insel Verlag") && lexicon.isPublisher("Pluriel"))
        #expect(!lexicon.isPublisher("Der Gott der kleinen Dinge"))
        #expect(SpineLexicon.key("Scheidegger:") == "scheidegger" && SpineLexicon.phraseKey("Orell Füssli") == "orell fussli")
    }

    @Test("Joined words are cut where OCR lost the space: after a colon, after a given name or two initials in capitals")
    func joinedWords() {
        let word = OCRWord(text: "Scheidegger:Mariannes", confidence: 90, left: 0, top: 0, right: 210, bottom: 20, fromDictionary: false)
        #expect(TitleSplitter.splitAtColon(word).map(\.text) == ["Scheidegger:", "Mariannes"])
        let caps = OCRWord(text: "MICKHERRON", confidence: 90, left: 0, top: 0, right: 100, bottom: 20, fromDictionary: false)
        #expect(TitleSplitter.splitJoinedName(caps).map(\.text) == ["MICK", "HERRON"])
        // "VCANDREWS | INTO THE | WOODS" on IMG_1346: two initials without full stops before a known surname, then
        // the name before the title's rows. A Scottish "Mc", a surname no list holds, and a word whose end the lists
        // hold as a given name too ("SL ASHER") stay whole.
        #expect(TitleSplitter.splitJoinedName(line("VCANDREWS", h: 30).words[0]).map(\.text) == ["VC", "ANDREWS"])
        let woods = split([line("VCANDREWS", h: 41), line("INTO THE", y: 60, h: 31), line("WOODS", y: 110, h: 28)])
        #expect(woods.title == "INTO THE WOODS" && woods.authors == ["VC ANDREWS"])
        for whole in ["MCANDREWS", "VCANDRAWS", "SLASHER"] {
            #expect(TitleSplitter.splitJoinedName(line(whole, h: 30).words[0]).count == 1)
        }
        // A surname after a given name is the name's end, though it reads as a given name and a surname run
        // together ("SIL" and "VERA").
        #expect(TitleSplitter.splitJoinedName(line("SILVERA", h: 30).words[0]).map(\.text) == ["SIL", "VERA"])
        let silvera = split(along([("ADAM SILVERA", 30), ("THEY BOTH DIE AT THE END", 40)]))
        #expect(silvera.authors == ["ADAM SILVERA"])
        // A word of its own is never cut, though it starts with a name.
        let word2 = OCRWord(text: "MARKETING", confidence: 90, left: 0, top: 0, right: 90, bottom: 20, fromDictionary: false)
        #expect(TitleSplitter.splitJoinedName(word2).map(\.text) == ["MARKETING"])
        // Initials whose spaces were lost: "J.R.Moehringer" is no word a name list holds, "J. R. Moehringer" is.
        let initials = OCRWord(text: "J.R.Moehringer", confidence: 90, left: 0, top: 0, right: 140, bottom: 20, fromDictionary: false)
        let pieces = TitleSplitter.splitJoinedInitials(initials)
        #expect(pieces.map(\.text) == ["J.", "R.", "Moehringer"])
        #expect(pieces.map(\.left) == [0, 20, 40] && pieces.last?.right == 140)
        // An abbreviation or a lone initial before a short word stays whole.
        for kept in ["U.S.A.", "E.T.", "B.Ed"] {
            let word = OCRWord(text: kept, confidence: 90, left: 0, top: 0, right: 60, bottom: 20, fromDictionary: false)
            #expect(TitleSplitter.splitJoinedInitials(word).map(\.text) == [kept])
        }
    }

    @Test("Blocks side by side on a wide spine are read block by block, not row by row")
    func blocksSideBySide() {
        // Kate Saunders' spine: the author's two rows at the left, the title's two rows beside them.
        let lines = [line("KATE", y: 0, h: 20, x0: 0), line("DAS GEHEIMNIS VON", y: 0, h: 24, x0: 200),
                     line("SAUNDERS", y: 30, h: 20, x0: 0), line("WISHTIDE MANOR", y: 30, h: 24, x0: 200)]
        #expect(PPOCRSpine.rows(lines).map(\.text) == ["KATE", "SAUNDERS", "DAS GEHEIMNIS VON", "WISHTIDE MANOR"])
        // Trude Teige's spine: the name over two rows, the title over two rows beside it; each block is one run.
        let teige = [line("TRUDE", y: 0, h: 22, x0: 0), line("Als Großmutter", y: 0, h: 22, x0: 160),
                     line("TEIGE", y: 26, h: 22, x0: 0), line("im Regen tanzte", y: 26, h: 22, x0: 160)]
        #expect(PPOCRSpine.blocks(PPOCRSpine.rows(teige)).map(\.text) == ["TRUDE TEIGE", "Als Großmutter im Regen tanzte"])
        let read = split(teige)
        #expect(read.title == "Als Großmutter im Regen tanzte")
        #expect(read.authors == ["TRUDE TEIGE"])
        // Along a thin spine everything is one row: left to right, as before.
        #expect(PPOCRSpine.rows(along([("Insel", 14), ("Effi Briest", 30), ("Theodor Fontane", 20)])).map(\.text)
                == ["Insel", "Effi Briest", "Theodor Fontane"])
    }

    @Test("Pieces of one row in different print sizes stay apart: the small author beside the large title")
    func sizesStayApart() {
        // "Der Winter tut / Anna Weidenholzer den Fischen gut": the name is half the title's size, a space away.
        let title1 = line("Der Winter tut", y: 0, h: 30, x0: 150)
        let name = line("Anna Weidenholzer", y: 40, h: 14, x0: 0)
        let title2 = line("den Fischen gut", y: 32, h: 30, x0: name.right + 10)
        let rows = PPOCRSpine.rows([title1, name, title2])
        #expect(rows.count == 3)
        let read = split([title1, name, title2])
        #expect(read.title == "Der Winter tut den Fischen gut")
        #expect(read.authors == ["Anna Weidenholzer"])
        // The same size a space apart is one line the detector cut in two.
        #expect(PPOCRSpine.rows([line("Effi", h: 30, x0: 0), line("Briest", h: 30, x0: 90)]).map(\.text) == ["Effi Briest"])
    }

    @Test("A title set over several rows stays one title, its later rows smaller or in lower case")
    func titleOverRows() {
        // Rows across a wide spine: the title's second row is half the first's height, after a comma.
        let woche = split([line("DIE WOCHE,", y: 0, h: 40), line("IN DER ALLES ANDERS WURDE", y: 60, h: 22)])
        #expect(woche.title == "DIE WOCHE, IN DER ALLES ANDERS WURDE")
        // Along a thin spine: a word broken over two rows, and a title's second row in lower case.
        let sulzer = split(along([("Alain Claude Sulzer", 20), ("Doppel", 36), ("leben", 26)]), footAtStart: true)
        #expect(sulzer.title == "Doppel leben")
        #expect(sulzer.authors == ["Alain Claude Sulzer"])
        let mooney = split(along([("GOLDMANN", 14), ("Bel Mooney", 24), ("Leben", 30), ("mit Bonnie", 24)]), footAtStart: true)
        #expect(mooney.title == "Leben mit Bonnie")
        #expect(mooney.authors == ["Bel Mooney"])
        // A name whose capital the reader lost is no row of the title.
        let kafka = split(along([("The Trial", 30), ("ranzKafka", 20)]))
        #expect(kafka.title == "The Trial")
    }

    @Test("Name and title printed as one line: a given name and a surname before the title go to the author")
    func nameBeforeTitleOnOneLine() {
        // As the reader hands it over when it knows which end is the foot (the case the tagger kept whole).
        let green = split([line("John Green Eine wie Alaska", h: 24), line("62403", y: 4, h: 14, x0: 700)], footAtStart: true)
        #expect(green.title == "Eine wie Alaska")
        #expect(green.authors == ["John Green"])
        let oruna = split([line("Maria Oruña Lo que la marea esconde", h: 24)], footAtStart: false)
        #expect(oruna.title == "Lo que la marea esconde")
        #expect(oruna.authors == ["Maria Oruña"])
        // A title that starts with a name stays whole when the author is printed too.
        let potter = split(along([("J. K. Rowling", 18), ("Harry Potter und der Stein der Weisen", 30)]), footAtStart: true)
        #expect(potter.title == "Harry Potter und der Stein der Weisen")
    }

    @Test("A name set over two rows, the surname alone on the second, is one author; two names stay two")
    func nameOverRows() {
        let sulzer = split(along([("Alain", 20), ("Claude", 20), ("Sulzer", 20), ("Doppelleben", 36)]), footAtStart: true)
        #expect(sulzer.authors == ["Alain Claude Sulzer"])
        #expect(sulzer.title == "Doppelleben")
        let heinen = split([line("Beate Heinen", y: 0, h: 18), line("Ulrich Heinen", y: 30, h: 18), line("NONNE & MÖNCH", y: 70, h: 36)])
        #expect(heinen.authors == ["Beate Heinen", "Ulrich Heinen"])
    }

    @Test("A name over rows is one author: a given name before two surnames, a given name after its surname, a misread given name")
    func nameOverRowsInOtherOrders() {
        func rows(_ texts: [String]) -> [SpineTagger.Run] { texts.map { run($0, .author, size: 20) } }
        // "Jenny | Torres | Sanchez" as the tagger hands it on (a spine on IMG_1346): one name.
        #expect(TitleSplitter.namesOverRows([0, 1], of: rows(["Jenny", "Torres Sanchez"])) == [[0, 1]])
        #expect(TitleSplitter.namesOverRows([0, 1], of: rows(["APRIL GENEVIEVE", "TUCHOLKE"])) == [[0, 1]])
        // "blanvalet | Gerritsen | Tess | DAS | SCHATTEN | HAUS": the given name goes first.
        #expect(TitleSplitter.namesOverRows([0, 1], of: rows(["Gerritsen", "Tess"])) == [[1, 0]])
        // "Blindes Vertrauen | Sanara | Brown": a word no list holds, then a surname alone.
        #expect(TitleSplitter.namesOverRows([0, 1], of: rows(["Sanara", "Brown"])) == [[0, 1]])
        // "NAMINA | FORNA | THE | GILDED ONES": two words no list holds, in one print; not in prints far apart.
        #expect(TitleSplitter.namesOverRows([0, 1], of: rows(["NAMINA", "FORNA"])) == [[0, 1]])
        #expect(TitleSplitter.namesOverRows([0, 1], of: [run("NAMINA", .author, size: 20), run("FORNA", .author, size: 40)]) == [[0], [1]])
        // Two names stay two, though the first is one given name; rows apart are apart; two surnames stay two.
        #expect(TitleSplitter.namesOverRows([0, 1], of: rows(["BEATE", "ULRICH HEINEN"])) == [[0], [1]])
        #expect(TitleSplitter.namesOverRows([0, 2], of: rows(["Gerritsen", "Blindes", "Tess"])) == [[0], [2]])
        #expect(TitleSplitter.namesOverRows([0, 1], of: rows(["Heinen", "Brown"])) == [[0], [1]])
        // Through the whole split, as PP-OCR reads that spine.
        let gerritsen = split(along([("blanvalet", 12), ("Gerritsen", 22), ("Tess", 16), ("Das Schattenhaus", 34)]), footAtStart: true)
        #expect(gerritsen.authors == ["Tess Gerritsen"])
        #expect(gerritsen.title == "Das Schattenhaus")
    }

    @Test("A surname printed at the start of the title's row, after a given name alone, joins the name")
    func surnameAfterGivenRow() {
        let zusak = TitleSplitter.surnameAfterGivenRow([run("MARKUS", .author, size: 20), run("ZUSAK THE BOOK THIEF", .title, size: 30)])
        #expect(zusak.map(\.text) == ["MARKUS ZUSAK", "THE BOOK THIEF"])
        #expect(zusak.map(\.label) == [.author, .title])
        // A title's first word that is a word, or another given name, stays: "Max | Die Mineralien der Schweiz".
        let weibel = [run("Max", .author, size: 20), run("Die Mineralien der Schweiz", .title, size: 30)]
        #expect(TitleSplitter.surnameAfterGivenRow(weibel) == weibel)
        let two = [run("Tess", .author, size: 20), run("Julia Trompeter", .title, size: 30)]
        #expect(TitleSplitter.surnameAfterGivenRow(two) == two)
        // A one-word title is left whole, and an author row of a whole name is no given name alone.
        let one = [run("MARKUS", .author, size: 20), run("ZUSAK", .title, size: 30)]
        #expect(TitleSplitter.surnameAfterGivenRow(one) == one)
        let whole = [run("Markus Zusak", .author, size: 20), run("Bridge of Clay", .title, size: 30)]
        #expect(TitleSplitter.surnameAfterGivenRow(whole) == whole)
    }

    @Test("A name taken for a publisher or noise is the author when a listed publisher is read and no author")
    func nameAmongMarks() {
        let lorentz = TitleSplitter.nameAmongMarks([run("Iny Lorentz", .publisher, size: 20), run("Die Kastratin", .title, size: 30),
                                                    run("Knaur.", .publisher, size: 14)])
        #expect(lorentz.map(\.label) == [.author, .title, .publisher])
        let shakib = TitleSplitter.nameAmongMarks([run("45515", .noise, size: 10), run("Siba Shakib", .noise, size: 20),
                                                   run("Nach Afghanistan kommt Gott", .title, size: 30), run("GOLDMANN", .publisher, size: 14)])
        #expect(shakib.map(\.label) == [.noise, .author, .title, .publisher])
        // No listed publisher read, an author read already, or a run of words: left as they are.
        let unlisted = [run("Iny Lorentz", .publisher, size: 20), run("Die Kastratin", .title, size: 30)]
        #expect(TitleSplitter.nameAmongMarks(unlisted) == unlisted)
        let authored = [run("Lorentz", .publisher, size: 20), run("Die Kastratin", .title, size: 30), run("Iny Lorentz", .author, size: 20),
                        run("Knaur", .publisher, size: 14)]
        #expect(TitleSplitter.nameAmongMarks(authored) == authored)
        let words = [run("Roman", .noise, size: 20), run("Die Kastratin", .title, size: 30), run("Knaur", .publisher, size: 14)]
        #expect(TitleSplitter.nameAmongMarks(words) == words)
    }

    @Test("A surname set apart from the title by its case alone goes to the author")
    func nameInOtherCase() {
        let stellmacher = TitleSplitter.nameInOtherCase([run("dtv girl", .publisher, size: 12), run("Stellmacher FROSCH ODER TRAUMPRINZ?", .title, size: 30)])
        #expect(stellmacher.map(\.text) == ["dtv girl", "Stellmacher", "FROSCH ODER TRAUMPRINZ?"])
        #expect(stellmacher.map(\.label) == [.publisher, .author, .title])
        let griscom = TitleSplitter.nameInOtherCase([run("GRISCOM Die Heilung der Gefühle", .title, size: 30)])
        #expect(griscom.map(\.text) == ["GRISCOM", "Die Heilung der Gefühle"])
        // "akwaeke emezi PET" (IMG_1346): a name set in lower case before the title in capitals.
        let emezi = TitleSplitter.nameInOtherCase([run("akwaeke emezi PET", .title, size: 30)])
        #expect(emezi.map(\.text) == ["akwaeke emezi", "PET"])
        #expect(emezi.map(\.label) == [.author, .title])
        let lowerTitle = [run("the BOOK THIEF", .title, size: 30)]
        #expect(TitleSplitter.nameInOtherCase(lowerTitle) == lowerTitle)
        // Words, a title in one case, and a reading with an author already stay as they are.
        let words = [run("Haus DER SONNE", .title, size: 30)]
        #expect(TitleSplitter.nameInOtherCase(words) == words)
        let one = [run("Frosch oder Traumprinz", .title, size: 30)]
        #expect(TitleSplitter.nameInOtherCase(one) == one)
        let authored = [run("Stellmacher FROSCH ODER TRAUMPRINZ?", .title, size: 30), run("Hortense Ullrich", .author, size: 20)]
        #expect(TitleSplitter.nameInOtherCase(authored) == authored)
        // A surname alone in capitals on its own row, beside the title's rows in mixed case.
        let palahniuk = [run("PALAHNIUK", .title, size: 40), run("Invéntate algo", .title, size: 40)]
        #expect(TitleSplitter.nameRunBesideTitle(palahniuk).map(\.label) == [.author, .title])
        let broken = [run("ZUKUNFT-", .title, size: 40), run("schreiben statt schwarzmalen", .title, size: 40)]
        #expect(TitleSplitter.nameRunBesideTitle(broken) == broken)
    }

    /// A run as the tagger hands it on: its words one line of height `size`, its label given.
    func run(_ text: String, _ label: SpineTagger.Label, size: Int) -> SpineTagger.Run {
        SpineTagger.Run(words: line(text, h: size).words, label: label, probabilities: [], size: Double(size))
    }

    @Test("A title printed word by word keeps its short words, though their boxes are lower")
    func titleWordByWord() {
        // "KATE | SAUNDERS | DAS | GEHEIMNIS | VON | WISHTIDE MANOR": the heights PP-OCR gave on a real spine.
        let runs = [run("KATE SAUNDERS", .author, size: 65), run("DAS", .title, size: 32), run("GEHEIMNIS", .title, size: 60),
                    run("VON", .title, size: 27), run("WISHTIDE MANOR", .title, size: 61)]
        #expect(TitleSplitter.titlePrint([1, 2, 3, 4], of: runs) == [1, 2, 3, 4])
        // A smaller subtitle after the title stays out, and so does a smaller title run that is not a
        // preposition or an article before the title.
        let subtitle = [run("Leben", .title, size: 60), run("ein Roman über das Meer", .title, size: 30)]
        #expect(TitleSplitter.titlePrint([0, 1], of: subtitle) == [0])
        let before = [run("Zürich", .title, size: 30), run("Stadt am See", .title, size: 60)]
        #expect(TitleSplitter.titlePrint([0, 1], of: before) == [1])
    }

    @Test("A publisher's name damaged at the spine's end is still a publisher, not the author")
    func damagedPublisherAtAnEnd() {
        let lexicon = SpineLexicon.shipped
        for damaged in ["OLDMANN", "SOLDMANN", "GOLDMANNM", "HANSE", "LDMANN", "BLANVAL"] {
            #expect(lexicon.isPublisher(damaged, damaged: true), "\(damaged)")
            #expect(!lexicon.isPublisher(damaged), "\(damaged)")
        }
        // Words and names of the lexicon are never taken for a damaged publisher.
        for word in ["Goldberg", "Hansen", "Leben"] { #expect(!lexicon.isPublisher(word, damaged: true), "\(word)") }
        // Two letters lost only of a name of eight letters or more: "RLSEN" is too little of "Carlsen".
        #expect(!lexicon.isPublisher("RLSEN", damaged: true))
        // "LDMANN | TERAH KATHRYN COLLINS FENG SHUI IM WESTEN", a Bookfinder training spine as PP-OCR read it.
        let collins = split(along([("LDMANN", 35), ("TERAH KATHRYN COLLINS FENG SHUI IM WESTEN", 46)]), footAtStart: true)
        #expect(collins.title == "FENG SHUI IM WESTEN")
        #expect(collins.authors == ["TERAH KATHRYN COLLINS"])
        let fuchsland = split(along([("OLDMANN", 30), ("KATJA FRIXE", 40), ("FUCHSLAND", 120)]), footAtStart: true)
        #expect(fuchsland.title == "FUCHSLAND")
        #expect(fuchsland.authors == ["KATJA FRIXE"])
    }

    @Test("A given name that is also a word is cut from a known surname it was glued to")
    func givenNameGluedToSurname() {
        #expect(TitleSplitter.splitJoinedName(line("ELENAFERRANTE", h: 30).words[0]).map(\.text) == ["ELENA", "FERRANTE"])
        let ferrante = split([line("ELENAFERRANTE MEINEGENIALE FREUNDIN", h: 30)])
        #expect(ferrante.authors == ["ELENA FERRANTE"])
        #expect(ferrante.title == "MEINEGENIALE FREUNDIN")
    }

    @Test("A line taken whole for an author, with no title left, gives its name to the author and the rest to the title")
    func nameAndTitleTakenForAnAuthor() {
        let oflanagan = TitleSplitter.nameBeforeTitle([run("Sheila O'Flanagan Carolines Schwester", .author, size: 67), run("Knaur", .publisher, size: 46)])
        #expect(oflanagan.map(\.text) == ["Sheila O'Flanagan", "Carolines Schwester", "Knaur"])
        #expect(oflanagan.map(\.label) == [.author, .title, .publisher])
        // A first given name no list holds is known by the given name after it: the name is three words
        // ("SOLDMANN | TERAH KATHRYN COLLINS FENG SHUIIM WESTEN", a Bookfinder training spine as PP-OCR read it).
        let collins = TitleSplitter.nameBeforeTitle([run("GOLDMANN", .publisher, size: 40),
                                                     run("TERAH KATHRYN COLLINS FENG SHUIIM WESTEN", .author, size: 60)])
        #expect(collins.map(\.text) == ["GOLDMANN", "TERAH KATHRYN COLLINS", "FENG SHUIIM WESTEN"])
        #expect(collins.map(\.label) == [.publisher, .author, .title])
        // Two names, or one with "von", stay whole; and with a title read, an author run is left alone.
        let two = [run("MIKAEL KROGERUS ROMAN TSCHAPPELER", .author, size: 40)]
        #expect(TitleSplitter.nameBeforeTitle(two) == two)
        let goethe = [run("Johann Wolfgang von Goethe", .author, size: 40)]
        #expect(TitleSplitter.nameBeforeTitle(goethe) == goethe)
        let titled = [run("Sheila O'Flanagan Carolines Schwester", .author, size: 40), run("Roman", .title, size: 60)]
        #expect(TitleSplitter.nameBeforeTitle(titled) == titled)
    }

    @Test("A name printed after the title on one line goes to the author; a name the title ends in stays")
    func nameAfterTitleOnOneLine() {
        let cut = TitleSplitter.nameAfterTitle([run("The Old Man and the Sea Ernest Hemingway", .title, size: 30), run("Scribner", .publisher, size: 20)])
        #expect(cut.map(\.text) == ["The Old Man and the Sea", "Ernest Hemingway", "Scribner"])
        #expect(cut.map(\.label) == [.title, .author, .publisher])
        for title in ["The Curious Case of Benjamin Button", "Das Tagebuch der Anne Frank"] {
            let whole = [run(title, .title, size: 30)]
            #expect(TitleSplitter.nameAfterTitle(whole) == whole, "\(title)")
        }
        let authored = [run("Jane Austen", .author, size: 20), run("The Watsons and Emma Watson", .title, size: 30)]
        #expect(TitleSplitter.nameAfterTitle(authored) == authored)
        // A surname that is a word too ("Green", "Black") after a given name: the name, unless a function word
        // stands before the two.
        let green = TitleSplitter.nameAfterTitle([run("TURILES ALL THE WAY DOWN JOHN GREEN", .title, size: 30)])
        #expect(green.map(\.text) == ["TURILES ALL THE WAY DOWN", "JOHN GREEN"])
        #expect(green.map(\.label) == [.title, .author])
        let gables = [run("The Story of Anne Green", .title, size: 30)]
        #expect(TitleSplitter.nameAfterTitle(gables) == gables)
    }

    @Test("A name with particles after the title is cut off, after a one-word title and from a line labelled an author")
    func nameWithParticlesAfterTitle() {
        // As the shared real photo's reader labels it: the whole line an author, nothing a title.
        let parra = TitleSplitter.nameAfterTitle([run("IFIGENIA TERESA DE LA PARRA", .author, size: 19)])
        #expect(parra.map(\.text) == ["IFIGENIA", "TERESA DE LA PARRA"])
        #expect(parra.map(\.label) == [.title, .author])
        let kwast = TitleSplitter.nameAfterTitle([run("Mama Tandoori Ernest van der Kwast", .title, size: 30)])
        #expect(kwast.map(\.text) == ["Mama Tandoori", "Ernest van der Kwast"])
        #expect(kwast.map(\.label) == [.title, .author])
        // A function word before the name keeps it in the title; a line that starts with a given name, or has
        // no particle, may be two names; a title and an author read already are left alone.
        for kept in [[run("Historia de Juana de Arco", .title, size: 30)],
                     [run("Teresa de Jesús Ana de la Cruz", .author, size: 30)],
                     [run("MIKAEL KROGERUS ROMAN TSCHAPPELER", .author, size: 30)],
                     [run("Ifigenia Teresa de la Parra", .author, size: 20), run("Roman", .title, size: 30)]] {
            #expect(TitleSplitter.nameAfterTitle(kept) == kept, "\(kept.map(\.text))")
        }
    }

    @Test("A publisher printed over two rows at the reading's end is the publisher, its name's row too")
    func publisherOverTwoRows() {
        // "... | Illustration Collection | CLAMP | CARLSEN | COMICS": the publisher's rows were taken for the author.
        let clamp = TitleSplitter.publishersAtEnds([run("Illustration Collection", .title, size: 20), run("CLAMP", .title, size: 30),
                                                    run("CARLSEN", .author, size: 16), run("COMICS", .author, size: 12)])
        #expect(clamp.map(\.label) == [.title, .title, .publisher, .publisher])
        let hanser = TitleSplitter.publishersAtEnds([run("Carl", .author, size: 14), run("Hanser", .author, size: 14),
                                                     run("Die Heilung der Gefühle", .title, size: 30), run("Chris Griscom", .author, size: 20)])
        #expect(hanser.map(\.label) == [.publisher, .publisher, .title, .author])
        // A title of more words beside the imprint's word stays the title; two runs are a title and what is left.
        let books = [run("Penguin", .publisher, size: 12), run("Great Expectations", .title, size: 30), run("Books", .noise, size: 12)]
        #expect(TitleSplitter.publishersAtEnds(books).map(\.label) == [.publisher, .title, .noise])
        let two = [run("CARLSEN", .title, size: 30), run("COMICS", .author, size: 12)]
        #expect(TitleSplitter.publishersAtEnds(two).map(\.label) == [.publisher, .author])
    }

    @Test("A row that starts with a conjunction goes on from the title's row before it")
    func titleGoesOnAfterConjunction() {
        let potter = TitleSplitter.continuingTitles([run("HARRYPOTTER", .title, size: 30), run("AND THE SORCERERS STONE", .noise, size: 24),
                                                     run("CHOLA", .author, size: 14)])
        #expect(potter.map(\.label) == [.title, .title, .author])
        let sein = TitleSplitter.continuingTitles([run("SEIN", .title, size: 30), run("ODER TOTSEIN", .author, size: 30)])
        #expect(sein.map(\.label) == [.title, .title])
        // A second author after a name (the conjunction before a name, not an article), or a conjunction inside a
        // row: nothing moves.
        let second = [run("JANE AUSTEN", .author, size: 30), run("AND CASSANDRA AUSTEN", .author, size: 30)]
        #expect(TitleSplitter.continuingTitles(second) == second)
        let both = [run("Pride", .title, size: 30), run("Jane and Cassandra Austen", .author, size: 20)]
        #expect(TitleSplitter.continuingTitles(both) == both)
    }

    @Test("A name's row before a row that starts with a conjunction and an article is the title's start")
    func nameStartsTitle() {
        // "RANDALI | PILAR RAMIREZ | AND THE ESCAPE | FROM ZAFA": the heights PP-OCR gave, the name printed larger.
        let escape = TitleSplitter.continuingTitles([run("RANDALI", .author, size: 20), run("PILAR RAMIREZ", .author, size: 48),
                                                     run("AND THE ESCAPE FROM ZAFA", .title, size: 21)])
        #expect(escape.map(\.label) == [.author, .title, .title])
        #expect(TitleSplitter.titlePrint([1, 2], of: escape) == [1, 2])
    }

    @Test("A row that starts with a hyphen goes on from the row before it, whatever either was taken for")
    func hyphenStartsRow() {
        let prep = TitleSplitter.continuingTitles([run("REDEMPTION", .author, size: 21), run("-PREP", .title, size: 35)])
        #expect(prep.map(\.label) == [.title, .title])
        #expect(TitleSplitter.titlePrint([0, 1], of: prep) == [0, 1])
        // A dash before a publisher's row is no broken word.
        let press = [run("Emma", .title, size: 30), run("-Penguin", .publisher, size: 30)]
        #expect(TitleSplitter.continuingTitles(press) == press)
    }

    @Test("One word that is no name, between the title's rows and a whole name, ends the title")
    func wordBeforeNameEndsTitle() {
        let beasts = TitleSplitter.continuingTitles([run("Beasts of Extraordinary", .title, size: 26), run("Circumstance", .author, size: 15),
                                                     run("Ruth Emmie Lang", .author, size: 24)])
        #expect(beasts.map(\.label) == [.title, .title, .author])
        // A surname before the name's given name is the name's own ("Gerritsen | Tess Marie"); so is a word
        // before a run that does not start with a given name.
        let gerritsen = [run("Das Schattenhaus", .title, size: 30), run("Gerritsen", .author, size: 20), run("Tess Marie", .author, size: 20)]
        #expect(TitleSplitter.continuingTitles(gerritsen) == gerritsen)
        let unnamed = [run("Beasts of Extraordinary", .title, size: 26), run("Circumstance", .author, size: 15),
                       run("Emmie Lang", .author, size: 24)]
        #expect(TitleSplitter.continuingTitles(unnamed) == unnamed)
    }

    @Test("A title's row of an article alone joins the row after it")
    func articleRowJoinsTitle() {
        // "The | COST KNOWING", labelled as the tagger did on a real spine: with the article's row alone beside
        // it, the row in capitals went to the author as a name.
        let cost = TitleSplitter.continuingTitles([run("The", .title, size: 43), run("COST KNOWING", .title, size: 62)])
        #expect(cost.map(\.text) == ["The COST KNOWING"])
        #expect(TitleSplitter.nameRunBesideTitle(cost) == cost)
        let poison = TitleSplitter.continuingTitles([run("BAYRON", .author, size: 24), run("THIS", .title, size: 34),
                                                     run("POISON HEART", .title, size: 54)])
        #expect(poison.map(\.text) == ["BAYRON", "THIS POISON HEART"])
        #expect(poison.map(\.label) == [.author, .title])
        // An article before a publisher's name stays apart.
        let press = [run("The", .title, size: 30), run("Penguin Press", .publisher, size: 30)]
        #expect(TitleSplitter.continuingTitles(press) == press)
    }

    @Test("A run ending in an article, a preposition or a conjunction goes on in the next")
    func danglingWordContinuesTitle() {
        // As the tagger labelled shared real spines: "ATLAS ILUSTRADO DEL | Fitness" (the title's last word in
        // seven times the print, so the first row fell out of the title), "INTO THE | WOODS" (the last row taken
        // for a surname), "TENIS EN | LA ESCUELA" (one line cut in two, its start taken for a name).
        let atlas = TitleSplitter.continuingTitles([run("ATLAS ILUSTRADO DEL", .title, size: 19), run("Fitness", .title, size: 129)])
        #expect(TitleSplitter.titlePrint([0, 1], of: atlas) == [0, 1])
        let woods = TitleSplitter.continuingTitles([run("VCANDREWS", .author, size: 20), run("INTO THE", .title, size: 30),
                                                    run("WOODS", .author, size: 30)])
        #expect(woods.map(\.label) == [.author, .title, .title])
        let tenis = TitleSplitter.continuingTitles([run("TENIS EN", .author, size: 28), run("LA ESCUELA", .title, size: 28)])
        #expect(tenis.map(\.label) == [.title, .title])
        // A word that brings in a name, a run before a name, prepositions that end titles, a name's particle
        // and a publisher's row stay apart.
        for kept in [[run("ZORBA THE GREEK BY", .title, size: 30), run("Nikos Kazantzakis", .author, size: 20)],
                     [run("KEEPER OF", .title, size: 30), run("J. A. CULICAN", .author, size: 30)],
                     [run("THE GIRL BEFORE", .title, size: 30), run("DELANEY", .author, size: 30)],
                     [run("A HOUSE TO DIE FOR", .title, size: 30), run("VICKLDOUDER", .author, size: 30)],
                     [run("MALINDA LO", .author, size: 20), run("LAST NIGHT AT THE TELEGRAPH CLUB", .title, size: 30)],
                     [run("AMIR LEVINE AND", .author, size: 20), run("RACHEL HELLER", .author, size: 20)],
                     [run("Daphne du", .author, size: 20), run("Maurier", .author, size: 20)],
                     [run("LAS REGLAS Y", .title, size: 30), run("Paidotribo", .publisher, size: 30)]] {
            #expect(TitleSplitter.continuingTitles(kept) == kept)
        }
    }

    @Test("A lower-case row after a word in capitals is no part of the title")
    func logoAfterCapitals() {
        let tornado = [run("A.S. KING", .author, size: 28), run("STILL LIFE with TORNADO", .title, size: 23),
                       run("speak", .noise, size: 16)]
        #expect(TitleSplitter.continuingTitles(tornado) == tornado)
        // After a word in lower case the row goes on.
        let murder = TitleSplitter.continuingTitles([run("good girl's guide to", .title, size: 20), run("murder", .noise, size: 18)])
        #expect(murder.map(\.label) == [.title, .title])
    }

    @Test("A row that starts with a preposition goes on from the title's row before it")
    func prepositionContinuesTitle() {
        // "DAVID BALDACCI LONG ROAD | To MERCY" on a detected spine: the second row in smaller print fell out.
        let mercy = TitleSplitter.continuingTitles([run("DAVID BALDACCI", .author, size: 47), run("LONG ROAD", .title, size: 47),
                                                    run("To MERCY", .title, size: 31)])
        #expect(TitleSplitter.titlePrint([1, 2], of: mercy) == [1, 2])
        // A name's row after the title starts with "by", and a row the tagger took for a name stays one.
        let by = [run("LONG ROAD", .title, size: 47), run("by David Baldacci", .noise, size: 31)]
        #expect(TitleSplitter.continuingTitles(by) == by)
        let named = [run("LONG ROAD", .title, size: 47), run("To David Baldacci", .author, size: 31)]
        #expect(TitleSplitter.continuingTitles(named) == named)
    }

    @Test("Rows joined into one title share one print, however large its last row")
    func joinedRowsShareAPrint() {
        // "LAS REGLAS Y CARACTERÍSTICAS | DE TODOS LOS | DEPORT", as the tagger labelled a detected spine: the last
        // row three times larger kept only the row before it.
        let reglas = TitleSplitter.continuingTitles([run("LAS REGLAS Y CARACTERÍSTICAS", .title, size: 32),
                                                     run("DE TODOS LOS", .title, size: 29), run("DEPORT", .title, size: 98)])
        #expect(reglas.map(\.size) == [98, 98, 98])
        #expect(TitleSplitter.titlePrint([0, 1, 2], of: reglas) == [0, 1, 2])
        // A row that starts with "de" and ends on a name's word is a name's row ("Historia | de Juana de Arco" keeps
        // its own print), and a subtitle after a title's last row stays apart.
        let juana = [run("HISTORIA", .title, size: 40), run("de Juana de Arco", .author, size: 20)]
        #expect(TitleSplitter.continuingTitles(juana) == juana)
        let subtitle = TitleSplitter.continuingTitles([run("LAS REGLAS Y", .title, size: 32), run("DEPORTES", .title, size: 64),
                                                       run("Claves para jugar", .title, size: 20)])
        #expect(TitleSplitter.titlePrint([0, 1, 2], of: subtitle) == [0, 1])
    }

    @Test("An article alone on its row, taken for a stray mark, starts the title after it")
    func articleMarkStartsTitle() {
        // "The | COST +KNOWING" on IMG_1346 end to end: the tagger took the article for noise.
        let cost = TitleSplitter.continuingTitles([run("The", .noise, size: 46), run("COST +KNOWING", .title, size: 70)])
        #expect(cost.map(\.text) == ["The COST +KNOWING"])
        #expect(cost.map(\.label) == [.title])
        // A sticker's letter, and an article before a name, stay apart.
        for kept in [[run("A", .noise, size: 46), run("COST KNOWING", .title, size: 70)],
                     [run("The", .noise, size: 46), run("Holly Black", .author, size: 70)]] {
            #expect(TitleSplitter.continuingTitles(kept) == kept)
        }
    }

    @Test("A surname printed far larger than the given name beside it is the author's, not the title")
    func surnameLargerThanGivenName() {
        // "blanvalet | Gerpitsen | Tess | DAS SCHATTEN | HAUS", as the tagger labelled a detected spine.
        let gerritsen = TitleSplitter.surnameBesideGivenName([
            run("blanvalet", .publisher, size: 44), run("Gerpitsen", .title, size: 157), run("Tess", .author, size: 55),
            run("DAS SCHATTEN", .title, size: 66), run("HAUS", .title, size: 68)])
        #expect(gerritsen.map(\.text) == ["blanvalet", "Tess Gerpitsen", "DAS SCHATTEN", "HAUS"])
        #expect(gerritsen.map(\.label) == [.publisher, .author, .title, .title])
        // In one print ("HUNTER | WARRIORS", a series' name), with no other title, or a word the lists hold: unchanged.
        for kept in [[run("HUNTER", .author, size: 15), run("WARRIORS", .title, size: 15), run("BWWN OW TIE CLANN", .title, size: 10)],
                     [run("Gerpitsen", .title, size: 157), run("Tess", .author, size: 55), run("HAUS", .title, size: 68)],
                     [run("Nacht", .title, size: 157), run("Tess", .author, size: 55), run("DAS HAUS", .title, size: 68)]] {
            #expect(TitleSplitter.surnameBesideGivenName(kept) == kept)
        }
    }

    @Test("The title's first word on the name's row goes to the title when the title's row starts in lower case")
    func titleWordEndsNameRow() {
        // "GOLDMANN | Bel Mooney Leben | mit Bonnie", as the tagger labelled a detected spine.
        let bonnie = TitleSplitter.titleWordEndingName([run("GOLDMANN", .publisher, size: 47), run("Bel Mooney Leben", .author, size: 76),
                                                        run("mit Bonnie", .title, size: 89)])
        #expect(bonnie.map(\.text) == ["GOLDMANN", "Bel Mooney", "Leben", "mit Bonnie"])
        #expect(bonnie.map(\.label) == [.publisher, .author, .title, .title])
        #expect(TitleSplitter.titlePrint([2, 3], of: bonnie) == [2, 3])
        // A name that ends on a surname, or of two words, keeps it, whatever follows.
        let zafon = [run("Carlos Ruiz Zafon", .author, size: 40), run("der schatten des windes", .title, size: 40)]
        #expect(TitleSplitter.titleWordEndingName(zafon) == zafon)
        let two = [run("Bel Mooney", .author, size: 76), run("mit Bonnie", .title, size: 89)]
        #expect(TitleSplitter.titleWordEndingName(two) == two)
    }

    @Test("Initials whose spaces were lost still make a name")
    func joinedInitialsName() {
        let moehringer = split(along([("J.R.Moehringer", 40), ("Knapp am Herz vorbei", 30)]), footAtStart: false)
        #expect(moehringer.title == "Knapp am Herz vorbei")
        #expect(moehringer.authors == ["J. R. Moehringer"])
    }

    @Test("A book named by a given name alone, beside its author's whole name in larger print, keeps the given name as its title")
    func givenNameAsTitle() {
        // Both runs look like names to the tagger, and the larger print, the author's, was taken for the title.
        let agnes = split(along([("Peter Stamm", 45), ("Agnes", 35), ("Fischer", 20)]))
        #expect(agnes.title == "Agnes")
        #expect(agnes.authors == ["Peter Stamm"])
        let kassandra = split(along([("CHRISTA WOLF", 44), ("KASSANDRA", 36)]))
        #expect(kassandra.title == "KASSANDRA")
        #expect(kassandra.authors == ["CHRISTA WOLF"])
        // A lone surname is an author ("HOROWITZ"), and two whole names stay as the tagger had them.
        let horowitz = split(along([("HOROWITZ", 30), ("SNAKEHEAD", 40)]))
        #expect(horowitz.title == "SNAKEHEAD")
        #expect(horowitz.authors == ["HOROWITZ"])
        let runs = [run("Tom Jones", .title, size: 40), run("Henry Fielding", .author, size: 30)]
        #expect(TitleSplitter.givenNameTitle(runs) == runs)
        // With a third run the reading is no longer the two names alone.
        let three = [run("Peter Stamm", .title, size: 45), run("Agnes", .author, size: 35), run("Roman", .title, size: 20)]
        #expect(TitleSplitter.givenNameTitle(three) == three)
    }

    @Test("An article at a row's end starts the title's row after it; a name left before it is the author")
    func articleEndsRow() {
        // "BAYRON THIS | POISON HEART" on a detected spine: the name and the title's first word on one line.
        let poison = TitleSplitter.articleToNextRow([run("BAYRON THIS", .title, size: 34), run("POISON HEART", .title, size: 50)])
        #expect(poison.map(\.text) == ["BAYRON", "THIS POISON HEART"])
        // With no author read elsewhere, the name left before the article is the author.
        #expect(poison.map(\.label) == [.author, .title])
        let named = TitleSplitter.articleToNextRow([run("Kalynn", .author, size: 20), run("BAYRON THIS", .title, size: 34),
                                                    run("POISON HEART", .title, size: 50)])
        #expect(named.map(\.label) == [.author, .title, .title])
        // Nor when the rule itself named one a row before: one name, not two.
        let twice = TitleSplitter.articleToNextRow([run("BAYRON THIS", .title, size: 34), run("POISON HEART", .title, size: 50),
                                                    run("KALYNN A", .title, size: 34), run("RIVER", .title, size: 50)])
        #expect(twice.map(\.label) == [.author, .title, .title, .title])
        let whole = split(along([("BAYRON THIS", 34), ("POISON HEART", 50)]), footAtStart: false)
        #expect(whole.title == "THIS POISON HEART")
        #expect(whole.authors == ["BAYRON"])
        let words = TitleSplitter.articleToNextRow([run("RUN FROM THE", .title, size: 34), run("POISON HEART", .title, size: 50)])
        #expect(words.map(\.label) == [.title, .title])
        // An article alone on its row is left to the row rules; a publisher's row keeps its words.
        let alone = [run("The", .title, size: 43), run("COST KNOWING", .title, size: 62)]
        #expect(TitleSplitter.articleToNextRow(alone) == alone)
        let press = [run("Editions La", .publisher, size: 30), run("Peste", .title, size: 40)]
        #expect(TitleSplitter.articleToNextRow(press) == press)
        let origin = [run("On the", .title, size: 30), run("Origin of Species", .title, size: 40)]
        #expect(TitleSplitter.articleToNextRow(origin) == origin)
    }

    @Test("A one-word title at the spine's foot, far larger than a title of several words, is a logo")
    func logoAtFoot() {
        // "Allegria | DOREEN VIRTUE | Dein Leben im Licht", read up the spine from its foot.
        let runs = [run("Allegria", .title, size: 153), run("DOREEN VIRTUE", .author, size: 49), run("Dein Leben im Licht", .title, size: 51)]
        #expect(TitleSplitter.logoAtFoot(runs, footAtStart: true).map(\.label) == [.publisher, .author, .title])
        // At the spine's head, or with the foot unknown, it stays the title; so does a title less than twice as large.
        #expect(TitleSplitter.logoAtFoot(runs, footAtStart: false) == runs)
        #expect(TitleSplitter.logoAtFoot(runs, footAtStart: nil) == runs)
        let eragon = [run("ERAGON", .title, size: 90), run("Das Vermächtnis der Drachenreiter", .title, size: 50)]
        #expect(TitleSplitter.logoAtFoot(eragon, footAtStart: true) == eragon)
    }

    @Test("A name with a middle initial at either end of a title's line is the author, known to the lexicon or not")
    func nameWithMiddleInitial() {
        // "the schopenhauer cure irvin d. yalom": neither name is in the lexicon; the initial tells.
        for text in ["The Schopenhauer Cure Irvin D. Yalom", "THE SCHOPENHAUER CURE IRVIN D. YALOM", "the schopenhauer cure irvin d. yalom"] {
            let yalom = split([line(text, h: 24)])
            #expect(yalom.title.map { $0.lowercased() } == "the schopenhauer cure", "\(text)")
            #expect(yalom.authors.map { $0.lowercased() } == ["irvin d. yalom"], "\(text)")
        }
        // Before the title, where the tagger cuts the name after its initial ("Irvin D." | "Yalom The ...").
        let before = split([line("Irvin D. Yalom The Schopenhauer Cure", h: 24)])
        #expect(before.title == "The Schopenhauer Cure")
        #expect(before.authors == ["Irvin D. Yalom"])
        // A two-letter abbreviation is no initial: "Mr. Mercedes" is the title.
        #expect(split([line("Stephen King Mr. Mercedes", h: 24)]).title == "Mr. Mercedes")
        let runs = [run("Hunter S. Thompson", .author, size: 24)]
        #expect(TitleSplitter.nameWithMiddleInitial(runs) == runs)
    }

    @Test("A title's first A before a short word is no sticker's letter")
    func titleStartingWithA() {
        // A sticker's letter and abbreviation ("N Pam") go; "A Game" at a title's start stays, whether the
        // title goes on in the same run or the tagger cut it into two.
        #expect(split([line("A Game of Thrones", h: 24)]).title == "A Game of Thrones")
        let martin = split([line("George R. R. Martin A Game of Thrones", h: 24)])
        #expect(martin.title == "A Game of Thrones")
        #expect(martin.authors == ["George R. R. Martin"])
        let cut = [run("A Game", .title, size: 24), run("of Thrones", .title, size: 24)]
        #expect(TitleSplitter.withoutLabels(cut[0].words, titleGoesOn: true).map(\.text) == ["A", "Game"])
        #expect(TitleSplitter.withoutLabels(cut[0].words).isEmpty)
    }

    @Test("A one-letter word inside a title, before a plain word, is no sticker's letter")
    func oneLetterWordInTitle() {
        // "The Hate U Give" gave "The Hate": "U Give" read as a call number's letter and abbreviation.
        #expect(split([line("The Hate U Give", h: 24)]).title == "The Hate U Give")
        #expect(split([line("Angie Thomas The Hate U Give", h: 24)]).title == "The Hate U Give")
        // Before the title, or a letter before a surname's abbreviation after it, the pair is a sticker's.
        #expect(TitleSplitter.withoutLabels(line("El meu Mikhael N Pam").words).map(\.text) == ["El", "meu", "Mikhael"])
        #expect(TitleSplitter.withoutLabels(line("U Give El meu Mikhael").words).map(\.text) == ["El", "meu", "Mikhael"])
    }

    @Test("A name in the possessive at a title's start stays in the title")
    func possessiveNameInTitle() {
        let dahl = [run("ROALD DAHL'S BOOK OF GHOST STORIES", .title, size: 28)]
        #expect(TitleSplitter.nameBeforeTitle(dahl) == dahl)
        let bryson = [run("Bill Bryson’s African Diary", .title, size: 28)]
        #expect(TitleSplitter.nameBeforeTitle(bryson) == bryson)
    }

    @Test("The surname a library's call-number sticker abbreviates is the author, wherever the tagger put it")
    func stickerNamesAuthor() {
        let segments = { (texts: [String]) in texts.map { TitleSplitter.Segment(words: self.line($0).words) } }
        #expect(TitleSplitter.stickerAbbreviation(segments(["N Paa", "Paasilinna El molinero aullador"])) == "Paa")
        #expect(TitleSplitter.stickerAbbreviation(segments(["796.342 Tor", "TENIS EN LA ESCUELA"])) == "Tor")
        #expect(TitleSplitter.stickerAbbreviation(segments(["NPal", "MIQUEL DE PALOL"])) == "Pal")
        #expect(TitleSplitter.stickerAbbreviation(segments(["Der Fänger im Roggen", "J. D. Salinger"])) == nil)
        // The surname read at the start of the title's line.
        let paasilinna = TitleSplitter.nameFromSticker([run("Paasilinna El molinero aullador", .title, size: 30)], abbreviation: "Paa")
        #expect(paasilinna.map(\.text) == ["Paasilinna", "El molinero aullador"])
        #expect(paasilinna.map(\.label) == [.author, .title])
        // Title and name swapped: the name is the author, the other run the title.
        let palol = TitleSplitter.nameFromSticker([run("NGÈLICA I RAFEL", .author, size: 30), run("MIQUEL DE PALOL", .title, size: 30)],
                                                  abbreviation: "Pal")
        #expect(palol.map(\.label) == [.title, .author])
        // The title's first words taken into the name, and initials before a surname.
        let padura = TitleSplitter.nameFromSticker([run("Padura EL HOMBRE", .author, size: 30), run("QUE AMABA A LOS PERROS", .title, size: 30)],
                                                   abbreviation: "Pad")
        #expect(padura.map(\.text) == ["Padura", "EL HOMBRE", "QUE AMABA A LOS PERROS"])
        #expect(padura.map(\.label) == [.author, .title, .title])
        let puleo = TitleSplitter.nameFromSticker([run("Anatomía del CORREDOR J. PULEO", .title, size: 30)], abbreviation: "Pul")
        #expect(puleo.map(\.text) == ["Anatomía del CORREDOR", "J. PULEO"])
        // An author's run stays whole; a title word the sticker abbreviates (a book with no author) stays a title.
        let binda = [run("Ernesto Angel Binda Ángel Norberto Coerezza", .author, size: 20), run("Reglas del juego", .title, size: 30)]
        #expect(TitleSplitter.nameFromSticker(binda, abbreviation: "Bin") == binda)
        let atlas = [run("ATLAS ILUSTRADO DE LOS DEPORTES", .title, size: 30)]
        #expect(TitleSplitter.nameFromSticker(atlas, abbreviation: "Atl") == atlas)
        // Through the whole split.
        let whole = split(along([("N Paa", 14), ("Paasilinna El molinero aullador", 30)]))
        #expect(whole.title == "El molinero aullador")
        #expect(whole.authors == ["Paasilinna"])
    }

    @Test("A title cut from a name's line goes on into the row after it")
    func cutTitleGoesOn() {
        // "ullstein | MARC-UWE KLING DIE KANGURU- | CHRONIKEN": the tagger took both rows for the author.
        let kling = split(along([("ullstein", 53), ("MARC-UWE KLING DIE KANGURU-", 69), ("CHRONIKEN", 51)]))
        #expect(kling.title == "DIE KANGURU- CHRONIKEN")
        #expect(kling.authors == ["MARC-UWE KLING"])
    }

    @Test("A title row ending in a hyphen goes on into a lower-case row, whatever their print")
    func hyphenThenLowerCase() {
        // "ZUKUNFT- | schreiben STATT SCHWARZMALEN": the first word printed twice as large as the rest.
        let rows = [run("ZUKUNFT-", .title, size: 121), run("schreiben STATT SCHWARZMALEN", .title, size: 60), run("TESSLOF", .publisher, size: 27)]
        let joined = TitleSplitter.continuingTitles(rows)
        #expect(TitleSplitter.titlePrint([0, 1], of: joined) == [0, 1])
        // Without the hyphen the smaller row is a subtitle, and a publisher's row stays the publisher's.
        let plain = TitleSplitter.continuingTitles([run("ZUKUNFT", .title, size: 121), run("schreiben STATT SCHWARZMALEN", .title, size: 60)])
        #expect(TitleSplitter.titlePrint([0, 1], of: plain) == [0])
        let logo = [run("ZUKUNFT-", .title, size: 121), run("tessloff", .publisher, size: 30)]
        #expect(TitleSplitter.continuingTitles(logo) == logo)
    }

    @Test("A row of one common word in the title's print, after the title, is the title's, not a surname")
    func commonWordRowAfterTitle() {
        // "blanvalet | Gerritsen | Tess | DAS | SCHATTEN | HAUS": the tagger took "HAUS" for a second author.
        let haus = TitleSplitter.continuingTitles([run("DAS SCHATTEN", .title, size: 65), run("HAUS", .author, size: 65)])
        #expect(haus.map(\.label) == [.title, .title])
        // A surname, a word the lexicon does not know, or a word in other print stays the author's.
        for other in [[run("DAS SCHATTEN", .title, size: 65), run("BROWN", .author, size: 65)],
                      [run("DAS SCHATTEN", .title, size: 65), run("GONG", .author, size: 65)],
                      [run("DAS SCHATTEN", .title, size: 65), run("HAUS", .author, size: 30)]] {
            #expect(TitleSplitter.continuingTitles(other) == other)
        }
    }

    @Test("A title and a name joined by a hyphen are cut apart where the given name starts")
    func titleHyphenedToName() {
        let words = TitleSplitter.splitAtHyphenedName(line("Wid Trek-Jim Kjoigaard", h: 18).words)
        #expect(words.map(\.text) == ["Wid", "Trek/", "Jim", "Kjoigaard"])
        let trek = split([line("Wid Trek-Jim Kjoigaard", h: 18)])
        #expect(trek.title == "Wid Trek")
        #expect(trek.authors == ["Jim Kjoigaard"])
        // Double given names, and a hyphened word with no name after it, stay whole.
        for text in ["Anne-Marie Schwarz", "Bis zum Ende-Jim", "Trek-Mara"] {
            let whole = line(text, h: 18).words
            #expect(TitleSplitter.splitAtHyphenedName(whole) == whole, "\(text)")
        }
    }

    @Test("Two people named in one author's run are two authors, a shared surname given to each")
    func coAuthors() {
        #expect(TitleSplitter.coAuthors("Christina und Stanislav Grof") == ["Christina Grof", "Stanislav Grof"])
        #expect(TitleSplitter.coAuthors("Frank & Gundi Gaschler") == ["Frank Gaschler", "Gundi Gaschler"])
        #expect(TitleSplitter.coAuthors("BEATE HEINEN MIT HEIDI FRIEDRICH") == ["BEATE HEINEN", "HEIDI FRIEDRICH"])
        #expect(TitleSplitter.coAuthors("Mikael Krogerus and Roman Tschäppeler") == ["Mikael Krogerus", "Roman Tschäppeler"])
        #expect(TitleSplitter.coAuthors("MIKAEL KROGERUS ROMAN TSCHÄPPELER") == ["MIKAEL KROGERUS", "ROMAN TSCHÄPPELER"])
        // One person stays one: a particle, two given names, a name of three words.
        for one in ["José Ortega y Gasset", "Johann Wolfgang von Goethe", "Jean-Charles Brisard", "Terah Kathryn Collins",
                    "Hans Christian Andersen", "Anna Maria Luisa Rossi"] {
            #expect(TitleSplitter.coAuthors(one) == [one], "\(one)")
        }
        // The split of a whole reading: "Christina und Stanislav Grof | Die stürmische | Suche nach dem | SELBST".
        let grof = split(along([("Christina und Stanislav Grof", 30), ("Die stürmische", 50), ("Suche nach dem", 50), ("SELBST", 50)]))
        #expect(grof.authors == ["Christina Grof", "Stanislav Grof"])
    }

    @Test("A surname of two letters on a row of its own joins the given name before it")
    func twoLetterSurname() {
        // "MARIE | LU | BATMAN | NIGHTWALKER", an other home's spine as PP-OCR read it.
        let lu = split(along([("MARIE", 12), ("LU", 12), ("BATMAN", 22)]))
        #expect(lu.authors == ["MARIE LU"])
        #expect(lu.title == "BATMAN")
        // Not after a word that is no given name, nor in other print, nor a mark of two characters.
        let rows = [("BATMAN", 22), ("LU", 22)], small = [("MARIE", 30), ("LU", 12)], mark = [("MARIE", 12), ("4a", 12)]
        for blocks in [rows, small, mark] {
            let segments = TitleSplitter.segments(PPOCRSpine.blocks(PPOCRSpine.rows(along(blocks))))
            #expect(TitleSplitter.shortSurnamesJoined(segments) == segments, "\(blocks)")
        }
    }

    @Test("A reading that is one whole name and nothing else has an author and no title")
    func nameAlone() {
        let baldacci = split([line("DAVID BALDACCI", h: 30)])
        #expect(baldacci.title == nil)
        #expect(baldacci.authors == ["DAVID BALDACCI"])
        // A title beside it, or one word alone, is still read as the title.
        let daylight = split(along([("DAVID BALDACCI", 20), ("DAYLIGHT", 40)]))
        #expect(daylight.title == "DAYLIGHT")
        #expect(split([line("DAYLIGHT", h: 30)]).title == "DAYLIGHT")
    }

    @Test("A name on a row of its own beside the title's rows goes to the author when there is none")
    func nameRowBesideTitle() {
        let rows = [run("Jane Austen", .title, size: 40), run("Pride and Prejudice", .title, size: 40)]
        let cut = TitleSplitter.nameRunBesideTitle(rows)
        #expect(cut.map(\.label) == [.author, .title])
        // At the title's end too; a row in the middle stays ("Walking With | Emma Watson | Tonight" is one title).
        #expect(TitleSplitter.nameRunBesideTitle(rows.reversed()).map(\.label) == [.title, .author])
        let middle = [run("Walking With", .title, size: 40), run("Emma Watson", .title, size: 40), run("Tonight", .title, size: 40)]
        #expect(TitleSplitter.nameRunBesideTitle(middle) == middle)
        // A title alone is never taken, nor a row when the reading has an author already.
        let alone = [run("Oliver Twist", .title, size: 40)]
        #expect(TitleSplitter.nameRunBesideTitle(alone) == alone)
        let authored = [run("Jane Austen", .title, size: 40), run("Emma", .title, size: 40), run("Penguin", .author, size: 20)]
        #expect(TitleSplitter.nameRunBesideTitle(authored) == authored)
    }

    @Test("A name in capitals that no list holds, beside a title in mixed case, goes to the author")
    func nameInCapitalsBesideTitle() {
        let sen = [run("AMARTYA SEN", .title, size: 40), run("The Argumentative Indian", .title, size: 40)]
        #expect(TitleSplitter.nameRunBesideTitle(sen).map(\.label) == [.author, .title])
        // Capitals on every row say nothing; nor do capitals that are words ("DAS SCHATTENHAUS", "NEW YORK").
        let allCaps = [run("AMARTYA SEN", .title, size: 40), run("THE ARGUMENTATIVE INDIAN", .title, size: 40)]
        #expect(TitleSplitter.nameRunBesideTitle(allCaps) == allCaps)
        let words = [run("DIE LIEBE", .title, size: 40), run("in Zeiten der Cholera", .title, size: 40)]
        #expect(TitleSplitter.nameRunBesideTitle(words) == words)
    }

    @Test("A role before a name comes off it; an edition statement is no author")
    func rolesAndEditions() {
        #expect(TitleSplitter.withoutRole("MIT HEIDI FRIEDRICH") == "HEIDI FRIEDRICH")
        #expect(TitleSplitter.withoutRole("Edited by Charles-Edmond Bichot") == "Charles-Edmond Bichot")
        #expect(TitleSplitter.withoutRole("Hrsg. von Karl Heinz Bohrer") == "Karl Heinz Bohrer")
        #expect(TitleSplitter.withoutRole("by Hemingway") == "Hemingway")
        for name in ["Mitch Albom", "Byron Katie", "Edith Wharton", "by"] {
            #expect(TitleSplitter.withoutRole(name) == name, "\(name)")
        }
        for statement in ["SECOND EDITION", "FIFTIETH ANNIVERSARY EDITION", "2. Auflage", "3rd ed."] {
            #expect(TitleSplitter.isEditionStatement(statement), "\(statement)")
        }
        for name in ["Edith Wharton", "Second Nature Press", "Neue Freunde"] {
            #expect(!TitleSplitter.isEditionStatement(name), "\(name)")
        }
    }

    @Test("A run whose every word carries a series or catalogue number is noise, never the title")
    func seriesNumbersAreNoise() {
        #expect(TitleSplitter.isNoise("detebe-Klassiker21364"))
        #expect(TitleSplitter.isNoise("ISBN978-3 Band2019"))
        for title in ["Fahrenheit 451", "Catch-22", "2001 Odyssey", "Robinson Crusoe"] {
            #expect(!TitleSplitter.isNoise(title), "\(title)")
        }
    }

    @Test("A title's first word of one letter ('A Room with a View', 'I Am Legend') stays; a sticker's letter goes")
    func oneLetterFirstWord() {
        let room = split(along([("A Room with a View", 30), ("E. M. Forster", 20)]))
        #expect(room.title == "A Room with a View")
        #expect(room.authors == ["E. M. Forster"])
        let study = split(along([("A Study in Scarlet", 30), ("Arthur Conan Doyle", 20)]))
        #expect(study.title == "A Study in Scarlet")
        let legend = split(along([("I Am Legend", 30), ("Richard Matheson", 20)]))
        #expect(legend.title == "I Am Legend")
        // The library's sticker, a letter and a surname's first letters on a line of their own, still goes.
        let sticker = split(along([("N Pam", 14), ("Snuff", 30), ("Chuck Palahniuk", 20)]))
        #expect(sticker.title == "Snuff")
    }
}
