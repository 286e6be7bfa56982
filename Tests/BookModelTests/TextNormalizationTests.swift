import Testing
@testable import BookModel

@Test func foldsCaseDiacriticsAndPunctuation() {
    #expect(TextNormalization.normalize("  Cien AÑOS de   soledad. ") == "cien anos de soledad")
    #expect(TextNormalization.normalize("L'Étranger — Camus") == "letranger camus")
    #expect(TextNormalization.normalize("Straße, Çà!") == "strasse ca")
    #expect(TextNormalization.tokens("Don't Panic!") == ["dont", "panic"])
}
