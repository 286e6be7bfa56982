import Testing
@testable import SpineReading

@Suite("Tolerant answer parsing")
struct AnswerParserTests {
    @Test func shapes() throws {
        #expect(try AnswerParser.books(in: #"{"books":[{"index":0,"title":"A","authors":["X"]}]}"#).map(\.title) == ["A"])
        #expect(try AnswerParser.books(in: "```json\n[{\"index\":1,\"title\":\"B\"}]\n```").first?.index == 1)
        #expect(try AnswerParser.books(in: #"{"0": {"title": "C"}, "1": {"title": "D"}}"#).count == 2)
        #expect(try AnswerParser.books(in: #"Sure. {"title": "Solo", "author": "Y"} Done."#).first?.authors == ["Y"])
        #expect(try AnswerParser.books(in: #"{"books":[{"index":"2","title":"E","confidence":"1.7"}]}"#).first?.confidence == 1)
        #expect(try AnswerParser.books(in: #"note {"x": "}"} then {"books":[{"index":0,"title":"F"}]}"#).first?.title == "F")
    }

    @Test func unusable() {
        #expect(throws: ReaderError.self) { try AnswerParser.books(in: "I cannot read these spines.") }
        #expect(throws: ReaderError.self) { try AnswerParser.books(in: #"{"answer": 42}"#) }
    }
}
