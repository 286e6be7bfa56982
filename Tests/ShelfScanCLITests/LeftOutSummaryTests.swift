import ShelfScan
import Testing
@testable import ShelfScanCLI

struct LeftOutSummaryTests {
    static func files(_ reasons: [LeftOutFile.Reason]) -> [LeftOutFile] {
        reasons.enumerated().map { LeftOutFile(path: "/photos/\($0.offset)", reason: $0.element) }
    }

    @Test func oneFileAndOneOfAReasonAreSingular() {
        #expect(ResultPrinter.leftOutSentence(Self.files([.brokenLink])) == "Left out 1 file: 1 broken link")
        #expect(ResultPrinter.leftOutSentence(Self.files([.notAPhoto, .linkNotFollowed]))
            == "Left out 2 files: 1 not a photo, 1 link not followed")
    }

    @Test func reasonsComePluralAndInAFixedOrder() {
        let files = Self.files([.overPixelLimit, .linkNotFollowed, .brokenLink, .hidden, .notAPhoto, .hidden, .unreadable,
                                .brokenLink, .notAPhoto, .linkNotFollowed, .hidden, .overPixelLimit])
        #expect(ResultPrinter.leftOutSentence(files)
            == "Left out 12 files: 2 not photos, 3 hidden, 1 unreadable, 2 broken links, 2 links not followed, 2 over the pixel limit")
    }

    @Test func nothingLeftOutSaysNothing() {
        #expect(ResultPrinter.leftOutSentence([]) == nil)
    }
}
