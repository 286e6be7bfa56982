import Testing
@testable import BookModel

@Suite struct CSVReaderTests {
    func parse(_ text: String) -> (records: [CSVReader.Record], problems: [CSVReader.Problem]) {
        CSVReader().parse(Array(text.utf8))
    }

    @Test func quotedFieldsKeepCommasNewlinesAndDoubledQuotes() {
        let (records, problems) = parse("a,b,c\n\"x, y\",\"line1\nline2\",\"say \"\"hi\"\"\"\nlast,row,here\n")
        #expect(problems.isEmpty)
        #expect(records.map(\.fields) == [["a", "b", "c"], ["x, y", "line1\nline2", "say \"hi\""], ["last", "row", "here"]])
        // The record after a two-line field starts on line 4.
        #expect(records.map(\.line) == [1, 2, 4])
    }

    @Test func quotedCommasAndNewlinesWithBOMAndCRLFKeepTheirLines() {
        let (records, problems) = parse("\u{FEFF}Title,Author\r\n\"Hello, World\",\"Said \"\"Hi\"\"\"\r\n\"Two\nLines\",B\r\n\r\nlast,row")
        #expect(problems.isEmpty)
        #expect(records.map(\.fields) == [["Title", "Author"], ["Hello, World", "Said \"Hi\""], ["Two\nLines", "B"], ["last", "row"]])
        #expect(records.map(\.line) == [1, 2, 3, 6])
    }

    @Test func byteOrderMarkAndCRLFAreInvisible() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("Title,Author\r\nÉloge,Érasme\r\n\r\nB,C".utf8)
        let (records, problems) = CSVReader().parse(bytes)
        #expect(problems.isEmpty)
        #expect(records.map(\.fields) == [["Title", "Author"], ["Éloge", "Érasme"], ["B", "C"]])
        #expect(records.map(\.line) == [1, 2, 4])
    }

    @Test func emptyFieldsAndTrailingSeparatorSurvive() {
        let (records, _) = parse("a,,c\n,\n\"\",x\n")
        #expect(records.map(\.fields) == [["a", "", "c"], ["", ""], ["", "x"]])
    }

    @Test func textAfterAClosingQuoteIsABadRowWithItsLine() {
        let (records, problems) = parse("t,a\n\"ok\",1\n\"bad\"junk,2\n\"fine\",3\n")
        #expect(records.map { $0.fields[0] } == ["t", "ok", "fine"])
        #expect(problems == [CSVReader.Problem(line: 3, reason: "text after a closing quote")])
    }

    @Test func quoteNeverClosedCostsOnlyItsOwnLine() {
        let (records, problems) = parse("t,a\nok,1\n\"open,2\nmore,3\n")
        #expect(records.map(\.fields) == [["t", "a"], ["ok", "1"], ["more", "3"]])
        #expect(records.map(\.line) == [1, 2, 4])
        #expect(problems.count == 1)
        #expect(problems.first?.line == 3)
        #expect(problems.first?.reason == "a quoted field is never closed")
    }

    @Test func aNeverClosedQuoteAfterAGoodMultiLineFieldResumesAfterItsOwnLine() {
        // The record starts on line 2; its first field spans lines 2-3, the open quote is on line 3.
        let (records, problems) = parse("t,a,b\n\"two\r\nlines\",\"open\r\nnext,row,here\r\n")
        #expect(problems == [CSVReader.Problem(line: 2, reason: "a quoted field opened on line 3 is never closed")])
        #expect(records.map(\.fields) == [["t", "a", "b"], ["next", "row", "here"]])
        #expect(records.map(\.line) == [1, 4])
    }

    @Test func brokenRecordsAmongGoodOnesAreEachReportedOnce() {
        let (records, problems) = parse("a,b\nok,1\n\"x\" y,2\n\"never closed,3\nfine,4\n")
        #expect(problems.map(\.line) == [3, 4])
        #expect(problems.map(\.description).allSatisfy { $0.hasPrefix("line ") })
        #expect(records.map(\.fields) == [["a", "b"], ["ok", "1"], ["fine", "4"]])
    }

    @Test func blanksAfterAClosingQuoteAreDropped() {
        let (records, problems) = parse("\"a\" ,\"b\"\t\n")
        #expect(problems.isEmpty)
        #expect(records.first?.fields == ["a", "b"])
    }

    @Test func loneCRLineEndsCountAsLines() {
        let (records, _) = parse("a\r\"b\rc\"\rd")
        #expect(records.map(\.fields) == [["a"], ["b\rc"], ["d"]])
        #expect(records.map(\.line) == [1, 2, 4])
    }

    @Test func readRecognisesSemicolonsAndTabsOnTheHeaderOutsideQuotes() {
        #expect(CSVReader.sniffSeparator(Array("\"a,b,c\";d;e\nx,y,z,w\n".utf8)) == ";")
        #expect(CSVReader.sniffSeparator(Array("a\tb\n".utf8)) == "\t")
        #expect(CSVReader.sniffSeparator(Array("a;b,c\n".utf8)) == ",", "a tie keeps the comma")
        #expect(CSVReader.sniffSeparator(Array("title\n".utf8)) == ",")
        let (records, _) = CSVReader.read(Array("Título;Autor\n\"Poesía, completa\";Lorca\n".utf8))
        #expect(records.map(\.fields) == [["Título", "Autor"], ["Poesía, completa", "Lorca"]])
    }

    @Test func readTakesWindows1252AsItIsMeant() {
        // 0xF1 is ñ in Windows-1252 and Latin-1; 0x93/0x94 are curly quotes only in Windows-1252.
        let bytes: [UInt8] = Array("title\nCien a".utf8) + [0xF1] + Array("os ".utf8) + [0x93, 0x78, 0x94] + [0x0A]
        let (records, problems) = CSVReader.read(bytes)
        #expect(problems.isEmpty)
        #expect(records.map(\.fields) == [["title"], ["Cien años \u{201C}x\u{201D}"]])
        let utf8 = Array("title\nCien años\n".utf8)
        #expect(CSVReader.utf8(utf8) == utf8)
    }

    @Test func quoteInsideAnUnquotedFieldIsLiteral() {
        let (records, problems) = parse("12\" ruler,x\n")
        #expect(problems.isEmpty)
        #expect(records.first?.fields == ["12\" ruler", "x"])
    }
}
