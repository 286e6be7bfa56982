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
}
