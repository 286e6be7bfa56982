import Foundation
import Library
import LibraryCore
@testable import ShelfScanServer
import Testing

/// Each way the library can fail has its own status, code and line: a client waits and resends on 503 with
/// `Retry-After`, looks again on 409, and reports a 500; a person reads one sentence naming what happened.
@Suite struct LibraryErrorStatusTests {
    @Test func eachDatabaseFailureHasItsOwnStatusCodeAndLine() throws {
        let cases: [(LibraryError, status: Int, code: String, retryable: Bool, retryAfter: String?, says: String)] = [
            (.busy(location: "lib", reason: "database is locked"), 503, "LIBRARY_BUSY", true, "1", "busy"),
            (.connectionLost(location: "lib", mayHaveBeenApplied: false), 503, "CONNECTION_LOST", true, "2", "nothing was written"),
            (.connectionLost(location: "lib", mayHaveBeenApplied: true), 503, "CONNECTION_LOST", false, "2", "may have been applied"),
            (.constraint(location: "lib", reason: "UNIQUE constraint failed: photo.contentHash"), 409, "CONSTRAINT_VIOLATION", false, nil, "breaks one of its rules"),
            (.databaseFailed(location: "lib", reason: "disk I/O error"), 500, "DATABASE_ERROR", false, nil, "disk I/O error"),
            (.cannotOpen(path: "lib", reason: "unable to open database file"), 503, "LIBRARY_UNAVAILABLE", true, nil, "Check the path"),
        ]
        for (error, status, code, retryable, retryAfter, says) in cases {
            let problem = ReviewRoutes.problem(error)
            #expect(problem.status == status && problem.code == code && problem.retryable == retryable, "\(error)")
            #expect(problem.response.headers[.retryAfter] == retryAfter, "\(error)")
            #expect(error.description.contains(says) && !error.description.contains("\n"), "\(error)")
        }
        #expect(Set(cases.map(\.0.description)).count == cases.count, "no two share a line")
        #expect(!LibraryError.busy(location: "lib", reason: "database is locked").description.contains("Check the path"))
    }

    @Test func theReviewRoutesDocumentABusyLibrary() throws {
        // Every review route may meet a busy library: its 503 is documented with the header that says when to resend
        for spec in RouteSpec.all where spec.tag == "review" {
            let responses = try #require(OpenAPIDocument.operation(spec)["responses"] as? [String: Any])
            let busy = try #require(responses["503"] as? [String: Any], "\(spec.path)")
            #expect((busy["headers"] as? [String: Any])?["Retry-After"] != nil, "\(spec.path)")
        }
    }
}
