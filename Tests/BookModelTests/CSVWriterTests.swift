import Testing
@testable import BookModel

@Suite struct CSVWriterTests {
    @Test func escapesOnlyWhatNeedsIt() {
        #expect(CSVWriter.write([["a", "b,c", "d\"e", "f\ng", " pad"]]) == "a,\"b,c\",\"d\"\"e\",\"f\ng\",\" pad\"\r\n")
    }

    @Test func windowsLineEndsInsideAFieldAreQuoted() {
        // "\r\n" is a single Character, equal to neither "\r" nor "\n".
        #expect(CSVWriter.escape("Loved it\r\nreally") == "\"Loved it\r\nreally\"")
    }

    @Test func whatItWritesReadsBackUnchanged() {
        let rows = [["x", "y, \"z\"\r\nw"], ["\r\n\r\n", " \n", " a\r"], ["é,", "", "12\" ruler"]]
        let (records, problems) = CSVReader().parse(Array(CSVWriter.write(rows).utf8))
        #expect(problems.isEmpty)
        #expect(records.map(\.fields) == rows)
    }
}
