import Testing
@testable import Catalog

@Suite struct CatalogTextTests {
    @Test func wordsFoldDiacriticsCaseAndPunctuation() {
        #expect(CatalogText.words("¿Por qué E=mc2? ÀNIMA Animal!") == ["por", "que", "e", "mc2", "anima", "animal"])
        #expect(CatalogText.words("Història de l'art català") == ["historia", "de", "lart", "catala"])
    }

    @Test func callNumbersKeepTheirInnerPunctuation() {
        #expect(CatalogText.callNumbers("PILATES 613.7 Rob") == ["613.7"])
        #expect(CatalogText.callNumbers("(9(46.71)\"04/14\" Ave") == ["9(46.71)\"04/14", ])
        #expect(CatalogText.tagTokens("372.3 Pel") == ["372.3", "pel"])
        #expect(CatalogText.tagTokens("JN Rue") == ["jn", "rue"])
    }

    @Test func authorsSplitIntoSurnameAndGivenNames() {
        let a = CatalogText.authorParts("García de Enterría, Eduardo, 1923-2013")
        #expect(a.surname == ["garcia", "de", "enterria"])
        #expect(a.given == ["eduardo"])
        let b = CatalogText.authorParts("Cox, Brian (Físic)")
        #expect(b.surname == ["cox"] && b.given == ["brian"])
        let c = CatalogText.authorParts("Mario Bunge")
        #expect(c.surname == ["bunge"] && c.given == ["mario"])
    }

    @Test func subtitlesAreSplitOff() {
        #expect(CatalogText.splitTitle("Pilates : la guía más accesible").main == "Pilates ")
        #expect(CatalogText.splitTitle("Ghost Stories").subtitle == "")
        let works = CatalogText.splitTitle("Apologia de Sòcrates   Critó   Eutifró")
        #expect(works.main == "Apologia de Sòcrates" && works.subtitle == "Critó   Eutifró")
        #expect(CatalogText.splitTitle("Introducción a la filosofía  presocrática").subtitle == "")
    }

    @Test func wordSimilarityForgivesTypicalOCRDamage() {
        func sim(_ a: String, _ b: String) -> Float {
            var scratch: [Int32] = []
            let x = a.unicodeScalars.map(\.value), y = b.unicodeScalars.map(\.value)
            return x.withUnsafeBufferPointer { p in y.withUnsafeBufferPointer { q in WordSimilarity.similarity(p, q, scratch: &scratch) } }
        }
        #expect(sim("javier", "javier") == 1)
        #expect(sim("avier", "javier") > 0.8)          // first letter lost at the spine's edge
        #expect(sim("ruescaz", "ruescas") > 0.8)       // one letter misread
        #expect(sim("histo", "historico") > 0.6)       // cut at a line break
        #expect(sim("labella", "bella") > 0.6)         // run together
        #expect(sim("mohs", "javier") < 0.3)
        #expect(sim("casa", "cosa") < sim("casa", "casas"))
        #expect(CatalogText.isFuzzyMatchable("708.5", length: 5))      // a misread digit in a call number
        #expect(!CatalogText.isFuzzyMatchable("1984", length: 4))      // years and volume numbers stay exact
        #expect(!CatalogText.isFuzzyMatchable("de", length: 2))
    }
}
