import Testing
@testable import Catalog

/// A small catalogue with the traps real shelves have: shared words, same title by two authors, two editions,
/// Spanish and Catalan accents.
let shelf = Catalog(entries: [
    CatalogEntry(title: "Cien años de soledad", authors: ["García Márquez, Gabriel"], isbn: "9788497592208", tag: "N Gar"),
    CatalogEntry(title: "Cien años de soledad", authors: ["García Márquez, Gabriel"], isbn: "9788439728368", tag: "N Gar"),
    CatalogEntry(title: "El amor en los tiempos del cólera", authors: ["García Márquez, Gabriel"], isbn: "9788497592451", tag: "N Gar"),
    CatalogEntry(title: "Goya", authors: ["Gudiol, Josep, 1904-1985"], isbn: "9788434311732", tag: "75(Goy) Gud"),
    CatalogEntry(title: "Goya", authors: ["Bozal, Valeriano"], isbn: "9788477749851", tag: "75(Goy) Boz"),
    CatalogEntry(title: "La Bella salvaje", authors: ["Pullman, Philip"], isbn: "9788417092986", tag: "JN Pul"),
    CatalogEntry(title: "La Bella durmiente", authors: ["Perrault, Charles"], tag: "I** Per"),
    CatalogEntry(title: "Show", authors: ["Ruescas, Javier"], isbn: "9788415580560", tag: "JN Rue"),
    CatalogEntry(title: "Pilates : la guía más accesible", authors: ["Robinson, Lynne"], tag: "613.7 Rob"),
    CatalogEntry(title: "L'Ós bru", authors: ["Queralt, Elisenda"], tag: "I59.974 Que"),
    CatalogEntry(title: "Història de Catalunya", authors: ["Vilar, Pierre"], tag: "9(46.71) Vil"),
    CatalogEntry(title: "Diccionari català-italià", authors: ["Arqués, Rossend"], tag: "437(03) Arq"),
])

@Suite struct CatalogIndexTests {
    let index = CatalogIndex(shelf)

    func best(_ query: String) -> CatalogEntry? { index.match(query, top: 3).first?.entry }

    @Test func garbledReadingsFindTheirBook() {
        #expect(best("PULLMAN VOLUMEN LA BELLA SALVAJE PHILIP JN Pul")?.isbn == "9788417092986")
        #expect(best("AVIER RUESCAS JN Rue MOHS")?.isbn == "9788415580560")
        #expect(best("613.7 Rob BI obinson, Lisa pilates")?.title == "Pilates : la guía más accesible")
        #expect(best("HISTORIA DE CATALUNYA PIERRE VILAR")?.tag == "9(46.71) Vil")
    }

    @Test func accentsAndCaseDoNotMatter() {
        #expect(best("CIEN ANOS DE SOLEDAD gabriel garcia marquez")?.title == "Cien años de soledad")
        #expect(best("l'os bru QUERALT")?.title == "L'Ós bru")
    }

    @Test func theCallNumberSeparatesBooksWithTheSameTitle() {
        #expect(best("GOYA 75(Goy) Gud")?.isbn == "9788434311732")
        #expect(best("GOYA 75(Goy) Boz")?.isbn == "9788477749851")
        // OCR spaces the call number out; it is still the whole call number.
        let spaced = index.match("GOYA 75 (Goy) Gud", top: 2)
        #expect(spaced.first?.entry.isbn == "9788434311732")
        #expect(spaced.first?.features.tag == 1)
        #expect(spaced.first?.features.query == 1)
        #expect(index.match("GOYA 75 (Goy) Boz", top: 1).first?.entry.isbn == "9788477749851")
    }

