import AsyncHTTPClient
import Foundation
import Library
import LibraryCore
import ShelfImage
import ShelfScanServer
import ShelfScanTestSupport
import Testing

/// Bad input and missing tokens against the real binary, over real sockets: what only a running `serve` shows
/// (its log, its refusal to start). Each problem from each cause, and the rate limit on a moved clock, are
/// `ProblemTests` and `AccessTests`, in process.
@Suite(.serialized)
struct BadInputTests {
    /// Asserts the RFC 7807 shape and returns the problem's code.
    @discardableResult
    static func expectProblem(_ reply: Reply, _ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any] {
        #expect(reply.status == status, "\(reply.text)", sourceLocation: sourceLocation)
        #expect(reply.header("Content-Type") == "application/problem+json", sourceLocation: sourceLocation)
        let problem = reply.json
        #expect(problem["code"] as? String == code, "\(reply.text)", sourceLocation: sourceLocation)
        #expect(problem["status"] as? Int == status, sourceLocation: sourceLocation)
        #expect(problem["type"] is String && problem["title"] is String && problem["detail"] is String, sourceLocation: sourceLocation)
        return problem
    }

    @Test func filesInFieldsThatAreNotReadAreNamedInTheAnswer() async throws {
        let server = try ServerProcess.start(["--rate-limit", "0"])
        let client = Client(server)
        defer { Task { try? await client.shutdown() } }
        let (body, contentType) = Multipart.body([("photos[]", "shelf.jpg", try Samples.drawn(seed: 4)),
                                                  ("attachment", "notes.pdf", Data("%PDF-1.4".utf8))])
        let accepted = try await client.send("POST", RoutePath.scans, headers: [("Content-Type", contentType)], body: body)
        #expect(accepted.status == 202, "\(accepted.text)")
        #expect(accepted.data["totalCount"] as? Int == 1)
        let leftOut = try #require(accepted.data["leftOut"] as? [[String: String]], "\(accepted.text)")
        #expect(leftOut == [["field": "attachment", "filename": "notes.pdf"]])
        let jobID = try #require(accepted.data["jobId"] as? String)
        #expect(try await client.events(RoutePath.scanStream(jobID)).last?.name == "completed")

        // A request whose files all came in photos[] says nothing of the kind
        let plain = try await client.submit([try Samples.drawn(seed: 5)])
        #expect(plain.status == 202)
        #expect(plain.data["leftOut"] == nil)
        let plainID = try #require(plain.data["jobId"] as? String)
        #expect(try await client.events(RoutePath.scanStream(plainID)).last?.name == "completed")
    }

    @Test func aServerTokenGuardsEveryRoute() async throws {
        // Given a server with a token from the environment
        let server = try ServerProcess.start(environment: ["SHELFSCAN_SERVER_TOKEN": "s3cret-token"])
        let client = Client(server, serverToken: false)
        defer { Task { try? await client.shutdown() } }
        let auth = [("Authorization", "Bearer s3cret-token")]

        // Then every route refuses a missing or wrong token
        for path in [RoutePath.openAPI, RoutePath.health, RoutePath.works, RoutePath.scan(UUID().uuidString)] {
            Self.expectProblem(try await client.get(path), 401, "UNAUTHORIZED")
            Self.expectProblem(try await client.get(path, headers: [("Authorization", "Bearer wrong")]), 401, "UNAUTHORIZED")
        }
        Self.expectProblem(try await client.submit([try Samples.drawn(seed: 2)]), 401, "UNAUTHORIZED")
        #expect(try await client.get(RoutePath.openAPI, headers: auth).status == 200)

        // And a job's own token opens that job's routes only
        let accepted = try await client.submit([try Samples.drawn(seed: 2)], headers: auth)
        #expect(accepted.status == 202)
        let jobID = try #require(accepted.data["jobId"] as? String)
        let jobToken = try #require(accepted.data["token"] as? String)
        #expect(jobToken != "s3cret-token")
        let events = try await client.events(RoutePath.scanStream(jobID), headers: [("Authorization", "Bearer \(jobToken)")])
        #expect(events.last?.name == "completed")
        #expect(try await client.get(RoutePath.scanResults(jobID), headers: [("Authorization", "Bearer \(jobToken)")]).status == 200)
        Self.expectProblem(try await client.get(RoutePath.works, headers: [("Authorization", "Bearer \(jobToken)")]), 401, "UNAUTHORIZED")
        let unknown = UUID().uuidString
        Self.expectProblem(try await client.get(RoutePath.scan(unknown), headers: [("Authorization", "Bearer \(jobToken)")]),
                           401, "UNAUTHORIZED")
        // The server's token never appears in a response or the log (read once the last request's line is in)
        #expect(!accepted.text.contains("s3cret-token"))
        let log = server.log(atLeast: 1) { $0.contains("GET /v3/jobs/scans/\(unknown) 401") }
        #expect(log.contains { $0.contains("GET /v3/jobs/scans/\(unknown) 401") })
        #expect(!log.contains { $0.contains("s3cret-token") })
    }

    @Test func listeningBeyondThisMachineWantsAServerTokenOrTheFlag() throws {
        // Given no server token, an address other machines reach is refused at start: one line, exit 2
        let library = try ShelfscanProcess.temporaryDirectory("serve-open").appendingPathComponent("library.sqlite").path
        for host in ["0.0.0.0", "::", "192.168.1.20"] {
            let run = try ShelfscanProcess.run(["serve", "--host", host, "--port", "0", "--reader", "none", "--library", library],
                                               environment: ["SHELFSCAN_SERVER_TOKEN": ""])
            #expect(run.status == 2, "\(host): \(run.stderr)")
            let lines = run.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(run.stderr)")
            #expect(run.stderr.contains("SHELFSCAN_SERVER_TOKEN") && run.stderr.contains("--allow-open-network"), "\(run.stderr)")
        }
        // And what counts as this machine only
        for host in ["127.0.0.1", "127.8.9.10", "::1", "[::1]", "localhost", "LOCALHOST"] { #expect(ServerConfiguration.isLoopback(host), "\(host)") }
        for host in ["0.0.0.0", "::", "192.168.1.20", "10.0.0.1", "shelf.local", "::2", ""] { #expect(!ServerConfiguration.isLoopback(host), "\(host)") }
    }

    /// A PNG signature and IHDR claiming a size, and nothing else: the pixel limit is checked from the header.
    static func pngHeader(width: UInt32, height: UInt32) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        for value in [width, height] { bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        bytes += [8, 2, 0, 0, 0]
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes[12...] {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        bytes += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        return Data(bytes)
    }
}
