import BookModel
import Foundation
import ShelfScan

/// Prints what a scan found: seed-004 envelopes on stdout with --json (one line per photo, so a batch
/// is JSON Lines), a short human summary per photo otherwise. Progress and failures of a plain run go
/// to stderr through `ProgressDisplay`; this type owns stdout.
struct ResultPrinter: Sendable {
    var json: Bool
    var readerName: String

    func print(_ outcome: PhotoOutcome) {
        guard json else { return }
        switch outcome {
        case .scanned(let scan):
            var meta = ResponseMeta.now(provider: readerName)
            meta.processingTime = Int((ProgressDisplay.seconds(scan.elapsed) * 1000).rounded())
            meta.requestId = scan.path
            write(SuccessResponse(data: scan.response, meta: meta))
        case .skipped(let path, let hash):
            // Already filed: not a failure. `cached: true` says the photo's Works are in the library
            // from an earlier run; `review list --json` shows them.
            var meta = ResponseMeta.now(provider: readerName)
            meta.cached = true
            meta.requestId = path
            write(SuccessResponse(data: BookshelfScanResponse(jobId: hash, detectedBooks: []), meta: meta))
        case .failed(let path, let reason):
            var meta = ResponseMeta.now(provider: readerName)
            meta.requestId = path
            write(ErrorResponse(error: ErrorBody(message: reason, code: "SCAN_FAILED", details: .object(["path": .string(path)])), meta: meta))
        case .leftOut:
            break // listed with the files the folder walk left out, after the batch (`printLeftOut`)
        }
    }

    func printSummary(_ summary: BatchSummary) {
        let parts = ["\(summary.scanned) scanned", "\(summary.skipped) skipped", "\(summary.failed) failed"]
        var line = "Photos: " + parts.joined(separator: ", ")
        if let leftOut = Self.leftOutSentence(summary.leftOut) { line += ". " + leftOut }
        line += String(format: ". Spines found: %d, books read: %d", summary.spinesFound, summary.booksRead)
        if let pending = summary.pendingInQueue { line += ", pending review: \(pending)" }
        if let tokens = summary.tokens {
            line += ". Tokens: \(tokens.promptTokens) prompt + \(tokens.completionTokens) completion = \(tokens.totalTokens)"
        }
        line += String(format: ". Time: %.1f s.", ProgressDisplay.seconds(summary.elapsed))
        FileHandle.standardError.write(Data((line + "\n").utf8))
        if summary.unreadSpines > 0, let reason = summary.firstReadError {
            let filed = summary.pendingInQueue == nil ? "" : " They wait in the review queue as \"\(Work.unreadTitle)\"."
            FileHandle.standardError.write(Data("\(summary.unreadSpines) spines could not be read (first reason: \(reason)).\(filed)\n".utf8))
        }
        if let pending = summary.pendingInQueue, pending > 0 {
            FileHandle.standardError.write(Data("Review them with: shelfscan review\n".utf8))
        }
    }

    /// "Left out 3 files: 2 not photos, 1 broken link", reasons in a fixed order; nil when nothing was left out.
    static func leftOutSentence(_ files: [LeftOutFile]) -> String? {
        guard !files.isEmpty else { return nil }
        let parts = LeftOutFile.Reason.allCases.compactMap { reason -> String? in
            let n = files.count { $0.reason == reason }
            return n == 0 ? nil : "\(n) \(phrase(reason, count: n))"
        }
        return "Left out \(files.count) \(files.count == 1 ? "file" : "files"): " + parts.joined(separator: ", ")
    }

    /// What `count` files left out for `reason` are, in words that follow the number.
    static func phrase(_ reason: LeftOutFile.Reason, count: Int) -> String {
        switch reason {
        case .notAPhoto: count == 1 ? "not a photo" : "not photos"
        case .hidden: "hidden"
        case .unreadable: "unreadable"
        case .brokenLink: count == 1 ? "broken link" : "broken links"
        case .linkNotFollowed: count == 1 ? "link not followed" : "links not followed"
        case .overPixelLimit: "over the pixel limit"
        }
    }

    /// With --json, one last line listing the files the batch left out (the folder walk's, and photos over the
    /// pixel limit), each with its path and reason.
    func printLeftOut(_ files: [LeftOutFile]) {
        guard json, !files.isEmpty else { return }
        write(SuccessResponse(data: LeftOutFiles(leftOut: files), meta: .now(provider: readerName)))
    }

    /// A failure before any photo was read (bad setup): one line, or the error envelope with --json.
    func printFatal(_ error: any Error) {
        if json {
            write(ErrorResponse(error: ErrorBody(message: "\(error)", code: "SCAN_SETUP"), meta: .now(provider: readerName)))
        } else {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
        }
    }

    private func write<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var data = try? encoder.encode(value) else { return }
        data.append(0x0A)
        FileHandle.standardOutput.write(data)
    }
}

/// The `data` of `scan --json`'s left-out line.
struct LeftOutFiles: Sendable, Codable {
    var leftOut: [LeftOutFile]
}
