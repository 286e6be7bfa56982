import ArgumentParser
import BookModel
import Enrichment
import Foundation
import LibraryCore

/// `shelfscan library enrich`: completes Works already filed from OpenLibrary / Google Books. Works that
/// carry a provider ID already are skipped, so running it again costs nothing. A reviewed Work keeps the
/// title and authors a person confirmed; a pending one takes the provider's. When the answer shows a Work is
/// the same book as another one in the library (seed 004: shared ID or ISBN, or 90% similar title and
/// authors) both are kept and the pair is reported, because merging is a reviewer's decision.
struct LibraryEnrichCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enrich",
        abstract: "Complete filed books (IDs, ISBNs, year, subjects, cover) from OpenLibrary or Google Books.",
        discussion: """
              shelfscan library enrich                          # OpenLibrary, every Work without a provider ID
              shelfscan library enrich --enrich googlebooks --id 12 --id 40
              shelfscan library enrich --dry-run --json         # show what would change
            """)

    @OptionGroup var library: LibraryOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var enrichment: EnrichOptions
    @Option(name: .long, help: ArgumentHelp("Only this Work (repeatable).", valueName: "id")) var id: [Int64] = []
    @Flag(help: "Ask the providers and report, but change nothing.") var dryRun = false

    /// One Work's outcome, as JSON Lines with `--json`.
    struct Outcome: Encodable, Sendable {
        var workId: Int64
        var enrichmentStatus: EnrichmentStatus
        var work: WorkDTO?
        var authors: [AuthorDTO]?
        var edition: EditionDTO?
        /// Other Works in the library that are the same book by seed 004's rule.
        var duplicateOf: [Int64]?
    }

    func run() async throws {
        let out = CommandOutput(options: output)
        do {
            let store = try await library.openStore()
            guard let enricher = try enrichment.makeEnricher(fallback: BookProvider.openlibrary.rawValue, notify: EnrichOptions.stderrNotice)
            else { return }
            let works = try await store.works(includePending: true).filter { w in
                id.isEmpty ? !Self.alreadyEnriched(w) && !w.hasUnreadTitle : id.contains(w.id ?? -1)
            }
            var enriched = 0, unchanged = 0
            for work in works {
                guard let workID = work.id else { continue }
                let request = EnrichmentRequest(rawText: work.spine?.rawText ?? "", title: work.title,
                                                authors: work.authors.map(\.name),
                                                isbn: work.editions.lazy.compactMap(\.primaryISBN).first)
                let result = await enricher.enrich(request)
                var outcome = Outcome(workId: workID, enrichmentStatus: result.status)
                var updated = work
                // A scanned Work keeps why it was (not) enriched beside its spine, for the reviewer.
                updated.spine?.enrichmentStatus = result.status
                if let book = result.accepted?.book {
                    updated.applyEnrichment(book.record, replaceTitle: work.reviewStatus == .needsReview)
                    let duplicates = try await store.duplicates(of: updated, threshold: DuplicateRule.fuzzyThreshold)
                        .map(\.id).filter { $0 != workID }
                    outcome.work = updated.dto
                    outcome.authors = updated.authors.map(\.dto)
                    outcome.edition = updated.editions.first.map(\.dto)
                    outcome.duplicateOf = duplicates.isEmpty ? nil : duplicates
                    if !dryRun { try await store.update(updated) }
                    enriched += 1
                } else {
                    if !dryRun, updated.spine != nil { try await store.update(updated) }
                    unchanged += 1
                }
                if output.json { try out.json(outcome) } else if !output.quiet || outcome.work != nil { out.line(Self.describe(outcome, title: work.title)) }
            }
            let stats = enricher.stats
            out.note("\(enriched) enriched, \(unchanged) left as they were; \(stats.requests) request(s), \(stats.cacheHits) from cache"
                     + (dryRun ? " (dry run: nothing changed)" : ""))
        } catch {
            out.fail(error)
            throw ExitCode.failure
        }
    }

    /// A Work that already carries a provider's ID was enriched (or imported with it) before.
    static func alreadyEnriched(_ w: Work) -> Bool {
        w.openLibraryWorkID != nil || w.googleBooksVolumeID != nil || !w.googleBooksVolumeIDs.isEmpty
    }

    static func describe(_ o: Outcome, title: String) -> String {
        let head = String(format: "%6lld  ", o.workId)
        guard let work = o.work else {
            let why = o.enrichmentStatus.failures?.map { "\($0.provider): \($0.code)" }.joined(separator: ", ")
            return head + "\(title) — \(o.enrichmentStatus.state.rawValue)" + (why.map { " (\($0))" } ?? "")
        }
        let ids = [work.openLibraryWorkID, work.googleBooksVolumeID, o.edition?.isbn].compactMap { $0 }.joined(separator: ", ")
        var line = head + "\(work.title) — from \(o.enrichmentStatus.provider ?? "?")" + (ids.isEmpty ? "" : " (\(ids))")
        if let d = o.duplicateOf { line += "; same book as " + d.map { "#\($0)" }.joined(separator: ", ") }
        return line
    }
}
