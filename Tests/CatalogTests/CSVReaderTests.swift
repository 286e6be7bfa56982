import Testing
@testable import Catalog

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

    @Test func quoteNeverClosedIsReportedNotSwallowedSilently() {
        let (records, problems) = parse("t,a\nok,1\n\"open,2\nmore,3\n")
        #expect(records.count == 2)
        #expect(problems.count == 1)
        #expect(problems.first?.line == 3)
        #expect(problems.first?.reason.contains("never closed") == true)
    }

    @Test func quoteInsideAnUnquotedFieldIsLiteral() {
        let (records, problems) = parse("12\" ruler,x\n")
        #expect(problems.isEmpty)
        #expect(records.first?.fields == ["12\" ruler", "x"])
    }
}