    @Test func resultsAreOrderedWithScoresInUnitRange() {
        let matches = index.match("la bella", top: 5)
        #expect(!matches.isEmpty && matches.count <= 5)
        for m in matches { #expect((0...1).contains(m.score)) }
        #expect(zip(matches, matches.dropFirst()).allSatisfy { $0.features.raw >= $1.features.raw })
        #expect(zip(matches, matches.dropFirst()).allSatisfy { $0.score >= $1.score })
        #expect(index.match("", top: 5).isEmpty)
        #expect(index.match("Goya", top: 0).isEmpty)
    }

    @Test func oversizedInputIsBoundedNotFatal() {
        let huge = String(repeating: "bella salvaje pullman ", count: 500) + String(repeating: "x", count: 5_000)
        let matches = index.match(huge, top: 3)
        #expect(matches.first?.entry.title == "La Bella salvaje")
        let manyWords = (0..<1_000).map { "w\($0)" }.joined(separator: " ")
        #expect(index.match(manyWords + " goya", top: 1).count <= 1)
    }

    @Test func editionsOfOneBookDoNotLowerEachOthersConfidence() {
        let matches = index.match("Cien años de soledad García Márquez N Gar", top: 2)
        #expect(matches.count == 2)
        #expect(matches.allSatisfy { $0.entry.title == "Cien años de soledad" })
        #expect(matches[0].features.margin > 0)
    }

    @Test func aClearReadingIsAcceptedAndNoiseIsNot() {
        let clear = index.match("LA BELLA SALVAJE PHILIP PULLMAN JN Pul", top: 1)
        #expect(clear.first.map { $0.score >= CatalogIndex.acceptThreshold } == true)
        #expect(index.accepted("LA BELLA SALVAJE PHILIP PULLMAN JN Pul")?.entry.isbn == "9788417092986")
        let noise = index.match("OXFORD university press 2019", top: 1)
        #expect(noise.allSatisfy { $0.score < CatalogIndex.acceptThreshold })
        #expect(index.accepted("OXFORD university press 2019") == nil)
        // Two books with the same title and nothing to separate them: less sure than when the call number decides.
        let ambiguous = index.match("GOYA", top: 1)
        let decided = index.match("GOYA 75(Goy) Gud", top: 1)
        #expect(ambiguous[0].features.share <= 0.5 + 1e-9)
        #expect(ambiguous[0].score < decided[0].score)
    }

    @Test func aCallNumberIsItsWordsNotMoreWords() {
        // "1(Fin)" reads as "1", "fin" and "1(fin)"; the entry shelved at 1(Fin) explains all of it, the book
        // titled "Fin" only one of the words.
        let shelf = Catalog(entries: [
            CatalogEntry(title: "Fin", authors: ["Monteagudo, David"], tag: "N Mon"),
            CatalogEntry(title: "La Expresión y lo interno", authors: ["Finkelstein, David H."], tag: "1(Fin)"),
            CatalogEntry(title: "Fin de temporada", authors: ["Martínez de Pisón, Ignacio"], tag: "N Mar"),
            CatalogEntry(title: "Matemàtiques 1", authors: ["Vila, Anna"], tag: "51 Vil"),
        ])
        let matches = CatalogIndex(shelf).match("1(Fin)", top: 3)
        #expect(matches.first?.entry.tag == "1(Fin)")
        #expect(matches.first?.features.query == 1)
        #expect(matches.dropFirst().allSatisfy { $0.features.query < 1 })
    }

    @Test func aPieceOfARunTogetherWordExplainsOnlyItsShare() {
        // "laGalera" is a publisher's name run together; "la" alone must not explain it as "la galera" does.
        let shelf = Catalog(entries: [
            CatalogEntry(title: "La Mort i la violeta", authors: ["Badal, Josep Ll."], tag: "I*** Bad"),
            CatalogEntry(title: "Els Llibres d'A", authors: ["Badal, Josep Ll."], tag: "JN Bad"),
            CatalogEntry(title: "La Galera de l'amor", authors: ["Soler, Anna"], tag: "N Sol"),
            CatalogEntry(title: "The Lie tree", authors: ["Hardinge, Frances"], tag: "JNE Har"),
            CatalogEntry(title: "Tree houses", authors: ["Nelson, Peter"], tag: "728 Nel"),
        ])
        let index = CatalogIndex(shelf)
        func features(_ query: String, _ title: String) -> MatchFeatures? {
            index.match(query, top: 10).first { $0.entry.title == title }?.features
        }
        let galera = features("lagalera", "La Galera de l'amor"), onlyLa = features("lagalera", "La Mort i la violeta")
        #expect(galera != nil && onlyLa != nil)
        if let galera, let onlyLa { #expect(onlyLa.query < 0.5 && galera.query > 0.85) }
        #expect(index.match("laGalera JN Bad", top: 1).first?.entry.title == "Els Llibres d'A")
        // Both pieces present: the run-together word is explained as well as any repaired word.
        #expect((features("lietree", "The Lie tree")?.query ?? 0) > 0.85)
        #expect((features("lietree", "Tree houses")?.query ?? 1) < 0.85)
        #expect(index.match("LIETREE Har", top: 1).first?.entry.title == "The Lie tree")
    }

    @Test func oneMisreadDigitInAShortCallNumberStillMatches() {
        let shelf = Catalog(entries: [
            CatalogEntry(title: "Brando por Brando", authors: ["Brando, Marlon"], tag: "778.5 Bra"),
            CatalogEntry(title: "Fahrenheit 451", authors: ["Bradbury, Ray"], tag: "N Bra"),
            CatalogEntry(title: "Historia del cine", authors: ["Gubern, Román"], tag: "778.5 Gub"),
        ])
        let matches = CatalogIndex(shelf).match("708.5 Bra", top: 3)
        #expect(matches.first?.entry.title == "Brando por Brando")
        #expect((matches.first?.features.tag ?? 0) > 0.8)
    }
}
